// cona.timeseries: the series of A and F and the drop metrics are there and consistent, every
// miss explained, deterministic.
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

TEST(ConaTimeseriesTest, SeriesAndDropMetrics) {
  Result r = exptest::MustRun("cona.timeseries", R"({"scale": 0.0004, "samples": 100})");
  EXPECT_EQ(r.series.size(), 14u) << "7 series each for A and F";
  for (const Series& s : r.series) EXPECT_FALSE(s.points.empty()) << s.name;
  EXPECT_EQ(r.series[0].points.size(), 100u);
  for (const char* w : {"a", "f"}) {
    const std::string p = w;
    EXPECT_GE(r.Metric(p + "_spike_write_iops"), r.Metric(p + "_plateau_write_iops"));
    EXPECT_GE(r.Metric(p + "_read_drops"), 0);
    if (r.Metric(p + "_read_drops") > 0) {
      EXPECT_LT(r.Metric(p + "_read_trough_iops"), 0.5 * r.Metric(p + "_read_peak_iops"));
      EXPECT_GT(r.Metric(p + "_first_drop_at"), 0);
      EXPECT_LE(r.Metric(p + "_first_drop_at"), 1);
    }
  }
  // The cumulative write rate of the last sample is the run's.
  const Series& cum = r.series[1];
  EXPECT_NEAR(cum.points.back().second, r.Metric("a_write_iops"), 1e-6 * r.Metric("a_write_iops"));
  exptest::ExpectMissesExplained(r);
}

TEST(ConaTimeseriesTest, Deterministic) {
  const std::string params = R"({"scale": 0.0002, "samples": 40})";
  auto a = RunExperimentJson("cona.timeseries", params, 2, nullptr);
  auto b = RunExperimentJson("cona.timeseries", params, 2, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

}  // namespace
}  // namespace fawnlab
