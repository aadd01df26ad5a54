#include "srcmap/day.h"
#include "srcmap/day_testing.h"
#include "sim/rng.h"
#include "srcmap/trace_import.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace fawnlab::srcmap {
namespace {

void Print(const DayReport& r) {
  std::printf("%s: %.1f h, %.2f W avg (all-on %.1f, standby %.1f), %.2f disks spinning, %llu requests, %llu misses, "
              "%llu spin-up waits, %llu sync I/Os, %llu remaps, %llu re-triggers, p50 %.2f ms, p99 %.1f ms, >10 ms %.2f%%\n",
              r.policy.c_str(), r.hours, r.avg_watts, r.all_on_watts, r.standby_watts, r.avg_spinning,
              (unsigned long long)r.requests, (unsigned long long)r.misses, (unsigned long long)r.spinup_waits,
              (unsigned long long)r.sync_ios, (unsigned long long)r.remaps, (unsigned long long)r.retriggers,
              r.response_ns.Quantile(0.5) / 1e6, r.response_ns.Quantile(0.99) / 1e6, 100 * FractionAbove(r.response_ns, 10e6));
  std::printf("  response > 1 ms %.2f%%, > 10 ms %.2f%%, > 100 ms %.3f%% (Fig 3.9: < 8%% over 10 ms, < 2%% over 100 ms); sync I/O > 1.5 ms %.1f%%\n",
              100 * FractionAbove(r.response_ns, 1e6), 100 * FractionAbove(r.response_ns, 10e6),
              100 * FractionAbove(r.response_ns, 100e6), 100 * FractionAbove(r.sync_ns, 1.5e6));
  for (const auto& i : r.intervals) {
    std::printf("  %5.1f h  %5.1f W  active %d (%.2f spinning)  load %6.1f IOPS (pred %6.1f)  remaps %d  sync %llu  misses %llu  spin-ups %llu\n",
                i.start_h, i.watts, i.planned_active, i.avg_spinning, i.load_iops, i.predicted_iops, i.remaps,
                (unsigned long long)i.sync_ios, (unsigned long long)i.misses, (unsigned long long)i.spin_ups);
  }
  std::printf("  overflows %llu, dropped %llu, copy-ins %llu, ws extents:", (unsigned long long)r.overflows,
              (unsigned long long)r.dropped, (unsigned long long)r.copy_ins);
  for (auto x : r.ws_extents) std::printf(" %llu", (unsigned long long)x);
  std::printf("\n  replicas per unit:");
  for (const auto& t : r.replica_targets) std::printf(" %zu", t.size());
  std::printf("\n  spin-ups per disk:");
  for (const auto& d : r.disks)
    std::printf(" %llu(%llu planned, %llu misses)", (unsigned long long)d.spin_ups, (unsigned long long)d.planned_spin_ups,
                (unsigned long long)d.misses);
  std::printf("\n  requests that met a spin-up: %llu (%.4f%%), on a disk outside the active set: %llu (%.4f%%)",
              (unsigned long long)r.spinup_waits, 100.0 * r.spinup_waits / r.requests,
              (unsigned long long)r.miss_spinup_waits, 100.0 * r.miss_spinup_waits / r.requests);
  std::printf("\n");
}

// Every write survives every remap: each read returns the version last written (a reference
// beside the run), and at every remap and at the end each written extent's latest version is
// on the copy the map names or on the primary. Random days, every policy, several levels.
TEST(SrcmapDay, EveryWriteSurvivesConsolidation) {
  for (uint64_t seed : {101u, 202u, 303u}) {
    std::printf("seed %llu\n", (unsigned long long)seed);
    WorkloadConfig w = EvaluationWorkload(seed);
    w.rate_scale = 0.05;
    auto g = Generator::Create(w).value();
    for (Policy p : {Policy::kSrcmap, Policy::kCaching1, Policy::kCaching2, Policy::kReplication}) {
      DayConfig c;
      c.policy = p;
      c.level = static_cast<int>(seed % 5);
      c.check = true;
      c.interval_h = 0.5 + static_cast<double>(seed % 3);  // many remaps
      c.n_sv = p == Policy::kSrcmap ? 1 + static_cast<int>(seed % 3) : 1;
      c.replica_pct = 2 + static_cast<double>(seed % 20);
      c.history_days = 8;
      auto r = RunGeneratedDay(*g, c);
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_EQ(r.value().check_errors, 0u) << PolicyName(p) << ": " << r.value().first_check_error;
      EXPECT_GT(r.value().requests, 10000u);
    }
  }
}

TEST(SrcmapDay, BaselineOnIsFlatAllOn) {
  WorkloadConfig w = EvaluationWorkload(5);
  w.rate_scale = 0.05;
  auto g = Generator::Create(w).value();
  DayConfig c;
  c.policy = Policy::kBaselineOn;
  c.history_days = 3;
  auto r = RunGeneratedDay(*g, c).value();
  EXPECT_NEAR(r.avg_watts, 66.1, 1e-6);
  EXPECT_EQ(r.misses, 0u);
  EXPECT_EQ(r.sync_ios, 0u);
  EXPECT_EQ(r.intervals.size(), 12u);
  for (const auto& d : r.disks) EXPECT_EQ(d.spin_ups, 0u);
}

TEST(SrcmapDay, SameSeedSameDay) {
  WorkloadConfig w = EvaluationWorkload(9);
  w.rate_scale = 0.1;
  auto g = Generator::Create(w).value();
  DayConfig c;
  c.level = 3;
  c.history_days = 5;
  std::string a = DayDigest(RunGeneratedDay(*g, c).value());
  std::string b = DayDigest(RunGeneratedDay(*g, c).value());
  EXPECT_EQ(a, b);
  w.seed = 10;
  auto g2 = Generator::Create(w).value();
  EXPECT_NE(a, DayDigest(RunGeneratedDay(*g2, c).value()));
}

// The planned transitions SRCMap claims: a disk spins up for the plan at most once per
// decision (interval starts and re-triggers); the rest are read misses.
TEST(SrcmapDay, SpinUpsWithinTheClaimedBudget) {
  WorkloadConfig w = EvaluationWorkload(1);
  w.rate_scale = 0.25;
  auto g = Generator::Create(w).value();
  for (int level : {0, 3}) {
    DayConfig c;
    c.level = level;
    c.history_days = 8;
    auto r = RunGeneratedDay(*g, c).value();
    for (const auto& d : r.disks) {
      EXPECT_LE(d.planned_spin_ups, r.intervals.size() + r.retriggers);
      EXPECT_LE(d.spin_ups - d.planned_spin_ups, r.misses + r.overflows);
    }
  }
}

// The prototype's 8-hour window (§3.7.1; hours 2-10 here) timed, and the setup alone (21 days
// of history and the placement) as a 36-second window.
TEST(SrcmapDay, WindowRunTimes) {
  auto g = Generator::Create(EvaluationWorkload(1)).value();
  for (double to : {2.01, 10.0}) {
    DayConfig c;
    c.level = 3;
    c.from_h = 2;
    c.to_h = to;
    auto t = std::chrono::steady_clock::now();
    auto r = RunGeneratedDay(*g, c).value();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    std::printf("hours 2-%.2f at L3: %.2f s native, %llu requests, %.1f W\n", to, s, (unsigned long long)r.requests,
                r.avg_watts);
  }
}

// The thesis's day at defaults (full rate), L0 and L3: printed beside Fig 3.8 and timed.
TEST(SrcmapDay, ThesisDayL0L3) {
  auto g = Generator::Create(EvaluationWorkload(1)).value();
  for (int level : {0, 3}) {
    DayConfig c;
    c.level = level;
    auto t = std::chrono::steady_clock::now();
    auto r = RunGeneratedDay(*g, c).value();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    std::printf("L%d: %.2f s native\n", level, s);
    Print(r);
    std::printf("  saved %.1f W (%.1f%%), %.2f disks down; Fig 3.8: L0 23.5 W (35.5%%), 4.33 down; L3 38.9 W (59%%), 7 down\n",
                r.all_on_watts - r.avg_watts, 100 * (1 - r.avg_watts / r.all_on_watts), 8 - r.avg_spinning);
    for (const auto& d : r.disks) EXPECT_LE(d.spin_ups, 6u);  // Fig 3.11: at most 6 a day per disk
    EXPECT_LT(r.miss_spinup_waits, r.requests * 3 / 100000);  // §3.7.1: < 0.003% meet a miss spin-up
  }
}

}  // namespace
}  // namespace fawnlab::srcmap

