// The partial-key cuckoo table: occupancy at the first failed insert on random keys (SILT
// §3.1: ~93% with 4-way buckets, 2 hash functions), every stored key found among its
// candidates after displacements, a failed insert leaves the table unchanged, tags-only bytes.
#include "silt/cuckoo.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/rng.h"

namespace fawnlab::silt {
namespace {

uint64_t Seed() {
  const char* s = std::getenv("FAWNLAB_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 17002;
}

std::string RandomKey(sim::Rng& rng) {
  std::string k(20, '\0');
  for (auto& c : k) c = static_cast<char>(rng.UniformU64(256));
  return k;
}

// Fills a table with random keys until an insert fails; returns the occupancy then.
double FillUntilFull(uint32_t buckets, sim::Rng& rng, uint64_t seed, std::vector<std::string>* keys,
                     CuckooTable* out, uint64_t* displacements) {
  CuckooTable t(buckets, true, 128, seed);
  for (uint32_t i = 0;; ++i) {
    std::string k = RandomKey(rng);
    auto r = t.Insert(t.Hash(k), i);
    if (!r.ok) break;
    *displacements += static_cast<uint64_t>(r.displacements);
    keys->push_back(k);
  }
  const double occ = t.occupancy();
  *out = std::move(t);
  return occ;
}

TEST(SiltCuckooTest, OccupancyReachesSiltsNinetyThreePercent) {
  const uint64_t seed = Seed();
  std::printf("SiltCuckooTest seed=%llu (FAWNLAB_TEST_SEED to replay)\n", static_cast<unsigned long long>(seed));
  sim::Rng rng(seed);
  // SILT's table (2^15 buckets) and the lab's (32 buckets), several fills each.
  for (uint32_t buckets : {32768u, 32u}) {
    const int fills = buckets == 32 ? 200 : 3;
    double sum = 0, lo = 1;
    uint64_t disp = 0;
    for (int f = 0; f < fills; ++f) {
      std::vector<std::string> keys;
      CuckooTable t;
      const double occ = FillUntilFull(buckets, rng, seed + static_cast<uint64_t>(f), &keys, &t, &disp);
      sum += occ;
      lo = std::min(lo, occ);
      // Every key stored is among its own candidates, at its own offset.
      for (uint32_t i = 0; i < keys.size(); ++i) {
        uint32_t c[8];
        const int n = t.Candidates(t.Hash(keys[i]), c);
        bool found = false;
        for (int j = 0; j < n; ++j) found |= t.offset(c[j]) == i;
        ASSERT_TRUE(found) << "key " << i << " lost after displacements (buckets " << buckets << ")";
      }
    }
    const double mean = sum / fills;
    std::printf("buckets %u: mean occupancy at the first failed insert %.3f (min %.3f), displacements %llu\n", buckets,
                mean, lo, static_cast<unsigned long long>(disp));
    EXPECT_GT(mean, 0.90) << buckets;
    EXPECT_LT(mean, 0.995) << buckets;
    EXPECT_GT(disp, 0u);
  }
}

TEST(SiltCuckooTest, FailedInsertLeavesTheTableUnchanged) {
  sim::Rng rng(Seed() + 1);
  CuckooTable t(8, true, 128, 5);
  std::vector<std::string> keys;
  for (uint32_t i = 0;; ++i) {
    std::string k = RandomKey(rng);
    auto r = t.Insert(t.Hash(k), i);
    if (!r.ok) {
      EXPECT_EQ(r.displacements, 128);
      break;
    }
    keys.push_back(k);
  }
  const uint32_t used = t.used();
  std::vector<std::pair<uint16_t, uint32_t>> before;
  for (uint32_t s = 0; s < t.slots(); ++s) before.push_back({t.valid(s) ? t.tag(s) : 0xFFFF, t.offset(s)});
  for (int i = 0; i < 20; ++i) {
    auto r = t.Insert(t.Hash(RandomKey(rng)), 999);
    if (r.ok) break;  // (a key whose buckets still have room may fit)
    for (uint32_t s = 0; s < t.slots(); ++s) {
      ASSERT_EQ(before[s].first, t.valid(s) ? t.tag(s) : 0xFFFF);
      ASSERT_EQ(before[s].second, t.offset(s));
    }
    ASSERT_EQ(used, t.used());
  }
}

TEST(SiltCuckooTest, TagsAreFifteenBitsAndTheOtherBucketFollowsFromTheTag) {
  sim::Rng rng(Seed() + 2);
  CuckooTable t(1024, true, 128, 9);
  for (int i = 0; i < 2000; ++i) {
    auto h = t.Hash(RandomKey(rng));
    EXPECT_LT(h.tag, 1u << 15);
    EXPECT_NE(h.b1, h.b2);
    EXPECT_LT(h.b2, 1024u);
  }
  // A random absent key matches a tag in a full table about 8 / 2^15 of the time.
  for (uint32_t i = 0; i < 3800; ++i) ASSERT_TRUE(t.Insert(t.Hash(RandomKey(rng)), i).ok);
  uint64_t matches = 0;
  const int probes = 200000;
  for (int i = 0; i < probes; ++i) {
    uint32_t c[8];
    matches += static_cast<uint64_t>(t.Candidates(t.Hash(RandomKey(rng)), c));
  }
  const double per = static_cast<double>(matches) / probes;
  EXPECT_GT(per, 8 * 0.5 / 32768 * 0.9);
  EXPECT_LT(per, 8.0 / 32768 * 2);
}

TEST(SiltCuckooTest, BytesAreSixPerSlotAndTwoWithoutOffsets) {
  CuckooTable t(32, true, 128, 1);
  EXPECT_EQ(t.slots(), 128u);
  EXPECT_EQ(t.bytes(), 128u * 6);
  CuckooTable h = std::move(t).TagsOnly();
  EXPECT_EQ(h.bytes(), 128u * 2);
  EXPECT_EQ(h.offset(77), 77u);  // a HashStore's entry sits at its slot
}

}  // namespace
}  // namespace fawnlab::silt
