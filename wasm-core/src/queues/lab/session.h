// QueueSession: a live k-server FIFO queue that the Queues lab page steps and draws.
//
// The page owns the pace: Advance(dt) runs the model through dt of virtual time (bounded by
// an event budget), Step() runs exactly one event, and Snapshot() returns plain JSON — the
// jobs waiting, the job on each server with its start and finish times, the most recent
// departures, and running counters (throughput, response-time percentiles, time-averaged
// occupancy for Little's law, utilisation) beside the M/M/k prediction for the current load.
// Arrival rate and service time can change while it runs (from the next arrival / service
// start on); a different number of servers needs a new session.
//
// Config JSON: {"servers": 1..16, "arrival_rate_per_s": >0, "service_us": >0,
//               "service": "exponential"|"deterministic", "queue_limit": 1..10000}
// Registered as "queues" (queues/lab/schema.cc); the base (registry/sessions.h) resolves the
// config and patches against Schema() and runs the Advance/Step loop.
// Deterministic: the same config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_QUEUES_LAB_SESSION_H_
#define FAWNLAB_QUEUES_LAB_SESSION_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "registry/sessions.h"
#include "sim/histogram.h"
#include "sim/queueing.h"
#include "sim/simulator.h"

namespace fawnlab::queues {

class QueueSession : public LabSession, public sim::JobListener {
 public:
  struct Config {
    int servers = 1;
    double arrival_rate_per_s = 50000;
    double service_us = 10;
    sim::ServiceTime::Kind service_kind = sim::ServiceTime::Kind::kExponential;
    int queue_limit = 1000;
  };
  static constexpr int kMaxServers = 16;
  static constexpr int kRecentDepartures = 48;
  static constexpr int kQueueShown = 200;

  // The config's schema (the session registry's and Create's).
  static std::vector<ParamSpec> Schema();
  // The registry's factory: `config` has every field of Schema().
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  // CreateSession("queues", ...) as a QueueSession (missing fields take the defaults above).
  static StatusOr<std::unique_ptr<QueueSession>> Create(const std::string& config_json, uint64_t seed);

  // Reconfigure changes arrival_rate_per_s and/or service_us/service (the live fields).
  std::string SnapshotJson() override;
  uint64_t version() override { return version_; }

  sim::SimTime now() const { return sim_.now(); }
  const Config& config() const { return config_; }

  void OnDone(sim::Simulator& sim, const sim::Job& job) override;
  void OnDropped(sim::Simulator& sim, const sim::Job& job) override;

 protected:
  sim::Simulator* simulator() override { return &sim_; }
  void Advanced() override { ++version_; }
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;

 private:
  QueueSession(const Config& config, uint64_t seed);
  static Config FromParams(const ParamValues& p);

  struct Departure {
    uint64_t id;
    int server;
    sim::SimTime arrival, start, done;
  };

  Config config_;
  sim::Simulator sim_;
  std::unique_ptr<sim::FifoStation> station_;
  std::unique_ptr<sim::PoissonSource> source_;
  sim::LogHistogram response_;
  std::deque<Departure> recent_;
  uint64_t completed_ = 0, dropped_ = 0;
  uint64_t version_ = 0;
};

}  // namespace fawnlab::queues

#endif  // FAWNLAB_QUEUES_LAB_SESSION_H_
