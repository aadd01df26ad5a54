// Randomized ops against a std::map reference: puts (new keys and updates), deletes, gets
// and scans, with flushes and compactions interleaved (small LevelDB sizes, so the tree goes
// through many of both and reaches level 3). Some ops are issued in bursts without waiting
// (the store queues them). Prints its seed; FAWNLAB_TEST_SEED replays one,
// FAWNLAB_LSM_RANDOM_OPS changes the op count (default 200,000).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lsm/store.h"
#include "lsm/store_test_util.h"
#include "sim/rng.h"

namespace fawnlab::lsm {
namespace {

using testing::Rig;
using testing::TestKey;

uint64_t Seed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 17017;
}

uint64_t Ops() {
  const char* env = std::getenv("FAWNLAB_LSM_RANDOM_OPS");
  return env ? std::strtoull(env, nullptr, 10) : 200000;
}

void RunRandom(uint64_t seed, uint64_t ops, int bloom_bits, uint64_t keyspace) {
  std::printf("LSM random test: seed %llu, %llu ops, bloom %d, keyspace %llu (FAWNLAB_TEST_SEED=%llu to replay)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(ops), bloom_bits,
              static_cast<unsigned long long>(keyspace), static_cast<unsigned long long>(seed));
  Options o = testing::SmallOptions();
  o.bloom_bits = bloom_bits;
  o.max_value_bytes = 120;
  o.region_bytes = LsmStore::FileBytes(o, ops);
  Rig r(o, uint64_t{2} << 30);
  ASSERT_TRUE(r.store) << r.create_error.ToString();
  sim::Rng rng(seed);
  std::map<std::string, std::string> ref;
  uint64_t gets = 0, found = 0, scans = 0, pending = 0, failures = 0;
  auto value = [&rng](uint64_t i) {
    std::string v(static_cast<size_t>(rng.UniformU64(121)), '\0');
    uint64_t x = i * 0x9E3779B97F4A7C15ull + rng.NextU64();
    for (char& c : v) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      c = static_cast<char>(x);
    }
    return v;
  };
  for (uint64_t i = 0; i < ops; ++i) {
    const uint64_t dice = rng.UniformU64(100);
    const std::string k = TestKey(rng.UniformU64(keyspace));
    if (dice < 50) {
      const std::string v = value(i);
      if (dice < 10) {
        // Fire and forget: the store queues it; the reference changes now (ops run in order).
        ++pending;
        ASSERT_TRUE(r.store->Put(k, v, [&pending, &failures](const Status& s) {
          --pending;
          failures += !s.ok();
        }).ok());
      } else {
        ASSERT_TRUE(r.Put(k, v).ok()) << "op " << i;
      }
      ref[k] = v;
    } else if (dice < 60) {
      ASSERT_TRUE(r.Delete(k).ok()) << "op " << i;
      ref.erase(k);
    } else if (dice < 99) {
      std::string v;
      Status s = r.Get(k, &v);
      ++gets;
      auto it = ref.find(k);
      if (it == ref.end()) {
        ASSERT_EQ(s.code(), StatusCode::kNotFound) << "op " << i << ": a deleted or absent key was found";
      } else {
        ASSERT_TRUE(s.ok()) << "op " << i << ": " << s.ToString();
        ASSERT_EQ(v, it->second) << "op " << i << ": wrong version";
        ++found;
      }
    } else {
      const int count = static_cast<int>(rng.UniformU64(40));
      std::vector<std::pair<std::string, std::string>> got;
      ASSERT_TRUE(r.Scan(k, count, &got).ok());
      ++scans;
      auto it = ref.lower_bound(k);
      for (const auto& [gk, gv] : got) {
        ASSERT_TRUE(it != ref.end()) << "op " << i << ": scan past the end";
        ASSERT_EQ(gk, it->first) << "op " << i;
        ASSERT_EQ(gv, it->second) << "op " << i;
        ++it;
      }
      ASSERT_TRUE(got.size() == static_cast<size_t>(count) || it == ref.end()) << "op " << i << ": scan short";
    }
  }
  r.Drain();
  EXPECT_EQ(pending, 0u);
  EXPECT_EQ(failures, 0u);
  // Every key at the end.
  for (uint64_t j = 0; j < keyspace; ++j) {
    std::string v;
    Status s = r.Get(TestKey(j), &v);
    auto it = ref.find(TestKey(j));
    if (it == ref.end()) ASSERT_EQ(s.code(), StatusCode::kNotFound) << "key " << j;
    else ASSERT_EQ(v, it->second) << "key " << j;
  }
  const LsmStats st = r.store->stats();
  std::printf("  %llu gets (%llu found), %llu scans; %llu flushes, %llu compactions, %llu moves, levels in use %d, "
              "store WA %.2f, reads/get %.3f, filter negatives %llu, false positives %llu\n",
              static_cast<unsigned long long>(gets), static_cast<unsigned long long>(found),
              static_cast<unsigned long long>(scans), static_cast<unsigned long long>(st.flushes),
              static_cast<unsigned long long>(st.compactions), static_cast<unsigned long long>(st.trivial_moves),
              r.store->levels_in_use(),
              static_cast<double>(r.store->counters().store_bytes_written) / static_cast<double>(r.store->counters().user_bytes),
              static_cast<double>(r.store->counters().lookup_reads) / static_cast<double>(r.store->counters().gets),
              static_cast<unsigned long long>(st.filter_negatives), static_cast<unsigned long long>(st.false_positives));
  EXPECT_GT(st.flushes, 100u);
  EXPECT_GT(st.compactions, 50u);
  EXPECT_GE(r.store->levels_in_use(), 3);
  EXPECT_GT(st.dropped_deletions, 0u);
}

TEST(LsmRandom, AgainstReferenceMap) { RunRandom(Seed(), Ops(), 10, 20000); }
TEST(LsmRandom, NoFilterSmallKeyspace) { RunRandom(Seed() + 1, Ops() / 4, 0, 3000); }

}  // namespace
}  // namespace fawnlab::lsm
