// The CONA lab's ycsb experiments (see register.cc).
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

void RegisterConaYcsbExperiments(std::vector<Experiment>* out) { (void)out; }

}  // namespace fawnlab
