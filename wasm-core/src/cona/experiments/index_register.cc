// The CONA lab's index and structure microbenchmarks (thesis §3.2.1), listed in order.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeConaTrieMemory();
Experiment MakeConaTrieSpeed();
Experiment MakeConaBufferSize();
Experiment MakeConaMerges();

void RegisterConaIndexExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeConaTrieMemory());
  out->push_back(MakeConaTrieSpeed());
  out->push_back(MakeConaBufferSize());
  out->push_back(MakeConaMerges());
}

}  // namespace fawnlab
