// The FAWN-KV lab's experiments: the cluster of wimpy nodes, and when it pays (TCO).
#include <vector>

#include "experiments/registry.h"

namespace fawnlab {

Experiment MakeFawnkvTco();

void RegisterFawnkvExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeFawnkvTco());
}

}  // namespace fawnlab
