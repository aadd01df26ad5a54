// The LSM's formats against LevelDB's: its hash's test vectors, the Bloom filter's
// false-positive rate, blocks, tables, the log's framing, the memtable's arena and the level
// rules.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lsm/block.h"
#include "lsm/bloom.h"
#include "lsm/log_format.h"
#include "lsm/memtable.h"
#include "lsm/store_test_util.h"
#include "lsm/table.h"
#include "lsm/version.h"

namespace fawnlab::lsm {
namespace {

using testing::TestKey;

TEST(LsmBloom, LevelDbHashVectors) {
  // LevelDB's util/hash_test.cc, SignedUnsignedIssue. (The whole filter was also checked byte for
  // byte against libleveldb's NewBloomFilterPolicy(10); npm run bench repeats that check.)
  const uint8_t d1[1] = {0x62};
  const uint8_t d2[2] = {0xc3, 0x97};
  const uint8_t d3[3] = {0xe2, 0x99, 0xa5};
  const uint8_t d4[4] = {0xe1, 0x80, 0xb9, 0x32};
  auto h = [](const uint8_t* p, size_t n) { return LevelDbHash(reinterpret_cast<const char*>(p), n, 0xbc9f1d34); };
  EXPECT_EQ(LevelDbHash("", 0, 0xbc9f1d34), 0xbc9f1d34u);
  EXPECT_EQ(h(d1, 1), 0xef1345c4u);
  EXPECT_EQ(h(d2, 2), 0x5b663814u);
  EXPECT_EQ(h(d3, 3), 0x323c078fu);
  EXPECT_EQ(h(d4, 4), 0xed21633au);
}

TEST(LsmBloom, SmallAndEmpty) {
  std::string f;
  BloomCreate({}, 10, &f);
  EXPECT_FALSE(BloomMayMatch("hello", f));
  f.clear();
  BloomCreate({"hello", "world"}, 10, &f);
  EXPECT_TRUE(BloomMayMatch("hello", f));
  EXPECT_TRUE(BloomMayMatch("world", f));
  EXPECT_FALSE(BloomMayMatch("x", f));
  EXPECT_FALSE(BloomMayMatch("foo", f));
  EXPECT_EQ(BloomProbes(10), 6);
  EXPECT_EQ(BloomProbes(0), 1);
  EXPECT_EQ(BloomProbes(100), 30);
}

// The false-positive rate of n keys at b bits per key against (0.6185)^b (the optimum, k = b
// ln 2; LevelDB's truncated k is slightly worse at small b): within a factor of 1.6, with no
// false negatives.
TEST(LsmBloom, FalsePositiveRate) {
  const int n = 20000, trials = 200000;
  for (int bits : {4, 6, 8, 10, 12, 14}) {
    std::vector<std::string> keys;
    for (int i = 0; i < n; ++i) keys.push_back(TestKey(i));
    std::vector<std::string_view> views(keys.begin(), keys.end());
    std::string f;
    BloomCreate(views, bits, &f);
    for (const std::string& k : keys) ASSERT_TRUE(BloomMayMatch(k, f)) << "false negative at " << bits << " bits";
    int fp = 0;
    for (int i = 0; i < trials; ++i) fp += BloomMayMatch(TestKey(1000000 + i), f);
    const double rate = static_cast<double>(fp) / trials;
    const double want = std::pow(0.6185, bits);
    std::printf("bloom %2d bits/key: false positives %.5f, (0.6185)^bits %.5f\n", bits, rate, want);
    EXPECT_GT(rate, want / 1.6) << bits;
    EXPECT_LT(rate, want * 1.6) << bits;
  }
}

TEST(LsmBlock, KeysAndSeparators) {
  std::string a, b;
  AppendInternalKey(&a, "abc", 5, kTypeValue);
  AppendInternalKey(&b, "abc", 7, kTypeValue);
  EXPECT_LT(CompareInternal(b, a), 0);  // newer first
  EXPECT_EQ(SequenceOf(a), 5u);
  EXPECT_EQ(TypeOf(a), kTypeValue);
  std::string d;
  AppendInternalKey(&d, "abc", 5, kTypeDeletion);
  EXPECT_LT(CompareInternal(a, d), 0);  // same sequence: the value (type 1) sorts first, as in LevelDB
  std::string s, l;
  AppendInternalKey(&s, "abcdefgh", 1, kTypeValue);
  AppendInternalKey(&l, "abzz", 1, kTypeValue);
  std::string sep = s;
  ShortestSeparator(&sep, l);
  EXPECT_EQ(UserKey(sep), "abd");
  EXPECT_LT(CompareInternal(s, sep), 0);
  EXPECT_LT(CompareInternal(sep, l), 0);
  std::string succ = s;
  ShortSuccessor(&succ);
  EXPECT_EQ(UserKey(succ), "b");
}

TEST(LsmBlock, BuildAndSeek) {
  BlockBuilder bb(16);
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) {
    std::string k;
    char u[8];
    std::snprintf(u, sizeof u, "k%05d", i * 2);
    AppendInternalKey(&k, u, 100 + i, kTypeValue);
    keys.push_back(k);
    bb.Add(k, "v" + std::to_string(i));
  }
  std::string contents(bb.Finish());
  auto r = BlockReader::Parse(contents);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().restarts(), 13u);
  int n = 0;
  ASSERT_TRUE(r.value().ForEach([&](const BlockEntry& e) { EXPECT_EQ(e.key, keys[n++]); }).ok());
  EXPECT_EQ(n, 200);
  for (int i = 0; i < 399; ++i) {
    std::string t;
    char u[8];
    std::snprintf(u, sizeof u, "k%05d", i);
    AppendInternalKey(&t, u, kMaxSequence, kTypeValue);
    BlockEntry e;
    BlockReader::SeekWork w;
    ASSERT_TRUE(r.value().Seek(t, &e, &w));
    EXPECT_EQ(e.key, keys[(i + 1) / 2]);
    EXPECT_LE(w.decoded, 17);  // a restart group, then the next group's first key
  }
  EXPECT_FALSE(BlockReader::Parse("ab").ok());
}

