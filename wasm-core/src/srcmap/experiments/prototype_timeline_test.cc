// srcmap.timeline at its defaults (the prototype's window at full rate): the pinned metrics,
// power between the standby floor and all-on, L3 saving more than L0, every missed anchor
// explained, the per-minute series; determinism on a short window.
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "srcmap/experiments/prototype_common.h"

namespace fawnlab {
namespace {

TEST(SrcmapTimelineTest, PinnedMetricsAtTheDefaults) {
  const Result r = exptest::MustRun("srcmap.timeline", "{}");
  for (const char* m : {"l0_saved_w", "l0_saved_pct", "l0_disks_down", "l3_saved_w", "l3_saved_pct", "l3_disks_down",
                        "l3_worst_interval_saved_w", "l3_max_active", "all_on_w", "standby_w", "l0_spin_ups",
                        "l3_spin_ups"}) {
    EXPECT_TRUE(srcmap_exp::HasMetric(r, m)) << m;
  }
  EXPECT_DOUBLE_EQ(r.Metric("all_on_w"), 66.1);
  EXPECT_DOUBLE_EQ(r.Metric("standby_w"), 19.8);
  EXPECT_GT(r.Metric("l3_window_saved_w"), r.Metric("l0_saved_w")) << "fewer disks at the aggressive level";
  EXPECT_LE(r.Metric("l3_worst_interval_saved_w"), r.Metric("l3_saved_w"));
  EXPECT_GT(r.Metric("l0_saved_w"), 0);
  EXPECT_GE(r.Metric("l3_max_active"), 1);
  // The thesis's L3 figures come out within their tolerance (emergent: Table 3.3(b) on the
  // disks Algorithm 1 left spinning).
  for (const char* m : {"l3_saved_w", "l3_worst_interval_saved_w", "l3_max_active"}) {
    for (size_t i = 0; i < r.anchors.size(); ++i) {
      if (r.anchors[i].first == m) {
        EXPECT_TRUE(exptest::WithinTolerance(r, i)) << m << " = " << r.Metric(m);
      }
    }
  }
  exptest::ExpectMissesExplained(r);
  ASSERT_GE(r.series.size(), 8u);
  EXPECT_EQ(r.series[0].points.size(), 480u) << "a point per minute of the 8 hours";
  for (const auto& [t, w] : r.series[0].points) {
    EXPECT_GE(w, 19.8 - 1e-9);
    EXPECT_LE(w, 66.1 + 12) << "all-on plus at most a few spin-up surcharges in one minute, at " << t;
  }
  EXPECT_EQ(r.series[0].x_label, "hour of the day (h)");
  EXPECT_EQ(r.series[0].y_label, "power (W)");
}

TEST(SrcmapTimelineTest, Deterministic) {
  const std::string params = R"({"from_h": 0, "hours": 1})";
  auto a = RunExperimentJson("srcmap.timeline", params, 3, nullptr);
  auto b = RunExperimentJson("srcmap.timeline", params, 3, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
  auto c = RunExperimentJson("srcmap.timeline", params, 4, nullptr);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(ResultToJson(a.value()), ResultToJson(c.value()));
}

}  // namespace
}  // namespace fawnlab
