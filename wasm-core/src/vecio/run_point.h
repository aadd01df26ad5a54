// RunPoint: one operating point of the networked back-end — a fresh VectorSystem at the
// config's offered load, run for `warmup` then measured for `measure` of virtual time. The
// percentiles are over the RPCs answered in the window (the paper logs every request's
// end-to-end latency at the clients); throughput is keys answered per second in the window.
// The reporting rule (thesis §7.4.1): a single-point figure reports the highest offered load
// whose median is under 1 ms and whose 99th percentile is under 10 ms.
#ifndef FAWNLAB_VECIO_RUN_POINT_H_
#define FAWNLAB_VECIO_RUN_POINT_H_

#include <array>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "sim/time.h"
#include "vecio/system.h"

namespace fawnlab::vecio {

constexpr size_t kCount = kCostKinds;

struct PointResult {
  double offered_per_s = 0, throughput_per_s = 0, p50_us = 0, p99_us = 0, mean_us = 0;
  std::array<double, kCount> core_us_per_key{};  // core time per answered key, per CostKind
  double cores_busy = 0;                         // mean busy cores over the window
  uint64_t rpcs = 0;                             // RPCs answered in the window
};

StatusOr<PointResult> RunPoint(const SystemConfig& c, sim::SimDuration warmup, sim::SimDuration measure, uint64_t seed);

// The reporting rule: p50 < 1 ms and p99 < 10 ms (and at least one RPC measured).
bool MeetsRule(const PointResult& p);
constexpr double kRuleP50Us = 1000, kRuleP99Us = 10000;

// The point of `points` with the highest offered load that meets the rule, or nullptr.
const PointResult* BestUnderRule(const std::vector<PointResult>& points);

// Searches the highest offered load in [lo, hi] that meets the rule: a geometric scan of
// `scan` loads, then `refine` bisection steps between the last passing and the first failing.
// Every point run is appended to `trace` (when given), in order. Fails when even `lo` fails.
StatusOr<PointResult> SearchRule(SystemConfig c, double lo, double hi, int scan, int refine, sim::SimDuration warmup,
                                 sim::SimDuration measure, uint64_t seed, std::vector<PointResult>* trace = nullptr);

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_RUN_POINT_H_
