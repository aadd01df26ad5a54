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

Nic::Nic(sim::Simulator* sim, Host* host, const HostProfile* profile, sim::SimDuration coalesce_ns, Deliver deliver,
         uint64_t* nic_irqs, uint64_t* packets_in)
    : sim_(sim), host_(host), profile_(profile), coalesce_ns_(coalesce_ns), deliver_(std::move(deliver)),
      nic_irqs_(nic_irqs), packets_in_(packets_in) {}

void Nic::Arrive(const Packet& p) {
  ring_.push_back(p);
  if (armed_) return;
  armed_ = true;
  sim_->Schedule(sim_->now() + coalesce_ns_, [this] { Handle(true); });
}

void Nic::Handle(bool interrupt) {
  auto batch = std::make_shared<std::vector<Packet>>();
  host_->Interrupt(
      [this, batch, interrupt] {
        batch->assign(ring_.begin(), ring_.end());
        ring_.clear();
        Charges c;
        if (interrupt) {
          c.Add(CostKind::kNicIrq, 1, profile_->nic_irq_ns);
          ++*nic_irqs_;
        }
        c.Add(CostKind::kTcp, static_cast<uint32_t>(batch->size()), profile_->tcp_ns);
        *packets_in_ += batch->size();
        return c;
      },
      [this, batch] {
        for (const Packet& p : *batch) deliver_(p);
        if (ring_.empty()) {
          armed_ = false;
        } else {
          Handle(false);
        }
      });
}

}  // namespace fawnlab::vecio
