// EntropyTrie against brute force: the rank of every key, ranks in range for absent keys,
// memory per key by block size (Table 3.2's ordering), lookup work by block size, bad input.
#include "cona/trie.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/rng.h"

namespace fawnlab::cona {
namespace {

uint64_t TestSeed(uint64_t fallback) {
  const char* s = std::getenv("FAWNLAB_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : fallback;
}

std::vector<std::string> RandomKeys(size_t n, int bytes, sim::Rng& rng) {
  std::set<std::string> s;
  while (s.size() < n) {
    std::string k(static_cast<size_t>(bytes), '\0');
    for (auto& c : k) c = static_cast<char>(rng.UniformU64(256));
    s.insert(k);
  }
  return {s.begin(), s.end()};
}

TEST(EntropyTrieTest, RanksEveryKeyAndStaysInRangeForAbsentKeys) {
  const uint64_t seed = TestSeed(20261127);
  std::printf("EntropyTrieTest seed=%llu (FAWNLAB_TEST_SEED to replay)\n", static_cast<unsigned long long>(seed));
  sim::Rng rng = sim::Rng::ForStream(seed, 1);
  for (size_t n : {0u, 1u, 2u, 3u, 17u, 1000u, 20000u}) {
    for (int block : {2, 4, 16, 64, 1024}) {
      const auto keys = RandomKeys(n, 20, rng);
      auto t = EntropyTrie::Build(keys, block);
      ASSERT_TRUE(t.ok()) << t.status().message();
      ASSERT_EQ(t.value().size(), n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(t.value().Rank(keys[i]), i) << "n " << n << " block " << block;
      for (const auto& absent : RandomKeys(50, 20, rng)) {
        if (std::binary_search(keys.begin(), keys.end(), absent) || n == 0) continue;
        EXPECT_LT(t.value().Rank(absent), n);
      }
    }
  }
}

TEST(EntropyTrieTest, SmallerBlocksCostMoreMemoryAndLessWork) {
  sim::Rng rng = sim::Rng::ForStream(TestSeed(7), 2);
  const auto keys = RandomKeys(1 << 16, 20, rng);
  double last_bytes = 1e9, last_steps = 0;
  for (int block : {4, 16, 64}) {
    auto t = EntropyTrie::Build(keys, block);
    ASSERT_TRUE(t.ok());
    uint64_t steps = 0;
    for (size_t i = 0; i < keys.size(); i += 7) t.value().Rank(keys[i], &steps);
    const double per = static_cast<double>(steps) / static_cast<double>((keys.size() + 6) / 7);
    std::printf("block %d: %.3f B/key, %.1f symbols decoded per lookup\n", block, t.value().bytes_per_key(), per);
    EXPECT_LT(t.value().bytes_per_key(), last_bytes);
    EXPECT_GT(per, last_steps);
    last_bytes = t.value().bytes_per_key();
    last_steps = per;
  }
  // Block 64's bytes per key within a loose band of Table 3.2's 0.45 (the trie's own mechanism,
  // nothing fitted): this catches an encoder that stopped compressing.
  EXPECT_GT(last_bytes, 0.3);
  EXPECT_LT(last_bytes, 0.6);
}

TEST(EntropyTrieTest, BadInputIsNamed) {
  EXPECT_NE(EntropyTrie::Build({}, 1).status().message().find("block_size"), std::string::npos);
  EXPECT_NE(EntropyTrie::Build({"abcd", "abcc"}, 4).status().message().find("sorted"), std::string::npos);
  EXPECT_NE(EntropyTrie::Build({"abcd", "abcde"}, 4).status().message().find("bytes"), std::string::npos);
  EXPECT_NE(EntropyTrie::Build({"ab"}, 4).status().message().find("4-64"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab::cona
