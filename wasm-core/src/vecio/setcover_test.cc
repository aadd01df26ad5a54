#include "vecio/setcover.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "sim/rng.h"

namespace fawnlab::vecio {
namespace {

// The smallest number of servers covering every key, by trying every subset of servers.
int BruteForce(const Placement& p, int servers) {
  int best = servers + 1;
  for (uint32_t subset = 0; subset < (1u << servers); ++subset) {
    bool ok = true;
    for (const auto& list : p) {
      bool hit = false;
      for (int s : list) hit = hit || (subset >> s & 1u);
      ok = ok && hit;
    }
    int n = 0;
    for (int s = 0; s < servers; ++s) n += (subset >> s) & 1;
    if (ok) best = std::min(best, n);
  }
  return best;
}

TEST(VectorSetCoverTest, ExactMatchesBruteForceAndGreedyIsNoBetter) {
  const uint64_t seed = 20261126;
  sim::Rng rng(seed);
  int greedy_worse = 0;
  for (int c = 0; c < 400; ++c) {
    const int servers = 2 + static_cast<int>(rng.UniformU64(11));   // 2..12
    const int keys = 1 + static_cast<int>(rng.UniformU64(32));       // 1..32
    const int r = 1 + static_cast<int>(rng.UniformU64(static_cast<uint64_t>(std::min(servers, 4))));
    Placement p = RandomPlacement(keys, servers, r, rng);
    const int exact = ExactMinCover(p);
    const int greedy = GreedyCover(p);
    ASSERT_EQ(exact, BruteForce(p, servers)) << "seed " << seed << " case " << c;
    ASSERT_GE(greedy, exact) << "seed " << seed << " case " << c;
    greedy_worse += greedy > exact;
  }
  EXPECT_GT(greedy_worse, 0) << "some random case should show greedy above the minimum (seed " << seed << ")";
}

TEST(VectorSetCoverTest, Replication1MonteCarloMatchesTheClosedForm) {
  sim::Rng rng(7);
  for (int n : {4, 16, 128}) {
    double sum = 0;
    const int trials = 4000;
    for (int t = 0; t < trials; ++t) sum += ExactMinCover(RandomPlacement(32, n, 1, rng));
    EXPECT_NEAR(32 / (sum / trials), Replication1Width(32, n), 0.01 * Replication1Width(32, n)) << "N = " << n;
  }
  EXPECT_NEAR(Replication1Width(32, 128), 1.127, 0.002);
  EXPECT_DOUBLE_EQ(Replication1Width(32, 1), 32);
}

TEST(VectorSetCoverTest, RingChainsAreDistinctNodesAndPrefixes) {
  auto placer = RingPlacer::Create(16, 4, 10);
  ASSERT_TRUE(placer.ok());
  sim::Rng a(3), b(3);
  Placement p10 = placer.value().Place(32, 10, a);
  Placement p3 = placer.value().Place(32, 3, b);
  for (size_t k = 0; k < p10.size(); ++k) {
    ASSERT_EQ(p10[k].size(), 10u);
    std::vector<int> sorted = p10[k];
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "replicas on distinct nodes";
    EXPECT_TRUE(std::equal(p3[k].begin(), p3[k].end(), p10[k].begin())) << "a chain of 3 is the head of a chain of 10";
  }
}

TEST(VectorScaleExperimentTest, AnchorsAndDeterminism) {
  Result r = exptest::MustRun("vector.scale", R"({"trials": 60})");
  exptest::ExpectAnchorsMet(r);
  EXPECT_GE(r.Metric("r10_n128_greedy_servers"), r.Metric("r10_n128_servers"));
  EXPECT_GT(r.Metric("r10_n128_width"), r.Metric("r3_n128_width"));
  auto a = RunExperimentJson("vector.scale", R"({"trials": 20, "max_servers": 32})", 9, nullptr);
  auto b = RunExperimentJson("vector.scale", R"({"trials": 20, "max_servers": 32})", 9, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

}  // namespace
}  // namespace fawnlab::vecio
