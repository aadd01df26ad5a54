// The Vector I/O lab's network experiments: their anchors within tolerance at the defaults,
// every miss explained, deterministic JSON by seed, widths out of range refused by name.
#include <gtest/gtest.h>

#include <string>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

using exptest::ExpectAnchorsMet;
using exptest::ExpectMissesExplained;
using exptest::MustRun;

TEST(VectorNetExperiments, MultigetAnchors) {
  const Result r = MustRun("vector.multiget", "{}");
  ExpectAnchorsMet(r);
  ExpectMissesExplained(r);
  // Multiget alone: ~2-3×, and wider multigets stop paying (G=32 no better than G=16).
  EXPECT_GT(r.Metric("g4_peak"), 1.7 * r.Metric("g1_peak"));
  EXPECT_LT(r.Metric("g32_peak"), 1.1 * r.Metric("g16_peak"));
}

TEST(VectorNetExperiments, MultireadAnchorsAndUShape) {
  const Result r = MustRun("vector.multiread", "{}");
  ExpectAnchorsMet(r);
  // Low-load median grows with R; at R=8 it falls as load rises (the U's left side).
  EXPECT_LT(r.Metric("r2_low_p50_us"), r.Metric("r4_low_p50_us"));
  EXPECT_LT(r.Metric("r4_low_p50_us"), r.Metric("r8_low_p50_us"));
  EXPECT_LT(r.Metric("r8_min_p50_us"), 0.5 * r.Metric("r8_low_p50_us"));
}

TEST(VectorNetExperiments, CombinedAnchors) {
  const Result r = MustRun("vector.combined", "{}");
  ExpectAnchorsMet(r);
  EXPECT_LT(r.Metric("g32_p50_at_peak_us"), 1000);
}

TEST(VectorNetExperiments, PeakWidthDirectBeatsQueue) {
  const Result r = MustRun("vector.peak-width", "{}");
  ExpectAnchorsMet(r);
  for (int w : {2, 4, 8, 16, 32}) {
    EXPECT_GT(r.Metric("direct_peak_" + std::to_string(w)), r.Metric("queue_peak_" + std::to_string(w))) << w;
  }
}

TEST(VectorNetExperiments, UnequalAnchorsMatchRToG) {
  const Result r = MustRun("vector.unequal", "{}");
  ExpectAnchorsMet(r);
  // At G=32 the best R is G itself: lower R costs serial commands, higher R the queue.
  EXPECT_GT(r.Metric("r32_peak"), r.Metric("r8_peak"));
  EXPECT_GT(r.Metric("r32_peak"), r.Metric("r64_peak"));
  EXPECT_LT(r.Metric("r32_low_p50_us"), r.Metric("r64_low_p50_us"));
}

TEST(VectorNetExperiments, DeterministicBySeed) {
  const std::string params = R"({"max_width": 4})";
  auto a = RunExperimentJson("vector.combined", params, 5, nullptr);
  auto b = RunExperimentJson("vector.combined", params, 5, nullptr);
  auto c = RunExperimentJson("vector.combined", params, 6, nullptr);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
  EXPECT_NE(ResultToJson(a.value()), ResultToJson(c.value()));
}

TEST(VectorNetExperiments, WidthOutOfRangeNamed) {
  for (const auto& [id, param] : std::vector<std::pair<std::string, std::string>>{
           {"vector.multiget", "max_multiget"}, {"vector.multiget", "multiread"}, {"vector.multiread", "max_multiread"},
           {"vector.combined", "max_width"},    {"vector.peak-width", "max_width"}, {"vector.unequal", "multiget"},
           {"vector.unequal", "max_multiread"}}) {
    auto r = RunExperimentJson(id, "{\"" + param + "\": 300}", 1, nullptr);
    ASSERT_FALSE(r.ok()) << id << " " << param;
    EXPECT_NE(r.status().message().find(param), std::string::npos) << r.status().message();
    auto z = RunExperimentJson(id, "{\"" + param + "\": 0}", 1, nullptr);
    ASSERT_FALSE(z.ok()) << id << " " << param;
    EXPECT_NE(z.status().message().find(param), std::string::npos) << z.status().message();
  }
}

}  // namespace
}  // namespace fawnlab
