// SrcmapSession::SnapshotJson (the per-frame picture; its fields: docs/srcmap/session.md) and
// the "power" column view.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "srcmap/lab/session.h"
#include "srcmap/profile.h"

namespace fawnlab::srcmap {
namespace {

double Round(double v, double unit) { return std::round(v / unit) * unit; }
double Hours(int64_t ns) { return static_cast<double>(ns) / 3.6e12; }

void Num(JsonWriter& w, const char* k, double v) {
  w.Key(k);
  w.Number(v);
}
void Int(JsonWriter& w, const char* k, int64_t v) {
  w.Key(k);
  w.Int(v);
}
void Str(JsonWriter& w, const char* k, const std::string& v) {
  w.Key(k);
  w.String(v);
}
void IntIfAny(JsonWriter& w, const char* k, int v) {  // absent where it does not apply
  if (v >= 0) Int(w, k, v);
}

const char* StateName(DiskServer::State s, bool busy_last_minute) {
  switch (s) {
    case DiskServer::kStandby: return "standby";
    case DiskServer::kSpinningUp: return "spinning-up";
    case DiskServer::kSpinning: return busy_last_minute ? "spinning" : "idle";
  }
  return "?";
}

double DiskWatts(const DiskPower& pw, DiskServer::State s) {
  return s == DiskServer::kStandby ? pw.standby_w : s == DiskServer::kSpinningUp ? pw.spinup_w : pw.spinning_w;
}

}  // namespace

std::string SrcmapSession::VolumeName(int v) const {
  if (trace_) return trace_->volume_names[static_cast<size_t>(v)];
  return EvaluationVolumes()[static_cast<size_t>(v)].name;
}

std::string SrcmapSession::SnapshotJson() {
  JsonWriter w;
  w.BeginObject();
  Int(w, "t_ns", now_ns());
  Num(w, "t_h", Hours(now_ns()));
  w.Key("done");
  w.Bool(done());
  Str(w, "policy", config_.policy);
  Int(w, "level", config_.level);
  Num(w, "interval_h", config_.interval_h);
  Str(w, "workload", trace_ ? "trace" : "generated");
  if (!last_error_.empty()) Str(w, "error", last_error_);
  WriteInterval(w);
  WriteDisks(w);
  WriteVolumes(w);
  WritePower(w);
  WriteTotals(w);
  WriteEvents(w);
  w.EndObject();
  return w.str();
}

void SrcmapSession::WriteInterval(JsonWriter& w) const {
  const DayRun& r = *run_;
  w.Key("interval");
  w.BeginObject();
  if (report_ && !report_->intervals.empty()) {  // the day is over: its last interval
    const IntervalReport& i = report_->intervals.back();
    Int(w, "index", static_cast<int64_t>(report_->intervals.size() - 1));
    Num(w, "start_h", Round(i.start_h, 1e-6));
    Int(w, "planned_active", i.planned_active);
    Num(w, "predicted_iops", Round(i.predicted_iops, 0.01));
    Num(w, "capacity_iops", Round(r.active_capacity(), 0.01));
    Num(w, "load_iops", Round(i.load_iops, 0.01));
    Int(w, "remaps", i.remaps);
  } else {
    const IntervalReport& i = r.interval();
    const double secs = static_cast<double>(r.now() - r.interval_start()) / 1e9;
    Int(w, "index", r.interval_index());
    Num(w, "start_h", Round(Hours(r.interval_start() - r.origin()), 1e-6));
    Int(w, "planned_active", i.planned_active);
    Num(w, "predicted_iops", Round(i.predicted_iops, 0.01));
    Num(w, "capacity_iops", Round(r.active_capacity(), 0.01));
    Num(w, "load_iops", Round(secs > 0 ? static_cast<double>(r.interval_requests()) / secs : 0, 0.01));
    Int(w, "remaps", i.remaps);
  }
  w.EndObject();
}

void SrcmapSession::WriteDisks(JsonWriter& w) const {
  const DayRun& r = *run_;
  const auto& io = r.last_minute_disk_io();
  w.Key("disks");
  w.BeginArray();
  for (int j = 0; j < r.num_disks(); ++j) {
    const bool primary = j < r.num_volumes();
    const DiskServer& d = r.disk(j);
    const DiskServer::State s = r.StateNow(j);
    const bool busy = io[static_cast<size_t>(j)] > 0 || d.free_at() > r.now() || d.head_free_at() > r.now();
    w.BeginObject();
    Str(w, "id", primary ? "D" + std::to_string(j) : "C" + std::to_string(j - r.num_volumes()));
    Str(w, "volume", primary ? VolumeName(j) : "");
    // A cache volume is a WD360GD-class disk (docs/decisions.md, SRCMap: the replica manager...).
    Str(w, "model", ModelSpec(primary && j < kNumDisks ? EvaluationVolumes()[static_cast<size_t>(j)].model : DiskModel::kWd360gd).name);
    Str(w, "kind", primary ? "primary" : "cache");
    Str(w, "state", StateName(s, busy));
    w.Key("active");
    w.Bool(r.active()[static_cast<size_t>(j)]);
    Num(w, "iops", Round(static_cast<double>(io[static_cast<size_t>(j)]) / 60.0, 0.01));
    Int(w, "spin_ups", static_cast<int64_t>(d.spin_ups()));
    Int(w, "served", static_cast<int64_t>(d.served()));
    Int(w, "misses", static_cast<int64_t>(r.disk_misses(j)));
    Num(w, "watts", Round(DiskWatts(d.power(), s), 0.001));
    w.EndObject();
  }
  w.EndArray();
}

void SrcmapSession::WriteVolumes(JsonWriter& w) const {
  const DayRun& r = *run_;
  const ReplicaManager& rm = r.replicas();
  const auto& req = r.last_minute_volume_requests();
  w.Key("volumes");
  w.BeginArray();
  for (int v = 0; v < r.num_volumes(); ++v) {
    w.BeginObject();
    Str(w, "id", "D" + std::to_string(v));
    Str(w, "name", VolumeName(v));
    Num(w, "iops", Round(static_cast<double>(req[static_cast<size_t>(v)]) / 60.0, 0.01));
    std::vector<int> holders;
    w.Key("serving");
    w.BeginArray(true);
    for (int u = 0; u < r.num_units(); ++u) {
      if (rm.VdiskOf(u) != v) continue;
      w.Int(r.serve()[static_cast<size_t>(u)]);
      for (int d = 0; d < r.num_disks(); ++d)
        if (rm.ReplicaOn(u, d) >= 0) holders.push_back(d);
    }
    w.EndArray();
    std::sort(holders.begin(), holders.end());
    holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
    w.Key("replicas");
    w.BeginArray(true);
    for (int d : holders) w.Int(d);
    w.EndArray();
    Int(w, "dirty_extents", static_cast<int64_t>(rm.DirtyExtents(v)));
    w.EndObject();
  }
  w.EndArray();
  // The last whole minute's foreground I/O per volume-disk edge.
  const auto& edges = r.last_minute_edges();
  w.Key("flows");
  w.BeginArray();
  for (int v = 0; v < r.num_volumes(); ++v) {
    for (int d = 0; d < r.num_disks(); ++d) {
      uint64_t n = edges[static_cast<size_t>(v)][static_cast<size_t>(d)];
      if (n == 0) continue;
      w.BeginObject();
      Int(w, "volume", v);
      Int(w, "disk", d);
      Num(w, "iops", Round(static_cast<double>(n) / 60.0, 0.01));
      w.EndObject();
    }
  }
  w.EndArray();
}

void SrcmapSession::WritePower(JsonWriter& w) const {
  const DayRun& r = *run_;
  const DiskPower& pw = r.config().power;
  const int caches = r.num_disks() - r.num_volumes();
  int spinning = 0;
  double cache_w = 0;
  for (int j = 0; j < r.num_disks(); ++j) {
    DiskServer::State s = r.StateNow(j);
    if (j < r.num_volumes()) spinning += s != DiskServer::kStandby;
    else cache_w += DiskWatts(pw, s);
  }
  const double all_on = SystemWatts(r.num_volumes()) + caches * pw.spinning_w;
  double avg = SystemWatts(spinning) + cache_w;
  if (report_) {
    avg = report_->avg_watts;
  } else if (!r.minutes().empty()) {
    double sum = 0;
    for (const MinuteSample& m : r.minutes()) sum += m.watts;
    avg = sum / static_cast<double>(r.minutes().size());
  }

  w.Key("power");
  w.BeginObject();
  Num(w, "watts", Round(SystemWatts(spinning) + cache_w, 0.001));
  Num(w, "all_on_watts", Round(all_on, 0.001));
  Num(w, "standby_watts", Round(SystemWatts(0) + caches * pw.standby_w, 0.001));
  Num(w, "ideal_watts", Round(r.minute_ideal_watts().empty() ? 0 : r.minute_ideal_watts().back(), 0.001));
  Num(w, "avg_watts", Round(avg, 0.001));
  Num(w, "saved_pct", Round(100 * (1 - avg / all_on), 0.01));
  w.EndObject();
}

void SrcmapSession::WriteTotals(JsonWriter& w) const {
  const DayReport& t = report_ ? *report_ : run_->totals();
  uint64_t spin_ups = 0;
  for (int j = 0; j < run_->num_disks(); ++j) spin_ups += run_->disk(j).spin_ups();
  w.Key("totals");
  w.BeginObject();
  Int(w, "requests", static_cast<int64_t>(t.requests));
  Int(w, "reads", static_cast<int64_t>(t.reads));
  Int(w, "writes", static_cast<int64_t>(t.writes));
  Int(w, "misses", static_cast<int64_t>(t.misses));
  Int(w, "sync_ios", static_cast<int64_t>(t.sync_ios));
  Int(w, "remaps", static_cast<int64_t>(t.remaps));
  Int(w, "spin_ups", static_cast<int64_t>(spin_ups));
  Int(w, "spinup_waits", static_cast<int64_t>(t.spinup_waits));
  Num(w, "over_10ms_pct", Round(100 * FractionAbove(t.response_ns, 10e6), 0.0001));
  Num(w, "over_100ms_pct", Round(100 * FractionAbove(t.response_ns, 100e6), 0.0001));
  w.EndObject();
}

void SrcmapSession::WriteEvents(JsonWriter& w) const {
  const auto& ev = run_->events();
  w.Key("events");
  w.BeginArray();
  for (size_t i = ev.size() > kEvents ? ev.size() - kEvents : 0; i < ev.size(); ++i) {
    const DayEvent& e = ev[i];
    w.BeginObject();
    Num(w, "t_h", Round(Hours(e.t_ns - run_->origin()), 1e-6));
    Str(w, "kind", DayEventKindName(e.kind));
    IntIfAny(w, "disk", e.disk);
    IntIfAny(w, "volume", e.volume);
    Str(w, "detail", e.detail);
    w.EndObject();
  }
  w.EndArray();
}

StatusOr<ColumnSet> SrcmapSession::View(const std::string& name, const ParamValues&) {
  if (name != "power") return Status::InvalidArgument("unknown view '" + name + "'");
  const DayRun& r = *run_;
  const auto& minutes = report_ ? report_->minutes : r.minutes();
  std::vector<double> t, watts, spinning, load;
  for (const MinuteSample& m : minutes) {
    t.push_back(m.t_h);
    watts.push_back(m.watts);
    spinning.push_back(m.spinning);
    load.push_back(m.load_iops);
  }
  std::vector<double> ideal(r.minute_ideal_watts().begin(), r.minute_ideal_watts().begin() + static_cast<std::ptrdiff_t>(minutes.size()));
  std::vector<double> up_h, up_disk, up_cause;
  const double end_h = minutes.empty() ? 0 : minutes.back().t_h + 1.0 / 60;
  for (const SpinUp& s : report_ ? report_->spin_up_events : r.spin_up_events()) {
    if (s.t_h >= end_h) continue;  // the I/O that ran after the day
    up_h.push_back(s.t_h);
    up_disk.push_back(s.disk);
    up_cause.push_back(static_cast<double>(s.cause));  // 0 planned, 1 read miss, 2 other I/O
  }
  ColumnSet c;
  c.F64("t_h", std::move(t))
      .F64("watts", std::move(watts))
      .F64("spinning", std::move(spinning))
      .F64("load_iops", std::move(load))
      .F64("ideal_watts", std::move(ideal))
      .Numbers("spin_up_h", std::move(up_h))
      .Numbers("spin_up_disk", std::move(up_disk))
      .Numbers("spin_up_cause", std::move(up_cause));
  return c;
}

}  // namespace fawnlab::srcmap
