// srcmap.metadata: 13 bytes per entry from the entry's fields, the thesis's 3.2 GB example, the
// worst case linear in N, S and R, the testbed's replica manager holding its placed working
// sets within their capacity, and named bad parameters.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

TEST(SrcmapSimMetadata, TheThesisExample) {
  Result r = exptest::MustRun("srcmap.metadata", "{}");
  exptest::ExpectAnchorsMet(r);
  EXPECT_EQ(r.Metric("bytes_per_entry"), 13);
  EXPECT_NEAR(r.Metric("map_gb"), 3.17, 0.01);
  EXPECT_GT(r.Metric("testbed_replicas"), 8);
  EXPECT_GT(r.Metric("testbed_entries"), 0);
  EXPECT_LE(r.Metric("testbed_entries"), r.Metric("testbed_slots"));
  EXPECT_DOUBLE_EQ(r.Metric("testbed_block_entries"), 16 * r.Metric("testbed_entries"));
  EXPECT_LE(r.Metric("testbed_block_map_mb"), r.Metric("testbed_worst_map_mb"));
}

TEST(SrcmapSimMetadata, TheWorstCaseIsLinearInVolumesSizeAndReplicaSpace) {
  const double base = exptest::MustRun("srcmap.metadata", "{}").Metric("map_gb");
  EXPECT_NEAR(exptest::MustRun("srcmap.metadata", R"({"volumes": 20})").Metric("map_gb"), 2 * base, 1e-9);
  EXPECT_NEAR(exptest::MustRun("srcmap.metadata", R"({"volume_gb": 500})").Metric("map_gb"), base / 2, 1e-9);
  Result more = exptest::MustRun("srcmap.metadata", R"({"replica_pct": 20})");
  EXPECT_NEAR(more.Metric("map_gb"), 2 * base, 1e-9);
  // More replica space holds at least as many working-set copies.
  EXPECT_GE(more.Metric("testbed_entries"), exptest::MustRun("srcmap.metadata", "{}").Metric("testbed_entries"));
  Result none = exptest::MustRun("srcmap.metadata", R"({"replica_pct": 0})");
  EXPECT_EQ(none.Metric("map_gb"), 0);
  EXPECT_EQ(none.Metric("testbed_entries"), 0);
}

TEST(SrcmapSimMetadata, BadParametersAreNamed) {
  for (const auto& [param, bad] : std::vector<std::pair<std::string, std::string>>{
           {"volumes", "0"}, {"volume_gb", "0"}, {"replica_pct", "-1"}, {"replica_pct", "101"}}) {
    auto r = RunExperimentJson("srcmap.metadata", "{\"" + param + "\": " + bad + "}", 1, nullptr);
    ASSERT_FALSE(r.ok()) << param << " = " << bad;
    EXPECT_NE(r.status().message().find(param), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace fawnlab
