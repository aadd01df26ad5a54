// The SRCMap lab's simulator and overhead experiments (thesis §3.3 and §3.7.2-3.7.3): the
// replica-space sweep (Fig 3.12), power against load factor (Fig 3.13), the workload beside
// the thesis's traces (Figs 3.1-3.3) and the metadata's size (§3.7.3), listed in order.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeSrcmapOverprovision();
Experiment MakeSrcmapProportionality();
Experiment MakeSrcmapWorkload();
Experiment MakeSrcmapMetadata();

void RegisterSrcmapSimulatorExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeSrcmapOverprovision());
  out->push_back(MakeSrcmapProportionality());
  out->push_back(MakeSrcmapWorkload());
  out->push_back(MakeSrcmapMetadata());
}

}  // namespace fawnlab
