#include "sim/stats.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/rng.h"

namespace fawnlab::sim {
namespace {

TEST(RunningStats, MeanVarianceMinMax) {
  RunningStats s;
  for (double x : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) s.Add(x);
  EXPECT_EQ(s.count(), 8u);
  EXPECT_DOUBLE_EQ(s.mean(), 5.0);
  EXPECT_NEAR(s.variance(), 32.0 / 7.0, 1e-12);
  EXPECT_EQ(s.min(), 2.0);
  EXPECT_EQ(s.max(), 9.0);
}

TEST(TimeAverage, IntegratesAPiecewiseConstantSignal) {
  TimeAverage t;
  t.Reset(100, 2);   // 2 for 100 ns
  t.Set(200, 4);     // 4 for 300 ns
  t.Set(500, 0);     // 0 for 500 ns
  EXPECT_DOUBLE_EQ(t.Average(1000), (2 * 100 + 4 * 300) / 900.0);
}

TEST(BatchMeans, CoversTheTrueMeanOfIidData) {
  // For iid exponential data the 95% interval should cover the true mean most of the time.
  int covered = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    Rng r(seed);
    BatchMeans b(20000);
    for (int i = 0; i < 20000; ++i) b.Add(r.Exponential(1.0));
    covered += std::fabs(b.mean() - 1.0) <= b.HalfWidth95();
  }
  EXPECT_GE(covered, 88);
  EXPECT_LE(covered, 100);
}

}  // namespace
}  // namespace fawnlab::sim
