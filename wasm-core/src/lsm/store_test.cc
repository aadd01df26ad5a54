// The LSM store: puts, gets, deletes and scans through flushes and compactions; level sizes
// after a load; errors; determinism; the structure JSON.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/json_writer.h"
#include "lsm/store.h"
#include "lsm/store_test_util.h"

namespace fawnlab::lsm {
namespace {

using testing::Rig;
using testing::SmallOptions;
using testing::TestKey;

std::string Val(uint64_t i, uint64_t version, size_t n = 100) {
  std::string v(n, '\0');
  uint64_t x = i * 0x9E3779B97F4A7C15ull + version * 0xD6E8FEB86659FD93ull + 1;
  for (size_t j = 0; j < n; ++j) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v[j] = static_cast<char>(x);
  }
  return v;
}

TEST(LsmStore, PutGetDeleteThroughLevels) {
  Rig r(SmallOptions());
  ASSERT_TRUE(r.store) << r.create_error.ToString();
  const int n = 6000;
  for (int i = 0; i < n; ++i) ASSERT_TRUE(r.Put(TestKey(i), Val(i, 0)).ok()) << i;
  for (int i = 0; i < n; i += 3) ASSERT_TRUE(r.Put(TestKey(i), Val(i, 1)).ok());
  for (int i = 0; i < n; i += 5) ASSERT_TRUE(r.Delete(TestKey(i)).ok());
  r.Drain();
  const LsmStats st = r.store->stats();
  EXPECT_GT(st.flushes, 20u);
  EXPECT_GT(st.compactions, 5u);
  EXPECT_GE(r.store->levels_in_use(), 3);
  for (int i = 0; i < n; ++i) {
    std::string v;
    Status s = r.Get(TestKey(i), &v);
    if (i % 5 == 0) {
      EXPECT_TRUE((s.code() == StatusCode::kNotFound)) << i;
    } else {
      ASSERT_TRUE(s.ok()) << i << " " << s.ToString();
      EXPECT_EQ(v, Val(i, i % 3 == 0 ? 1 : 0)) << i;
    }
  }
  std::string v;
  EXPECT_TRUE(r.Get(TestKey(n + 1), &v).code() == StatusCode::kNotFound);
  r.Drain();  // the gets' seek compactions
  const kv::KvCounters c = r.store->counters();
  const LsmStats st2 = r.store->stats();
  EXPECT_EQ(c.puts, static_cast<uint64_t>(n + n / 3));
  EXPECT_EQ(c.deletes, static_cast<uint64_t>(n / 5));
  EXPECT_EQ(c.gets, static_cast<uint64_t>(n + 1));
  EXPECT_EQ(c.hits + c.misses, c.gets);
  // One data block per get at most levels-deep; the filters keep it near one.
  EXPECT_LT(static_cast<double>(c.lookup_reads) / static_cast<double>(c.gets), 1.3);
  EXPECT_GT(c.store_bytes_written, 3 * c.user_bytes);  // WAL + flush + compactions
  EXPECT_GT(c.store_bytes_read, c.user_bytes);         // compactions read their inputs back
  EXPECT_EQ(c.background_jobs, st2.flushes + st2.compactions + st2.trivial_moves);
  EXPECT_GT(c.background_ns, 0);
  EXPECT_GT(c.foreground_cpu_ns, 0);
  EXPECT_EQ(st2.wal_bytes + st2.table_bytes + st2.manifest_bytes, c.store_bytes_written);
  EXPECT_GT(st2.dropped_versions, 0u);
}

// LevelDB's seek compactions: gets that must look past a table charge it; a table out of its
// allowed seeks is compacted though no level is over its target, and every value stays.
TEST(LsmStore, SeekCompactionsFromGets) {
  Rig r(SmallOptions());
  ASSERT_TRUE(r.store);
  const int n = 8000;
  for (int i = 0; i < n; ++i) ASSERT_TRUE(r.Put(TestKey(i), Val(i, 0)).ok());
  r.Drain();
  const LsmStats before = r.store->stats();
  EXPECT_EQ(before.seek_compactions, 0u);  // a load has no gets
  std::string v;
  for (int k = 0; k < 6; ++k) {
    for (int i = 0; i < n; ++i) {
      ASSERT_TRUE(r.Get(TestKey(i), &v).ok()) << i;
      ASSERT_EQ(v, Val(i, 0));
    }
  }
  r.Drain();
  const LsmStats after = r.store->stats();
  EXPECT_GT(after.seek_compactions, 0u);
  EXPECT_GT(after.compactions + after.trivial_moves, before.compactions + before.trivial_moves);
  EXPECT_EQ(r.store->counters().puts, static_cast<uint64_t>(n));
}

TEST(LsmStore, LevelSizesRespectTargetsAfterLoad) {
  Options o = SmallOptions();
  Rig r(o);
  ASSERT_TRUE(r.store);
  for (int i = 0; i < 20000; ++i) ASSERT_TRUE(r.Put(TestKey(i), Val(i, 0)).ok());
  r.Drain();
  const LsmStats st = r.store->stats();
  EXPECT_LT(st.levels[0].files, static_cast<uint64_t>(kL0CompactionTrigger));
  int deepest = 0;
  uint64_t total = 0;
  for (int l = 1; l < kNumLevels; ++l) {
    if (st.levels[l].files) deepest = l;
    total += st.levels[l].bytes;
    EXPECT_LE(st.levels[l].bytes, st.levels[l].target_bytes) << "level " << l;
  }
  // ~20000 × 133 B = 2.6 MB against 32 KB, 320 KB, 3.2 MB targets: the data reaches level 3
  // and most of it sits in the deepest level (growth factor 10).
  EXPECT_EQ(deepest, 3);
  EXPECT_GT(st.levels[deepest].bytes, total / 2);
  // Tables stay near the target file size (2 × 4 KB of blocks at most over it).
  for (int l = 1; l < kNumLevels; ++l) {
    if (st.levels[l].files) {
      EXPECT_LE(st.levels[l].bytes / st.levels[l].files, o.max_file_bytes + 2 * o.block_bytes);
    }
  }
}

TEST(LsmStore, ScansInOrder) {
  Rig r(SmallOptions());
  ASSERT_TRUE(r.store);
  std::map<std::string, std::string> ref;
  for (int i = 0; i < 5000; ++i) {
    ASSERT_TRUE(r.Put(TestKey(i), Val(i, 0)).ok());
    ref[TestKey(i)] = Val(i, 0);
  }
  for (int i = 0; i < 5000; i += 4) {
    ASSERT_TRUE(r.Delete(TestKey(i)).ok());
    ref.erase(TestKey(i));
  }
  for (int i = 1; i < 5000; i += 7) {
    ASSERT_TRUE(r.Put(TestKey(i), Val(i, 2)).ok());
    ref[TestKey(i)] = Val(i, 2);
  }
  for (uint64_t s : {0ull, 17ull, 4321ull, 99999ull}) {
    const std::string start = s == 0 ? std::string(20, '\0') : TestKey(s);
    std::vector<std::pair<std::string, std::string>> got;
    ASSERT_TRUE(r.Scan(start, 300, &got).ok());
    auto it = ref.lower_bound(start);
    ASSERT_EQ(got.size(), std::min<size_t>(300, std::distance(it, ref.end())));
    for (const auto& [k, v] : got) {
      ASSERT_EQ(k, it->first);
      ASSERT_EQ(v, it->second);
      ++it;
    }
  }
  std::vector<std::pair<std::string, std::string>> all;
  ASSERT_TRUE(r.Scan(std::string(20, '\0'), 1 << 20, &all).ok());
  EXPECT_EQ(all.size(), ref.size());
  EXPECT_TRUE(r.store->has_scan());
  EXPECT_FALSE(r.store->Scan("x", -1, nullptr).ok());
}

TEST(LsmStore, Errors) {
  Rig r(SmallOptions());
  ASSERT_TRUE(r.store);
  Status s = r.store->Put("short", "v", nullptr);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("key_bytes"), std::string::npos);
  s = r.store->Put(TestKey(1), std::string(201, 'x'), nullptr);
  EXPECT_NE(s.message().find("max_value_bytes"), std::string::npos);
  EXPECT_FALSE(r.store->Get("k", nullptr).ok());
  Options bad = SmallOptions();
  bad.bloom_bits = 31;
  Rig r2(bad);
  EXPECT_FALSE(r2.store);
  EXPECT_NE(r2.create_error.message().find("bloom_bits"), std::string::npos);
  Options tiny = SmallOptions();
  tiny.region_bytes = 64 << 10;
  Rig r3(tiny);
  EXPECT_FALSE(r3.store);
  EXPECT_NE(r3.create_error.message().find("too small"), std::string::npos);
  Options far = SmallOptions();
  far.region_offset = uint64_t{2} << 30;
  Rig r4(far);
  EXPECT_NE(r4.create_error.message().find("beyond"), std::string::npos);
}