TEST(LsmTable, BuildOpenFind) {
  TableBuilder tb(4096, 16, 10);
  std::map<std::string, std::string> ref;
  for (int i = 0; i < 3000; ++i) ref[TestKey(i)] = std::string(100, static_cast<char>('a' + i % 26));
  std::vector<std::string> ikeys;
  uint64_t seq = 1;
  for (const auto& [k, v] : ref) {
    std::string ik;
    AppendInternalKey(&ik, k, seq++, kTypeValue);
    ikeys.push_back(ik);
    tb.Add(ik, v);
  }
  const std::string image = tb.Finish();
  auto t = TableIndex::Open(image, 0, image.size());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const TableIndex& ti = t.value();
  EXPECT_GT(ti.blocks().size(), 70u);
  EXPECT_LT(ti.dram_bytes(), image.size() / 40);  // index + filter: a few percent of the table
  // ~10 bits per key in the filter block, plus its offsets.
  EXPECT_NEAR(static_cast<double>(ti.filter_bytes()) * 8 / 3000, 10 + 32.0 * (image.size() / 2048) / 3000, 2.5);
  // Every key: its block found, the filter says maybe, the block holds it.
  for (size_t i = 0; i < ikeys.size(); i += 7) {
    std::string look;
    AppendInternalKey(&look, UserKey(ikeys[i]), kMaxSequence, kTypeValue);
    const int b = ti.FindBlock(look, nullptr);
    ASSERT_GE(b, 0);
    const BlockHandle h = ti.blocks()[b].handle;
    EXPECT_TRUE(ti.MayMatch(h.offset, UserKey(ikeys[i]), nullptr));
    auto c = BlockContents(std::string_view(image).substr(h.offset, h.size + kBlockTrailerBytes), true);
    ASSERT_TRUE(c.ok());
    auto r = BlockReader::Parse(c.value());
    BlockEntry e;
    ASSERT_TRUE(r.value().Seek(look, &e, nullptr));
    EXPECT_EQ(e.key, ikeys[i]);
  }
  size_t n = 0;
  ASSERT_TRUE(ForEachEntry(std::string_view(image).substr(0, ti.data_bytes()), ti,
                           [&](std::string_view k, std::string_view) { EXPECT_EQ(k, ikeys[n++]); }).ok());
  EXPECT_EQ(n, ikeys.size());
  // A flipped byte in a block fails its checksum.
  std::string bad = image;
  bad[10] ^= 1;
  EXPECT_FALSE(BlockContents(std::string_view(bad).substr(0, ti.blocks()[0].handle.size + kBlockTrailerBytes), true).ok());
  EXPECT_FALSE(TableIndex::Open(image.substr(0, image.size() - 1), 0, image.size() - 1).ok());
}

