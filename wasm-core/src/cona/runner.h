// RunYcsb: the thesis' macrobenchmark method (§3.2.2) on a Machine: a load phase (records
// 0..n-1 put in order: "construct 25M pairs") then a run phase (`operations` operations of a
// YCSB workload), each a closed loop keeping `clients` operations outstanding (the thesis: one
// client thread), as ycsb/closed_loop.h runs them (RunConfig is its). Every put's value is
// ycsb::ValueFor(record, version) and every read is checked against the version it must see:
// a wrong or missing value fails the run (Internal). A scan is only timed, not checked.
//
// Rates. write IOPS = writes / foreground time in writes (StoreStats::insert_ns), read IOPS =
// reads / foreground time in reads (read_ns): each kind's rate over the time the client spent
// in it. That is how the thesis can report workload A at ~150K writes/s and ~20K reads/s at
// once (Figs 3.13/3.14): over wall time, a client alternating the two would do
// 1 / (0.5/150K + 0.5/20K) = 35K operations/s, 17.6K writes/s. ops_per_s is the wall rate.
//
// Samples every `sample_every` completed operations of a phase (0: the phase's operations /
// 250, as the thesis sampled every 100K of 25M): instantaneous (this sample) and cumulative
// (since the phase began) write and read IOPS, merge moves, merge and exposed merge time,
// levels and the page cache's hit ratio. Progress: fractions in [0, 1] over both phases;
// returning false cancels (Status::Cancelled).
#ifndef FAWNLAB_CONA_RUNNER_H_
#define FAWNLAB_CONA_RUNNER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "cona/machine.h"
#include "ycsb/closed_loop.h"

namespace fawnlab::cona {

using RunConfig = ycsb::RunConfig;  // ycsb/closed_loop.h: the phases, the clients, the seed

struct YcsbSample {
  uint64_t ops = 0;            // completed in the phase so far
  double t_s = 0;              // virtual seconds since the phase began
  double write_iops = 0, read_iops = 0;          // this sample
  double cum_write_iops = 0, cum_read_iops = 0;  // since the phase began
  uint64_t merge_moves = 0;                      // this sample
  double merge_ms = 0, exposed_merge_ms = 0;     // this sample
  uint64_t flips = 0;                            // this sample: structural flips (links)
  int levels = 0;
  double cache_hit_ratio = 0;                    // this sample's page lookups
};

// ycsb::OpCounts: the operations by kind (a read-modify-write counted as rmw_counts_two says).
struct PhaseTotals : ycsb::OpCounts {
  double seconds = 0;          // virtual wall time of the phase
  double read_s = 0, write_s = 0;  // foreground time in reads / in writes
  double write_iops = 0, read_iops = 0, ops_per_s = 0;
  uint64_t merges = 0, merge_moves = 0, induces = 0, flips = 0;
  double merge_s = 0, exposed_merge_s = 0, induce_s = 0;  // induce_s: foreground time inducing
  uint64_t cache_hits = 0, cache_misses = 0;
  double cache_hit_ratio = 0;
  uint64_t flash_reads = 0;         // entry reads the store issued
  uint64_t device_read_bytes = 0, device_write_bytes = 0;  // host bytes at the flash device
  uint64_t user_bytes = 0, store_bytes_written = 0;
  int levels = 0;                   // at the phase's end
};

struct YcsbRun {
  PhaseTotals load, run;
  std::vector<YcsbSample> load_samples, samples;
};

StatusOr<YcsbRun> RunYcsb(Machine* m, const RunConfig& c, const std::function<bool(double)>& progress = {});

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_RUNNER_H_
