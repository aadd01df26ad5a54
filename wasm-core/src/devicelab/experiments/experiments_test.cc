#include <string>

#include <gtest/gtest.h>

#include "base/json_reader.h"
#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

using exptest::ExpectAnchorsMet;
using exptest::MustRun;

TEST(DevicesExperimentsTest, Table1ReproducesTheCardWithinTenPercent) {
  Result r = MustRun("devices.table1", R"({"region_mb": 32, "random_ops": 1000})");
  ExpectAnchorsMet(r);
  EXPECT_GT(r.Metric("read_max_ms_beside_writer"), 100) << "bulk erasures stall reads for > 100 ms";
  EXPECT_GT(r.Metric("write_amplification_random"), 50);
}

TEST(DevicesExperimentsTest, Table1IsDeterministic) {
  auto a = RunExperimentJson("devices.table1", R"({"region_mb": 8, "random_ops": 200})", 42, nullptr);
  auto b = RunExperimentJson("devices.table1", R"({"region_mb": 8, "random_ops": 200})", 42, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

TEST(DevicesExperimentsTest, PageCacheHidesRepeatedReads) {
  Result r = MustRun("devices.table1", R"({"region_mb": 8, "random_ops": 2000, "page_cache_mb": 64})");
  EXPECT_GT(r.Metric("rand_read_qps"), 10000) << "the whole file fits in the cache";
  EXPECT_TRUE(r.anchors.empty()) << "Table 1 had no page cache: no anchors";
}

TEST(DevicesExperimentsTest, NvmLatencyAndPeak) {
  ExpectAnchorsMet(MustRun("devices.nvm-latency", R"({"ops_per_point": 20000, "threads_max": 32})"));
}

TEST(DevicesExperimentsTest, DiskRandomReadsFollowTheMechanics) {
  Result r = MustRun("devices.disk-seek", R"({"samples": 3000, "queue_depth": 16})");
  ExpectAnchorsMet(r);
  EXPECT_GT(r.Metric("qps_qd16_sstf_7200"), 1.5 * r.Metric("rand_read_qps_7200"));
  EXPECT_GT(r.Metric("rand_read_qps_10k"), r.Metric("rand_read_qps_7200"));
}

TEST(DevicesExperimentsTest, SemiRandomWritesDegradeTheCardButNotTheSsds) {
  Result r = MustRun("devices.write-pattern", R"({"write_mb": 16, "streams_max": 64})");
  EXPECT_LT(r.Metric("flatness_cf"), 0.6) << "FAWN Fig 9: the CF card slows with more files";
  EXPECT_GT(r.Metric("flatness_x25m"), 0.9) << "the X25-M stays flat";
  EXPECT_GT(r.Metric("flatness_x25e"), 0.9);
  EXPECT_GT(r.Metric("mb_s_cf_seq"), 2 * r.Metric("mb_s_cf_random"));
}

TEST(DevicesExperimentsTest, GarbageCollectionAmplifiesWritesLessWithMoreSpare) {
  Result r = MustRun("devices.fill-gc", R"({"profile": "intel-x25e", "capacity_mb": 256, "passes": 2})");
  EXPECT_GT(r.Metric("mb_s_fresh"), 1.5 * r.Metric("mb_s_steady")) << "throughput drops once GC starts";
  double wa07 = r.Metric("wa_steady_op_0_07"), wa50 = r.Metric("wa_steady_op_0_5");
  EXPECT_GT(wa07, 1.5);
  EXPECT_LT(wa50, wa07);
  EXPECT_GE(wa50, 1.0);
}

TEST(FawndsExperimentsTest, BulkInsertRunsAtTheCardsSequentialRate) {
  Result r = MustRun("fawnds.bulk-insert", R"({"insert_mb": 16})");
  ExpectAnchorsMet(r);
  EXPECT_GT(r.Metric("fraction_of_device"), 0.9);
}

TEST(DevicesExperimentsTest, BadParametersAreNamed) {
  auto r = RunExperimentJson("devices.table1", R"({"io_kb": 0})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("io_kb"), std::string::npos);
  r = RunExperimentJson("devices.fill-gc", R"({"profile": "sandisk-cf-4gb"})", 1, nullptr);
  ASSERT_FALSE(r.ok()) << "fill-gc needs a page-mapped SSD";
}

}  // namespace
}  // namespace fawnlab
