// RunPoint and the reporting rule: a point measures what the system did in its window; the
// rule picks the highest load under p50 < 1 ms and p99 < 10 ms; runs are deterministic.
#include "vecio/run_point.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace fawnlab::vecio {
namespace {

SystemConfig Cfg(int g, int r, double load) {
  SystemConfig c;
  c.multiget = g;
  c.multiread = r;
  c.load_per_s = load;
  c.keys = 4096;
  return c;
}

TEST(VectorRunPoint, LowLoadThroughputEqualsOffered) {
  auto p = RunPoint(Cfg(1, 1, 40000), 5 * sim::kMs, 30 * sim::kMs, 1);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_NEAR(p.value().throughput_per_s, 40000, 4000);
  EXPECT_GT(p.value().p50_us, 100);
  EXPECT_LT(p.value().p50_us, 400);
  EXPECT_GE(p.value().p99_us, p.value().p50_us);
  EXPECT_TRUE(MeetsRule(p.value()));
}

TEST(VectorRunPoint, OverloadFailsTheRule) {
  auto p = RunPoint(Cfg(1, 1, 600000), 10 * sim::kMs, 20 * sim::kMs, 1);
  ASSERT_TRUE(p.ok());
  EXPECT_LT(p.value().throughput_per_s, 400000);
  EXPECT_FALSE(MeetsRule(p.value()));
}

TEST(VectorRunPoint, DeterministicBySeed) {
  auto a = RunPoint(Cfg(4, 4, 100000), 2 * sim::kMs, 10 * sim::kMs, 7).value();
  auto b = RunPoint(Cfg(4, 4, 100000), 2 * sim::kMs, 10 * sim::kMs, 7).value();
  auto c = RunPoint(Cfg(4, 4, 100000), 2 * sim::kMs, 10 * sim::kMs, 8).value();
  EXPECT_EQ(a.p50_us, b.p50_us);
  EXPECT_EQ(a.p99_us, b.p99_us);
  EXPECT_EQ(a.throughput_per_s, b.throughput_per_s);
  EXPECT_TRUE(a.p99_us != c.p99_us || a.mean_us != c.mean_us);
}

TEST(VectorRunPoint, BestUnderRulePicksHighestPassingLoad) {
  std::vector<PointResult> pts(3);
  pts[0].offered_per_s = 1;
  pts[0].rpcs = 1;
  pts[0].p50_us = 300;
  pts[0].p99_us = 900;
  pts[1] = pts[0];
  pts[1].offered_per_s = 2;
  pts[1].p50_us = 999;
  pts[2] = pts[0];
  pts[2].offered_per_s = 3;
  pts[2].p99_us = 10000;  // not under 10 ms
  ASSERT_NE(BestUnderRule(pts), nullptr);
  EXPECT_EQ(BestUnderRule(pts)->offered_per_s, 2);
  pts[1].rpcs = 0;
  EXPECT_EQ(BestUnderRule(pts)->offered_per_s, 1);
}

// Calibration probe (not a check): prints operating points. Run with
// --gtest_also_run_disabled_tests --gtest_filter='*Probe*'.
TEST(VectorRunPoint, DISABLED_Probe) {
  struct P {
    int g, r;
    Pattern pat;
    double lo, hi;
  };
  for (const P& p : {P{1, 1, Pattern::kAuto, 20e3, 300e3}, P{4, 4, Pattern::kAuto, 50e3, 600e3},
                     P{4, 1, Pattern::kAuto, 50e3, 600e3}, P{16, 1, Pattern::kAuto, 50e3, 800e3},
                     P{1, 8, Pattern::kAuto, 50e3, 800e3}, P{32, 32, Pattern::kAuto, 200e3, 2.2e6},
                     P{32, 32, Pattern::kQueue, 200e3, 2.2e6}, P{32, 1, Pattern::kAuto, 50e3, 800e3},
                     P{8, 8, Pattern::kAuto, 100e3, 1.5e6}}) {
    SystemConfig c = Cfg(p.g, p.r, p.lo);
    c.pattern = p.pat;
    auto low = RunPoint(c, 5 * sim::kMs, 20 * sim::kMs, 1).value();
    auto best = SearchRule(c, p.lo, p.hi, 8, 4, 10 * sim::kMs, 20 * sim::kMs, 1);
    std::printf("G%d R%d %s: low p50 %.0f p99 %.0f | rule %.0f/s p50 %.0f p99 %.0f busy %.2f\n", p.g, p.r,
                PatternName(p.pat), low.p50_us, low.p99_us, best.ok() ? best.value().throughput_per_s : -1,
                best.ok() ? best.value().p50_us : -1, best.ok() ? best.value().p99_us : -1,
                best.ok() ? best.value().cores_busy : -1);
    if (best.ok()) {
      for (size_t k = 0; k < kCount; ++k) std::printf(" %s %.2f", CostKindName(static_cast<CostKind>(k)), best.value().core_us_per_key[k]);
      std::printf("\n");
    }
  }
}

}  // namespace
}  // namespace fawnlab::vecio
