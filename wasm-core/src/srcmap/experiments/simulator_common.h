// What the SRCMap simulator and overhead experiments (simulator_*.cc: Figs 3.1-3.3, 3.12, 3.13,
// §3.7.3) add to the day runs they share with the prototype ones (prototype_common.h: the
// Testbed with the full-rate history, the Window replayed for each run, Div, kHistoryDays): the
// category axis of Table 3.2's eight volumes, the `rate_scale` parameter and "%.3g"-style
// numbers for the notes. Nothing here holds results.
//
// A sweep's day at a reduced rate: the evaluated day's requests are the workload at
// `rate_scale` × Table 3.2's intensity and the disks' Table 3.3(a) capacities are scaled alike
// (DayConfig::capacity_scale), so Algorithm 1 compares the same load factors; the history (the
// working sets the replicas hold, Eq. 3.2's inputs) is the FULL-rate workload's, with its
// long-term IOPS × rate_scale (srcmap_exp::MakeTestbed).
#ifndef FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_
#define FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_

#include <string>

#include "base/params.h"
#include "srcmap/experiments/prototype_common.h"

namespace fawnlab::srcmap {

using srcmap_exp::Div;  // prototype_common.h's, for the simulator files that name srcmap::Div

// "volume (0 home-1, 1 online, …, 7 home-3)": Table 3.2's volumes as a categorical x axis.
std::string VolumeAxis();

// `rate_scale`: the workload's intensity × this factor (and, for the day runs, the capacities
// alike, DayConfig::capacity_scale).
ParamSpec RateScaleParam(double default_value, const std::string& help);

// `v` to `digits` significant digits, for the notes ("3.17", "0.0453", "2.44e+08").
std::string Sig(double v, int digits = 3);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_EXPERIMENTS_SIMULATOR_COMMON_H_
