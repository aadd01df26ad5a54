// The CONA lab's index experiments (see register.cc).
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

void RegisterConaIndexExperiments(std::vector<Experiment>* out) { (void)out; }

}  // namespace fawnlab
