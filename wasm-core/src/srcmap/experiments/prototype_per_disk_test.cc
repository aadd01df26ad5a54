// srcmap.per-disk at its defaults: the pinned metrics, each disk's counts consistent with the
// summary metrics, the three per-disk charts, every missed anchor explained; determinism.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "srcmap/experiments/prototype_common.h"

namespace fawnlab {
namespace {

TEST(SrcmapPerDiskTest, PinnedMetricsAtTheDefaults) {
  const Result r = exptest::MustRun("srcmap.per-disk", "{}");
  for (const char* m : {"max_spin_ups", "always_standby_disks", "always_active_disks", "max_misses_disk"}) {
    EXPECT_TRUE(srcmap_exp::HasMetric(r, m)) << m;
  }
  double spin = 0, miss = 0;
  int always = 0;
  for (int j = 0; j < 8; ++j) {
    const std::string d = "d" + std::to_string(j);
    spin = std::max(spin, r.Metric(d + "_spin_ups"));
    miss = std::max(miss, r.Metric(d + "_misses"));
    always += r.Metric(d + "_active_intervals") == 12;
  }
  EXPECT_EQ(spin, r.Metric("max_spin_ups"));
  EXPECT_EQ(miss, r.Metric("max_misses_disk"));
  EXPECT_EQ(always, r.Metric("always_active_disks"));
  EXPECT_GE(r.Metric("always_active_disks"), 1);
  exptest::ExpectMissesExplained(r);
  ASSERT_EQ(r.series.size(), 24u) << "original load, modified load and power for D0-D7";
  for (const Series& s : r.series) EXPECT_EQ(s.points.size(), 24u) << s.name;
}

TEST(SrcmapPerDiskTest, Deterministic) {
  const std::string params = R"({"rate_scale": 0.02})";
  auto a = RunExperimentJson("srcmap.per-disk", params, 2, nullptr);
  auto b = RunExperimentJson("srcmap.per-disk", params, 2, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

}  // namespace
}  // namespace fawnlab
