// The day driver's report additions: per-minute samples, spin-up events, per-interval volume
// and disk figures, Eq. 3.1's ideal, capacity_scale, and the shared history
// (GeneratedHistory + RunGeneratedDayWith == RunGeneratedDay).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "srcmap/day.h"
#include "srcmap/day_testing.h"

namespace fawnlab::srcmap {
namespace {

std::unique_ptr<Generator> Small(uint64_t seed, double rate) {
  WorkloadConfig w = EvaluationWorkload(seed);
  w.rate_scale = rate;
  return Generator::Create(w).value();
}

TEST(SrcmapDayExtras, SharedHistoryIsTheSameDay) {
  auto g = Small(7, 0.05);
  for (Policy p : {Policy::kSrcmap, Policy::kCaching2}) {
    DayConfig c;
    c.policy = p;
    c.level = 2;
    c.history_days = 4;
    c.from_h = 1.5;
    c.to_h = 9.25;
    std::string a = DayDigest(RunGeneratedDay(*g, c).value());
    auto hist = GeneratedHistory(*g, c.history_days);
    ASSERT_TRUE(hist.ok());
    std::string b = DayDigest(RunGeneratedDayWith(*g, hist.value(), c).value());
    std::string b2 = DayDigest(RunGeneratedDayWith(*g, hist.value(), c).value());
    EXPECT_EQ(a, b) << PolicyName(p);
    EXPECT_EQ(b, b2) << PolicyName(p);
  }
  EXPECT_FALSE(GeneratedHistory(*g, 1).ok());
  DayConfig c;
  EXPECT_FALSE(RunGeneratedDayWith(*g, {}, c).ok());  // no volumes
}

// The minutes integrate to the intervals and the day; the events are the disks' spin-ups; the
// per-interval volume and disk rates count back to the requests and each disk's served I/Os.
TEST(SrcmapDayExtras, MinutesEventsAndPerDiskFiguresAddUp) {
  auto g = Small(3, 0.05);
  for (Policy p : {Policy::kSrcmap, Policy::kCaching1, Policy::kReplication}) {
    DayConfig c;
    c.policy = p;
    c.level = 3;
    c.history_days = 4;
    c.interval_h = 1;
    c.from_h = 2;
    c.to_h = 8.5;  // a partial last interval
    DayReport r = RunGeneratedDay(*g, c).value();
    SCOPED_TRACE(PolicyName(p));
    ASSERT_EQ(r.minutes.size(), 390u);
    EXPECT_DOUBLE_EQ(r.minutes.front().t_h, 2.0);
    EXPECT_NEAR(r.minutes.back().t_h, 8.5 - 1.0 / 60, 1e-9);
    double w = 0, sp = 0, load = 0;
    for (size_t k = 0; k < r.minutes.size(); ++k) {
      const MinuteSample& m = r.minutes[k];
      w += m.watts;
      sp += m.spinning;
      load += m.load_iops * 60;
      EXPECT_GE(m.watts, r.standby_watts - 1e-9);
      EXPECT_GT(m.capacity_iops, 0);
    }
    EXPECT_NEAR(w / 390, r.avg_watts, 1e-9);
    EXPECT_NEAR(sp / 390, r.avg_spinning, 1e-9);
    EXPECT_NEAR(load, static_cast<double>(r.requests), 1e-6);
    ASSERT_EQ(r.intervals.size(), 7u);
    for (size_t k = 0; k < r.intervals.size(); ++k) {
      size_t a = k * 60, b = std::min<size_t>(a + 60, r.minutes.size());
      double iw = 0;
      for (size_t i = a; i < b; ++i) iw += r.minutes[i].watts;
      EXPECT_NEAR(iw / static_cast<double>(b - a), r.intervals[k].watts, 1e-9) << "interval " << k;
    }
    // Spin-ups.
    uint64_t ups = 0, planned = 0;
    for (const auto& d : r.disks) {
      ups += d.spin_ups;
      planned += d.planned_spin_ups;
    }
    uint64_t ev_planned = 0;
    for (size_t i = 0; i < r.spin_up_events.size(); ++i) {
      ev_planned += r.spin_up_events[i].planned;
      if (i > 0) {
        EXPECT_LE(r.spin_up_events[i - 1].t_h, r.spin_up_events[i].t_h);
      }
    }
    EXPECT_EQ(r.spin_up_events.size(), ups);
    EXPECT_EQ(ev_planned, planned);
    // Each event's cause: planned exactly when a decision made it; a read miss only on a
    // primary, and never more of them than the day's misses.
    uint64_t by_cause[3] = {0, 0, 0};
    for (const SpinUp& e : r.spin_up_events) {
      EXPECT_EQ(e.planned, e.cause == SpinUpCause::kPlanned);
      ++by_cause[static_cast<int>(e.cause)];
      if (e.cause == SpinUpCause::kReadMiss) {
        EXPECT_LT(e.disk, 8);
      }
    }
    EXPECT_LE(by_cause[1], r.misses);
    std::printf("%s: spin-ups planned %llu, read miss %llu, other I/O %llu (misses %llu)\n", PolicyName(p),
                (unsigned long long)by_cause[0], (unsigned long long)by_cause[1], (unsigned long long)by_cause[2],
                (unsigned long long)r.misses);
    // Per-interval rates count back.
    const size_t nd = r.disks.size();
    ASSERT_EQ(r.volume_iops.size(), 7u);
    ASSERT_EQ(r.disk_iops.size(), 7u);
    ASSERT_EQ(r.disk_watts.size(), 7u);
    ASSERT_EQ(r.disk_active.size(), 7u);
    double vol = 0;
    std::vector<double> served(nd, 0), joules(nd, 0);
    for (size_t k = 0; k < 7; ++k) {
      double secs = k == 6 ? 1800 : 3600;
      ASSERT_EQ(r.volume_iops[k].size(), 8u);
      ASSERT_EQ(r.disk_iops[k].size(), nd);
      for (double x : r.volume_iops[k]) vol += x * secs;
      int active = 0;
      for (size_t j = 0; j < nd; ++j) {
        served[j] += r.disk_iops[k][j] * secs;
        joules[j] += r.disk_watts[k][j] * secs;
        if (j < 8) active += r.disk_active[k][j];
      }
      EXPECT_EQ(active, r.intervals[k].planned_active) << "interval " << k;
    }
    EXPECT_NEAR(vol, static_cast<double>(r.requests), 1e-3);
    for (size_t j = 0; j < nd; ++j) {
      EXPECT_NEAR(served[j], static_cast<double>(r.disks[j].served), 1e-3) << "disk " << j;
      EXPECT_NEAR(joules[j], r.disks[j].joules, 1e-6) << "disk " << j;
    }
    // Eq. 3.1: between 0 and all-on, and below the policy's watts here (it cannot beat ideal).
    EXPECT_GT(r.ideal_watts, 0);
    EXPECT_LT(r.ideal_watts, r.avg_watts);
  }
}

// capacity_scale s with rate_scale s: Algorithm 1 compares load with capacity, so a reduced
// day keeps the full day's decisions where the workload keeps its shape. Printed and compared
// on hours 4-10 in 1-hour intervals (full rate: ~0.5 s). At L3 (one or two disks take the
// load) the decisions are the same. At L0 they differ by one disk in most intervals: the
// working sets shrink with the rate (the generator caps a day's pool by its request count), so
// Eq. 3.2's inputs and the placement differ, and a tenth of the requests makes each unit's
// predicted load noisier (Poisson), so a unit near a disk's spare capacity falls on the
// other side of it. The re-trigger (5 minutes above capacity) is a threshold on the busiest
// minutes: where the end of an idle spell brings a volume's load back, the full-rate day can
// cross it and the reduced one not (seed 1, L0, hour 8: 6 disks against 3 at the same mean
// load). Asserted: L3 equal, L0 within one disk in every interval where both re-triggered
// alike, and at most one interval where they did not.
TEST(SrcmapDayExtras, CapacityScaleKeepsTheDecisions) {
  const double s = 0.1;
  auto full = Small(1, 1.0);
  auto small = Small(1, s);
  for (int level : {0, 3}) {
    DayConfig c;
    c.level = level;
    c.history_days = 8;
    c.interval_h = 1;
    c.from_h = 4;
    c.to_h = 10;
    DayReport a = RunGeneratedDay(*full, c).value();
    c.capacity_scale = s;
    DayReport b = RunGeneratedDay(*small, c).value();
    ASSERT_EQ(a.intervals.size(), b.intervals.size());
    int differ = 0, retrigger_apart = 0;
    std::printf("L%d planned active, full rate | rate and capacity x %.2f:", level, s);
    for (size_t k = 0; k < a.intervals.size(); ++k) {
      std::printf(" %d|%d (re-triggers %llu|%llu, load %.1f|%.1f)", a.intervals[k].planned_active, b.intervals[k].planned_active,
                  (unsigned long long)a.intervals[k].retriggers, (unsigned long long)b.intervals[k].retriggers,
                  a.intervals[k].load_iops, b.intervals[k].load_iops / s);
      differ += a.intervals[k].planned_active != b.intervals[k].planned_active;
      if ((a.intervals[k].retriggers > 0) != (b.intervals[k].retriggers > 0)) {
        ++retrigger_apart;
        continue;
      }
      EXPECT_LE(std::abs(a.intervals[k].planned_active - b.intervals[k].planned_active), 1) << "interval " << k;
    }
    std::printf("  (%.1f W | %.1f W)\n", a.avg_watts, b.avg_watts);
    EXPECT_LE(retrigger_apart, 1);
    if (level == 3) {
      EXPECT_EQ(differ, 0);
    }
  }
  DayConfig bad;
  bad.capacity_scale = 0;
  EXPECT_FALSE(RunGeneratedDay(*small, bad).ok());
}

TEST(SrcmapDayExtras, IdealWattsIsEq31) {
  EXPECT_DOUBLE_EQ(IdealWatts(0, 100), 0);
  EXPECT_NEAR(IdealWatts(50, 100), 66.1 / 2, 1e-9);
  EXPECT_NEAR(IdealWatts(500, 100), 66.1, 1e-9);  // at most all-on
}

}  // namespace
}  // namespace fawnlab::srcmap
