// LiveStream: the open-loop YCSB stream a live session offers its store or stores (cona/lab,
// stores/lab), on the session's simulator:
//   - the workload: a CoreWorkloads() id, whose Generator runs over the records so far and is
//     rebuilt by Rebuild (build i seeded from stream 100 + i of the session's seed), or the
//     session's load-only id (no generator: the session puts new records in order);
//   - Poisson arrivals at `rate` ops/s (none at 0): each gap exponential from stream 1 of the
//     seed, at least 1 ns, an event to the session's handler tagged (token << 2) | arrival_tag.
//     ScheduleNext schedules the next one (the session calls it after handling an arrival);
//     an arrival whose token is stale (Current false) belongs to an old rate or a stop.
// Stop() (a crash) drops the pending arrival and schedules none until Start(). A live patch
// (Reconfigure) that changes the workload rebuilds the generator; one that changes the rate
// drops the pending arrival and schedules the next at the new rate.
#ifndef FAWNLAB_YCSB_LIVE_STREAM_H_
#define FAWNLAB_YCSB_LIVE_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>

#include "base/params.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "ycsb/generator.h"

namespace fawnlab::ycsb {

class LiveStream {
 public:
  LiveStream(uint64_t seed, std::string load_only_id, std::string workload, double rate);

  // Where arrivals go; before the first ScheduleNext.
  void Attach(sim::Simulator* sim, sim::EventHandler* handler, uint64_t arrival_tag);

  const std::string& workload() const { return workload_; }
  double rate() const { return rate_; }
  Generator* generator() const { return generator_.get(); }  // null: the load-only id

  // The workload's generator anew over `records` records.
  void Rebuild(uint64_t records);
  void ScheduleNext();
  bool Current(uint64_t tag) const { return (tag >> 2) == token_; }
  void Stop();
  void Start();
  // A live patch's "workload" and "rate_ops_per_s" (their new values `workload`, `rate`).
  void Reconfigure(const ParamValues& patch, const std::string& workload, double rate, uint64_t records);

 private:
  uint64_t seed_;
  std::string load_only_id_, workload_;
  double rate_;
  sim::Rng arrival_rng_;
  std::unique_ptr<Generator> generator_;
  uint64_t builds_ = 0;
  uint64_t token_ = 0;
  bool stopped_ = false;
  sim::Simulator* sim_ = nullptr;
  sim::EventHandler* handler_ = nullptr;
  uint64_t arrival_tag_ = 0;
};

}  // namespace fawnlab::ycsb

#endif  // FAWNLAB_YCSB_LIVE_STREAM_H_
