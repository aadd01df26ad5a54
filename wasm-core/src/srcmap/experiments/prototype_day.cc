// srcmap.day (thesis §3.7.2, Fig 3.10 "Power consumption, remap operations, and aggregate load
// across time for a single day"): the evaluated day's 12 two-hour intervals through SRCMap (at
// `level`, L0 as the thesis) and the thesis's alternatives on the same disks and requests:
// Caching-1 and Caching-2 (one or two extra cache volumes that take the whole load when it fits
// them), Replication (pairs of full copies, one of a pair off when the pair's load fits one) and
// Baseline-On. Every run shares one generated history.
//
// The thesis ran this figure in its simulator ("any IOPS level", §3.7.2); the lab runs the day
// at `rate_scale` of Table 3.2's intensities with Table 3.3(a)'s capacities scaled alike
// (DayConfig::capacity_scale), so Algorithm 1 compares the same load factors.
//
// least_power_intervals: the intervals in which SRCMap drew no more power than any other scheme;
// remaps_match_intervals: those in which the volumes SRCMap remapped equal the change in its
// active disks (the first against the set in force at 00:00, which the warm start's interval
// before left: DayReport::start_active); max_remaps: the most in one interval.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "registry/experiments.h"
#include "srcmap/experiments/prototype_common.h"

namespace fawnlab {
namespace {

using srcmap::DayConfig;
using srcmap::DayReport;
using srcmap::Policy;
using srcmap_exp::Fmt;

struct Scheme {
  const char* key;
  const char* label;
  Policy policy;
};
const Scheme kSchemes[5] = {{"srcmap", "SRCMap", Policy::kSrcmap},
                            {"caching1", "Caching-1", Policy::kCaching1},
                            {"caching2", "Caching-2", Policy::kCaching2},
                            {"replication", "Replication", Policy::kReplication},
                            {"baseline", "Baseline-On", Policy::kBaselineOn}};

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const double rate = p.Real("rate_scale");
  auto tb = srcmap_exp::MakeTestbed(ctx.seed(), rate);
  if (!tb.ok()) return tb.status();
  if (!ctx.Progress(0.15)) return Status::Cancelled("cancelled");
  const srcmap_exp::Window w = srcmap_exp::MakeWindow(tb.value(), 0, 24);
  std::vector<DayReport> reps;
  for (const Scheme& s : kSchemes) {
    DayConfig c;
    c.policy = s.policy;
    c.level = static_cast<int>(p.Int("level"));
    c.replica_pct = p.Real("replica_pct");
    auto r = srcmap_exp::RunOnWindow(tb.value(), w, c);
    if (!r.ok()) return r.status();
    reps.push_back(std::move(r.value()));
    if (!ctx.Progress(0.15 + 0.17 * static_cast<double>(reps.size()))) return Status::Cancelled("cancelled");
  }
  const DayReport& sm = reps[0];
  const size_t n = sm.intervals.size();
  int least = 0, match = 0, max_remaps = 0, prev_active = 0;
  for (int j = 0; j < 8; ++j) prev_active += sm.start_active[static_cast<size_t>(j)] ? 1 : 0;  // at 00:00
  std::string mismatches, losses;
  for (size_t k = 0; k < n; ++k) {
    const double w = sm.intervals[k].watts;
    bool best = true;
    for (size_t s = 1; s < reps.size(); ++s) {
      if (reps[s].intervals[k].watts < w) {
        best = false;
        losses += (losses.empty() ? "" : "; ") + Fmt(sm.intervals[k].start_h) + " h: " + kSchemes[s].label + " " +
                  Fmt(reps[s].intervals[k].watts) + " W against " + Fmt(w) + " W";
      }
    }
    least += best;
    const int active = sm.intervals[k].planned_active, remaps = sm.intervals[k].remaps;
    if (remaps == std::abs(active - prev_active)) {
      ++match;
    } else {
      mismatches += (mismatches.empty() ? "" : "; ") + Fmt(sm.intervals[k].start_h) + " h: " + std::to_string(remaps) +
                    " remapped, active " + std::to_string(prev_active) + " → " + std::to_string(active) +
                    (sm.intervals[k].retriggers ? " (with a re-trigger)" : "");
    }
    prev_active = active;
    max_remaps = std::max(max_remaps, remaps);
  }

