// VectorSystem: one networked FAWN-KV back-end serving open-loop clients over 1 GbE (vector
// thesis Ch. 7 §7.4, SoCC'12 §5), the system the Vector I/O lab's net session and experiments
// drive. Clients issue G-key multigets (one token = one whole multiget, a documented choice:
// digest §7 gap 3); each RPC crosses the wire, the NIC (interrupt coalescing), kernel TCP, a
// recv() on its connection's thread, Thrift deserialisation, FAWN-DS lookups on the NVM device
// in multireads of R (direct, or through an intermediate queue per connection), then the reply
// path back. Every stage charges its own cost per event on the host's cores (host.h); the
// device is the real device::NvmDevice under a real fawnds::DataStore. Throughput and latency
// are what comes out of that queueing: there is no throughput formula anywhere.
//
// Deterministic: the same config and seed give the same run. Live changes (Reconfigure): load,
// G, R, pattern, timeout; new RPCs use them.
#ifndef FAWNLAB_VECIO_SYSTEM_H_
#define FAWNLAB_VECIO_SYSTEM_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/nvm.h"
#include "sim/simulator.h"
#include "vecio/costs.h"

namespace fawnlab::vecio {

enum class Pattern : uint8_t { kAuto, kQueue };  // auto: direct when G >= R (⌈G/R⌉ commands per RPC, in turn),
                                                 // the intermediate queue when G < R; kQueue: always the queue
const char* PatternName(Pattern p);              // "auto", "queue"

struct SystemConfig {
  int multiget = 1, multiread = 1;   // G and R, each in [1, 256]
  Pattern pattern = Pattern::kAuto;
  double queue_timeout_us = 0;       // 0: none; else a partly filled queue issues after this long
  double load_per_s = 50000;         // offered lookups/s, all clients together (a token = one G-key multiget)
  int clients = 25;                  // open-loop Atom clients, one connection (and server thread) each
  int cores = 0;                     // 0: the host profile's
  std::string host = "xeon-x5570";
  int keys = 65536;                  // records preloaded into FAWN-DS on the NVM device
  // The network (SoCC'12 §5.1: 1 GbE, 4 B values, 512 B reads, ~100 µs base latency).
  double link_gbps = 1;              // line rate of the server's port, each direction
  double base_rtt_us = 100;          // round trip on the wire (propagation and switching)
  int key_bytes = 20;                // 160-bit FAWN-KV keys
  int value_bytes = 4;               // value bytes in a reply
  int read_bytes = 512;              // bytes of the record FAWN-DS reads per key
  int nic_queues = 4;                // receive-side scaling: rx rings, each with its own interrupt
  double nic_coalesce_us = 10;       // the NIC raises its interrupt this long after the first packet of a burst
  double ack_delay_us = 40;          // the client ACKs the reply frames of a connection received within this window once
};

// Ok, or an InvalidArgument naming the field and its range.
Status Validate(const SystemConfig& c);

struct Counters {  // cumulative since Create
  uint64_t offered_keys = 0, completed_keys = 0, rpcs_done = 0, packets_in = 0, packets_out = 0, nic_irqs = 0,
           syscalls = 0, commands = 0, io_irqs = 0, wakeups = 0, queue_items = 0;
  std::array<uint64_t, kCostKinds> events{};            // cost events charged, per kind
  std::array<sim::SimDuration, kCostKinds> busy_ns{};   // core time charged, per kind
};

struct RpcView {
  uint64_t id;
  int conn;
  int keys;
  Stage stage;
  sim::SimTime since;
  int channel;  // -1 off device
};

class Server;
class Clients;
struct Wiring;

class VectorSystem {
 public:
  static StatusOr<std::unique_ptr<VectorSystem>> Create(sim::Simulator* sim, const SystemConfig& c, uint64_t seed);
  ~VectorSystem();

  void Start();                                     // the clients start issuing at sim->now()
  Status Reconfigure(const SystemConfig& c);        // live: load, G, R, pattern, timeout; others refused, named
  const SystemConfig& config() const { return config_; }
  const Counters& counters() const;
  int cores() const;
  sim::SimDuration core_busy_ns(int core) const;    // cumulative
  // Called once per completed RPC at the client: its keys and end-to-end latency.
  void set_on_complete(std::function<void(sim::SimTime done, sim::SimDuration latency, int keys)> fn);
  void ForEachInFlight(const std::function<void(const RpcView&)>& fn) const;  // RPCs issued, not yet answered
  int queue_depth(int conn) const;                  // keys waiting in a connection's intermediate queue
  const device::NvmDevice& device() const { return *device_; }
  // Stops issuing new RPCs (those in flight still finish); tests drain with it.
  void StopClients();

 private:
  VectorSystem(sim::Simulator* sim, const SystemConfig& c);
  sim::Simulator* sim_;
  SystemConfig config_;
  std::unique_ptr<device::NvmDevice> device_;
  std::unique_ptr<Wiring> wiring_;
  std::unique_ptr<Server> server_;
  std::unique_ptr<Clients> clients_;
  mutable Counters counters_;
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_SYSTEM_H_
