// The SRCMap lab's prototype experiments (thesis §3.7.1 and the day-long Figs 3.10-3.11 on the
// same full-rate machinery; docs/srcmap/experiments-prototype.md), listed in order.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeSrcmapTimeline();
Experiment MakeSrcmapResponse();
Experiment MakeSrcmapDay();
Experiment MakeSrcmapPerDisk();

void RegisterSrcmapPrototypeExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeSrcmapTimeline());
  out->push_back(MakeSrcmapResponse());
  out->push_back(MakeSrcmapDay());
  out->push_back(MakeSrcmapPerDisk());
}

}  // namespace fawnlab
