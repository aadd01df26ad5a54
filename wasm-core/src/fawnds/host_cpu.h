// HostCpu: the back-end's one CPU core as a FIFO server of request-processing time, so that
// requests on a FAWN node pay for hashing, the index probe, system calls and key comparisons
// as well as for their I/O (SOSP'09 §4.1: "hash lookups, data copies, key comparisons").
//
// Costs are those of the prototype's AMD Geode LX at 500 MHz (128 KB L2, 32-byte lines),
// fitted to the in-memory rows of FAWN Table 2 (docs/experiments.md, fawnds.table2):
//   cost(request) = base + miss × (fixed_lines + ⌈record / line⌉) × line_ns,
// where miss = 0 while the store's working set (data + index) fits the L2 cache, else
// 1 − L2 / working set: the fraction of touched lines that come from DRAM. The copy of the
// record out of the page cache is the page cache's own cost (its hit_ns_per_kb).
// Run(cost, then) queues the work behind what the core is already doing and calls `then` on
// the simulator when it is done. Deterministic.
#ifndef FAWNLAB_FAWNDS_HOST_CPU_H_
#define FAWNLAB_FAWNDS_HOST_CPU_H_

#include <algorithm>
#include <cstdint>
#include <functional>

#include "sim/simulator.h"
#include "sim/time.h"

namespace fawnlab::fawnds {

struct CpuCosts {
  sim::SimDuration base_ns = 11050;  // fitted: Table 2, 10 KB rows (72352 / 85012 QPS) less the copy
  double line_ns = 79;               // fitted: the 125 MB rows' extra cost, 1 KB vs 256 B records
  double fixed_lines = 36;           // fitted: lines every request misses (index, page tables, kernel)
  uint64_t l2_bytes = 128 * 1024;    // Geode LX: 128 KB L2
  uint64_t line_bytes = 32;          // Geode LX cache line
  double copy_ns_per_kb = 2700;      // fitted: 10 KB rows' 1 KB − 256 B difference (≈ 370 MB/s memcpy)
};

class HostCpu {
 public:
  HostCpu(sim::Simulator* sim, CpuCosts costs = {}) : sim_(sim), c_(costs) {}

  // The processing time of one request touching a `record_bytes` record in a store whose
  // data and index take `working_set_bytes`.
  sim::SimDuration RequestCost(uint64_t record_bytes, uint64_t working_set_bytes) const {
    double miss = working_set_bytes <= c_.l2_bytes ? 0.0
                                                   : 1.0 - static_cast<double>(c_.l2_bytes) / static_cast<double>(working_set_bytes);
    double lines = c_.fixed_lines + static_cast<double>((record_bytes + c_.line_bytes - 1) / c_.line_bytes);
    return c_.base_ns + static_cast<sim::SimDuration>(miss * lines * c_.line_ns + 0.5);
  }

  void Run(sim::SimDuration cost, std::function<void()> then) {
    const sim::SimTime start = std::max(sim_->now(), free_at_);
    free_at_ = start + cost;
    busy_ns_ += cost;
    sim_->Schedule(free_at_, std::move(then));
  }

  const CpuCosts& costs() const { return c_; }
  sim::SimDuration busy_ns() const { return busy_ns_; }

 private:
  sim::Simulator* sim_;
  CpuCosts c_;
  sim::SimTime free_at_ = 0;
  sim::SimDuration busy_ns_ = 0;
};

}  // namespace fawnlab::fawnds

#endif  // FAWNLAB_FAWNDS_HOST_CPU_H_
