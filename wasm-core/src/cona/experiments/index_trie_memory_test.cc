// cona.trie-memory: the anchors (Tables 3.2 and 3.3) over several seeds, every rank right, the
// ordering by block size (memory down, lookup work up), Table 3.3's geometric split,
// determinism and named bad parameters.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

TEST(ConaTrieMemoryTest, MeetsTables32And33OverSeeds) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    Result r = exptest::MustRun("cona.trie-memory", "{}", seed);
    exptest::ExpectAnchorsMet(r);
    EXPECT_EQ(r.Metric("rank_errors"), 0) << "every key's rank is its position in the cell";
    EXPECT_EQ(r.Metric("levels"), 9);
  }
}

TEST(ConaTrieMemoryTest, BiggerBlocksCostLessMemoryAndMoreDecoding) {
  Result r = exptest::MustRun("cona.trie-memory", R"({"scale": 0.002})");
  EXPECT_GT(r.Metric("bpk_4"), r.Metric("bpk_16"));
  EXPECT_GT(r.Metric("bpk_16"), r.Metric("bpk_64"));
  EXPECT_LT(r.Metric("symbols_per_lookup_4"), r.Metric("symbols_per_lookup_16"));
  EXPECT_LT(r.Metric("symbols_per_lookup_16"), r.Metric("symbols_per_lookup_64"));
  // The mix pays block 64's memory and decoding on the last level only.
  EXPECT_GT(r.Metric("bpk_mix"), r.Metric("bpk_64"));
  EXPECT_LT(r.Metric("bpk_mix"), r.Metric("bpk_16"));
  // Buckets hold block..2·block keys.
  for (const char* b : {"4", "16", "64"}) {
    const double block = std::stod(b);
    EXPECT_GE(r.Metric(std::string("keys_per_bucket_") + b), block);
    EXPECT_LT(r.Metric(std::string("keys_per_bucket_") + b), 2 * block);
  }
}

TEST(ConaTrieMemoryTest, TheLevelsSplitTheKeysAsTable33) {
  Result r = exptest::MustRun("cona.trie-memory", "{}");
  EXPECT_NEAR(r.Metric("t33_n_pct"), 50, 0.5);
  EXPECT_NEAR(r.Metric("t33_n1_pct"), 25, 0.5);
  EXPECT_NEAR(r.Metric("t33_n2_pct"), 12.5, 0.5);
  EXPECT_NEAR(r.Metric("t33_n3_pct"), 6.25, 0.5);
  EXPECT_NEAR(r.Metric("t33_upper_pct"), 6.25, 0.5);
  double sum = 0;
  for (const char* g : {"upper", "n3", "n2", "n1", "n"}) sum += r.Metric(std::string("t33_") + g + "_contrib");
  EXPECT_NEAR(sum, r.Metric("bpk_mix"), 1e-9) << "the rows add up to the mix";
  EXPECT_NEAR(r.Metric("t33_n_bpk"), 0.45, 0.05);
  EXPECT_NEAR(r.Metric("t33_upper_bpk"), 2.0, 0.2);
  EXPECT_NEAR(r.Metric("index_bpk"), r.Metric("bpk_mix") + r.Metric("fragment_bpk"), 1e-9);
}

TEST(ConaTrieMemoryTest, DeterministicBySeed) {
  const std::string params = R"({"scale": 0.001})";
  auto a = RunExperimentJson("cona.trie-memory", params, 5, nullptr);
  auto b = RunExperimentJson("cona.trie-memory", params, 5, nullptr);
  auto c = RunExperimentJson("cona.trie-memory", params, 6, nullptr);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
  EXPECT_NE(ResultToJson(a.value()), ResultToJson(c.value())) << "the seed picks the records, so the tries differ";
}

TEST(ConaTrieMemoryTest, BadParametersAreNamed) {
  for (const auto& [param, bad] : std::vector<std::pair<std::string, std::string>>{
           {"scale", "0"}, {"scale", "2"}, {"buffer_kb", "4"}, {"buffer_kb", "4096"}}) {
    auto r = RunExperimentJson("cona.trie-memory", "{\"" + param + "\": " + bad + "}", 1, nullptr);
    ASSERT_FALSE(r.ok()) << param << " = " << bad;
    EXPECT_NE(r.status().message().find(param), std::string::npos) << r.status().message();
  }
  // Too few records for two levels of 1 MB buffers.
  auto r = RunExperimentJson("cona.trie-memory", R"({"scale": 0.0001, "buffer_kb": 1024})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("scale"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace fawnlab
