// srcmap.day at its defaults: the pinned metrics, twelve intervals, Baseline-On flat at all-on,
// SRCMap under it and under Caching-1, remap counts consistent with the series, every missed
// anchor explained; determinism at a low rate.
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "srcmap/experiments/prototype_common.h"

namespace fawnlab {
namespace {

TEST(SrcmapDayTest, PinnedMetricsAtTheDefaults) {
  const Result r = exptest::MustRun("srcmap.day", "{}");
  for (const char* m : {"srcmap_avg_w", "caching1_avg_w", "caching2_avg_w", "replication_avg_w", "baseline_avg_w",
                        "intervals", "least_power_intervals", "remaps_match_intervals", "max_remaps"}) {
    EXPECT_TRUE(srcmap_exp::HasMetric(r, m)) << m;
  }
  EXPECT_EQ(r.Metric("intervals"), 12);
  EXPECT_NEAR(r.Metric("baseline_avg_w"), 66.1, 1e-9);
  EXPECT_LT(r.Metric("srcmap_avg_w"), r.Metric("baseline_avg_w"));
  EXPECT_LT(r.Metric("srcmap_avg_w"), r.Metric("caching1_avg_w"));
  EXPECT_LE(r.Metric("least_power_intervals"), 12);
  EXPECT_LE(r.Metric("remaps_match_intervals"), 12);
  EXPECT_EQ(r.Metric("caching1_levels"), 2) << "one cache disk, or every primary";
  EXPECT_GE(r.Metric("srcmap_levels"), r.Metric("caching1_levels"));
  exptest::ExpectMissesExplained(r);
  // Five schemes' power, the ideal, remaps and active disks, load and its prediction.
  ASSERT_EQ(r.series.size(), 10u);
  double most = 0, total = 0;
  for (const auto& [h, n] : r.series[6].points) most = std::max(most, n), total += n;
  EXPECT_EQ(most, r.Metric("max_remaps"));
  EXPECT_EQ(total / 2, r.Metric("srcmap_remaps")) << "two points per interval";
}

TEST(SrcmapDayTest, Deterministic) {
  const std::string params = R"({"rate_scale": 0.01})";
  auto a = RunExperimentJson("srcmap.day", params, 2, nullptr);
  auto b = RunExperimentJson("srcmap.day", params, 2, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

}  // namespace
}  // namespace fawnlab
