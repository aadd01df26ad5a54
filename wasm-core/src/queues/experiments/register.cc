// The Queues lab's experiments: the queueing primer every later lab leans on.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeQueuesMm1();
Experiment MakeQueuesClosedLoop();
Experiment MakeQueuesBatching();

void RegisterQueuesExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeQueuesMm1());
  out->push_back(MakeQueuesClosedLoop());
  out->push_back(MakeQueuesBatching());
}

}  // namespace fawnlab
