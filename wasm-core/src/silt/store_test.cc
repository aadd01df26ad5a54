// The SILT store: puts, updates and deletes found through every layer (LogStore, HashStores,
// SortedStore), conversions and merges really happening, reads per lookup, memory per key at
// each layer against SILT's figures, the writer's stall, determinism, Sync, bad input.
#include "silt/store.h"

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "base/json_writer.h"
#include "silt/test_rig.h"

namespace fawnlab::silt {
namespace {

using testing::Rig;
using testing::TestKey;

Options Small() {
  Options o;
  o.key_bytes = 20;
  o.max_value_bytes = 32;
  o.log_slots = 64;  // 16 buckets: a LogStore holds ~60 keys
  o.merge_chunk_bytes = 4096;
  return o;
}

std::string Val(uint64_t i, int ver) { return "v" + std::to_string(i) + "." + std::to_string(ver); }

TEST(SiltStoreTest, FindsEveryVersionThroughEveryLayer) {
  Rig r(Small(), 5000);
  ASSERT_TRUE(r.store) << r.create_error.ToString();
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(r.Put(TestKey(i, 20), Val(i, 0)).ok());
  for (uint64_t i = 0; i < 1000; i += 3) ASSERT_TRUE(r.Put(TestKey(i, 20), Val(i, 1)).ok());
  for (uint64_t i = 0; i < 1000; i += 7) ASSERT_TRUE(r.Delete(TestKey(i, 20)).ok());
  EXPECT_GT(r.store->stats().conversions, 10u);
  EXPECT_GT(r.store->stats().merges, 0u);
  auto check = [&] {
    for (uint64_t i = 0; i < 1000; ++i) {
      std::string v;
      Status s = r.Get(TestKey(i, 20), &v);
      if (i % 7 == 0) {
        ASSERT_TRUE(s.code() == StatusCode::kNotFound) << i << " " << s.ToString();
      } else {
        ASSERT_TRUE(s.ok()) << i << " " << s.ToString();
        ASSERT_EQ(v, Val(i, i % 3 == 0 ? 1 : 0)) << i;
      }
    }
    std::string v;
    EXPECT_TRUE(r.Get(TestKey(5000, 20), &v).code() == StatusCode::kNotFound);
  };
  check();
  r.Drain();
  EXPECT_TRUE(r.store->idle());
  check();
  const auto& st = r.store->stats();
  EXPECT_GT(st.served_sorted, 0u);
  EXPECT_GT(st.dropped_deletes, 0u);
  EXPECT_GT(st.dropped_duplicates, 0u);
  const kv::KvCounters c = r.store->counters();
  EXPECT_EQ(c.puts, 1000u + 334u);
  EXPECT_EQ(c.deletes, 143u);
  EXPECT_EQ(c.gets, 2002u);
  EXPECT_EQ(c.hits + c.misses, c.gets);
  EXPECT_GT(c.store_bytes_written, c.user_bytes);
  EXPECT_GT(c.background_ns, 0);
  EXPECT_EQ(c.background_jobs, st.conversions + st.merges);
}

TEST(SiltStoreTest, AtMostOneReadPerLayerPlusFalsePositives) {
  Rig r(Small(), 20000);
  ASSERT_TRUE(r.store);
  for (uint64_t i = 0; i < 8000; ++i) ASSERT_TRUE(r.Put(TestKey(i, 20), Val(i, 0)).ok());
  r.Drain();
  const kv::KvCounters c0 = r.store->counters();
  const uint64_t fp0 = r.store->stats().false_positives;
  for (uint64_t i = 0; i < 8000; i += 4) {
    std::string v;
    ASSERT_TRUE(r.Get(TestKey(i, 20), &v).ok());
  }
  const kv::KvCounters c1 = r.store->counters();
  const double reads = static_cast<double>(c1.lookup_reads - c0.lookup_reads) / 2000;
  const uint64_t fps = r.store->stats().false_positives - fp0;
  std::printf("present keys: %.4f reads per get, %llu false positives\n", reads, static_cast<unsigned long long>(fps));
  EXPECT_EQ(c1.lookup_reads - c0.lookup_reads, 2000u + fps);  // one read each, plus the false positives
  EXPECT_LT(reads, 1.02);                                      // SILT: 1.01 reads per lookup
  // An absent key: only the SortedStore's read (the trie has no filter), unless a tag matches.
  const kv::KvCounters c2 = r.store->counters();
  for (uint64_t i = 100000; i < 101000; ++i) {
    std::string v;
    ASSERT_TRUE(r.Get(TestKey(i, 20), &v).code() == StatusCode::kNotFound);
  }
  EXPECT_LE(r.store->counters().lookup_reads - c2.lookup_reads, 1000u + 20u);
}

// Memory per key at each layer against SILT's figures (SOSP'11 §2-3: LogStore 6.5 B,
// HashStore 2.2 B, SortedStore 0.4 B per entry; the CONA thesis: 0.4 B at block 64, §3.2.2).
TEST(SiltStoreTest, MemoryPerKeyAtEachLayerMatchesSilt) {
  Options o = Small();
  o.log_slots = 4096;          // 1024 buckets
  o.merge_hash_stores = 4;     // keep a few HashStores to measure
  o.max_hash_stores = 8;
  Rig r(o, 200000);
  ASSERT_TRUE(r.store);
  for (uint64_t i = 0; i < 100000; ++i) ASSERT_TRUE(r.Put(TestKey(i, 20), "x").ok());
  double log_bpk = 0, hash_bpk = 0, sorted_bpk = 0;
  uint64_t hash_n = 0, hash_bytes = 0;
  for (const LayerInfo& l : r.store->layers()) {
    if (l.kind == "hash") { hash_n += l.entries; hash_bytes += l.dram_bytes; }
    if (l.kind == "sorted" && l.entries) sorted_bpk = static_cast<double>(l.dram_bytes) / static_cast<double>(l.entries);
  }
  // A full LogStore's table: 6 B a slot over the slots it filled.
  log_bpk = 6.0 / r.store->stats().last_log_occupancy;
  hash_bpk = hash_n ? static_cast<double>(hash_bytes) / static_cast<double>(hash_n) : 0;
  std::printf("B/key: LogStore %.2f (full, occupancy %.3f), HashStore %.2f, SortedStore %.3f; total %.3f over %llu keys\n",
              log_bpk, r.store->stats().last_log_occupancy, hash_bpk, sorted_bpk,
              static_cast<double>(r.store->dram_bytes()) / 100000.0, 100000ull);
  EXPECT_NEAR(log_bpk, 6.5, 0.35);
  ASSERT_GT(hash_n, 0u);
  EXPECT_NEAR(hash_bpk, 2.2, 0.15);
  EXPECT_GT(sorted_bpk, 0.35);
  EXPECT_LT(sorted_bpk, 0.55);
}

TEST(SiltStoreTest, TheWriterWaitsWhenConversionFallsBehind) {
  Options o = Small();
  o.cpu_scale = 1;
  o.merge_chunk_bytes = 4096;
  Rig r(o, 40000);
  ASSERT_TRUE(r.store);
  // Keep many puts queued: the writer fills LogStores faster than the background (busy with
  // merges of a growing SortedStore) converts them.
  int done = 0;
  for (uint64_t i = 0; i < 20000; ++i) ASSERT_TRUE(r.store->Put(TestKey(i, 20), "v", [&](const Status& s) { done += s.ok(); }).ok());
  while (done < 20000 && r.sim.Step()) {}
  ASSERT_EQ(done, 20000);
  const kv::KvCounters c = r.store->counters();
  std::printf("stall %.3f ms of %.3f ms writing; background busy %.3f ms\n", c.stall_ns / 1e6, c.write_ns / 1e6,
              c.background_ns / 1e6);
  EXPECT_GT(c.stall_ns, 0);
  EXPECT_LE(c.stall_ns, c.write_ns);
}

std::string RunAndDescribe(uint64_t seed, kv::KvCounters* out) {
  Options o = Small();
  o.seed = seed;
  Rig r(o, 10000);
  sim::Rng rng(seed);
  for (int i = 0; i < 4000; ++i) {
    const uint64_t k = rng.UniformU64(1500);
    const uint64_t op = rng.UniformU64(10);
    std::string v;
    if (op < 5) (void)r.Put(TestKey(k, 20), Val(k, i));
    else if (op < 6) (void)r.Delete(TestKey(k, 20));
    else (void)r.Get(TestKey(k, 20), &v);
  }
  *out = r.store->counters();
  JsonWriter w;
  r.store->DescribeJson(&w);
  return w.str() + " t=" + std::to_string(r.sim.now());
}

TEST(SiltStoreTest, SameSeedSameCounters) {
  kv::KvCounters a, b;
  const std::string ja = RunAndDescribe(7, &a), jb = RunAndDescribe(7, &b);
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(a.lookup_reads, b.lookup_reads);
  EXPECT_EQ(a.store_bytes_written, b.store_bytes_written);
  EXPECT_EQ(a.store_bytes_read, b.store_bytes_read);
  EXPECT_EQ(a.write_ns, b.write_ns);
  EXPECT_EQ(a.read_ns, b.read_ns);
  EXPECT_EQ(a.stall_ns, b.stall_ns);
  EXPECT_EQ(a.background_ns, b.background_ns);
  for (const char* f : {"\"type\": \"silt\"", "\"log\"", "\"capacity\"", "\"frozen_log\"", "\"hash_stores\"",
                        "\"sorted\"", "\"converting\"", "\"merging\""})
    EXPECT_NE(ja.find(f), std::string::npos) << f << " in " << ja;
}

TEST(SiltStoreTest, SyncFlushesTheLog) {
  Rig r(Small(), 1000);
  ASSERT_TRUE(r.Put(TestKey(1, 20), "a").ok());
  const uint64_t flushes = r.dev->counters().flushes;
  bool done = false;
  ASSERT_TRUE(r.store->Sync([&](const Status& s) { EXPECT_TRUE(s.ok()); done = true; }).ok());
  ASSERT_TRUE(testing::RunUntilFlag(&r.sim, &done));
  EXPECT_EQ(r.dev->counters().flushes, flushes + 1);
}

TEST(SiltStoreTest, TheLogStoreScalesWithTheFile) {
  EXPECT_EQ(LogSlotsForEntries(50'000'000), kSiltLogSlots);    // the thesis's load: SILT's table
  EXPECT_EQ(LogSlotsForEntries(500'000'000), kSiltLogSlots);   // at most 2^15 buckets
  EXPECT_EQ(LogSlotsForEntries(25'000'000), kSiltLogSlots / 2);
  EXPECT_EQ(LogSlotsForEntries(50'000), 128u);                 // the lab's 25K records
  EXPECT_EQ(LogSlotsForEntries(4'000), 32u);                   // at least 8 buckets
  Options o = Small();
  o.log_slots = 0;
  Rig r(o, 200'000);
  ASSERT_TRUE(r.store) << r.create_error.ToString();
  EXPECT_EQ(r.store->layout().log_slots, LogSlotsForEntries(200'000));
  EXPECT_GE(r.store->layout().sorted_entries, 200'000u);
}

TEST(SiltStoreTest, BadInputIsNamed) {
  Rig r(Small(), 100);
  ASSERT_TRUE(r.store);
  Status s = r.store->Put("short", "v", nullptr);
  EXPECT_NE(s.message().find("key_bytes"), std::string::npos) << s.ToString();
  s = r.store->Put(TestKey(1, 20), std::string(33, 'x'), nullptr);
  EXPECT_NE(s.message().find("max_value_bytes"), std::string::npos) << s.ToString();
  EXPECT_FALSE(r.store->has_scan());
  EXPECT_FALSE(r.store->Scan(TestKey(1, 20), 5, nullptr).ok());
  // The file's room: FileBytes(100) takes at least 100 puts and refuses once full.
  int ok = 0;
  Status last;
  for (int i = 0; i < 1000 && (last = r.store->Put(TestKey(static_cast<uint64_t>(i), 20), "v", nullptr)).ok(); ++i) ++ok;
  EXPECT_GE(ok, 100);
  EXPECT_EQ(last.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(last.message().find("FileBytes"), std::string::npos);

  sim::Simulator sim;
  auto dev = cona::testing::TestDevice(&sim, 1 << 20);
  Options o = Small();
  o.log_slots = 100;
  EXPECT_NE(SiltStore::Create(dev.get(), o).status().message().find("log_slots"), std::string::npos);
  o = Small();
  o.merge_hash_stores = 0;
  EXPECT_NE(SiltStore::Create(dev.get(), o).status().message().find("merge_hash_stores"), std::string::npos);
  o = Small();
  o.log_sync_bytes = 0;
  EXPECT_NE(SiltStore::Create(dev.get(), o).status().message().find("log_sync_bytes"), std::string::npos);
  o = Small();
  o.trie_block = 1;
  EXPECT_NE(SiltStore::Create(dev.get(), o).status().message().find("trie_block"), std::string::npos);
  o = Small();
  o.region_bytes = 4096;
  EXPECT_NE(SiltStore::Create(dev.get(), o).status().message().find("too small"), std::string::npos);
  o = Small();
  o.region_offset = 2 << 20;
  EXPECT_NE(SiltStore::Create(dev.get(), o).status().message().find("beyond"), std::string::npos);
  EXPECT_FALSE(SiltStore::Create(nullptr, Small()).ok());
}

}  // namespace
}  // namespace fawnlab::silt
