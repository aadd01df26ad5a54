// The Queues lab's session in the registry (registry/sessions.h): its schema and factory.
#include "queues/lab/session.h"
#include "registry/sessions.h"

namespace fawnlab {

void RegisterQueuesSessions(std::vector<SessionInfo>* out) {
  using queues::QueueSession;
  SessionInfo s;
  s.id = "queues";
  s.lab = "queues";
  s.title = "Queue";
  s.summary = "A k-server FIFO queue with Poisson arrivals, drawn job by job, beside the M/M/k (or M/D/1) prediction.";
  s.noun = "the queue";
  s.params = QueueSession::Schema();
  s.live = {"arrival_rate_per_s", "service_us", "service"};
  s.create = QueueSession::New;
  out->push_back(std::move(s));
}

}  // namespace fawnlab
