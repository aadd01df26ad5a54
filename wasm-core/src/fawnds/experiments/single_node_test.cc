// The single-node FAWN-DS experiments reproduce FAWN §4.1 (Table 2, Fig 9, Fig 10, Fig 14) at small scales.
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

using exptest::ExpectAnchorsMet;
using exptest::MustRun;

TEST(FawndsTable2Test, EveryRowWithinTwentyPercentAndTheCliffBetween125And250Mb) {
  const Result res = MustRun("fawnds.table2", R"({"scale_div": 128, "queries": 2000})");
  ASSERT_EQ(res.anchors.size(), 14u);
  ExpectAnchorsMet(res);  // each ±20% (SOSP'09 Table 2)
  EXPECT_GT(res.Metric("cliff_1kb"), 5) << "the page cache stops holding the data between 125 MB and 250 MB";
  EXPECT_GT(res.Metric("cliff_256b"), 5);
  EXPECT_EQ(res.Metric("hit_ratio_1kb_125mb"), 1);
  EXPECT_LT(res.Metric("hit_ratio_1kb_3_5gb"), 0.1);
}

TEST(FawndsTable2Test, ScalesThatLeaveNoPageCacheAreNamed) {
  // Past 1/128 the 256 B store's index would take the scaled DRAM: the parameter is refused.
  auto r = RunExperimentJson("fawnds.table2", R"({"scale_div": 256})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("scale_div"), std::string::npos) << r.status().message();
  // The node itself names what took the memory.
  auto m = RunExperimentJson("fawnds.maintenance", R"({"scale_div": 256, "store_mb": 4096})", 1, nullptr);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("page cache"), std::string::npos) << m.status().message();
}

TEST(FawndsSemiRandomTest, TheCardSlowsWithMoreFilesAndTheSsdsDoNot) {
  const Result res = MustRun("fawnds.semi-random", R"({"insert_mb": 8, "files_max": 256})");
  EXPECT_LT(res.Metric("flatness_cf"), 0.8);
  EXPECT_GT(res.Metric("flatness_x25m"), 0.9);
  EXPECT_GT(res.Metric("flatness_x25e"), 0.9);
  EXPECT_GT(res.Metric("mb_s_cf_k8"), 1.5) << "8 files: slower than sequential, faster than random reads (Fig 10)";
}

TEST(FawndsMixTest, TheAggregateRateRisesWithThePutFraction) {
  const Result res = MustRun("fawnds.mix", R"({"scale_div": 8, "warm_s": 0.3, "measure_s": 0.5})");
  EXPECT_GT(res.Metric("qps_half_puts"), res.Metric("qps_all_gets"));
  EXPECT_GT(res.Metric("qps_all_puts"), 5 * res.Metric("qps_all_gets"));
}

TEST(FawndsMaintenanceTest, HighLoadSuffersDuringMaintenanceAndLightLoadDoesNot) {
  const Result res = MustRun("fawnds.maintenance", R"({"scale_div": 64, "gap_ms": 300})");
  EXPECT_LT(res.Metric("qps_high_compact"), 0.6 * res.Metric("qps_high_baseline"));
  EXPECT_GT(res.Metric("qps_high_compact"), 500);
  EXPECT_LT(res.Metric("qps_high_merge"), res.Metric("qps_high_split")) << "merge is more intense than split";
  EXPECT_GT(res.Metric("compact_s_high"), res.Metric("split_s_high")) << "compaction lasts longest";
  EXPECT_GT(res.Metric("low_compact_fraction_of_offered"), 0.9);
}

}  // namespace
}  // namespace fawnlab