TEST(LsmStore, FileBytesHoldsItsEntries) {
  Options o = SmallOptions();
  o.region_bytes = LsmStore::FileBytes(o, 30000);
  Rig r(o, uint64_t{1} << 30);
  ASSERT_TRUE(r.store);
  for (int i = 0; i < 30000; ++i) ASSERT_TRUE(r.Put(TestKey(i % 9000), Val(i, 0, 200)).ok()) << i;
  r.Drain();
  std::string v;
  EXPECT_TRUE(r.Get(TestKey(8999), &v).ok());
}

TEST(LsmStore, AutoScaleFromRegion) {
  Options o;
  o.size_scale = 0;
  EXPECT_DOUBLE_EQ(ScaleForEntries(50000), kMinSizeScale);
  EXPECT_DOUBLE_EQ(ScaleForEntries(5000000), 0.1);
  EXPECT_DOUBLE_EQ(ScaleForEntries(uint64_t{1} << 40), 1.0);
  o.region_bytes = LsmStore::FileBytes(o, 5000000);
  Rig r(o, o.region_bytes);
  ASSERT_TRUE(r.store) << r.create_error.ToString();
  EXPECT_NEAR(r.store->size_scale(), 0.1, 0.001);
  EXPECT_EQ(r.store->write_buffer_bytes(), static_cast<uint64_t>(0.1 * (4 << 20)));
}

