#include "srcmap/day.h"

#include <algorithm>
#include <unordered_set>

#include "srcmap/day_run.h"

namespace fawnlab::srcmap {

double FractionAbove(const sim::LogHistogram& h, double ns) {
  if (h.count() == 0) return 0;
  double below = 0;
  for (const auto& [v, f] : h.Cdf(1 << 20)) {
    if (v > ns) break;
    below = f;
  }
  return 1 - below;
}

const char* PolicyName(Policy p) {
  switch (p) {
    case Policy::kSrcmap: return "srcmap";
    case Policy::kBaselineOn: return "baseline-on";
    case Policy::kCaching1: return "caching-1";
    case Policy::kCaching2: return "caching-2";
    case Policy::kReplication: return "replication";
  }
  return "?";
}

double IdealWatts(double load_iops, double capacity_iops) {
  const double peak = SystemWatts(kNumDisks);  // Table 3.3(b): 66.1 W with every disk spinning
  if (!(capacity_iops > 0)) return peak;
  return peak * std::min(1.0, load_iops / capacity_iops);
}

namespace {
// Setup + AdvanceTo(t1) + Finish.
StatusOr<DayReport> RunDayFrom(const std::vector<VolumeHistory>& hist, uint32_t extent_bytes, RequestSource* src,
                               int64_t origin_ns, int64_t t0_ns, int64_t t1_ns, const DayConfig& c) {
  DayRun day(hist, extent_bytes, c, origin_ns, t0_ns, t1_ns);
  Status s = day.Setup(src);
  if (!s.ok()) return s;
  auto n = day.AdvanceTo(src, t1_ns, UINT64_MAX);
  if (!n.ok()) return n.status();
  return day.Finish();
}
}  // namespace

StatusOr<DayReport> RunDay(const std::vector<VolumeHistory>& hist, uint32_t extent_bytes, RequestSource* src,
                           int64_t t0_ns, int64_t t1_ns, const DayConfig& c) {
  return RunDayFrom(hist, extent_bytes, src, t0_ns, t0_ns, t1_ns, c);
}

StatusOr<std::vector<VolumeHistory>> GeneratedHistory(const Generator& g, int history_days) {
  if (history_days < 2) return Status::InvalidArgument("day: history_days must be at least 2");
  std::vector<VolumeHistory> hist(static_cast<size_t>(g.num_volumes()));
  std::vector<uint64_t> rd, wr;
  for (int v = 0; v < g.num_volumes(); ++v) {
    VolumeHistory& h = hist[static_cast<size_t>(v)];
    h.bytes = g.config().volumes[static_cast<size_t>(v)].size_bytes;
    h.rho = g.config().volumes[static_cast<size_t>(v)].avg_iops * g.config().rate_scale;
    std::unordered_set<uint64_t> ws;
    int last = history_days - 1;
    for (int d = 0; d < last; ++d) {
      g.TouchedOnDay(v, d, &rd, &wr);
      ws.insert(rd.begin(), rd.end());
      ws.insert(wr.begin(), wr.end());
    }
    g.TouchedOnDay(v, last, &rd, &wr);  // the last day's read misses against the days before
    for (uint64_t e : rd) h.misses += ws.count(e) ? 0 : 1;
    ws.insert(rd.begin(), rd.end());
    ws.insert(wr.begin(), wr.end());
    h.ws.assign(ws.begin(), ws.end());
    std::sort(h.ws.begin(), h.ws.end());
  }
  return hist;
}

StatusOr<DayReport> RunGeneratedDayWith(const Generator& g, const std::vector<VolumeHistory>& hist, const DayConfig& c) {
  if (c.history_days < 2) return Status::InvalidArgument("day: history_days must be at least 2");
  if (!(c.from_h >= 0 && c.to_h <= 24 && c.from_h < c.to_h)) return Status::InvalidArgument("day: need 0 <= from_h < to_h <= 24");
  if (hist.size() != static_cast<size_t>(g.num_volumes())) {
    return Status::InvalidArgument("day: the history has " + std::to_string(hist.size()) + " volumes, the workload " +
                                   std::to_string(g.num_volumes()));
  }
  int64_t day0 = static_cast<int64_t>(c.history_days) * kDayNs;
  // A warm start's interval before the window begins on the last history day when the window
  // starts within T of 00:00.
  const bool before = c.warm_start && c.from_h < c.interval_h;
  auto src = before ? g.Days(c.history_days - 1, 2) : g.Day(c.history_days);
  return RunDayFrom(hist, g.config().extent_bytes, src.get(), day0, day0 + static_cast<int64_t>(c.from_h * 3.6e12),
                    day0 + static_cast<int64_t>(c.to_h * 3.6e12), c);
}

StatusOr<DayReport> RunGeneratedDay(const Generator& g, const DayConfig& c) {
  if (c.history_days < 2) return Status::InvalidArgument("day: history_days must be at least 2");
  if (!(c.from_h >= 0 && c.to_h <= 24 && c.from_h < c.to_h)) return Status::InvalidArgument("day: need 0 <= from_h < to_h <= 24");
  auto hist = GeneratedHistory(g, c.history_days);
  if (!hist.ok()) return hist.status();
  return RunGeneratedDayWith(g, hist.value(), c);
}

StatusOr<std::vector<VolumeHistory>> ImportedHistory(const ImportedTrace& t, int64_t history_ns) {
  if (history_ns <= 0 || history_ns >= t.span_ns) {
    return Status::InvalidArgument("day: the history must end inside the trace (0 < history_ns < span)");
  }
  const uint32_t eb = kImportExtentBytes;
  std::vector<VolumeHistory> hist(t.volume_names.size());
  std::vector<std::unordered_set<uint64_t>> ws(hist.size()), before_last(hist.size());
  std::vector<std::vector<uint64_t>> last_reads(hist.size());
  std::vector<uint64_t> count(hist.size(), 0);
  int64_t last_day = std::max<int64_t>(0, history_ns - kDayNs);
  for (const srcmap::Request& r : t.requests) {
    if (r.t_ns >= history_ns) break;
    uint64_t e = r.offset / eb;
    ++count[r.volume];
    if (r.t_ns >= last_day && !r.write) last_reads[r.volume].push_back(e);
    if (r.t_ns < last_day) before_last[r.volume].insert(e);
    ws[r.volume].insert(e);
  }
  for (size_t v = 0; v < hist.size(); ++v) {
    hist[v].bytes = std::max<uint64_t>(t.volume_bytes[v], eb);
    hist[v].ws.assign(ws[v].begin(), ws[v].end());
    std::sort(hist[v].ws.begin(), hist[v].ws.end());
    std::sort(last_reads[v].begin(), last_reads[v].end());
    last_reads[v].erase(std::unique(last_reads[v].begin(), last_reads[v].end()), last_reads[v].end());
    for (uint64_t e : last_reads[v]) hist[v].misses += before_last[v].count(e) ? 0 : 1;
    hist[v].rho = static_cast<double>(count[v]) / (static_cast<double>(history_ns) / 1e9);
  }
  return hist;
}

StatusOr<DayReport> RunImportedTrace(const ImportedTrace& t, int64_t history_ns, const DayConfig& c) {
  auto hist = ImportedHistory(t, history_ns);
  if (!hist.ok()) return hist.status();
  VectorSource src(&t.requests);
  return RunDayFrom(hist.value(), kImportExtentBytes, &src, history_ns, history_ns, t.span_ns + 1, c);
}

}  // namespace fawnlab::srcmap
