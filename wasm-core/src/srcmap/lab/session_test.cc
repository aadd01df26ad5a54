// The "srcmap" session through CreateSession: a default hour consistent across its panels,
// the day's end equal to RunGeneratedDay's report, seeds, the live level, locate against the
// replica manager, a loaded trace, and every operation's bad argument refused.
#include "srcmap/lab/session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "base/json_reader.h"
#include "sim/time.h"

namespace fawnlab::srcmap {
namespace {

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::unique_ptr<SrcmapSession> Make(const std::string& config, uint64_t seed = 1) {
  auto s = CreateSessionAs<SrcmapSession>("srcmap", config, seed);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(s).value() : nullptr;
}

JsonValue Snap(SrcmapSession& s) {
  auto v = ParseJson(s.SnapshotJson());
  EXPECT_TRUE(v.ok()) << v.status().message();
  return v.ok() ? v.value() : JsonValue();
}

double Num(const JsonValue& v, const char* path1, const char* path2 = nullptr) {
  const JsonValue* x = v.Find(path1);
  if (x && path2) x = x->Find(path2);
  EXPECT_NE(x, nullptr) << path1 << (path2 ? path2 : "");
  return x ? x->number_value() : -1;
}

std::string Refused(SrcmapSession& s, const std::string& op) {
  auto r = s.Apply(op);
  EXPECT_FALSE(r.ok()) << op << " should be refused";
  return r.ok() ? "" : r.status().message();
}

// Two generated days as MSR CSV lines (the first is the history), under the operations' 1 MB.
std::string SmallCsv() {
  WorkloadConfig w = EvaluationWorkload(21);
  w.rate_scale = 0.001;
  auto g = Generator::Create(w).value();
  auto src = g->Days(0, 2);
  std::string csv = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n";
  Request r;
  while (src->Next(&r)) {
    csv += std::to_string(128166372000000000ull + static_cast<uint64_t>(r.t_ns / 100)) + ",h," + std::to_string(r.volume) +
           (r.write ? ",Write," : ",Read,") + std::to_string(r.offset) + "," + std::to_string(r.bytes) + ",100\n";
  }
  return csv;
}

TEST(SrcmapSession, DefaultsRunAnHourConsistently) {
  auto s = Make("{}");
  ASSERT_TRUE(s);
  for (int i = 0; i < 12; ++i) s->Advance(5 * 60 * sim::kSec, 100'000'000);
  JsonValue v = Snap(*s);
  EXPECT_EQ(Num(v, "t_ns"), 3600e9);
  EXPECT_FALSE(v.Find("done")->bool_value());
  EXPECT_EQ(v.Find("workload")->string_value(), "generated");
  const auto& disks = v.Find("disks")->array_items();
  ASSERT_EQ(disks.size(), 8u);
  EXPECT_EQ(disks[0].Find("id")->string_value(), "D0");
  EXPECT_EQ(disks[0].Find("volume")->string_value(), "home-1");
  int active = 0, not_standby = 0;
  double disk_iops = 0;
  for (const JsonValue& d : disks) {
    active += d.Find("active")->bool_value();
    const std::string st = d.Find("state")->string_value();
    EXPECT_TRUE(st == "spinning" || st == "idle" || st == "standby" || st == "spinning-up") << st;
    not_standby += st != "standby";
    disk_iops += d.Find("iops")->number_value();
  }
  EXPECT_EQ(active, Num(v, "interval", "planned_active"));
  EXPECT_GE(not_standby, active);
  // Power: between the standby floor and all-on; "watts" is Table 3.3(b) at the disks now.
  const double watts = Num(v, "power", "watts");
  EXPECT_GE(watts, Num(v, "power", "standby_watts"));
  EXPECT_LE(watts, Num(v, "power", "all_on_watts"));
  EXPECT_NEAR(Num(v, "power", "all_on_watts"), 66.1, 1e-9);
  // Flows: the last minute's requests, each on one edge; the disks served those and more.
  double flows = 0, volumes = 0;
  for (const JsonValue& f : v.Find("flows")->array_items()) flows += f.Find("iops")->number_value();
  for (const JsonValue& x : v.Find("volumes")->array_items()) volumes += x.Find("iops")->number_value();
  EXPECT_GT(flows, 10);
  EXPECT_NEAR(flows, volumes, 0.05 * 8);  // rounding to 0.01 per entry
  EXPECT_GE(disk_iops + 0.1, flows);
  EXPECT_GT(Num(v, "totals", "requests"), 100000);
  // The power view: a row per minute.
  auto c = s->Columns("power", "{}");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c.value().Find("t_h")->f64.size(), 60u);
  EXPECT_EQ(c.value().Find("watts")->f64.size(), 60u);
  EXPECT_NEAR(c.value().Find("t_h")->f64[59], 59.0 / 60, 1e-9);
  EXPECT_LE(v.Find("events")->array_items().size(), SrcmapSession::kEvents);
}

// Run to 24:00: the snapshot's day equals RunGeneratedDay's report for the same config.
TEST(SrcmapSession, TheDaysEndIsRunGeneratedDaysReport) {
  auto s = Make(R"({"rate_scale": 0.1, "history_days": 4, "level": 3})");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->Apply(R"({"op": "run_to", "hour": 9.5})").ok());
  for (int i = 0; i < 100 && !s->done(); ++i) s->Advance(20 * 60 * sim::kSec, 300'000);  // budgets stop some
  ASSERT_TRUE(s->done());
  EXPECT_EQ(s->Busy(), 0);
  EXPECT_EQ(s->Advance(INT64_MAX, UINT64_MAX), 0u);
  EXPECT_EQ(s->Advance(sim::kSec, 10), 0u);
  WorkloadConfig w = EvaluationWorkload(1);
  w.rate_scale = 0.1;
  auto g = Generator::Create(w).value();
  DayReport r = RunGeneratedDay(*g, s->day_config()).value();
  const std::string text = s->SnapshotJson();
  uint64_t fnv = 14695981039346656037ull;
  for (unsigned char ch : text) fnv = (fnv ^ ch) * 1099511628211ull;
  std::printf("the day at rate 0.1, L3, seed 1: snapshot %zu bytes, FNV-1a %016llx (the WASM build's must match)\n",
              text.size(), (unsigned long long)fnv);
  JsonValue v = Snap(*s);
  EXPECT_TRUE(v.Find("done")->bool_value());
  EXPECT_EQ(Num(v, "t_h"), 24);
  EXPECT_EQ(Num(v, "totals", "requests"), static_cast<double>(r.requests));
  uint64_t ups = 0;
  for (const auto& d : r.disks) ups += d.spin_ups;
  EXPECT_EQ(Num(v, "totals", "spin_ups"), static_cast<double>(ups));
  EXPECT_EQ(Num(v, "totals", "remaps"), static_cast<double>(r.remaps));
  {  // each spin-up tick carries its cause, the report's
    auto cols = s->Columns("power", "{}");
    ASSERT_TRUE(cols.ok());
    const auto* cause = cols.value().Find("spin_up_cause");
    ASSERT_NE(cause, nullptr);
    ASSERT_EQ(cause->f64.size(), r.spin_up_events.size());
    for (size_t i = 0; i < r.spin_up_events.size(); ++i) {
      EXPECT_EQ(cause->f64[i], static_cast<double>(r.spin_up_events[i].cause)) << i;
    }
  }
  EXPECT_NEAR(Num(v, "power", "avg_watts"), r.avg_watts, 0.0005);
  ASSERT_NE(s->report(), nullptr);
  EXPECT_EQ(s->report()->avg_watts, r.avg_watts);
  EXPECT_EQ(s->report()->minutes.size(), 1440u);
  EXPECT_EQ(s->Columns("power", "{}").value().Find("t_h")->f64.size(), 1440u);
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "run_to", "hour": 23})"), "forward only"));
}

