// What the SRCMap simulator and overhead experiments (simulator_*.cc: Figs 3.1-3.3, 3.12, 3.13,
// §3.7.3) share: the evaluated day's index, the category axis of Table 3.2's eight volumes, the
// `rate_scale` parameter, and a guarded division. The sweeps' runs share one generated history
// (srcmap/day.h GeneratedHistory); nothing here holds results.
#ifndef FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_
#define FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_

#include <string>

#include "base/params.h"

namespace fawnlab::srcmap {

// §3.7: "a three week workload history" and the next 24 hours: the evaluated day is day 21.
constexpr int kHistoryDays = 21;

// "volume (0 home-1, 1 online, …, 7 home-3)": Table 3.2's volumes as a categorical x axis.
std::string VolumeAxis();

// `rate_scale`: the workload's intensity × this factor (and, for the day runs, the capacities
// alike, DayConfig::capacity_scale).
ParamSpec RateScaleParam(double default_value, const std::string& help);

inline double Div(double a, double b) { return b == 0 ? 0 : a / b; }

// `v` to `digits` significant digits, for the notes ("3.17", "0.0453", "2.44e+08").
std::string Sig(double v, int digits = 3);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_