  // Where SRCMap's replicas are: which disks can stand in for each volume's primary.
  std::string where;
  for (size_t u = 0; u < sm.replica_targets.size(); ++u) {
    std::string t;
    for (int j : sm.replica_targets[u]) t += (t.empty() ? "" : " ") + std::string("D") + std::to_string(j);
    where += (u ? "; D" : "D") + std::to_string(u) + " on " + (t.empty() ? "none" : t);
  }
  std::string actives;
  for (size_t k = 0; k < n; ++k) actives += (k ? ", " : "") + std::to_string(sm.intervals[k].planned_active);

  // A scheme's power levels: the distinct sizes of its chosen active set (cache disks included)
  // over the day's intervals (the thesis: caching has "only two effective energy levels").
  auto sizes_of = [](const DayReport& d) {
    std::vector<int> sizes;
    for (const std::vector<bool>& row : d.disk_active) {
      const int on = static_cast<int>(std::count(row.begin(), row.end(), true));
      if (std::find(sizes.begin(), sizes.end(), on) == sizes.end()) sizes.push_back(on);
    }
    std::sort(sizes.begin(), sizes.end());
    return sizes;
  };
  auto levels = [&](const DayReport& d) { return static_cast<double>(sizes_of(d).size()); };
  auto sizes_text = [&](const DayReport& d) {
    std::string t;
    for (int x : sizes_of(d)) t += (t.empty() ? "" : ", ") + std::to_string(x);
    return t;
  };

  Result r;
  for (size_t s = 0; s < reps.size(); ++s) r.AddMetric(std::string(kSchemes[s].key) + "_avg_w", reps[s].avg_watts);
  r.AddMetric("intervals", static_cast<double>(n));
  r.AddMetric("least_power_intervals", least);
  r.AddMetric("remaps_match_intervals", match);
  r.AddMetric("max_remaps", max_remaps);
  for (size_t s = 0; s + 1 < reps.size(); ++s) r.AddMetric(std::string(kSchemes[s].key) + "_levels", levels(reps[s]));
  r.AddMetric("srcmap_saved_pct", 100 * srcmap_exp::Div(reps[4].avg_watts - sm.avg_watts, reps[4].avg_watts));
  r.AddMetric("srcmap_remaps", static_cast<double>(sm.remaps));
  r.AddMetric("srcmap_misses", static_cast<double>(sm.misses));
  r.AddMetric("srcmap_spin_ups", static_cast<double>(sm.spin_up_events.size()));
  r.AddMetric("srcmap_ideal_w", sm.ideal_watts);

  const std::string src = "Fig 3.10 (§3.7.2)";
  r.AddAnchor("least_power_intervals", 12, {false, 0},
              Emergent(src + ": SRCMap (L0) \"uniformly consumes the least amount of power across all intervals\"",
                       "each scheme's own decisions on the same requests and disks, Table 3.3(b)'s power",
                       "the intervals where another scheme drew less: " + losses +
                           ". SRCMap's active disks per interval: " + actives +
                           "; a volume's primary can go down only onto a disk that holds its replica (" + where +
                           "), so SRCMap keeps more disks than the load needs, while a cache disk holds the "
                           "working sets that fit its 12.5% of the total size and the two of them take the whole load when "
                           "it fits their capacity"));
  r.AddAnchor("remaps_match_intervals", 12, {false, 0},
              Emergent(src + ": \"for all durations the number of volumes being remapped equaled the change in the "
                             "number of active physical volumes\"",
                       "Algorithm 1 as printed (srcmap/active.h), which does not look at the previous interval's "
                       "serving copies; remaps are the volumes whose serving copy changed, the first interval's "
                       "against the copies in force at 00:00",
                       "the intervals where they differ: " + mismatches +
                           " (a disk that goes down takes along every volume it served, its own and those it held "
                           "a replica for, and a volume may move between replicas with no change in the count)"));
  srcmap_exp::AddBandAnchor(&r, "max_remaps", 0, 2,
                            Emergent(src + ": SRCMap remaps \"either 0, 1, or 2\" volumes per interval",
                                     "the volumes whose serving copy changed at a decision",
                                     "the intervals where more moved: " + mismatches));

