// RunFio: one fio run on BlockSim (warm-up, then a measured window) and what the Ch. 6
// experiments read off it: IOPS, interrupt rate, the inter-completion histogram, the issue
// path's CPU time per I/O (min, median, per phase) and Q->next-Q wall time.
// Contract: every number is counted from events in the window; nothing is computed from the
// costs. Deterministic per seed.
#ifndef FAWNLAB_VECIO_BLOCK_FIO_RUN_H_
#define FAWNLAB_VECIO_BLOCK_FIO_RUN_H_

#include <array>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "sim/time.h"
#include "vecio/block/block_sim.h"

namespace fawnlab::vecio::block {

struct FioResult {
  double iops = 0, interrupts_per_s = 0, completions_per_irq = 0, mbps = 0;
  double issue_min_us = 0, issue_median_us = 0, issue_mean_us = 0, qq_median_us = 0;
  std::array<double, 4> phase_mean_us{};  // CPU per I/O by phase
  double min_gap_us = 0;
  std::vector<uint64_t> gap_hist;          // 1 µs bins, [0, 400) µs; the last bin holds the rest
  uint64_t completed = 0;
  int max_ncq = 0;
};

// The gap histogram's mode in [lo_us, hi_us) read in `width_us`-wide bins (µs, the wide bin's
// centre), or 0 when empty.
double GapMode(const std::vector<uint64_t>& hist, int lo_us, int hi_us, int width_us = 1);

StatusOr<FioResult> RunFio(const BlockConfig& c, sim::SimDuration warmup, sim::SimDuration measure, uint64_t seed);

}  // namespace fawnlab::vecio::block

#endif  // FAWNLAB_VECIO_BLOCK_FIO_RUN_H_
