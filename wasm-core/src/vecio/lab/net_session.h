// NetSession ("vector.net"): one networked FAWN-KV back-end on the NVM device under open-loop
// clients (vecio::VectorSystem, vecio/system.h), live, for the Vector I/O lab's pipeline view
// (contract: web/src/labs/vector/net/netTypes.ts; docs/vector/net-view.md).
//
// The config is the system's (multiget G, multiread R, pattern, queue timeout, offered load,
// clients, cores, host profile, keys and the network's knobs); the live fields — load_per_s,
// multiget, multiread, pattern, queue_timeout_us — go to VectorSystem::Reconfigure (new RPCs
// use them), the others start a new session. The clients start at time 0.
//
// What the session records as the system runs: every completed RPC's end-to-end latency (the
// last kWindowNs), a sample of the cumulative counters, per-core busy time and the DMA
// channels' occupancy every kSampleNs, and an operating point (throughput, p50, p99) every
// kTrailNs. SnapshotJson() derives from them rates over the recent window of virtual time
// (offered and completed lookups/s, RPCs, packets, NIC and storage interrupts, device
// commands per second), the latency percentiles, core utilisation by cost kind (cores) and
// core-µs per lookup by kind, per-core busy, per-connection queue depths, each DMA channel's
// occupancy, the RPCs in flight (stage, keys, connection, channel, age; the first
// kMaxListed), RPCs and keys per stage, and the trail of operating points.
//
// One operation: `trace` runs virtual time until the next RPC issued after now is answered and
// returns the stages it passed through with the time it entered each (bounded: kTraceBudget
// events, one virtual second).
// Deterministic: the same config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_VECIO_LAB_NET_SESSION_H_
#define FAWNLAB_VECIO_LAB_NET_SESSION_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "registry/sessions.h"
#include "sim/simulator.h"
#include "vecio/system.h"

namespace fawnlab::vecio {

class NetSession : public LabSession, private sim::EventHandler {
 public:
  static constexpr sim::SimDuration kSampleNs = 100 * sim::kUs;  // counters and channel occupancy
  static constexpr sim::SimDuration kWindowNs = 20 * sim::kMs;   // the rates' and percentiles' window
  static constexpr sim::SimDuration kTrailNs = 20 * sim::kMs;    // one operating point per window
  static constexpr size_t kTrailPoints = 60;
  static constexpr size_t kMaxListed = 240;                      // in-flight RPCs listed
  static constexpr uint64_t kTraceBudget = 5'000'000;            // events a trace may run

  // The config's schema, its defaults from SystemConfig{} and its choices from HostProfiles().
  static std::vector<ParamSpec> Schema();
  static const std::vector<std::string>& LiveFields();
  // The registry's factory: `config` has every field of Schema(); a config VectorSystem
  // refuses comes back naming the field.
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  // CreateSession("vector.net", ...) as a NetSession.
  static StatusOr<std::unique_ptr<NetSession>> Create(const std::string& config_json, uint64_t seed);
  ~NetSession() override;

  std::string SnapshotJson() override;
  VectorSystem& system() { return *system_; }
  sim::SimTime now() const { return sim_.now(); }

 protected:
  sim::Simulator* simulator() override { return &sim_; }
  StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue& op) override;
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;

 private:
  struct Done {
    sim::SimTime t;
    sim::SimDuration latency;
    int keys;
  };
  struct Sample {
    sim::SimTime t;
    Counters counters;
    std::vector<sim::SimDuration> core_busy;  // cumulative, per core
    std::vector<uint64_t> channel_hits;       // cumulative samples with a command on the channel
  };
  struct Point {
    sim::SimTime t;
    double offered, throughput, p50_us, p99_us;
  };
  struct Window {
    double seconds = 0;
    const Sample* from = nullptr;  // null: nothing has run yet
  };
  struct Latency {
    size_t rpcs = 0;
    double p50_us = 0, p99_us = 0, mean_us = 0;
  };

  NetSession() = default;
  static SystemConfig FromParams(const ParamValues& p);
  void OnEvent(sim::Simulator& sim, uint64_t tag) override;  // the sample tick
  void TakeSample();
  Window WindowNow() const;
  Latency LatencyNow() const;
  StatusOr<std::string> Trace();

  sim::Simulator sim_;
  std::unique_ptr<VectorSystem> system_;
  std::deque<Done> done_;        // the last kWindowNs's completed RPCs
  std::deque<Sample> samples_;   // the last kWindowNs's samples (and one before)
  std::deque<Point> trail_;
  std::vector<uint64_t> channel_hits_;
  sim::SimTime next_point_ = kTrailNs;
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_LAB_NET_SESSION_H_
