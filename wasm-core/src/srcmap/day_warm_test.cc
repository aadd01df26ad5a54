// The warm start (DayConfig::warm_start, docs/decisions.md "SRCMap: the warm start"): the
// interval before the window runs uncounted, so the window opens with the disks outside that
// interval's active set in standby and the first decision predicts from that interval's load.
#include <gtest/gtest.h>

#include "srcmap/day.h"
#include "srcmap/day_run.h"

namespace fawnlab::srcmap {
namespace {

struct Day {
  std::unique_ptr<Generator> gen;
  std::vector<VolumeHistory> hist;
};

Day MakeDay(double rate) {
  WorkloadConfig w = EvaluationWorkload(3);
  w.rate_scale = rate;
  Day d{Generator::Create(w).value(), {}};
  d.hist = GeneratedHistory(*d.gen, 21).value();
  return d;
}

DayConfig Config(Policy p, bool warm) {
  DayConfig c;
  c.policy = p;
  c.level = 3;
  c.history_days = 21;
  c.capacity_scale = 0.1;
  c.to_h = 6;
  c.warm_start = warm;
  c.check = true;
  return c;
}

// Warm: the first decision's prediction is the warm-up interval's request rate (22:00-24:00 of
// the last history day), the disks outside the set in force at 00:00 start (and here stay) in
// standby, and nothing before 00:00 is counted. Cold: every disk starts spinning at 00:00.
TEST(SrcmapWarmStart, OpensInThePreviousIntervalsState) {
  Day d = MakeDay(0.1);
  const int64_t day0 = 21 * kDayNs, warm0 = day0 - 2 * int64_t{3600} * 1000000000;
  uint64_t before = 0;
  auto src = d.gen->Days(20, 2);
  Request r;
  while (src->Next(&r) && r.t_ns < day0) before += r.t_ns >= warm0 ? 1 : 0;
  ASSERT_GT(before, 1000u);

  DayReport warm = RunGeneratedDayWith(*d.gen, d.hist, Config(Policy::kSrcmap, true)).value();
  EXPECT_EQ(warm.check_errors, 0u) << warm.first_check_error;
  EXPECT_NEAR(warm.intervals[0].predicted_iops, static_cast<double>(before) / 7200, 1e-9);
  ASSERT_EQ(warm.start_active.size(), 8u);
  int off = 0, asleep = 0;
  for (size_t j = 0; j < 8; ++j) {
    if (warm.start_active[j]) continue;
    ++off;
    bool chosen = false;
    for (const auto& row : warm.disk_active) chosen |= row[j];
    if (!chosen && warm.disks[j].spin_ups == 0) {
      EXPECT_EQ(warm.disks[j].spinning_h, 0) << "D" << j << " sleeps through the window";
      ++asleep;
    }
  }
  EXPECT_GT(off, 0);
  EXPECT_GT(asleep, 0);
  for (const SpinUp& e : warm.spin_up_events) EXPECT_GE(e.t_h, 0);
  EXPECT_EQ(warm.minutes.size(), 360u);
  EXPECT_DOUBLE_EQ(warm.minutes.front().t_h, 0);

  DayReport cold = RunGeneratedDayWith(*d.gen, d.hist, Config(Policy::kSrcmap, false)).value();
  EXPECT_EQ(cold.requests, warm.requests);  // the same window's requests
  for (bool a : cold.start_active) EXPECT_TRUE(a);
  for (const DiskReport& x : cold.disks) EXPECT_GT(x.spinning_h, 0);  // every disk spins at 00:00
}

// Baseline-On keeps every disk in its set, warm or cold: all on, no spin-up. Caching-2 leaves its
// unused disks asleep at 00:00 as SRCMap does.
TEST(SrcmapWarmStart, BaselinesStartWarmToo) {
  Day d = MakeDay(0.1);
  DayReport on = RunGeneratedDayWith(*d.gen, d.hist, Config(Policy::kBaselineOn, true)).value();
  EXPECT_NEAR(on.avg_watts, 66.1, 1e-9);
  for (bool a : on.start_active) EXPECT_TRUE(a);
  for (const DiskReport& x : on.disks) EXPECT_EQ(x.spin_ups, 0u);
  DayReport c2 = RunGeneratedDayWith(*d.gen, d.hist, Config(Policy::kCaching2, true)).value();
  EXPECT_EQ(c2.check_errors, 0u) << c2.first_check_error;
  int on_at_start = 0;
  for (bool a : c2.start_active) on_at_start += a;
  EXPECT_LT(on_at_start, 10);
}

// A warm start needs the source: Setup refuses a null one; a cold start does not read it.
TEST(SrcmapWarmStart, SetupNeedsTheRequestsBefore) {
  Day d = MakeDay(0.05);
  const int64_t day0 = 21 * kDayNs;
  DayRun warm(d.hist, d.gen->config().extent_bytes, Config(Policy::kSrcmap, true), day0, day0, day0 + kDayNs);
  Status s = warm.Setup(nullptr);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("warm start"), std::string::npos) << s.message();
  DayRun cold(d.hist, d.gen->config().extent_bytes, Config(Policy::kSrcmap, false), day0, day0, day0 + kDayNs);
  EXPECT_TRUE(cold.Setup(nullptr).ok());
}

}  // namespace
}  // namespace fawnlab::srcmap
