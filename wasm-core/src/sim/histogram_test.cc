#include "sim/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/rng.h"

namespace fawnlab::sim {
namespace {

TEST(LogHistogram, BucketsTileTheLine) {
  for (int b = 0; b + 1 < LogHistogram::kNumBuckets; ++b) {
    ASSERT_EQ(LogHistogram::BucketHigh(b), LogHistogram::BucketLow(b + 1)) << "bucket " << b;
  }
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 129ull, 255ull, 256ull, 1000ull, 123456789ull, ~0ull}) {
    int b = LogHistogram::BucketOf(v);
    EXPECT_LE(LogHistogram::BucketLow(b), v);
    if (v != ~0ull) {
      EXPECT_GT(LogHistogram::BucketHigh(b), v);
    }
  }
  EXPECT_EQ(LogHistogram::BucketOf(~0ull), LogHistogram::kNumBuckets - 1);
}

TEST(LogHistogram, SmallValuesAreExact) {
  LogHistogram h;
  for (uint64_t v = 0; v < 100; ++v) h.Record(v);
  EXPECT_EQ(h.Quantile(0.5), 49);
  EXPECT_EQ(h.Quantile(0.99), 98);
  EXPECT_EQ(h.Quantile(1.0), 99);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 99u);
  EXPECT_DOUBLE_EQ(h.mean(), 49.5);
}

// Percentiles within 1% (the design bound is 0.4%) of the exact order statistics.
void CheckQuantiles(const std::vector<uint64_t>& samples, const std::string& what) {
  LogHistogram h;
  for (uint64_t v : samples) h.Record(v);
  std::vector<uint64_t> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  for (double q : {0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999}) {
    size_t rank = static_cast<size_t>(std::ceil(q * sorted.size()));
    double exact = static_cast<double>(sorted[rank - 1]);
    double got = h.Quantile(q);
    ASSERT_LE(std::fabs(got - exact), 0.004 * exact + 0.5) << what << " q=" << q;
  }
}

TEST(LogHistogram, QuantileErrorBoundOnSkewedData) {
  const uint64_t seed = 77;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  Rng r(seed);
  std::vector<uint64_t> expo, pareto, lognormalish;
  for (int i = 0; i < 200000; ++i) {
    expo.push_back(static_cast<uint64_t>(r.Exponential(50000)));
    pareto.push_back(static_cast<uint64_t>(r.Pareto(1000, 1.2)));
    lognormalish.push_back(static_cast<uint64_t>(std::exp(10 + 3 * (r.UniformDouble() - 0.5))));
  }
  CheckQuantiles(expo, "exponential");
  CheckQuantiles(pareto, "pareto");
  CheckQuantiles(lognormalish, "log-uniform");
}

TEST(LogHistogram, MergeEqualsRecordingEverything) {
  LogHistogram a, b, all;
  Rng r(2);
  for (int i = 0; i < 10000; ++i) {
    uint64_t v = r.UniformU64(1u << 30);
    (i % 2 ? a : b).Record(v);
    all.Record(v);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.Quantile(0.9), all.Quantile(0.9));
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
}

TEST(LogHistogram, CdfIsMonotoneEndsAtOneAndIsThinned) {
  LogHistogram h;
  Rng r(3);
  for (int i = 0; i < 50000; ++i) h.Record(static_cast<uint64_t>(r.Exponential(1e6)));
  auto cdf = h.Cdf(100);
  ASSERT_LE(cdf.size(), 100u);
  ASSERT_GE(cdf.size(), 50u);
  for (size_t i = 1; i < cdf.size(); ++i) {
    EXPECT_GE(cdf[i].first, cdf[i - 1].first);
    EXPECT_GE(cdf[i].second, cdf[i - 1].second);
  }
  EXPECT_EQ(cdf.back().second, 1.0);
  EXPECT_EQ(cdf.back().first, static_cast<double>(h.max()));
  EXPECT_TRUE(LogHistogram().Cdf(10).empty());
}

}  // namespace
}  // namespace fawnlab::sim
