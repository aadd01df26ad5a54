// srcmap.timeline (thesis §3.7.1, Fig 3.8 "Power and active disks time-line"): the prototype's
// 8-hour window (4 consolidation intervals of 2 h) replayed at full rate on the eight disks,
// SRCMap at L0 (the conservative capacity estimate of Table 3.3(a)) and at L3 (the aggressive
// one), both runs on one generated history. Power each minute is Table 3.3(b)'s total for the
// disks not in standby plus the spin-ups' surcharges (srcmap/day.h MinuteSample).
//
// Metrics: for L0 the window's means, as the thesis gives them ("on an average"):
// l0_saved_w = all-on − mean watts, l0_saved_pct, l0_disks_down = 8 − mean disks spinning.
// For L3 the thesis gives one interval apart ("7 disks saving 38.9 W (59%) for all periods other
// than the 4hr-6hr period. In the 4-6 hr period, it uses 2 disks ... 33.4 W (50%)"), so:
// l3_worst_interval_saved_w = the least any interval saved, and l3_saved_w, l3_saved_pct,
// l3_disks_down = the means over the other intervals (l3_window_saved_w: the whole window's);
// l3_max_active = the most disks any decision of the window chose. Spin-ups: the primaries' over
// the window, planned or by a read miss.
#include <algorithm>
#include <string>
#include <vector>

#include "registry/experiments.h"
#include "srcmap/experiments/prototype_common.h"

