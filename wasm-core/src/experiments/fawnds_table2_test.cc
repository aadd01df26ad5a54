// fawnds.table2 reproduces FAWN Table 2 and its cliff at a small scale.
#include <string>

#include <gtest/gtest.h>

#include "experiments/registry.h"

namespace fawnlab {
namespace {

TEST(FawndsTable2Test, EveryRowWithinTwentyPercentAndTheCliffBetween125And250Mb) {
  auto r = RunExperimentJson("fawnds.table2", R"({"scale_div": 128, "queries": 2000})", 1, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const Result& res = r.value();
  ASSERT_EQ(res.anchors.size(), 14u);
  for (size_t i = 0; i < res.anchors.size(); ++i) {
    const auto& [metric, want] = res.anchors[i];
    EXPECT_NEAR(res.Metric(metric), want, 0.20 * want) << metric;
  }
  EXPECT_GT(res.Metric("cliff_1kb"), 5) << "the page cache stops holding the data between 125 MB and 250 MB";
  EXPECT_GT(res.Metric("cliff_256b"), 5);
  EXPECT_EQ(res.Metric("hit_ratio_1kb_125mb"), 1);
  EXPECT_LT(res.Metric("hit_ratio_1kb_3_5gb"), 0.1);
}

TEST(FawndsTable2Test, RejectsAScaleThatLeavesNoCache) {
  auto r = RunExperimentJson("fawnds.table2", R"({"scale_div": 1024, "rows": 7, "queries": 100})", 1, nullptr);
  // At 1/1024 the 256 B store's index still fits; whichever way it goes, the run either
  // succeeds or names the problem.
  if (!r.ok()) EXPECT_NE(r.status().message().find("page cache"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace fawnlab