TEST(SrcmapSession, SeedsDifferAndRepeat) {
  const std::string cfg = R"({"rate_scale": 0.1, "history_days": 3})";
  auto a = Make(cfg, 5), b = Make(cfg, 5), c = Make(cfg, 6);
  ASSERT_TRUE(a && b && c);
  for (auto* s : {a.get(), b.get(), c.get()}) s->Advance(30 * 60 * sim::kSec, 10'000'000);
  EXPECT_EQ(a->SnapshotJson(), b->SnapshotJson());
  EXPECT_NE(a->SnapshotJson(), c->SnapshotJson());
}

TEST(SrcmapSession, LevelChangeTakesEffectAtOnce) {
  auto s = Make(R"({"rate_scale": 0.2, "history_days": 3, "level": 0})");
  ASSERT_TRUE(s);
  s->Advance(10 * 60 * sim::kSec, 10'000'000);
  const JsonValue v0 = Snap(*s);
  const double before = Num(v0, "interval", "planned_active");
  const std::vector<double> ideal0 = s->Columns("power", "{}").value().Find("ideal_watts")->f64;
  ASSERT_TRUE(s->Reconfigure(R"({"level": 4})").ok());
  EXPECT_EQ(s->Columns("power", "{}").value().Find("ideal_watts")->f64, ideal0) << "the past minutes keep their level's ideal";
  JsonValue v = Snap(*s);
  if (Num(v, "totals", "remaps") > Num(v0, "totals", "remaps")) {
    EXPECT_EQ(s->Busy(), 1) << "the remaps' sync I/O is pending";
  }
  // Step runs one request.
  const double requests = Num(v, "totals", "requests");
  EXPECT_TRUE(s->Step());
  EXPECT_EQ(Num(Snap(*s), "totals", "requests"), requests + 1);
  EXPECT_EQ(Num(v, "level"), 4);
  EXPECT_EQ(Num(v, "t_ns"), 600e9) << "no time passed";
  EXPECT_GT(Num(v, "totals", "remaps"), Num(v0, "totals", "remaps"));
  const double after = Num(v, "interval", "planned_active");
  EXPECT_LT(after, before) << "L4's capacities take the load on fewer disks";
  int active = 0;
  for (const JsonValue& d : v.Find("disks")->array_items()) active += d.Find("active")->bool_value();
  EXPECT_EQ(active, after);
  const auto& ev = v.Find("events")->array_items();
  bool seen = false;
  for (const JsonValue& e : ev) seen |= Contains(e.Find("detail")->string_value(), "level L4");
  EXPECT_TRUE(seen);
  EXPECT_TRUE(Contains(s->Reconfigure(R"({"policy": "caching-1"})").message(), "'policy' cannot change while"));
}

