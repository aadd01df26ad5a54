// Randomized ops against a std::map reference: puts of new keys, updates, deletes and gets, with
// conversions and merges interleaved (small LogStores, so there are many of both), ops queued in
// bursts so the writer also waits for the background. Prints its seed; FAWNLAB_TEST_SEED replays
// one, FAWNLAB_SILT_RANDOM_OPS changes the first run's op count (default 200K; two more runs of a
// sixth of it each).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "silt/store.h"
#include "silt/test_rig.h"
#include "sim/rng.h"

namespace fawnlab::silt {
namespace {

uint64_t Seed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 17017;
}

uint64_t Ops() {
  const char* env = std::getenv("FAWNLAB_SILT_RANDOM_OPS");
  return env ? std::strtoull(env, nullptr, 10) : 200000;
}

struct Params {
  uint32_t log_slots;
  int merge_hash_stores;
  uint64_t keyspace;
  int burst;  // ops submitted before the simulator runs
  uint64_t cache_bytes = 0;  // a write-back page cache: lookups then read past it (O_DIRECT)
  uint64_t log_sync_bytes = 1 << 20;
};

void RunRandom(const Params& p, uint64_t seed, uint64_t ops) {
  Options o;
  o.key_bytes = 20;
  o.max_value_bytes = 24;
  o.log_slots = p.log_slots;
  o.merge_hash_stores = p.merge_hash_stores;
  o.max_hash_stores = std::max(8, p.merge_hash_stores);
  o.merge_chunk_bytes = 4096;
  o.seed = seed;
  o.log_sync_bytes = p.log_sync_bytes;
  testing::Rig r(o, ops, p.cache_bytes);
  ASSERT_TRUE(r.store) << r.create_error.ToString();
  sim::Rng rng(seed);
  std::map<std::string, std::string> ref;
  uint64_t pending = 0, errors = 0, checked = 0;
  std::string fail;
  uint64_t i = 0;
  while (i < ops && fail.empty()) {
    const int burst = 1 + static_cast<int>(rng.UniformU64(static_cast<uint64_t>(p.burst)));
    for (int b = 0; b < burst && i < ops; ++b, ++i) {
      const std::string key = testing::TestKey(rng.UniformU64(p.keyspace), 20);
      const uint64_t dice = rng.UniformU64(100);
      Status st;
      if (dice < 45) {
        std::string v = "v" + std::to_string(i);
        ref[key] = v;
        ++pending;
        st = r.store->Put(key, v, [&](const Status& s) { --pending; errors += !s.ok(); });
      } else if (dice < 55) {
        ref.erase(key);
        ++pending;
        st = r.store->Delete(key, [&](const Status& s) { --pending; errors += !s.ok(); });
      } else {
        // The answer the reference gives now is the one the get must see (ops apply in order).
        auto it = ref.find(key);
        const bool want_found = it != ref.end();
        const std::string want = want_found ? it->second : "";
        ++pending;
        st = r.store->Get(key, [&, want_found, want, i](const Status& s, std::string v) {
          --pending;
          ++checked;
          if (want_found && (!s.ok() || v != want) && fail.empty())
            fail = "op " + std::to_string(i) + ": got " + s.ToString() + " '" + v + "', want '" + want + "'";
          if (!want_found && s.code() != StatusCode::kNotFound && fail.empty())
            fail = "op " + std::to_string(i) + ": got " + s.ToString() + " '" + v + "' for an absent key";
        });
      }
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
    while (pending > 0 && r.sim.Step()) {}
    ASSERT_EQ(pending, 0u) << "ops never completed at op " << i;
  }
  ASSERT_TRUE(fail.empty()) << fail << " (seed " << seed << ")";
  EXPECT_EQ(errors, 0u);
  // Everything, after the background has finished too.
  r.Drain();
  for (const auto& [k, v] : ref) {
    std::string got;
    ASSERT_TRUE(r.Get(k, &got).ok());
    ASSERT_EQ(got, v);
  }
  const SiltStats& s = r.store->stats();
  const kv::KvCounters c = r.store->counters();
  std::printf("  %llu ops (%llu gets checked): %llu conversions, %llu merges, %llu false positives, stall %.1f ms, "
              "store WA %.2f, %llu live keys; lookup reads: %llu direct, %llu sector cache, %llu buffered; %llu syncs\n",
              static_cast<unsigned long long>(ops), static_cast<unsigned long long>(checked),
              static_cast<unsigned long long>(s.conversions), static_cast<unsigned long long>(s.merges),
              static_cast<unsigned long long>(s.false_positives), c.stall_ns / 1e6,
              static_cast<double>(c.store_bytes_written) / static_cast<double>(c.user_bytes),
              static_cast<unsigned long long>(ref.size()), static_cast<unsigned long long>(s.direct_reads),
              static_cast<unsigned long long>(s.sector_cache_hits), static_cast<unsigned long long>(s.buffered_reads),
              static_cast<unsigned long long>(s.file_syncs));
  if (p.cache_bytes > 0) {
    EXPECT_GT(s.direct_reads, 0u);
    EXPECT_GT(s.sector_cache_hits, 0u);
    EXPECT_GT(s.buffered_reads, 0u);
  }
  EXPECT_GT(s.conversions, ops / 400);
  EXPECT_GT(s.merges, ops / 3000);
}

TEST(SiltRandomTest, AgainstAReferenceMap) {
  const uint64_t seed = Seed();
  std::printf("SiltRandomTest seed=%llu (FAWNLAB_TEST_SEED to replay)\n", static_cast<unsigned long long>(seed));
  const uint64_t ops = Ops();
  RunRandom({64, 1, 20000, 64}, seed, ops);                      // SILT's trigger: merge every HashStore
  RunRandom({128, 4, 5000, 8}, seed + 1, std::max<uint64_t>(ops / 6, 1000));  // a small hot keyspace, merges of 4
  // Behind a write-back page cache, syncing often: reads past the cache must still see the
  // newest bytes (dirty pages read buffered, clean ones direct, the sector cache invalidated).
  RunRandom({64, 1, 3000, 16, 256 * 1024, 8192}, seed + 2, std::max<uint64_t>(ops / 6, 1000));
}

}  // namespace
}  // namespace fawnlab::silt
