// The Vector I/O lab's net experiments (listed in order; none yet).
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

void RegisterVectorNetExperiments(std::vector<Experiment>* out) { (void)out; }

}  // namespace fawnlab
