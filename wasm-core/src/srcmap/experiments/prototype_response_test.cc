// srcmap.response at its defaults: the pinned metrics, consolidation costing response time
// (L3 worse than L0 worse than Baseline-On over 10 ms), CDFs that rise to 1, the read-miss
// spin-ups rare, the write caches absorbing the writes, every missed anchor explained;
// determinism on a short window.
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "srcmap/experiments/prototype_common.h"

namespace fawnlab {
namespace {

TEST(SrcmapResponseTest, PinnedMetricsAtTheDefaults) {
  const Result r = exptest::MustRun("srcmap.response", "{}");
  for (const char* m : {"baseline_over_10ms_pct", "l0_over_10ms_pct", "l3_over_10ms_pct", "baseline_over_100ms_pct",
                        "l0_over_100ms_pct", "l3_over_100ms_pct", "l0_spinup_pct", "l3_spinup_pct", "sync_ios",
                        "sync_fast_pct", "l3_over_1ms_pct", "l3_wo_sync_over_1ms_pct"}) {
    EXPECT_TRUE(srcmap_exp::HasMetric(r, m)) << m;
  }
  EXPECT_LE(r.Metric("baseline_over_10ms_pct"), r.Metric("l0_over_10ms_pct"));
  EXPECT_LE(r.Metric("l0_over_10ms_pct"), r.Metric("l3_over_10ms_pct")) << "L0 has more disks at its disposal";
  EXPECT_LE(r.Metric("l3_wo_sync_over_1ms_pct"), r.Metric("l3_over_1ms_pct") + 1e-9);
  EXPECT_GT(r.Metric("sync_ios"), 0) << "L0 remaps in hours 2-6";
  EXPECT_LT(r.Metric("l0_spinup_pct"), 0.01);
  EXPECT_LT(r.Metric("l3_spinup_pct"), 0.01);
  EXPECT_LE(r.Metric("l0_spinup_pct"), r.Metric("l0_any_spinup_pct"));
  // The drives' write caches: most requests are writes acknowledged from the buffer; the sync
  // writes are the fast half of the sync I/O; what is slow is mostly reads.
  EXPECT_LT(r.Metric("baseline_median_ms"), 1.0);
  EXPECT_GT(r.Metric("sync_fast_pct"), 25);
  EXPECT_LT(r.Metric("sync_fast_pct"), 55) << "the sync reads still pay the mechanism";
  EXPECT_GT(r.Metric("l3_slow_reads_pct"), 50);
  EXPECT_GT(r.Metric("l3_reads_over_10ms_pct"), r.Metric("l3_over_10ms_pct"));
  EXPECT_GT(r.Metric("l3_destage_busy_pct"), 0);
  exptest::ExpectMissesExplained(r);
  ASSERT_EQ(r.series.size(), 7u);
  for (const Series& s : r.series) {
    ASSERT_FALSE(s.points.empty()) << s.name;
    EXPECT_DOUBLE_EQ(s.points.back().second, 1.0) << s.name;
    EXPECT_EQ(s.x_label, "response time (ms)");
  }
}

TEST(SrcmapResponseTest, WithoutTheWriteCachesEveryWritePaysTheMechanism) {
  const Result on = exptest::MustRun("srcmap.response", R"({"from_h": 2, "hours": 1})");
  const Result off = exptest::MustRun("srcmap.response", R"({"from_h": 2, "hours": 1, "write_cache": false})");
  EXPECT_GT(off.Metric("baseline_median_ms"), 2) << "a seek and a rotation";
  EXPECT_LT(on.Metric("baseline_median_ms"), 1);
  EXPECT_LT(off.Metric("sync_fast_pct"), 5);
  EXPECT_GT(off.Metric("baseline_over_10ms_pct"), on.Metric("baseline_over_10ms_pct"));
  EXPECT_EQ(off.Metric("l0_destage_busy_pct"), 0);
  EXPECT_EQ(off.Metric("requests"), on.Metric("requests"));
  exptest::ExpectMissesExplained(off);
}

TEST(SrcmapResponseTest, Deterministic) {
  const std::string params = R"({"from_h": 0, "hours": 0.5})";
  auto a = RunExperimentJson("srcmap.response", params, 5, nullptr);
  auto b = RunExperimentJson("srcmap.response", params, 5, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

}  // namespace
}  // namespace fawnlab
