// The Vector I/O lab's device and scale experiments (listed in order).
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeVectorDevice();
Experiment MakeVectorLatencyWidth();
Experiment MakeVectorScale();
Experiment MakeVectorSyncLookups();

void RegisterVectorDeviceExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeVectorDevice());
  out->push_back(MakeVectorSyncLookups());
  out->push_back(MakeVectorLatencyWidth());
  out->push_back(MakeVectorScale());
}

}  // namespace fawnlab
