// What the SRCMap simulator and overhead experiments (simulator_*.cc: Figs 3.1-3.3, 3.12, 3.13,
// §3.7.3) share: the evaluated day's index, the category axis of Table 3.2's eight volumes, the
// `rate_scale` parameter, and a guarded division. The sweeps' runs share one generated history
// (srcmap/day.h GeneratedHistory); nothing here holds results.
//
// A sweep's day at a reduced rate (ScaledDay): the evaluated day's requests are the workload
// at `rate_scale` × Table 3.2's intensity and the disks' Table 3.3(a) capacities are scaled
// alike (DayConfig::capacity_scale), so Algorithm 1 compares the same load factors; the history
// (the working sets the replicas hold, Eq. 3.2's inputs) is the FULL-rate workload's, with its
// long-term IOPS × rate_scale. A generator at a reduced rate touches fewer extents, so its own
// history would hold smaller working sets, and Eq. 3.2 (which weighs WS_min / WS_i) would
// order the volumes differently: the replica-space sweep would no longer be the thesis's.
#ifndef FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_
#define FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_

#include <memory>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "srcmap/day.h"
#include "srcmap/workload.h"

namespace fawnlab::srcmap {

// §3.7: "a three week workload history" and the next 24 hours: the evaluated day is day 21.
constexpr int kHistoryDays = 21;

// "volume (0 home-1, 1 online, …, 7 home-3)": Table 3.2's volumes as a categorical x axis.
std::string VolumeAxis();

// `rate_scale`: the workload's intensity × this factor (and, for the day runs, the capacities
// alike, DayConfig::capacity_scale).
ParamSpec RateScaleParam(double default_value, const std::string& help);

// The evaluated day of Table 3.2's workload (seed `seed`) at `rate_scale`, with the full-rate
// history. Runs share it.
struct ScaledDay {
  double rate_scale = 1;
  std::unique_ptr<Generator> gen;   // at rate_scale
  std::vector<VolumeHistory> hist;  // the full-rate workload's, rho × rate_scale
  // The evaluated day's requests, generated once when they are few enough to keep (at most
  // kKeptRequests); otherwise each run generates them again (the same requests).
  std::vector<Request> requests;
};
constexpr double kKeptRequests = 2e6;
StatusOr<ScaledDay> PrepareScaledDay(uint64_t seed, double rate_scale);
// The day under `c`, its capacity_scale multiplied by the day's rate_scale.
StatusOr<DayReport> RunScaled(const ScaledDay& d, DayConfig c);

inline double Div(double a, double b) { return b == 0 ? 0 : a / b; }

// `v` to `digits` significant digits, for the notes ("3.17", "0.0453", "2.44e+08").
std::string Sig(double v, int digits = 3);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_
