#include "srcmap/experiments/prototype_common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fawnlab::srcmap_exp {

StatusOr<Testbed> MakeTestbed(uint64_t seed, double rate_scale, int history_days) {
  srcmap::WorkloadConfig w = srcmap::EvaluationWorkload(seed);
  w.rate_scale = rate_scale;
  auto g = srcmap::Generator::Create(w);
  if (!g.ok()) return g.status();
  Testbed t;
  t.gen = std::move(g.value());
  t.rate_scale = rate_scale;
  t.history_days = history_days;
  // The history is the full-rate workload's (its long-term IOPS x rate_scale): the working sets
  // the replicas hold and Eq. 3.2's inputs do not depend on the rate the day is replayed at.
  auto full = srcmap::Generator::Create(srcmap::EvaluationWorkload(seed));
  if (!full.ok()) return full.status();
  auto h = srcmap::GeneratedHistory(*full.value(), history_days);
  if (!h.ok()) return h.status();
  t.hist = std::move(h.value());
  for (srcmap::VolumeHistory& x : t.hist) x.rho *= rate_scale;
  return t;
}

StatusOr<srcmap::DayReport> RunOn(const Testbed& t, srcmap::DayConfig c) {
  c.history_days = t.history_days;
  c.capacity_scale *= t.rate_scale;
  return srcmap::RunGeneratedDayWith(*t.gen, t.hist, c);
}

namespace {
int64_t DayNs(const Testbed& t, double h) {
  return static_cast<int64_t>(t.history_days) * srcmap::kDayNs + static_cast<int64_t>(h * 3.6e12);
}
}  // namespace

Window MakeWindow(const Testbed& t, double from_h, double to_h, double max_kept) {
  Window w;
  w.from_h = from_h;
  w.to_h = to_h;
  // The expected count (the volumes' envelopes over the window's minutes), to reserve once.
  double expect = 0;
  for (int v = 0; v < t.gen->num_volumes(); ++v) {
    const std::vector<double> env = t.gen->Envelope(v, t.history_days);
    double sum = 0;
    for (size_t m = static_cast<size_t>(from_h * 60); m < env.size() && static_cast<double>(m) < to_h * 60; ++m) {
      sum += env[m];
    }
    expect += t.gen->config().volumes[static_cast<size_t>(v)].avg_iops * t.rate_scale * 60 * sum +
              static_cast<double>(t.gen->model(v).drift_reads);
  }
  if (expect > max_kept) {
    w.kept = false;
    return w;
  }
  w.requests.reserve(static_cast<size_t>(expect * 1.02) + 4096);
  // From the warm start's interval before the window on (T of a default DayConfig), which
  // begins on the last history day when the window starts within T of 00:00.
  const double warm_h = srcmap::DayConfig{}.interval_h;
  const int64_t t0 = DayNs(t, from_h - warm_h), t1 = DayNs(t, to_h);
  auto src = from_h < warm_h ? t.gen->Days(t.history_days - 1, 2) : t.gen->Day(t.history_days);
  srcmap::Request r;
  while (src->Next(&r) && r.t_ns < t1) {
    if (r.t_ns >= t0) w.requests.push_back(r);
  }
  return w;
}

StatusOr<srcmap::DayReport> RunOnWindow(const Testbed& t, const Window& w, srcmap::DayConfig c) {
  c.from_h = w.from_h;
  c.to_h = w.to_h;
  if (!w.kept) return RunOn(t, c);
  c.history_days = t.history_days;
  c.capacity_scale *= t.rate_scale;
  srcmap::VectorSource src(&w.requests);
  auto r = srcmap::RunDay(t.hist, t.gen->config().extent_bytes, &src, DayNs(t, w.from_h), DayNs(t, w.to_h), c);
  if (!r.ok()) return r.status();
  // RunDay counts time from the window's start; the report's times are hours into the day.
  for (srcmap::MinuteSample& m : r.value().minutes) m.t_h += w.from_h;
  for (srcmap::SpinUp& e : r.value().spin_up_events) e.t_h += w.from_h;
  return r;
}

std::vector<ParamSpec> WindowParams(double from, double hours) {
  return {ParamSpec::Real("from_h", from, 0, 23.5, "h",
                          "Where the window starts, hours into the evaluated day (the thesis replayed \"the most "
                          "dynamic 8-hour window\", §3.7.1)."),
          ParamSpec::Real("hours", hours, 0.5, 24, "h",
                          "The window's length; from_h 0 and 24 h run the whole day (about 1.5 s per run natively).")};
}

std::vector<ParamSpec> DayParams(int level, double rate, const std::string& level_help,
                                 const std::string& full_rate_cost) {
  return {ParamSpec::Int("level", level, 0, 4, "", "Table 3.3(a)'s capacity estimate L0-L4 (" + level_help + ")."),
          ParamSpec::Real("rate_scale", rate, 0.01, 1, "",
                          "Fraction of Table 3.2's intensities, with the disks' capacities scaled alike (1 = full "
                          "rate, " + full_rate_cost + ").")};
}

void AddIntervalSteps(Series* s, const srcmap::DayReport& d, double interval_h, const std::function<double(size_t)>& y) {
  for (size_t k = 0; k < d.intervals.size(); ++k) {
    const double start = d.intervals[k].start_h, v = y(k);
    s->points.emplace_back(start, v);
    s->points.emplace_back(std::min(d.hours, start + interval_h), v);
  }
}

Status ValidateWindow(const ParamValues& p) {
  if (p.Real("from_h") + p.Real("hours") > 24 + 1e-9) {
    return Status::InvalidArgument("from_h (" + Fmt(p.Real("from_h")) + ") + hours (" + Fmt(p.Real("hours")) +
                                   ") must end by 24:00 of the evaluated day");
  }
  return Status::Ok();
}

std::string Fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

bool HasMetric(const Result& r, const std::string& name) {
  for (const auto& m : r.metrics) {
    if (m.first == name) return true;
  }
  return false;
}

double Div(double a, double b) { return b == 0 ? 0 : a / b; }

void AddBandAnchor(Result* r, const std::string& metric, double lo, double hi, AnchorNote note) {
  r->AddAnchor(metric, (lo + hi) / 2, {false, (hi - lo) / 2}, std::move(note));
}

void CloseNotes(Result* r) {
  std::string missed;
  int n = 0;
  for (size_t i = 0; i < r->anchors.size(); ++i) {
    const auto& [metric, want] = r->anchors[i];
    const Tolerance& tol = r->tolerances[i].second;
    const double v = r->Metric(metric);
    if (std::fabs(v - want) <= (tol.relative ? tol.value * std::fabs(want) : tol.value)) continue;
    ++n;
    // A band from 0 (AddBandAnchor's "less than"): the thesis's bound, not the band's middle.
    const bool below = !tol.relative && tol.value == want;
    missed += " " + metric + " = " + Fmt(v) + " (thesis " + (below ? "< " + Fmt(2 * want) : Fmt(want)) +
              "): " + r->anchor_notes[i].second.miss + ".";
  }
  r->notes.push_back(n == 0 ? "Every anchor is met within its tolerance at these parameters."
                            : "Where the lab differs from the thesis (" + std::to_string(n) + " of " +
                                  std::to_string(r->anchors.size()) + " anchors):" + missed);
}

}  // namespace fawnlab::srcmap_exp