// The same calls give the same virtual times, counters and structure, byte for byte.
TEST(LsmStore, Deterministic) {
  auto run = [] {
    Rig r(SmallOptions());
    std::string out;
    for (int i = 0; i < 8000; ++i) {
      (void)r.Put(TestKey(i % 3000), Val(i, 0, 50 + i % 150));
      if (i % 10 == 0) {
        std::string v;
        (void)r.Get(TestKey((i * 7) % 3000), &v);
        out += v.substr(0, 4);
      }
    }
    r.Drain();
    const kv::KvCounters c = r.store->counters();
    JsonWriter w;
    r.store->DescribeJson(&w);
    out += w.str() + std::to_string(r.sim.now()) + "/" + std::to_string(c.store_bytes_written) + "/" +
           std::to_string(c.write_ns) + "/" + std::to_string(c.read_ns) + "/" + std::to_string(c.stall_ns) + "/" +
           std::to_string(c.background_ns) + "/" + std::to_string(r.store->dram_bytes());
    return out;
  };
  EXPECT_EQ(run(), run());
}

TEST(LsmStore, DescribeJsonShape) {
  Rig r(SmallOptions());
  ASSERT_TRUE(r.store);
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(r.Put(TestKey(i), Val(i, 0)).ok());
  r.Drain();
  JsonWriter w;
  r.store->DescribeJson(&w);
  const std::string j = w.str();
  for (const char* k : {"\"type\"", "\"lsm\"", "\"memtable\"", "\"bytes\"", "\"capacity\"", "\"immutable\"", "\"levels\"",
                        "\"level\"", "\"files\"", "\"target_bytes\"", "\"compacting\""})
    EXPECT_NE(j.find(k), std::string::npos) << k << " in " << j;
  EXPECT_EQ(std::string(r.store->kind()), "lsm");
  // DRAM: the memtable's arena plus every table's index and filter blocks.
  EXPECT_GT(r.store->dram_bytes(), 0u);
  EXPECT_TRUE(r.store->idle());
}

}  // namespace
}  // namespace fawnlab::lsm