// locate's answers are the replica manager's: the serving disk, the replicas, dirty, and the
// disks with the latest version (one at least: consolidation keeps every write).
TEST(SrcmapSession, LocateAgreesWithTheReplicaManager) {
  auto s = Make(R"({"rate_scale": 0.1, "history_days": 3, "level": 3})");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->Apply(R"({"op": "run_to", "hour": 5})").ok());
  const DayRun& run = s->run();
  const ReplicaManager& rm = run.replicas();
  int checked = 0, dirty = 0, replicated = 0;
  for (int v = 0; v < run.num_volumes(); ++v) {
    const auto& ws = run.history(v).ws;
    for (size_t i = 0; i < ws.size(); i += std::max<size_t>(1, ws.size() / 40)) {
      const uint64_t e = ws[i];
      const double mb = static_cast<double>(e * run.extent_bytes() + 100) / 1e6;
      auto r = s->Apply(R"({"op": "locate", "volume": )" + std::to_string(v) + R"(, "offset_mb": )" + std::to_string(mb) + "}");
      ASSERT_TRUE(r.ok()) << r.status().message();
      JsonValue x = ParseJson(r.value()).value();
      const uint64_t got = static_cast<uint64_t>(x.Find("extent")->number_value());
      EXPECT_LE(got > e ? got - e : e - got, 1u);  // the MB text's rounding
      const int u = rm.UnitOf(v, got);
      EXPECT_EQ(x.Find("serving")->number_value(), rm.ServingDisk(u));
      EXPECT_EQ(x.Find("serving")->number_value(), run.serve()[static_cast<size_t>(u)]);
      EXPECT_EQ(x.Find("primary")->number_value(), v);
      std::vector<int> reps;
      for (const JsonValue& d : x.Find("replicas")->array_items()) reps.push_back(static_cast<int>(d.number_value()));
      std::vector<int> want = run.targets()[static_cast<size_t>(u)];
      std::sort(want.begin(), want.end());
      EXPECT_EQ(reps, want);
      const bool is_dirty = rm.Latest(v, got) > rm.PrimaryVersion(v, got);
      EXPECT_EQ(x.Find("dirty")->bool_value(), is_dirty);
      const auto& latest = x.Find("latest_on")->array_items();
      EXPECT_FALSE(latest.empty());
      if (is_dirty) {
        for (const JsonValue& d : latest) EXPECT_NE(d.number_value(), v) << "the primary is stale";
      }
      checked += 1;
      dirty += is_dirty;
      replicated += !reps.empty();
    }
  }
  std::printf("locate: %d extents checked, %d dirty, %d with replicas\n", checked, dirty, replicated);
  EXPECT_GT(replicated, 0);
}

