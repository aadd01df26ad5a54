// cona.ycsb: the nine bars and their ratios are there, every anchor has its basis and every
// miss its reason, the per-kind rates are consistent, runs are deterministic.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

TEST(ConaYcsbTest, TheNineBarsAndTheirShape) {
  Result r = exptest::MustRun("cona.ycsb", R"({"scale": 0.0004})");
  for (const char* m : {"a_write_iops", "a_read_iops", "b_write_iops", "b_read_iops", "c_read_iops", "d_write_iops",
                        "d_read_iops", "f_write_iops", "f_read_iops"}) {
    EXPECT_GT(r.Metric(m), 0) << m;
    EXPECT_TRUE(std::isfinite(r.Metric(m))) << m;
  }
  EXPECT_EQ(r.Metric("c_induce_pct"), 0) << "C never writes";
  // Every workload starts from the same load; its writes (and the load's merges, still going
  // when the run begins) can only deepen the structure.
  for (const char* w : {"a", "b", "c", "d", "f"}) EXPECT_GE(r.Metric(std::string(w) + "_levels"), r.Metric("load_levels")) << w;
  // Read-mostly workloads find more of their pages cached than the write-heavy ones.
  EXPECT_GT(r.Metric("c_cache_hit_ratio"), r.Metric("a_cache_hit_ratio"));
  EXPECT_GT(r.Metric("c_read_iops"), r.Metric("a_read_iops"));
  EXPECT_EQ(r.series.size(), 4u);
  exptest::ExpectMissesExplained(r);
}

TEST(ConaYcsbTest, DeterministicForASeedAndSeedsDiffer) {
  const std::string params = R"({"scale": 0.0002})";
  auto a = RunExperimentJson("cona.ycsb", params, 3, nullptr);
  auto b = RunExperimentJson("cona.ycsb", params, 3, nullptr);
  auto c = RunExperimentJson("cona.ycsb", params, 4, nullptr);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
  EXPECT_NE(ResultToJson(a.value()), ResultToJson(c.value()));
}

TEST(ConaYcsbTest, BadParametersAreNamed) {
  auto r = RunExperimentJson("cona.ycsb", R"({"scale": 2})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("scale"), std::string::npos) << r.status().message();
  r = RunExperimentJson("cona.ycsb", R"({"buffer_kb": 4})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("buffer_kb"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace fawnlab
