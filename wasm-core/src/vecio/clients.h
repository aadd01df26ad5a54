// Clients: the open-loop load generators (25 Atom clients in the paper, one connection
// each; thesis §7.4.1). Each client's token bucket fills as a Poisson process of rate
// load / (G × clients) tokens/s from its own seeded stream; one token issues one whole G-key
// multiget (digest §7 gap 3: the lab's choice), keys uniform over the preloaded table. The
// client's own stack costs half of `client_ns` before the request leaves and half after the
// reply's last frame arrives. Replies are ACKed per connection once per `ack_delay` window
// (delayed, combined ACKs: a burst of replies costs the server one ACK). Latency is measured
// from the token to the reply's delivery; the RPC is then forgotten.
#ifndef FAWNLAB_VECIO_CLIENTS_H_
#define FAWNLAB_VECIO_CLIENTS_H_

#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "sim/rng.h"
#include "sim/simulator.h"
#include "vecio/rpc.h"
#include "vecio/system.h"

namespace fawnlab::vecio {

class Clients {
 public:
  using ToServer = std::function<void(const Packet&)>;
  using OnComplete = std::function<void(sim::SimTime done, sim::SimDuration latency, int keys)>;
  Clients(sim::Simulator* sim, const SystemConfig* config, const HostProfile* profile, uint64_t seed, Counters* counters,
          ToServer to_server);

  void Start();
  void Stop();
  // The rate or width changed: every client redraws its next token.
  void Restart();
  // A reply frame reaches its client.
  void OnFrame(const Packet& p);
  void set_on_complete(OnComplete fn) { on_complete_ = std::move(fn); }
  const std::map<uint64_t, std::unique_ptr<Rpc>>& in_flight() const { return in_flight_; }

 private:
  void Schedule(int c);
  void Issue(int c);
  sim::Simulator* sim_;
  const SystemConfig* config_;
  const HostProfile* profile_;
  Counters* counters_;
  ToServer to_server_;
  OnComplete on_complete_;
  std::vector<sim::Rng> rng_;
  std::vector<bool> ack_pending_;
  std::map<uint64_t, std::unique_ptr<Rpc>> in_flight_;
  uint64_t next_id_ = 1;
  uint64_t gen_ = 0;
  bool running_ = false;
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_CLIENTS_H_
