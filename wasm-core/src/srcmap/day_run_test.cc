// DayRun stepped in uneven pieces (time targets and request budgets, with every live accessor
// read in between) gives the one-shot run's report byte for byte; its live state adds up.
#include "srcmap/day_run.h"

#include <gtest/gtest.h>

#include "srcmap/day_testing.h"

namespace fawnlab::srcmap {
namespace {

TEST(SrcmapDayRun, SteppedEqualsOneShot) {
  WorkloadConfig w = EvaluationWorkload(12);
  w.rate_scale = 0.05;
  auto g = Generator::Create(w).value();
  for (Policy p : {Policy::kSrcmap, Policy::kCaching2}) {
    SCOPED_TRACE(PolicyName(p));
    DayConfig c;
    c.policy = p;
    c.level = 3;
    c.history_days = 3;
    c.interval_h = 1.5;
    c.capacity_scale = 0.05;
    c.check = true;
    c.to_h = 10.5;
    auto hist = GeneratedHistory(*g, c.history_days).value();
    DayReport once = RunGeneratedDayWith(*g, hist, c).value();
    const int64_t day0 = 3 * kDayNs;
    const int64_t end = day0 + static_cast<int64_t>(10.5 * 3.6e12);
    DayRun run(hist, g->config().extent_bytes, c, day0, day0, end);
    auto src = g->Days(2, 2);  // the warm start's interval before 00:00 is on day 2
    ASSERT_TRUE(run.Setup(src.get()).ok());
    int64_t t = day0;
    uint64_t total = 0;
    for (int i = 0; !run.done(); ++i) {
      t += (i % 3 == 0 ? 37 : 433) * int64_t{1000000000};
      auto n = run.AdvanceTo(src.get(), t, i % 2 ? 700 : UINT64_MAX);
      ASSERT_TRUE(n.ok());
      total += n.value();
      EXPECT_LE(run.now(), t);
      // The accessors do not change the run.
      for (int j = 0; j < run.num_disks(); ++j) (void)run.StateNow(j);
      (void)run.active_capacity();
      for (int v = 0; v < run.num_volumes(); ++v) (void)run.replicas().DirtyExtents(v);
      ASSERT_TRUE(run.AdvanceTo(src.get(), run.now() - 1, 10).ok());  // backwards: nothing
      if (run.now() < t) t = run.now();                                // a budget stopped it
    }
    EXPECT_EQ(run.now(), end);
    EXPECT_EQ(run.minutes().size(), 630u);
    DayReport stepped = run.Finish();
    EXPECT_EQ(total, stepped.requests);
    EXPECT_EQ(stepped.check_errors, 0u) << stepped.first_check_error;
    EXPECT_EQ(DayDigest(stepped), DayDigest(once));
  }
}

// The live counters: the last minute's edges sum to its requests (the generator's requests
// sit inside one extent), the disks' I/O to at least that; the events come in time order.
TEST(SrcmapDayRun, LiveStateAddsUp) {
  WorkloadConfig w = EvaluationWorkload(4);
  w.rate_scale = 0.1;
  auto g = Generator::Create(w).value();
  DayConfig c;
  c.level = 3;
  c.history_days = 3;
  c.capacity_scale = 0.1;
  auto hist = GeneratedHistory(*g, 3).value();
  const int64_t day0 = 3 * kDayNs;
  DayRun run(hist, g->config().extent_bytes, c, day0, day0, day0 + kDayNs);
  auto src = g->Days(2, 2);
  ASSERT_TRUE(run.Setup(src.get()).ok());
  for (int m = 1; m <= 300; m += 7) {
    ASSERT_TRUE(run.AdvanceTo(src.get(), day0 + m * DayRun::kMinNs, UINT64_MAX).ok());
    uint64_t req = 0, edges = 0, io = 0;
    for (uint64_t x : run.last_minute_volume_requests()) req += x;
    for (const auto& row : run.last_minute_edges())
      for (uint64_t x : row) edges += x;
    for (uint64_t x : run.last_minute_disk_io()) io += x;
    EXPECT_EQ(edges, req);
    EXPECT_GE(io, edges);
    ASSERT_EQ(run.minutes().size(), static_cast<size_t>(m));
    EXPECT_NEAR(run.minutes().back().load_iops * 60, static_cast<double>(req), 1e-9);
  }
  for (size_t i = 1; i < run.events().size(); ++i) EXPECT_LE(run.events()[i - 1].t_ns, run.events()[i].t_ns);
  int planned = 0;
  for (bool a : run.active()) planned += a;
  EXPECT_EQ(planned, run.interval().planned_active);
  EXPECT_FALSE(run.Redecide(5).ok());
  ASSERT_TRUE(run.Redecide(0).ok());  // L0's lower capacities need at least as many disks
  int after = 0;
  for (bool a : run.active()) after += a;
  EXPECT_GE(after, planned);
  EXPECT_EQ(run.config().level, 0);
}

}  // namespace
}  // namespace fawnlab::srcmap