namespace fawnlab::srcmap {
namespace {

// An imported trace (here: two generated days written out as MSR CSV lines and read back):
// the first day is the history, the second is run through SRCMap, every read checked.
TEST(SrcmapDay, ImportedTraceRuns) {
  WorkloadConfig w = EvaluationWorkload(21);
  w.rate_scale = 0.02;
  auto g = Generator::Create(w).value();
  auto src = g->Days(0, 2);
  std::string csv;
  Request r;
  while (src->Next(&r)) {
    csv += std::to_string(128166372000000000ull + static_cast<uint64_t>(r.t_ns / 100)) + ",h," + std::to_string(r.volume) +
           (r.write ? ",Write," : ",Read,") + std::to_string(r.offset) + "," + std::to_string(r.bytes) + ",100\n";
  }
  auto t = ImportMsrCsv(csv);
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t.value().volume_names.size(), 8u);
  DayConfig c;
  c.level = 3;
  c.check = true;
  auto rep = RunImportedTrace(t.value(), kDayNs - t.value().requests.front().t_ns, c);
  ASSERT_TRUE(rep.ok()) << rep.status().message();
  EXPECT_EQ(rep.value().check_errors, 0u) << rep.value().first_check_error;
  EXPECT_GT(rep.value().requests, 1000u);
  EXPECT_LT(rep.value().avg_watts, 66.1);
  EXPECT_FALSE(RunImportedTrace(t.value(), 0, c).ok());
}

}  // namespace
}  // namespace fawnlab::srcmap

