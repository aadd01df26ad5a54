// srcmap.proportionality: Fig 3.13's points (≥ 60), power between the standby floor and all-on,
// the mean power by chosen disks on Table 3.3(b)'s staircase; determinism and a named bad
// parameter.
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "srcmap/profile.h"

namespace fawnlab {
namespace {

TEST(SrcmapSimProportionality, StepsWithLoad) {
  Result r = exptest::MustRun("srcmap.proportionality", "{}");
  exptest::ExpectAnchorsMet(r);
  EXPECT_EQ(r.Metric("points"), 84) << "12 intervals × (L0-L4 + two levels below L0)";
  EXPECT_GE(r.Metric("points"), 60);
  EXPECT_GE(r.Metric("min_w"), srcmap::SystemWatts(0));
  EXPECT_LE(r.Metric("max_w"), r.Metric("all_on_w") + 1) << "spin-up surcharges aside, never above all on";
  EXPECT_GT(r.Metric("mean_gap_to_ideal_w"), 0) << "a spinning disk draws its power whatever its load";
  EXPECT_GE(r.Metric("power_levels"), 5);
  // Every point's power is within a spin-up's surcharge of a Table 3.3(b) step or between two.
  int points = 0;
  for (const Series& s : r.series) {
    if (s.kind != "measured" || s.x_label.rfind("load factor", 0) != 0) continue;
    for (const auto& [x, y] : s.points) {
      EXPECT_GE(x, 0);
      EXPECT_GE(y, srcmap::SystemWatts(0) - 1e-9);
      ++points;
    }
  }
  EXPECT_EQ(points, r.Metric("points"));
  // The mean power by chosen disks climbs Table 3.3(b)'s staircase, never above a step.
  for (const Series& s : r.series) {
    if (s.kind != "measured" || s.x_label.rfind("disks chosen", 0) != 0) continue;
    double last = 0;
    for (const auto& [k, w] : s.points) {
      EXPECT_GT(w, last);
      EXPECT_LE(w, srcmap::SystemWatts(static_cast<int>(k)) + 1);
      last = w;
    }
  }
}

TEST(SrcmapSimProportionality, DeterministicBySeed) {
  const std::string params = R"({"rate_scale": 0.02})";
  auto a = RunExperimentJson("srcmap.proportionality", params, 2, nullptr);
  auto b = RunExperimentJson("srcmap.proportionality", params, 2, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

TEST(SrcmapSimProportionality, BadRateScaleIsNamed) {
  auto r = RunExperimentJson("srcmap.proportionality", R"({"rate_scale": 0})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("rate_scale"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace fawnlab
