// What every SRCMap experiment that runs the day driver shares (the prototype ones,
// srcmap.timeline, srcmap.response, srcmap.day, srcmap.per-disk, and the simulator sweeps,
// srcmap.overprovision and srcmap.proportionality; docs/srcmap/experiments-*.md): the thesis's
// testbed day as a generated workload with its history built once per experiment (srcmap/day.h
// GeneratedHistory), a window's requests generated once and replayed for each run, the window
// parameters, and the result's closing note (each missed anchor beside the thesis's value, with
// the run's own reason).
//
// Every number comes from the day driver: the generated requests served by the disks'
// mechanism under the policy, power from Table 3.3(b) on the disks the run left spinning.
#ifndef FAWNLAB_SRCMAP_EXPERIMENTS_PROTOTYPE_COMMON_H_
#define FAWNLAB_SRCMAP_EXPERIMENTS_PROTOTYPE_COMMON_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "registry/experiments.h"
#include "srcmap/day.h"
#include "srcmap/workload.h"

namespace fawnlab::srcmap {
// §3.7: "a three week workload history" and the next 24 hours: the evaluated day is day 21.
constexpr int kHistoryDays = 21;
}  // namespace fawnlab::srcmap

namespace fawnlab::srcmap_exp {

// The evaluated day's workload (Table 3.2's eight volumes at `rate_scale`, seeded) and its
// `history_days` of history, built once and shared by an experiment's runs. The history is the
// FULL-rate workload's, its long-term IOPS × rate_scale: a generator at a reduced rate touches
// fewer extents (its pools shrink with the request count), so its own history would hold smaller
// working sets and fewer misses, Eq. 3.2 would order the volumes differently and the placement
// would not be the one the thesis's simulator (the same traces at any capacity level) had.
struct Testbed {
  std::unique_ptr<srcmap::Generator> gen;
  std::vector<srcmap::VolumeHistory> hist;
  double rate_scale = 1;
  int history_days = srcmap::kHistoryDays;
};
StatusOr<Testbed> MakeTestbed(uint64_t seed, double rate_scale, int history_days = srcmap::kHistoryDays);

// One day-driver run on the testbed over c.from_h..c.to_h, with the testbed's history days and
// c.capacity_scale × its rate as the capacities' scale (so Algorithm 1 compares the same load
// factors at any rate; a capacity_scale of its own, as the levels below L0, multiplies).
StatusOr<srcmap::DayReport> RunOn(const Testbed& t, srcmap::DayConfig c);

// The evaluated day's requests in [from_h, to_h), with the warm start's interval before it,
// generated once for several runs (generating them is most of a run's time) when they are at
// most `max_kept` (expected); otherwise none are kept and each run generates them again.
struct Window {
  double from_h = 0, to_h = 24;
  bool kept = true;
  std::vector<srcmap::Request> requests;
};
Window MakeWindow(const Testbed& t, double from_h, double to_h, double max_kept = 1e300);
// The simulator sweeps keep a day's requests up to this many (64 MB).
constexpr double kKeptRequests = 2e6;
// RunOn over the window's requests (c.from_h and c.to_h are the window's): the same report as
// RunOn's, its minutes' and spin-ups' times in hours into the day as there (to the last bit but
// one: they are the window's hours + from_h).
StatusOr<srcmap::DayReport> RunOnWindow(const Testbed& t, const Window& w, srcmap::DayConfig c);

// The prototype window's parameters: from_h (default `from`), hours (default `hours`).
std::vector<ParamSpec> WindowParams(double from, double hours);
// The whole-day experiments' parameters: level (default `level`), rate_scale (default `rate`).
std::vector<ParamSpec> DayParams(int level, double rate, const std::string& level_help,
                                 const std::string& full_rate_cost);
// Appends y(k) for each interval k of `d` as a step across the interval (two points).
void AddIntervalSteps(Series* s, const srcmap::DayReport& d, double interval_h, const std::function<double(size_t)>& y);
// from_h + hours must end by 24:00.
Status ValidateWindow(const ParamValues& p);

// "%.3g" for notes.
std::string Fmt(double v);
// "a ≤ x ≤ b" anchors (the thesis's "less than b"): the band's middle with half its width.
void AddBandAnchor(Result* r, const std::string& metric, double lo, double hi, AnchorNote note);
// Appends the note naming every missed anchor: the lab's value, the thesis's and the reason.
void CloseNotes(Result* r);
// Whether `r` has the metric `name` (the pinned names, for the tests).
bool HasMetric(const Result& r, const std::string& name);
// a / b, 0 when b is 0.
double Div(double a, double b);

}  // namespace fawnlab::srcmap_exp

#endif  // FAWNLAB_SRCMAP_EXPERIMENTS_PROTOTYPE_COMMON_H_
