// Reproduction tests for the Queues lab: every anchored metric within its tolerance, for
// several seeds at the default run length; determinism; bad input; cancellation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

using exptest::MustRun;
const auto ExpectAnchorsHold = exptest::ExpectAnchorsMet;

class QueuesAnchors : public ::testing::TestWithParam<uint64_t> {};

TEST_P(QueuesAnchors, Mm1MatchesTheory) { ExpectAnchorsHold(MustRun("queues.mm1", "{}", GetParam())); }

TEST_P(QueuesAnchors, MmkMatchesTheory) {
  ExpectAnchorsHold(MustRun("queues.mm1", R"({"servers": 4, "service_us": 25, "points": 4})", GetParam()));
}

TEST_P(QueuesAnchors, ClosedLoopMatchesProductFormAndLittle) {
  ExpectAnchorsHold(MustRun("queues.closed-loop", "{}", GetParam()));
  ExpectAnchorsHold(MustRun("queues.closed-loop", R"({"servers": 3, "clients_max": 40, "think_us": 0})", GetParam()));
}

TEST_P(QueuesAnchors, BatchingMatchesCapacityAndMd1) {
  Result r = MustRun("queues.batching", "{}", GetParam());
  ExpectAnchorsHold(r);
  EXPECT_EQ(r.Metric("best_width_low_load"), 1);   // at low load, batching only adds waiting
  EXPECT_GE(r.Metric("best_width_high_load"), 8);  // at high load, only wide batches keep up
}

INSTANTIATE_TEST_SUITE_P(Seeds, QueuesAnchors, ::testing::Values(1, 2, 3));

TEST(QueuesExperiments, SameSeedSameBytesOtherSeedOtherBytes) {
  const std::string p = R"({"points": 3, "requests": 40000})";
  std::string a = ResultToJson(MustRun("queues.mm1", p, 5));
  std::string b = ResultToJson(MustRun("queues.mm1", p, 5));
  std::string c = ResultToJson(MustRun("queues.mm1", p, 6));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(ResultToCsv(MustRun("queues.batching", R"({"requests": 10000})", 9)),
            ResultToCsv(MustRun("queues.batching", R"({"requests": 10000})", 9)));
}

TEST(QueuesExperiments, ResultCarriesItsInputs) {
  Result r = MustRun("queues.closed-loop", R"({"clients_max": 4, "requests": 10000})", 77);
  EXPECT_EQ(r.id, "queues.closed-loop");
  EXPECT_EQ(r.seed, 77u);
  EXPECT_EQ(r.params.Int("clients_max"), 4);
  std::string json = ResultToJson(r);
  for (const char* key : {"\"id\"", "\"params\"", "\"seed\"", "\"scale\"", "\"metrics\"", "\"series\"", "\"anchors\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
  std::string csv = ResultToCsv(r);
  EXPECT_EQ(csv.rfind("kind,name,x_label,y_label,x,y\n", 0), 0u);
  EXPECT_NE(csv.find("param,clients_max,,,,4\n"), std::string::npos);
}

TEST(QueuesExperiments, BadInputGivesAClearError) {
  auto unknown = RunExperimentJson("queues.nope", "{}", 1, nullptr);
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("known experiments: queues.mm1"), std::string::npos);
  auto range = RunExperimentJson("queues.mm1", R"({"rho_max": 1.5})", 1, nullptr);
  EXPECT_EQ(range.status().message(), "parameter 'rho_max' = 1.5 is out of range [0.05, 0.98] for queues.mm1");
  auto crossed = RunExperimentJson("queues.mm1", R"({"rho_min": 0.9, "rho_max": 0.5})", 1, nullptr);
  EXPECT_EQ(crossed.status().message(), "parameter 'rho_min' = 0.9 must be below 'rho_max' = 0.5");
  auto json = RunExperimentJson("queues.mm1", R"({"servers": })", 1, nullptr);
  EXPECT_NE(json.status().message().find("not valid JSON: JSON error at byte"), std::string::npos);
  auto seed = RunExperimentJson("queues.mm1", "{}", kMaxSeed + 1, nullptr);
  EXPECT_NE(seed.status().message().find("seed 9007199254740992 is out of range"), std::string::npos);
}

TEST(QueuesExperiments, CancellationStopsTheRun) {
  int calls = 0;
  auto r = RunExperimentJson("queues.mm1", "{}", 1, [&calls](double f) { return ++calls < 3; });
  EXPECT_EQ(r.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(calls, 3);
}

TEST(QueuesExperiments, ProgressIsMonotoneAndEndsAtOne) {
  double last = -1;
  auto r = RunExperimentJson("queues.closed-loop", R"({"requests": 10000})", 1, [&last](double f) {
    EXPECT_GE(f, last);
    last = f;
    return true;
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(last, 1.0);
}

TEST(QueuesExperiments, ListHasEverySchema) {
  std::string list = ListExperimentsJson();
  for (const char* id : {"queues.mm1", "queues.closed-loop", "queues.batching"}) {
    EXPECT_NE(list.find(std::string("\"id\": \"") + id + "\""), std::string::npos) << id;
  }
  EXPECT_NE(list.find("\"unit\": \"µs\""), std::string::npos);
}

}  // namespace
}  // namespace fawnlab
