// RunYcsb: the CONA thesis' macrobenchmark method (§3.2.2) on any store of the lab, in the
// closed loop cona/runner.h runs on the CONA store (ycsb/closed_loop.h): a load phase
// (records 0..n-1 put in order) then a run phase (`operations` operations of a YCSB
// workload), each keeping `clients` operations outstanding (the thesis: one client
// thread). Every put's value is
// ycsb::ValueFor(record, version) and every read is checked against the version it must see:
// a wrong or missing value fails the run (Internal); a scan must return exactly the records
// from its key on, in key order, at the versions the writes issued before it gave them.
// Workload E on a store without scans is an InvalidArgument naming the store.
//
// Rates, as cona/runner.h: write IOPS = writes / foreground time in writes
// (KvCounters::write_ns), read IOPS = reads / foreground time in reads (read_ns); ops_per_s
// is the wall rate; a read-modify-write counts two operations (rmw_counts_two). Latency
// percentiles come from a sim::LogHistogram of each operation's call-to-completion time
// (a RMW's read and write separately). DRAM per key: dram_bytes at the phase's end over the
// records present. Amplification: store_wa = store bytes written / user bytes; ftl_wa = NAND
// bytes programmed / host bytes written to the flash (over the phase). stall_fraction =
// stall_ns / write_ns. Joules from Machine::Joules() over the phase.
// Samples every `sample_every` completed operations of a phase (0: operations / 250).
// Progress: fractions in [0, 1] over both phases; returning false cancels (Cancelled).
#ifndef FAWNLAB_STORES_RUNNER_H_
#define FAWNLAB_STORES_RUNNER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "ycsb/closed_loop.h"
#include "stores/machine.h"

namespace fawnlab::stores {

using RunConfig = ycsb::RunConfig;  // the same fields and conventions as cona::RunYcsb's

struct YcsbSample {
  uint64_t ops = 0;            // completed in the phase so far
  double t_s = 0;              // virtual seconds since the phase began
  double write_iops = 0, read_iops = 0;          // this sample
  double cum_write_iops = 0, cum_read_iops = 0;  // since the phase began
  double cache_hit_ratio = 0;                    // this sample's page lookups
};

// ycsb::OpCounts: the operations by kind (a read-modify-write counted as rmw_counts_two says).
struct PhaseTotals : ycsb::OpCounts {
  double seconds = 0, read_s = 0, write_s = 0;
  double write_iops = 0, read_iops = 0, ops_per_s = 0;
  double read_p50_us = 0, read_p99_us = 0, write_p50_us = 0, write_p99_us = 0;
  uint64_t keys = 0;                 // records present at the phase's end
  uint64_t dram_bytes = 0;           // the store's, at the phase's end
  double dram_bytes_per_key = 0;
  uint64_t lookup_reads = 0;
  double lookup_reads_per_get = 0;
  uint64_t user_bytes = 0, store_bytes_written = 0, store_bytes_read = 0;
  double store_wa = 0;
  uint64_t device_read_bytes = 0, device_write_bytes = 0, nand_write_bytes = 0;
  double ftl_wa = 0;
  double stall_s = 0, stall_fraction = 0, background_s = 0, foreground_cpu_s = 0;
  uint64_t background_jobs = 0;
  uint64_t cache_hits = 0, cache_misses = 0;
  double cache_hit_ratio = 0;
  double joules = 0, joules_per_op = 0;
};

struct YcsbRun {
  PhaseTotals load, run;
  std::vector<YcsbSample> load_samples, samples;
};

StatusOr<YcsbRun> RunYcsb(Machine* m, const RunConfig& c, const std::function<bool(double)>& progress = {});

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_RUNNER_H_
