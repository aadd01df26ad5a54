#include "fawnkv/network.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace fawnlab::fawnkv {

void Network::AddEndpoint(Endpoint e, Handler h) {
  Port p;
  p.handler = std::move(h);
  p.bps = IsFrontEnd(e) ? o_.frontend_bps : o_.backend_bps;
  ports_[e] = std::move(p);
}

void Network::SetUp(Endpoint e, bool up) { ports_.at(e).up = up; }

bool Network::up(Endpoint e) const {
  auto it = ports_.find(e);
  return it != ports_.end() && it->second.up;
}

sim::SimDuration Network::WireNs(const Port& p, uint32_t bytes) const {
  return static_cast<sim::SimDuration>(static_cast<double>(bytes) * 8e9 / p.bps + 0.5);
}

void Network::Send(Message m) {
  auto from = ports_.find(m.from), to = ports_.find(m.to);
  assert(from != ports_.end() && to != ports_.end());
  if (!from->second.up || !to->second.up) return;
  m.bytes = WireBytes(m);
  Port& tx = from->second;
  const sim::SimTime start = std::max(sim_->now(), tx.tx_free);
  const sim::SimDuration wire = WireNs(tx, m.bytes);
  tx.tx_free = start + wire;
  tx.busy += wire;
  tx.sent += m.bytes;
  sim::SimTime at_switch = tx.tx_free + o_.hop_ns;
  if (link_delay_) {
    sim::SimTime& last = link_last_[{m.from, m.to}];
    at_switch = std::max(at_switch + link_delay_(m.from, m.to), last);
    last = at_switch;
  }
  // The receiving link is reserved when the message reaches it, so arrivals from different
  // senders queue in the order they arrive.
  const Endpoint dest = m.to;
  sim_->Schedule(at_switch, [this, dest, m = std::move(m)]() mutable {
    Port& rx = ports_.at(dest);
    if (!rx.up) return;
    const sim::SimDuration wire = WireNs(rx, m.bytes);
    const sim::SimTime start = std::max(sim_->now(), rx.rx_free);
    rx.rx_free = start + wire;
    rx.busy += wire;
    const sim::SimTime arrive = rx.rx_free;
    if (observer_) observer_(m, sim_->now() - o_.hop_ns - WireNs(ports_.at(m.from), m.bytes), arrive);
    sim_->Schedule(arrive, [this, dest, m = std::move(m)]() mutable {
      Port& p = ports_.at(dest);  // a message already on the wire arrives even if its sender has died
      if (p.up) p.handler(m);
    });
  });
}

sim::SimDuration Network::busy_ns(Endpoint e) const { return ports_.at(e).busy; }
uint64_t Network::bytes_sent(Endpoint e) const { return ports_.at(e).sent; }

}  // namespace fawnlab::fawnkv
