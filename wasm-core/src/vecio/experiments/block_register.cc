// The Vector I/O lab's block experiments (listed in order; none yet).
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

void RegisterVectorBlockExperiments(std::vector<Experiment>* out) { (void)out; }

}  // namespace fawnlab
