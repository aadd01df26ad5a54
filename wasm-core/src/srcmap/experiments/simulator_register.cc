// The SRCMap lab's simulator and overhead experiments (thesis §3.3 and §3.7.2-3.7.3): the
// workload beside the thesis's traces, the metadata's size, listed in order.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeSrcmapWorkload();
Experiment MakeSrcmapMetadata();

void RegisterSrcmapSimulatorExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeSrcmapWorkload());
  out->push_back(MakeSrcmapMetadata());
}

}  // namespace fawnlab