TEST(SrcmapSession, LoadTraceRunsAndNamesABadLine) {
  auto s = Make(R"({"level": 3})");
  ASSERT_TRUE(s);
  s->Advance(60 * sim::kSec, 1'000'000);
  const std::string csv = SmallCsv();
  ASSERT_LT(csv.size(), 1000000u);
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("load_trace");
  w.Key("csv");
  w.String(csv);
  w.Key("history_h");
  w.Number(24);
  w.EndObject();
  auto r = s->Apply(w.str());
  ASSERT_TRUE(r.ok()) << r.status().message();
  JsonValue v = Snap(*s);
  EXPECT_EQ(v.Find("workload")->string_value(), "trace");
  EXPECT_EQ(Num(v, "t_ns"), 0);
  EXPECT_EQ(v.Find("volumes")->array_items()[0].Find("name")->string_value().substr(0, 2), "h:");  // in order of first appearance
  ASSERT_TRUE(s->Apply(R"({"op": "run_to", "hour": 24})").ok());
  v = Snap(*s);
  EXPECT_TRUE(v.Find("done")->bool_value());
  EXPECT_GT(Num(v, "totals", "requests"), 3000);
  EXPECT_LT(Num(v, "power", "avg_watts"), 66.1);
  // A malformed third line: the error names it; the day that ran stays.
  std::string bad = csv;
  size_t second = bad.find('\n', bad.find('\n') + 1);
  bad.insert(second + 1, "128166372000000000,h,0,Erase,0,4096,100\n");
  JsonWriter b;
  b.BeginObject();
  b.Key("op");
  b.String("load_trace");
  b.Key("csv");
  b.String(bad);
  b.Key("history_h");
  b.Number(24);
  b.EndObject();
  const std::string msg = Refused(*s, b.str());
  EXPECT_TRUE(Contains(msg, "line 3")) << msg;
  EXPECT_TRUE(Snap(*s).Find("done")->bool_value());
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "load_trace", "csv": "", "history_h": 1})"), "load_trace"));
}

TEST(SrcmapSession, BadArgumentsAreRefused) {
  auto s = Make(R"({"rate_scale": 0.05, "history_days": 2})");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->Apply(R"({"op": "run_to", "hour": 2})").ok());
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "run_to", "hour": 1})"), "forward only"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "run_to", "hour": 25})"), "'hour'"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "run_to"})"), "'hour' is required"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "locate", "volume": 8, "offset_mb": 0})"), "'volume'"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "locate", "volume": 0, "offset_mb": -1})"), "'offset_mb'"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "locate", "volume": 0, "offset_mb": 9000000})"), "past the end of volume 0"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "load_trace", "csv": "x", "history_h": 0})"), "'history_h' must be > 0"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "load_trace", "csv": "1,h,0,Read,0,4096,1\n2,h,0,Read,0,4096,1", "history_h": 5})"),
                       "not inside the trace"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "load_trace", "history_h": 5})"), "'csv' is required"));
  EXPECT_TRUE(Contains(Refused(*s, R"({"op": "fly"})"), "unknown operation 'fly'"));
  EXPECT_TRUE(Contains(s->Reconfigure(R"({"level": 5})").message(), "'level'"));
  auto bad = CreateSession("srcmap", R"({"policy": "magic"})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(Contains(bad.status().message(), "'policy'"));
  EXPECT_TRUE(Contains(s->Columns("power", R"({"x": 1})").status().message(), "'x'"));
}

}  // namespace
}  // namespace fawnlab::srcmap

namespace fawnlab::srcmap {
namespace {

// Printed: the session's setup (the 21-day history and the placement) and its requests per
// second at the defaults (full rate), natively.
TEST(SrcmapSession, RunTimes) {
  auto t0 = std::chrono::steady_clock::now();
  auto s = CreateSessionAs<SrcmapSession>("srcmap", "{}", 99).value();
  auto t1 = std::chrono::steady_clock::now();
  uint64_t n = 0;
  for (int i = 0; i < 48; ++i) n += s->Advance(5 * 60 * sim::kSec, 100'000'000);
  auto t2 = std::chrono::steady_clock::now();
  std::string snap;
  for (int i = 0; i < 100; ++i) snap = s->SnapshotJson();
  auto t3 = std::chrono::steady_clock::now();
  auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::printf("srcmap session: setup %.3f s, %llu requests in 4 h of the day in %.3f s (%.2f M requests/s), "
              "snapshot %.2f ms (%zu bytes)\n",
              secs(t0, t1), (unsigned long long)n, secs(t1, t2), static_cast<double>(n) / secs(t1, t2) / 1e6,
              secs(t2, t3) * 10, snap.size());
  EXPECT_GT(n, 1000000u);
}

}  // namespace
}  // namespace fawnlab::srcmap
