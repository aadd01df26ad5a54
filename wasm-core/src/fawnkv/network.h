// Network: the switched Ethernet between FAWN-KV's front-ends and back-ends, in virtual time.
//
// Each endpoint has a full-duplex link of its own rate (SOSP'09 §4: 100 Mbit/s on each Alix
// back-end, 1 Gbit/s on the front-end). A message is serialised onto the sender's link (FIFO
// behind what it already sends), crosses the switch and both network stacks in `hop_ns`, then
// is serialised off the receiver's link (FIFO behind what it already receives) and delivered.
// So messages between one pair arrive in the order they were sent. A down endpoint (a failed
// node: fail-stop) neither sends nor receives: its messages are dropped, silently, as a dead
// machine's would be. Every send is shown to an optional observer (the lab's message view).
// Tests may add a delay per link (set_link_delay): messages of one pair still arrive in order,
// but a message relayed over two fast links can then overtake one sent earlier over a slow
// direct link, as on real TCP connections (one per pair, unordered between pairs).
// Deterministic; single-threaded.
#ifndef FAWNLAB_FAWNKV_NETWORK_H_
#define FAWNLAB_FAWNKV_NETWORK_H_

#include <cstdint>
#include <functional>
#include <map>
#include <utility>

#include "fawnkv/message.h"
#include "fawnkv/transport.h"
#include "sim/simulator.h"

namespace fawnlab::fawnkv {

struct NetOptions {
  double backend_bps = 100e6;            // SOSP'09 §4: 100 Mbit/s Ethernet (Alix 3c2)
  double frontend_bps = 1e9;             // SOSP'09 §3.4.1, §4: the front-end's 1 Gbit/s link
  sim::SimDuration hop_ns = 70 * sim::kUs;  // switch + both kernels' stacks (estimate, docs/decisions.md)
};

class Network : public Transport {
 public:
  using Handler = std::function<void(Message&)>;
  using Observer = std::function<void(const Message&, sim::SimTime sent, sim::SimTime arrive)>;
  // Extra time a message from `from` to `to` spends crossing the switch (0: none).
  using LinkDelay = std::function<sim::SimDuration(Endpoint from, Endpoint to)>;

  Network(sim::Simulator* sim, NetOptions o) : sim_(sim), o_(o) {}

  void AddEndpoint(Endpoint e, Handler h);
  void SetUp(Endpoint e, bool up) override;
  bool up(Endpoint e) const override;
  // Sends `m` (m.from, m.to set; m.bytes computed here). Dropped if either end is down.
  void Send(Message m) override;

  void set_observer(Observer o) { observer_ = std::move(o); }
  // Tests only: the simulated cluster never sets one (the switch's hop is the same for all).
  void set_link_delay(LinkDelay d) { link_delay_ = std::move(d); }
  // Nanoseconds endpoint e's link spent sending and receiving, and bytes it sent.
  sim::SimDuration busy_ns(Endpoint e) const;
  uint64_t bytes_sent(Endpoint e) const;
  const NetOptions& options() const { return o_; }

 private:
  struct Port {
    Handler handler;
    double bps = 0;
    bool up = true;
    sim::SimTime tx_free = 0, rx_free = 0;
    sim::SimDuration busy = 0;
    uint64_t sent = 0;
  };
  sim::SimDuration WireNs(const Port& p, uint32_t bytes) const;

  sim::Simulator* sim_;
  NetOptions o_;
  std::map<Endpoint, Port> ports_;
  Observer observer_;
  LinkDelay link_delay_;
  std::map<std::pair<Endpoint, Endpoint>, sim::SimTime> link_last_;  // with a delay: each pair stays FIFO
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_NETWORK_H_