namespace fawnlab {
namespace {

using srcmap::DayConfig;
using srcmap::DayReport;
using srcmap_exp::Fmt;

constexpr int kPrimaries = 8;  // Table 3.2: D0-D7

struct Level {
  double saved_w = 0, saved_pct = 0, down = 0;  // the window's means
  double worst_saved_w = 0;                     // the interval that saved least
  double rest_saved_w = 0, rest_down = 0;       // the mean over the other intervals
  int worst = 0, max_active = 0, spin_ups = 0, planned = 0;
};

Level Summarise(const DayReport& d) {
  Level l;
  l.saved_w = d.all_on_watts - d.avg_watts;
  l.saved_pct = 100 * srcmap_exp::Div(l.saved_w, d.all_on_watts);
  l.down = kPrimaries - d.avg_spinning;
  const size_t n = d.intervals.size();
  for (size_t k = 0; k < n; ++k) {
    if (d.intervals[k].watts > d.intervals[static_cast<size_t>(l.worst)].watts) l.worst = static_cast<int>(k);
    l.max_active = std::max(l.max_active, d.intervals[k].planned_active);
  }
  l.worst_saved_w = d.all_on_watts - d.intervals[static_cast<size_t>(l.worst)].watts;
  double w = 0, s = 0;
  for (size_t k = 0; k < n; ++k) {
    if (static_cast<int>(k) == l.worst && n > 1) continue;
    w += d.intervals[k].watts;
    s += d.intervals[k].avg_spinning;
  }
  const double m = n > 1 ? static_cast<double>(n - 1) : 1;
  l.rest_saved_w = d.all_on_watts - w / m;
  l.rest_down = kPrimaries - s / m;
  for (const srcmap::SpinUp& e : d.spin_up_events) {
    ++l.spin_ups;
    l.planned += e.planned;
  }
  return l;
}

// Cumulative spin-ups against time, as steps.
Series SpinUpSteps(const std::string& name, const DayReport& d, double from, double to) {
  Series s{name, "measured", "hour of the day (h)", "spin-ups since the window began", {{from, 0}}};
  int k = 0;
  for (const srcmap::SpinUp& e : d.spin_up_events) {
    s.points.emplace_back(e.t_h, k);
    s.points.emplace_back(e.t_h, ++k);
  }
  s.points.emplace_back(to, k);
  return s;
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  auto tb = srcmap_exp::MakeTestbed(ctx.seed(), 1.0);
  if (!tb.ok()) return tb.status();
  if (!ctx.Progress(0.2)) return Status::Cancelled("cancelled");
  DayConfig c;
  c.from_h = p.Real("from_h");
  c.to_h = std::min(24.0, c.from_h + p.Real("hours"));
  const srcmap_exp::Window w = srcmap_exp::MakeWindow(tb.value(), c.from_h, c.to_h);
  std::vector<DayReport> reps;
  for (int level : {0, 3}) {
    c.level = level;
    auto r = srcmap_exp::RunOnWindow(tb.value(), w, c);
    if (!r.ok()) return r.status();
    reps.push_back(std::move(r.value()));
    if (!ctx.Progress(0.2 + 0.4 * static_cast<double>(reps.size()))) return Status::Cancelled("cancelled");
  }
  const DayReport &d0 = reps[0], &d3 = reps[1];
  const Level l0 = Summarise(d0), l3 = Summarise(d3);

  Result r;
  r.AddMetric("l0_saved_w", l0.saved_w);
  r.AddMetric("l0_saved_pct", l0.saved_pct);
  r.AddMetric("l0_disks_down", l0.down);
  r.AddMetric("l3_saved_w", l3.rest_saved_w);
  r.AddMetric("l3_saved_pct", 100 * srcmap_exp::Div(l3.rest_saved_w, d3.all_on_watts));
  r.AddMetric("l3_disks_down", l3.rest_down);
  r.AddMetric("l3_worst_interval_saved_w", l3.worst_saved_w);
  r.AddMetric("l3_max_active", l3.max_active);
  r.AddMetric("all_on_w", d0.all_on_watts);
  r.AddMetric("standby_w", d0.standby_watts);
  r.AddMetric("l0_spin_ups", l0.spin_ups);
  r.AddMetric("l3_spin_ups", l3.spin_ups);
  r.AddMetric("l0_avg_w", d0.avg_watts);
  r.AddMetric("l3_avg_w", d3.avg_watts);
  r.AddMetric("l3_window_saved_w", l3.saved_w);
  r.AddMetric("l3_window_saved_pct", l3.saved_pct);
  r.AddMetric("l3_window_disks_down", l3.down);
  r.AddMetric("l3_worst_interval_start_h", d3.intervals[static_cast<size_t>(l3.worst)].start_h + c.from_h);
  r.AddMetric("l0_planned_spin_ups", l0.planned);
  r.AddMetric("l3_planned_spin_ups", l3.planned);
  r.AddMetric("l0_misses", static_cast<double>(d0.misses));
  r.AddMetric("l3_misses", static_cast<double>(d3.misses));
  r.AddMetric("load_iops", srcmap_exp::Div(static_cast<double>(d0.requests), d0.hours * 3600));
  r.AddMetric("l0_ideal_w", d0.ideal_watts);
  r.AddMetric("l3_ideal_w", d3.ideal_watts);

  // The run's own account of its load and its choices, for the miss notes.
  auto intervals = [&](const DayReport& d) {
    std::string s;
    for (const srcmap::IntervalReport& i : d.intervals) {
      s += (s.empty() ? "" : ", ") + Fmt(i.start_h + c.from_h) + " h: " + Fmt(i.load_iops) + " IOPS on " +
           std::to_string(i.planned_active) + " disks, " + Fmt(i.watts) + " W";
    }
    return s;
  };
  double lo = 0, hi = 0;
  for (size_t k = 0; k < d0.intervals.size(); ++k) {
    const double x = d0.intervals[k].load_iops;
    lo = k == 0 ? x : std::min(lo, x);
    hi = std::max(hi, x);
  }
  const std::string load_note = "the lab's hours " + Fmt(c.from_h) + "-" + Fmt(c.to_h) + " carry " + Fmt(lo) + "-" +
                                Fmt(hi) + " IOPS per 2-hour interval, which Algorithm 1 at L0's capacities (33-52 IOPS a "
                                "disk, Table 3.3(a)) serves with " + Fmt(kPrimaries - l0.down) + " disks spinning on "
                                "average; the thesis's 3.67 mean a busier window or fewer replicas to consolidate onto "
                                "(it does not say which 8 hours it took)";
  const std::string src = "Fig 3.8 (§3.7.1)";
  const std::string lookup = "Table 3.3(b)'s total for the disks the run left spinning (a lookup, as the thesis's "
                             "own numbers are: 66.1 − 42.6 W = 23.5 W); how many disks spin comes from Algorithm 1 "
                             "on the generated load and the disks' 2-minute timeout";
  r.AddAnchor("l0_saved_w", 23.5, {true, 0.15}, Emergent(src + ": L0 saves 23.5 W on average", lookup, load_note));
  r.AddAnchor("l0_saved_pct", 35.5, {true, 0.15}, Emergent(src + ": 35.5% at L0", lookup, load_note));
  r.AddAnchor("l0_disks_down", 4.33, {false, 0.6},
              Emergent(src + ": \"approximately 4.33 disks\" spun down on average at L0",
                       "Algorithm 1's active sets each interval, read misses and the 2-minute timeout", load_note));
  const std::string l3_note = "at L3: " + intervals(d3);
  r.AddAnchor("l3_saved_w", 38.9, {true, 0.1},
              Emergent(src + ": L3 saves 38.9 W with 7 disks down in every interval but one", lookup, l3_note));
  r.AddAnchor("l3_saved_pct", 59, {true, 0.1}, Emergent(src + ": 59% at L3 outside its busiest interval", lookup, l3_note));
  r.AddAnchor("l3_disks_down", 7, {false, 0.5},
              Emergent(src + ": 7 disks spun down at L3 outside its busiest interval",
                       "Algorithm 1 at L3's capacities (96-150 IOPS per disk) on the generated load", l3_note));
  r.AddAnchor("l3_worst_interval_saved_w", 33.4, {true, 0.1},
              Emergent(src + ": 33.4 W (50%) saved in hours 4-6 of the window, with 2 disks",
                       "the interval whose load needed a second disk at L3", l3_note));
  r.AddAnchor("l3_max_active", 2, {false, 0},
              Emergent(src + ": at most 2 disks active at L3 (hours 4-6)",
                       "Algorithm 1's largest active set in the window at L3", l3_note));
  r.AddAnchor("all_on_w", 66.1, {true, 0.001},
              Fitted("Table 3.3(b), Fig 3.8: every disk spinning", "by construction: Table 3.3(b)'s measured total "
                     "with 8 disks on is the model's input (a lookup of the thesis's measurement, not a prediction)"));
  r.AddAnchor("standby_w", 19.8, {true, 0.001},
              Fitted("Table 3.3(b), Fig 3.8: every disk in standby", "by construction: Table 3.3(b)'s measured total "
                     "with 0 disks on is the model's input (a lookup of the thesis's measurement)"));

  const double from = c.from_h, to = c.to_h;
  for (int i = 0; i < 2; ++i) {
    const DayReport& d = reps[static_cast<size_t>(i)];
    Series s{std::string("power at L") + (i == 0 ? "0" : "3"), "measured", "hour of the day (h)", "power (W)", {}};
    for (const srcmap::MinuteSample& m : d.minutes) s.points.emplace_back(m.t_h, m.watts);
    r.series.push_back(std::move(s));
  }
  r.series.push_back(Series{"all disks on (Table 3.3(b))", "theory", "hour of the day (h)", "power (W)",
                            {{from, d0.all_on_watts}, {to, d0.all_on_watts}}});
  r.series.push_back(Series{"all disks in standby (Table 3.3(b))", "theory", "hour of the day (h)", "power (W)",
                            {{from, d0.standby_watts}, {to, d0.standby_watts}}});
  for (int i = 0; i < 2; ++i) {
    const DayReport& d = reps[static_cast<size_t>(i)];
    Series s{std::string("disks spinning at L") + (i == 0 ? "0" : "3"), "measured", "hour of the day (h)",
             "disks not in standby", {}};
    for (const srcmap::MinuteSample& m : d.minutes) s.points.emplace_back(m.t_h, m.spinning);
    r.series.push_back(std::move(s));
  }
  r.series.push_back(SpinUpSteps("spin-ups at L0", d0, from, to));
  r.series.push_back(SpinUpSteps("spin-ups at L3", d3, from, to));

  r.scale_note = "Full rate (Table 3.2's intensities), hours " + Fmt(from) + "-" + Fmt(to) +
                 " of the evaluated day after 21 days of history; " + Fmt(static_cast<double>(d0.requests)) +
                 " requests per run.";
  r.notes.push_back("L0: " + intervals(d0) + ". L3: " + intervals(d3) + ".");
  r.notes.push_back("Spin-ups: L0 " + std::to_string(l0.spin_ups) + " (" + std::to_string(l0.planned) +
                    " planned at a decision, the rest read misses or write overflows), L3 " +
                    std::to_string(l3.spin_ups) + " (" + std::to_string(l3.planned) +
                    " planned). Each is a power spike: 6 s at 24 W (a choice: docs/decisions.md, SRCMap: disks), "
                    "averaged over its minute on the chart.");
  r.notes.push_back("Eq. 3.1's ideal (66.1 W × load / the level's total capacity): " + Fmt(d0.ideal_watts) +
                    " W at L0, " + Fmt(d3.ideal_watts) + " W at L3; the standby floor (19.8 W) is paid whatever the "
                    "load, so within the dynamic range (66.1 − 19.8 W) L0 saves " +
                    Fmt(100 * srcmap_exp::Div(l0.saved_w, d0.all_on_watts - d0.standby_watts)) + "% and L3 " +
                    Fmt(100 * srcmap_exp::Div(l3.saved_w, d3.all_on_watts - d3.standby_watts)) + "%.");
  srcmap_exp::CloseNotes(&r);
  return r;
}

}  // namespace

Experiment MakeSrcmapTimeline() {
  Experiment e;
  e.info.id = "srcmap.timeline";
  e.info.lab = "srcmap";
  e.info.title = "Power and active disks over the prototype's window, at L0 and L3";
  e.info.summary =
      "Replays the prototype's 8-hour window at full rate through SRCMap with the conservative (L0) and the "
      "aggressive (L3) disk capacity estimates: power each minute against the all-on and standby lines, the disks "
      "left spinning, and the spin-ups each decision and read miss cost.";
  e.info.reference = "Useche 2012 (SRCMap, FAST'10) §3.7.1, Fig 3.8, Table 3.3";
  e.info.params = srcmap_exp::WindowParams(2, 8);
  e.validate = srcmap_exp::ValidateWindow;
  e.run = Run;
  return e;
}

}  // namespace fawnlab
