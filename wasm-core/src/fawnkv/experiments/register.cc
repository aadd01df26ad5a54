// The FAWN-KV lab's experiments: the cluster of wimpy nodes, and when it pays (TCO).
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeFawnkvTco();
Experiment MakeFawnkvCluster();
Experiment MakeFawnkvJoin();
Experiment MakeFawnkvLatency();
Experiment MakeFawnkvPutLatency();
Experiment MakeFawnkvHotspot();

void RegisterFawnkvExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeFawnkvCluster());
  out->push_back(MakeFawnkvJoin());
  out->push_back(MakeFawnkvLatency());
  out->push_back(MakeFawnkvPutLatency());
  out->push_back(MakeFawnkvHotspot());
  out->push_back(MakeFawnkvTco());
}

}  // namespace fawnlab
