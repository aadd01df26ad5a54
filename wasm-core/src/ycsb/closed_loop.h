// The CONA thesis' YCSB macrobenchmark method (§3.2.2), the part every lab's runner shares
// (cona/runner.h on the CONA store, stores/runner.h on any kv/ store): a load phase (records
// 0..n-1 put in order, version 0) then a run phase (operations from a Generator), each a
// closed loop keeping `clients` operations outstanding on the store's simulator.
//
// ClosedLoop runs one phase. Every put's value is ValueFor(record, version); every read is
// checked against the version it must see: a missing or wrong value, or a put or get that
// fails or is refused, fails the phase (Internal, naming the record where it has one). A
// read-modify-write reads, then writes the next version, and weighs 2 operations when the
// phase counts it so (RunConfig::rmw_counts_two), else 1. Progress: a fraction from p0 to p1
// every 2,048 simulator steps; returning false cancels (Cancelled). A simulator with nothing
// left to do before the phase's end is Internal ("stalled").
// A subclass reaches its store (StorePut/StoreGet/StoreScan: a scan's check is the lab's),
// sees writes and reads complete (OnWriteDone/OnReadDone), and keeps its own samples and
// totals (Begin; Sample every `sample_every` completed operations and once at the end unless
// the last sample fell there; Finish with the operation counts): the metrics are the lab's.
//
// PlanRun checks a RunConfig (the workload's id, 1..1024 clients) and sizes its phases;
// RunPhases runs them in order: the load, the cold start if asked, the run (RunPhasesInto:
// into a lab's load and run totals and samples).
#ifndef FAWNLAB_YCSB_CLOSED_LOOP_H_
#define FAWNLAB_YCSB_CLOSED_LOOP_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/simulator.h"
#include "ycsb/generator.h"
#include "ycsb/workload.h"

namespace fawnlab::ycsb {

struct RunConfig {
  std::string workload = "a";  // YCSB core workload id (FindWorkload)
  uint64_t operations = 0;     // run phase; 0: as many as the machine's records (thesis: 25M on 25M)
  int clients = 1;             // operations outstanding (closed loop)
  uint64_t sample_every = 0;   // 0: operations / 250
  bool load = true;            // false: the machine's store already holds records 0..n-1
  bool run = true;             // false: the load phase only
  uint64_t seed = 1;           // the generator's
  // Between the phases: wait for the store's background work, sync and empty the page cache
  // (the machine's DropCaches), so the run starts cold. false: the run follows the load at
  // once, its merges still going and its pages cached.
  bool cold_start = false;
  // The thesis counts F's 25M operations as store operations: a read-modify-write is two (a read
  // and a write), so "only about 1/3 of operations are writes" and "a little over 4 million
  // fewer entries are inserted" than A (§3.2.2). false: YCSB's count (a RMW is one).
  bool rmw_counts_two = true;
};

// The operations of a phase, by kind.
struct OpCounts {
  // ops: operations completed, a read-modify-write counted as RunConfig::rmw_counts_two says.
  uint64_t ops = 0, reads = 0, writes = 0, updates = 0, inserts = 0, rmws = 0, scans = 0;
  uint64_t not_found = 0;  // reads of a record that was never inserted (none expected)
};

// One phase, as RunPhases hands it to a lab's runner.
struct PhaseSpec {
  Generator* gen = nullptr;    // null: the load phase
  uint64_t total = 0;          // operations
  uint64_t sample_every = 1;
  double p0 = 0, p1 = 1;       // progress at the phase's start and end
  bool rmw_counts_two = false;
};

class ClosedLoop {
 public:
  using Done = std::function<void(const Status&)>;
  using GetDone = std::function<void(const Status&, std::string value)>;

  // `versions`: each record's version, shared by the phases of a run (grown as records appear).
  ClosedLoop(sim::Simulator* sim, std::vector<uint32_t>* versions, uint32_t key_bytes, uint32_t value_bytes,
             int clients, const PhaseSpec& spec, const std::function<bool(double)>& progress);
  virtual ~ClosedLoop() = default;
  ClosedLoop(const ClosedLoop&) = delete;
  ClosedLoop& operator=(const ClosedLoop&) = delete;

  Status Run();

 protected:
  // The store's calls: Ok if it took the operation (then `done` runs once), else why not.
  virtual Status StorePut(uint64_t record, const std::string& key, const std::string& value, Done done) = 0;
  virtual Status StoreGet(const std::string& key, GetDone done) = 0;
  // `done` gets Ok, or the failure as the phase should report it.
  virtual Status StoreScan(uint64_t record, const std::string& key, int length, Done done) = 0;
  // A put or a checked get completed, issued at `issued`.
  virtual void OnWriteDone(uint64_t record, sim::SimTime issued) {}
  virtual void OnReadDone(sim::SimTime issued) {}
  virtual void Begin() = 0;
  virtual void Sample(uint64_t completed) = 0;
  virtual void Finish(const OpCounts& counts) = 0;

  sim::Simulator* sim() const { return sim_; }
  std::string Key(uint64_t r) const;
  std::string Value(uint64_t r, uint32_t version) const;
  uint32_t& Version(uint64_t r);

 private:
  bool ok() const { return failure_.ok(); }
  double Fraction() const;
  void Fail(Status s);
  void Issue();
  void Write(uint64_t r, std::function<void()> then);
  void Read(uint64_t r, std::function<void()> then);
  void Completed(uint64_t weight);
  void TakeSample();

  sim::Simulator* sim_;
  std::vector<uint32_t>* versions_;
  uint32_t key_bytes_, value_bytes_;
  int clients_;
  PhaseSpec spec_;
  const std::function<bool(double)>& progress_;
  uint64_t rmw_weight_;
  uint64_t issued_ = 0, completed_ = 0, next_sample_ = 0;
  bool sampled_ = false;
  uint64_t sampled_at_ = 0;  // completed operations at the last sample
  Status failure_;
  OpCounts counts_;
};

// The phases a RunConfig asks for on a store of `records` records.
struct RunPlan {
  Workload workload;
  uint64_t records = 0;
  uint64_t load = 0;  // the load phase's operations (0: none)
  uint64_t ops = 0;   // the run phase's (0: none)
};
StatusOr<RunPlan> PlanRun(const RunConfig& c, uint64_t records);

// Runs `plan`'s phases through `phase` (the lab's ClosedLoop, which keeps its results):
// the load, then `cold_start` if c.cold_start and a run follows, then the run. Stops at the
// first error.
Status RunPhases(const RunConfig& c, const RunPlan& plan, const std::function<Status(const PhaseSpec&)>& phase,
                 const std::function<Status()>& cold_start);

// RunPhases into a lab's run `out` (its members load, run, load_samples and samples):
// make(spec, totals, samples) gives the lab's ClosedLoop for a phase, writing there.
template <class Out, class Make>
Status RunPhasesInto(const RunConfig& c, const RunPlan& plan, Out* out, const Make& make,
                     const std::function<Status()>& cold_start) {
  return RunPhases(
      c, plan,
      [&](const PhaseSpec& p) {
        const bool load = p.gen == nullptr;
        return make(p, load ? &out->load : &out->run, load ? &out->load_samples : &out->samples).Run();
      },
      cold_start);
}

}  // namespace fawnlab::ycsb

#endif  // FAWNLAB_YCSB_CLOSED_LOOP_H_