  const std::string cache_rule =
      "the lab's caching baselines send the load to their cache volumes (all of them) when it is below their "
      "capacity, else to every primary (docs/decisions.md, SRCMap: the replica manager and the day driver)";
  r.AddAnchor("caching1_levels", 2, {false, 0},
              Emergent(src + ": the caching configurations are \"the least energy proportional with only two "
                             "effective energy levels\"",
                       "the distinct sizes of Caching-1's active set (cache disk included) over the 12 intervals",
                       "its active sets had " + sizes_text(reps[1]) + " disks; " + cache_rule));
  r.AddAnchor("caching2_levels", 2, {false, 0},
              Emergent(src + ": the caching configurations have \"only two effective energy levels\"",
                       "the distinct sizes of Caching-2's active set (cache disks included) over the 12 intervals",
                       "its active sets had " + sizes_text(reps[2]) + " disks; " + cache_rule));
  const double T = 2;
  for (size_t s = 0; s < reps.size(); ++s) {
    Series ser{std::string(kSchemes[s].label), "measured", "hour of the day (h)", "power (W)", {}};
    srcmap_exp::AddIntervalSteps(&ser, reps[s], T, [&](size_t k) { return reps[s].intervals[k].watts; });
    r.series.push_back(std::move(ser));
  }
  // Eq. 3.1: all-on power × the interval's load / the level's total capacity.
  Series ideal{"Eq. 3.1 ideal at SRCMap's level", "theory", "hour of the day (h)", "power (W)", {}};
  srcmap_exp::AddIntervalSteps(&ideal, sm, T, [&](size_t k) {
    return srcmap::IdealWatts(sm.intervals[k].load_iops, sm.intervals[k].capacity_iops);
  });
  r.series.push_back(std::move(ideal));
  Series remaps{"SRCMap volumes remapped", "measured", "hour of the day (h)", "count per interval", {}};
  srcmap_exp::AddIntervalSteps(&remaps, sm, T, [&](size_t k) { return static_cast<double>(sm.intervals[k].remaps); });
  r.series.push_back(std::move(remaps));
  Series active{"SRCMap disks active", "measured", "hour of the day (h)", "count per interval", {}};
  srcmap_exp::AddIntervalSteps(&active, sm, T, [&](size_t k) { return static_cast<double>(sm.intervals[k].planned_active); });
  r.series.push_back(std::move(active));
  Series load{"load", "measured", "hour of the day (h)", "load (IOPS at rate_scale)", {}};
  srcmap_exp::AddIntervalSteps(&load, sm, T, [&](size_t k) { return sm.intervals[k].load_iops; });
  r.series.push_back(std::move(load));
  Series pred{"load SRCMap predicted", "measured", "hour of the day (h)", "load (IOPS at rate_scale)", {}};
  srcmap_exp::AddIntervalSteps(&pred, sm, T, [&](size_t k) { return sm.intervals[k].predicted_iops; });
  r.series.push_back(std::move(pred));

  r.scale_note = "rate_scale " + Fmt(rate) + " of Table 3.2's intensities with the disks' capacities × " + Fmt(rate) +
                 " (the thesis's simulator ran at any IOPS level, §3.7.2); 24 h after 21 days of history; " +
                 Fmt(static_cast<double>(sm.requests)) + " requests per scheme.";
  r.scale_factor = 1 / rate;
  r.notes.push_back("SRCMap's replicas at " + Fmt(p.Real("replica_pct")) + "% replica space: " + where +
                    ". Working sets from the 21 days of history (extents): " + [&] {
                      std::string w;
                      for (size_t v = 0; v < sm.ws_extents.size(); ++v) w += (v ? ", " : "") + std::to_string(sm.ws_extents[v]);
                      return w;
                    }() + ", the full-rate workload's at any rate_scale (the thesis's simulator replayed the same "
                          "traces at every capacity level), so the placement does not change with the rate.");
  srcmap_exp::CloseNotes(&r);
  return r;
}

}  // namespace

Experiment MakeSrcmapDay() {
  Experiment e;
  e.info.id = "srcmap.day";
  e.info.lab = "srcmap";
  e.info.title = "A day of SRCMap against caching and replication";
  e.info.summary =
      "Runs the evaluated day's twelve 2-hour intervals through SRCMap, Caching-1, Caching-2, Replication and "
      "Baseline-On on the same disks and requests: each scheme's power per interval, SRCMap's remaps and the load.";
  e.info.reference = "Useche 2012 (SRCMap, FAST'10) §3.7.2, Fig 3.10";
  e.info.params = srcmap_exp::DayParams(0, 0.1, "the thesis: L0", "about 10 s natively for the five schemes");
  e.info.params.push_back(ParamSpec::Real("replica_pct", 10, 0, 50, "%", "SRCMap's replica space, % of each disk (Fig 3.12)."));
  e.run = Run;
  return e;
}

}  // namespace fawnlab
