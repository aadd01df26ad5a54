// srcmap.overprovision: Fig 3.12's shape (all on at 0%, most savings by 10%, all by 20%), power
// never rising with more replica space beyond noise, determinism and named bad parameters.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

TEST(SrcmapSimOverprovision, MostSavingsByTenPercentAllByTwenty) {
  Result r = exptest::MustRun("srcmap.overprovision", "{}");
  exptest::ExpectAnchorsMet(r);
  EXPECT_DOUBLE_EQ(r.Metric("avg_w_at_0"), 66.1) << "no replica space: every disk stays on";
  EXPECT_LT(r.Metric("avg_w_at_10"), r.Metric("avg_w_at_2p5"));
  EXPECT_LE(r.Metric("avg_w_at_20"), r.Metric("avg_w_at_5"));
  EXPECT_GT(r.Metric("saved_pct_at_10"), 30) << "the thesis's L0 saves 35.5% at 10% (Fig 3.8)";
  EXPECT_GE(r.Metric("replicas_at_30"), r.Metric("replicas_at_10"));
  for (const Series& s : r.series) EXPECT_NE(s.y_label.find('('), std::string::npos) << s.name;
}

TEST(SrcmapSimOverprovision, DeterministicBySeed) {
  const std::string params = R"({"rate_scale": 0.02})";
  auto a = RunExperimentJson("srcmap.overprovision", params, 2, nullptr);
  auto b = RunExperimentJson("srcmap.overprovision", params, 2, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

TEST(SrcmapSimOverprovision, BadParametersAreNamed) {
  for (const auto& [param, bad] : std::vector<std::pair<std::string, std::string>>{
           {"level", "5"}, {"level", "-1"}, {"rate_scale", "0"}, {"rate_scale", "1.5"}}) {
    auto r = RunExperimentJson("srcmap.overprovision", "{\"" + param + "\": " + bad + "}", 1, nullptr);
    ASSERT_FALSE(r.ok()) << param << " = " << bad;
    EXPECT_NE(r.status().message().find(param), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace fawnlab
