// The CONA lab's index and structure microbenchmarks (thesis §3.2.1), listed in order.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeConaTrieMemory();

void RegisterConaIndexExperiments(std::vector<Experiment>* out) { out->push_back(MakeConaTrieMemory()); }

}  // namespace fawnlab
