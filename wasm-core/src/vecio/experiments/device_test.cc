#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

TEST(VectorDeviceExperimentsTest, LatencyWidthAnchorsAndQueueing) {
  Result r = exptest::MustRun("vector.latency-width", R"({"ops_per_point": 5000})");
  exptest::ExpectAnchorsMet(r);
  EXPECT_GT(r.Metric("lat_w32_t64_us"), 2 * r.Metric("lat_w32_us")) << "64 threads queue on the four channels";
  auto a = RunExperimentJson("vector.latency-width", R"({"ops_per_point": 2000})", 5, nullptr);
  auto b = RunExperimentJson("vector.latency-width", R"({"ops_per_point": 2000})", 5, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

}  // namespace
}  // namespace fawnlab
