// What the Vector I/O lab's network experiments share: the common parameters (host, clients,
// keys, measurement windows), a latency–throughput curve of one configuration (offered load
// stepped up from `lo` by `step` until the system saturates, then the reporting rule's load
// refined by bisection), and the series a curve draws. The loads are only where the curve is
// sampled; every throughput and latency is measured on a fresh VectorSystem (run_point.h).
#ifndef FAWNLAB_VECIO_EXPERIMENTS_NET_COMMON_H_
#define FAWNLAB_VECIO_EXPERIMENTS_NET_COMMON_H_

#include <string>
#include <utility>
#include <vector>

#include "base/params.h"
#include "registry/experiments.h"
#include "registry/sweep.h"
#include "vecio/run_point.h"

namespace fawnlab::vecio {

// host, clients, keys, warmup_ms, measure_ms, refine (default `refine`: each step halves the
// rule's load interval, ×2 to start).
std::vector<ParamSpec> NetCommonParams(int refine = 4);
// The common parameters as a SystemConfig (G = R = 1, pattern auto).
SystemConfig NetBaseConfig(const ParamValues& p);

struct Curve {
  std::vector<PointResult> points;  // by offered load
  bool has_best = false;
  PointResult best;                 // the reporting rule's point
};

struct CurveSpec {
  double lo = 25000, step = 2, hi = 4e6;  // offered lookups/s (bisection steps: the "refine" param)
};

// The curve of `c`; `units` of `sweep` are spent on it (one per point).
StatusOr<Curve> RunCurve(SystemConfig c, const CurveSpec& spec, const ParamValues& p, uint64_t seed, SweepProgress* sweep);
// One point with the experiment's windows.
StatusOr<PointResult> RunNetPoint(const SystemConfig& c, const ParamValues& p, uint64_t seed);

// G fixed, R over `widths` (timeout and lowest load from the params "queue_timeout_us" and
// "low_load_per_s"): a curve per R ("<prefix>R=<w>" p50 series), the "rule throughput vs R" and
// "low-load median vs R" series, and metrics r<w>_peak, r<w>_low_p50_us, r<w>_min_p50_us.
// Returns the low-load median per width, in order.
StatusOr<std::vector<double>> RunRSweep(int g, const std::vector<int>& widths, const std::string& prefix, const ParamValues& p,
                                        uint64_t seed, SweepProgress* sweep, Result* r);

// "<label> p50" and "<label> p99" series: latency (µs) against measured throughput (lookups/s).
void AddCurveSeries(Result* r, const std::string& label, const Curve& curve, bool p99 = true);
// A "paper" series of quoted (throughput, latency) or (width, throughput) points.
void AddPaperSeries(Result* r, const std::string& name, const std::string& x_label, const std::string& y_label,
                    std::vector<std::pair<double, double>> points);
// The notes every network experiment carries (the rule, the token choice, the windows).
void AddNetNotes(Result* r, const ParamValues& p);

constexpr const char* kThroughputLabel = "throughput (lookups/s)";
constexpr const char* kLatencyLabel = "latency (µs)";

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_EXPERIMENTS_NET_COMMON_H_