namespace fawnlab::srcmap {
namespace {

// Fig 3.10's comparison at L0 on the thesis's day: each policy's power per interval (printed)
// and SRCMap drawing the least over the day.
TEST(SrcmapDay, PoliciesAtL0) {
  auto g = Generator::Create(EvaluationWorkload(1)).value();
  double srcmap_w = 0;
  for (Policy p : {Policy::kSrcmap, Policy::kBaselineOn, Policy::kCaching1, Policy::kCaching2, Policy::kReplication}) {
    DayConfig c;
    c.policy = p;
    c.level = 0;
    auto r = RunGeneratedDay(*g, c).value();
    std::printf("%-12s %5.1f W avg, > 10 ms %.2f%%, > 100 ms %.3f%%:", PolicyName(p), r.avg_watts,
                100 * FractionAbove(r.response_ns, 10e6), 100 * FractionAbove(r.response_ns, 100e6));
    for (const auto& i : r.intervals) std::printf(" %4.1f", i.watts);
    std::printf("  remaps %llu, misses %llu\n", (unsigned long long)r.remaps, (unsigned long long)r.misses);
    if (p == Policy::kReplication) {
      EXPECT_EQ(r.misses, 0u);  // full copies never miss
    }
    if (p == Policy::kSrcmap) {
      srcmap_w = r.avg_watts;
    } else {
      EXPECT_LT(srcmap_w, r.avg_watts) << PolicyName(p);
    }
  }
}

}  // namespace
}  // namespace fawnlab::srcmap

namespace fawnlab::srcmap {
namespace {

// The mid-interval re-trigger (§3.6.2): history says the volumes are nearly idle, so the first
// interval keeps one disk; then every volume runs at 40 IOPS (320 in all, over any one disk's
// 150 at L3) for ten minutes. After five overloaded minutes identification reruns and more
// disks join; with the re-trigger off the one disk stays alone.
TEST(SrcmapDay, RetriggerOnSustainedOverload) {
  std::vector<VolumeHistory> hist(8);
  const uint32_t eb = 65536;
  for (int v = 0; v < 8; ++v) {
    hist[static_cast<size_t>(v)].bytes = 1000 * uint64_t{eb};
    for (uint64_t e = 0; e < 100; ++e) hist[static_cast<size_t>(v)].ws.push_back(e);
    hist[static_cast<size_t>(v)].rho = 0.5;
  }
  std::vector<Request> reqs;
  sim::Rng rng(5);
  for (int64_t t = 60'000'000'000; t < 660'000'000'000; t += 3'125'000) {  // 320 requests/s
    Request r;
    r.t_ns = t;
    r.volume = static_cast<uint32_t>(rng.UniformU64(8));
    r.write = rng.Bernoulli(0.5);
    r.offset = rng.UniformU64(100) * eb;
    r.bytes = 4096;
    reqs.push_back(r);
  }
  for (bool on : {true, false}) {
    DayConfig c;
    c.level = 3;
    c.retrigger = on;
    c.replica_pct = 100;  // room for every other volume's 125-extent replica
    c.check = true;
    VectorSource src(&reqs);
    auto r = RunDay(hist, eb, &src, 0, int64_t{3600} * 1000000000, c).value();
    EXPECT_EQ(r.check_errors, 0u) << r.first_check_error;
    ASSERT_EQ(r.intervals.size(), 1u);
    if (on) {
      EXPECT_GE(r.retriggers, 1u);
      EXPECT_GT(r.intervals[0].planned_active, 1);
    } else {
      EXPECT_EQ(r.retriggers, 0u);
      EXPECT_EQ(r.intervals[0].planned_active, 1);
    }
  }
}

}  // namespace
}  // namespace fawnlab::srcmap
