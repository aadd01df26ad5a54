#include "vecio/network.h"

#include <algorithm>
#include <utility>

namespace fawnlab::vecio {

int RequestPayload(int keys, int key_bytes) { return kThriftHeader + keys * (4 + key_bytes); }
int ReplyPayload(int keys, int value_bytes) { return kThriftHeader + keys * (8 + value_bytes); }

std::vector<uint32_t> Frames(int payload) {
  std::vector<uint32_t> out;
  do {
    const int seg = std::min(payload, kMss);
    out.push_back(static_cast<uint32_t>(seg + kFrameHeaders + kWireExtra));
    payload -= seg;
  } while (payload > 0);
  return out;
}

sim::SimTime Link::Send(sim::SimTime now, uint32_t bytes) {
  const sim::SimTime start = std::max(now, free_);
  free_ = start + static_cast<sim::SimDuration>(static_cast<double>(bytes) * ns_per_byte_ + 0.5);
  return free_ + one_way_ns_;
}

Nic::Nic(sim::Simulator* sim, Host* host, const HostProfile* profile, int queues, int first_thread,
         sim::SimDuration coalesce_ns, Deliver deliver, uint64_t* nic_irqs, uint64_t* packets_in)
    : sim_(sim), host_(host), profile_(profile), coalesce_ns_(coalesce_ns), deliver_(std::move(deliver)),
      nic_irqs_(nic_irqs), packets_in_(packets_in), first_thread_(first_thread), queues_(static_cast<size_t>(queues)) {}

void Nic::Arrive(const Packet& p) {
  const size_t q = static_cast<size_t>(p.conn) % queues_.size();
  queues_[q].ring.push_back(p);
  if (queues_[q].armed) return;
  queues_[q].armed = true;
  sim_->Schedule(sim_->now() + coalesce_ns_, [this, q] { Raise(q); });
}

size_t Nic::ring() const {
  size_t n = 0;
  for (const RxQueue& q : queues_) n += q.ring.size();
  return n;
}

void Nic::Raise(size_t q) { Handle(q, false); }

void Nic::Handle(size_t q, bool softirq) {
  auto batch = std::make_shared<std::vector<Packet>>();
  Host::Begin begin = [this, batch, q] {
    RxQueue& rx = queues_[q];
    batch->assign(rx.ring.begin(), rx.ring.end());
    rx.ring.clear();
    Charges c;
    c.Add(CostKind::kNicIrq, 1, profile_->nic_irq_ns);
    ++*nic_irqs_;
    c.Add(CostKind::kTcp, static_cast<uint32_t>(batch->size()), profile_->tcp_ns);
    *packets_in_ += batch->size();
    return c;
  };
  Host::End end = [this, batch, q] {
    for (const Packet& p : *batch) deliver_(p);
    if (queues_[q].ring.empty()) {
      queues_[q].armed = false;
    } else {
      Handle(q, true);  // packets that came while it ran: the ring's softirq thread, next
    }
  };
  if (softirq) {
    host_->Run(first_thread_ + static_cast<int>(q), std::move(begin), std::move(end));
  } else {
    host_->Interrupt(std::move(begin), std::move(end));
  }
}

}  // namespace fawnlab::vecio