TEST(LsmLog, FramingAcrossBlocks) {
  LogWriter w;
  std::string log;
  std::vector<std::string> recs;
  for (int i = 0; i < 400; ++i) {
    std::string p;
    EncodeBatch(i + 1, i % 5 == 0, TestKey(i), std::string(i % 3 == 0 ? 200 : 50 + i, 'x'), &p);
    if (i == 123) p = std::string(70000, 'y');  // spans three blocks
    recs.push_back(p);
    w.AddRecord(p, &log);
  }
  // A one-put batch of 20 + 200 bytes frames to 7 + 8 + 4 + 1 + 1 + 20 + 2 + 200 = 243 bytes.
  std::string p, one;
  LogWriter w2;
  EncodeBatch(1, false, TestKey(1), std::string(200, 'v'), &p);
  w2.AddRecord(p, &one);
  EXPECT_EQ(one.size(), 243u);
  EXPECT_EQ(ReadLogRecords(log), recs);
  // Blocks are whole: every header starts at least 7 bytes before a block's end.
  EXPECT_GT(log.size(), 3 * kLogBlockBytes);
}

TEST(LsmMemTable, ArenaAndVersions) {
  MemTable m;
  EXPECT_EQ(m.ApproximateMemoryUsage(), 4096u + 8);  // the head node's block
  for (int i = 0; i < 1000; ++i) m.Add(i + 1, kTypeValue, TestKey(i % 500), std::string(200, 'v'));
  m.Add(2000, kTypeDeletion, TestKey(7), "");
  // 1001 entries of ~230 B encoded plus nodes of ~18.7 B: ~62 blocks of 4 KB.
  const double per = static_cast<double>(m.ApproximateMemoryUsage()) / 1001;
  EXPECT_GT(per, 240);
  EXPECT_LT(per, 270);
  std::string v;
  bool del = false;
  ASSERT_TRUE(m.Get(TestKey(7), &v, &del));
  EXPECT_TRUE(del);
  ASSERT_TRUE(m.Get(TestKey(8), &v, &del));
  EXPECT_FALSE(del);
  EXPECT_FALSE(m.Get(TestKey(900), &v, &del));
  EXPECT_EQ(m.size(), 1001u);
  EXPECT_GE(m.max_height(), 4);
  EXPECT_LE(m.max_height(), 12);
}

FilePtr File(uint64_t number, const std::string& lo, const std::string& hi, uint64_t bytes) {
  auto f = std::make_shared<FileMeta>();
  f->number = number;
  AppendInternalKey(&f->smallest, lo, 10, kTypeValue);
  AppendInternalKey(&f->largest, hi, 1, kTypeValue);
  f->file_bytes = bytes;
  return f;
}

TEST(LsmVersion, LevelRules) {
  Sizes s{2 << 20, 10 << 20};
  EXPECT_EQ(s.MaxBytesForLevel(1), 10u << 20);
  EXPECT_EQ(s.MaxBytesForLevel(3), 1000u << 20);
  Version v;
  // An empty tree: a flushed memtable goes to level 2 (kMaxMemCompactLevel).
  EXPECT_EQ(PickLevelForMemTableOutput(v, s, "a", "z"), 2);
  v.files[2].push_back(File(1, "a", "m", 1 << 20));
  EXPECT_EQ(PickLevelForMemTableOutput(v, s, "b", "c"), 1);
  v.files[0].push_back(File(2, "x", "y", 1 << 20));
  EXPECT_EQ(PickLevelForMemTableOutput(v, s, "x", "x"), 0);
  Finalize(&v, s);
  EXPECT_EQ(v.compaction_level, 0);
  EXPECT_LT(v.compaction_score, 1);
  // Four level-0 files: a level-0 compaction of every overlapping one, with level 1's overlap.
  Version w;
  for (int i = 0; i < 4; ++i) w.files[0].push_back(File(10 + i, "c", "q", 4 << 20));
  w.files[0].push_back(File(20, "r", "s", 4 << 20));
  w.files[1].push_back(File(30, "a", "d", 2 << 20));
  w.files[1].push_back(File(31, "e", "k", 2 << 20));
  w.files[1].push_back(File(32, "t", "z", 2 << 20));
  Finalize(&w, s);
  EXPECT_EQ(w.compaction_level, 0);
  EXPECT_GE(w.compaction_score, 1);
  std::array<std::string, kNumLevels> ptrs;
  Compaction c;
  ASSERT_TRUE(PickCompaction(w, s, ptrs, &c));
  EXPECT_EQ(c.inputs[0].size(), 4u);
  EXPECT_EQ(c.inputs[1].size(), 2u);
  EXPECT_FALSE(c.trivial_move);
  // One level-1 file over target with nothing below: a trivial move.
  Version x;
  x.files[1].push_back(File(40, "a", "b", 11 << 20));
  Finalize(&x, s);
  ASSERT_TRUE(PickCompaction(x, s, ptrs, &c));
  EXPECT_EQ(c.level, 1);
  EXPECT_TRUE(c.trivial_move);
}

}  // namespace
}  // namespace fawnlab::lsm
