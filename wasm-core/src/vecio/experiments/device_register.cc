// The Vector I/O lab's device experiments (listed in order; none yet).
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

void RegisterVectorDeviceExperiments(std::vector<Experiment>* out) { (void)out; }

}  // namespace fawnlab
