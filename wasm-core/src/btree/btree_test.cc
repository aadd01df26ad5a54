#include "btree/btree.h"

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "device/nvm.h"
#include "device/profiles.h"
#include "sim/rng.h"

namespace fawnlab::btree {
namespace {

using device::NvmConfig;
using device::NvmDevice;

uint64_t TestSeed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 20090611;
}

Key RandomKey(sim::Rng& rng) {
  Key k;
  for (auto& b : k.bytes) b = static_cast<uint8_t>(rng.NextU64());
  return k;
}

std::string RandomValue(sim::Rng& rng, uint32_t max_len) {
  std::string v(rng.UniformU64(max_len + 1), '\0');
  for (auto& c : v) c = static_cast<char>(rng.NextU64());
  return v;
}

BTreeOptions Opts(uint32_t page_bytes, uint32_t pool_pages) {
  BTreeOptions o;
  o.page_bytes = page_bytes;
  o.pool_pages = pool_pages;
  return o;
}

struct Rig {
  sim::Simulator sim;
  std::unique_ptr<NvmDevice> dev;
  explicit Rig(uint64_t capacity = uint64_t{64} << 20) {
    NvmConfig c;
    c.capacity_bytes = capacity;
    dev = std::make_unique<NvmDevice>(&sim, "nvm-4ch", c);
  }
};

TEST(BTreePageTest, RoundTripAndCorruptionIsNamed) {
  Node leaf;
  leaf.type = PageType::kLeaf;
  leaf.page = 7;
  leaf.next = 9;
  for (int i = 0; i < 5; ++i) {
    leaf.keys.push_back(Key::FromU64(100 + i));
    leaf.values.push_back(std::string(static_cast<size_t>(i * 10), static_cast<char>('a' + i)));
  }
  leaf.Measure();
  std::vector<uint8_t> buf(512);
  EncodeNode(leaf, 512, buf.data());
  Node back;
  ASSERT_TRUE(DecodeNode(buf.data(), 512, 7, &back).ok());
  EXPECT_EQ(back.keys, leaf.keys);
  EXPECT_EQ(back.values, leaf.values);
  EXPECT_EQ(back.next, 9u);
  EXPECT_EQ(back.bytes, leaf.bytes);

  Status s = DecodeNode(buf.data(), 512, 8, &back);
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_NE(s.message().find("wrong place"), std::string::npos) << s.message();
  buf[100] ^= 1;
  s = DecodeNode(buf.data(), 512, 7, &back);
  EXPECT_NE(s.message().find("page 7: checksum"), std::string::npos) << s.message();
  std::vector<uint8_t> zero(512, 0);
  s = DecodeNode(zero.data(), 512, 3, &back);
  EXPECT_NE(s.message().find("never written"), std::string::npos) << s.message();

  Node inner;
  inner.type = PageType::kInternal;
  inner.level = 2;
  inner.page = 4;
  inner.keys = {Key::FromU64(5), Key::FromU64(50)};
  inner.children = {10, 11, 12};
  inner.Measure();
  EncodeNode(inner, 512, buf.data());
  ASSERT_TRUE(DecodeNode(buf.data(), 512, 4, &back).ok());
  EXPECT_EQ(back.children, inner.children);
  EXPECT_EQ(back.level, 2);
}

TEST(BTreeTest, RandomInsertsAndLookupsMatchAMap) {
  const uint64_t seed = TestSeed();
  std::cout << "btree randomized test seed " << seed << " (set FAWNLAB_TEST_SEED to replay)\n";
  sim::Rng rng(seed);
  Rig rig;
  BTreeOptions o = Opts(512, 16);  // small pages: a deep tree from few keys
  auto t = BTree::Create(rig.dev.get(), o);
  ASSERT_TRUE(t.ok()) << t.status().message();
  BTree& tree = *t.value();
  std::map<Key, std::string> model;
  std::vector<Key> keys;
  const uint32_t max_value = MaxValueBytes(512);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t op = rng.UniformU64(10);
    if (op < 6 || keys.empty()) {
      Key k = RandomKey(rng);
      std::string v = RandomValue(rng, max_value);
      ASSERT_TRUE(tree.Put(k, v).ok());
      if (!model.count(k)) keys.push_back(k);
      model[k] = v;
    } else if (op < 7) {  // overwrite an existing key, maybe with a longer value
      const Key& k = keys[rng.UniformU64(keys.size())];
      std::string v = RandomValue(rng, max_value);
      ASSERT_TRUE(tree.Put(k, v).ok());
      model[k] = v;
    } else if (op < 9) {
      const Key& k = keys[rng.UniformU64(keys.size())];
      auto g = tree.Get(k);
      ASSERT_TRUE(g.ok()) << "seed " << seed << " op " << i << ": " << g.status().message();
      ASSERT_EQ(g.value(), model[k]) << "seed " << seed << " op " << i;
    } else {
      Key k = RandomKey(rng);
      auto g = tree.Get(k);
      ASSERT_EQ(g.ok(), model.count(k) > 0);
      if (!g.ok()) {
        EXPECT_EQ(g.status().code(), StatusCode::kNotFound);
      }
    }
    if (i % 2500 == 0) {
      auto shape = tree.Check();
      ASSERT_TRUE(shape.ok()) << "seed " << seed << " op " << i << ": " << shape.status().message();
    }
  }
  auto shape = tree.Check();
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_EQ(shape.value().entries, model.size());
  EXPECT_GE(shape.value().height, 4u) << "512-byte pages and ~12k keys make a deep tree";
  EXPECT_GT(tree.pool().stats().evictions, 1000u);
  EXPECT_GT(tree.stats().internal_splits, 0u);
}

TEST(BTreeTest, InsertOnlyTreesAreBalancedAndFilledAsSplitsPromise) {
  sim::Rng rng(TestSeed() + 1);
  Rig rig;
  BTreeOptions o = Opts(4096, 64);
  auto t = BTree::Create(rig.dev.get(), o);
  ASSERT_TRUE(t.ok());
  const std::string v(200, 'v');
  for (int i = 0; i < 30000; ++i) ASSERT_TRUE(t.value()->Put(RandomKey(rng), v).ok());
  auto shape = t.value()->Check();
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  const TreeShape& s = shape.value();
  EXPECT_EQ(s.entries, 30000u);
  // Each split leaves both halves within one entry of half a page: > (usable - entry) / 2.
  const double entry = 222.0 / (4096 - 32);
  EXPECT_GT(s.min_leaf_fill, (1 - entry) / 2);
  // Random inserts into a B-tree settle near ln 2 ≈ 69% full (Yao's analysis).
  EXPECT_GT(s.mean_leaf_fill, 0.6);
  EXPECT_LT(s.mean_leaf_fill, 0.8);
  EXPECT_EQ(s.height, 3u) << "30k entries of 222 B: ~2.4k leaves under one level of ~169-way pages";
  EXPECT_EQ(t.value()->meta().pages, s.leaves + s.internals + 1) << "every allocated page is in the tree";
}

TEST(BTreeTest, SequentialKeysFillLeavesAndStillBalance) {
  Rig rig;
  BTreeOptions o = Opts(1024, 8);
  auto t = BTree::Create(rig.dev.get(), o);
  ASSERT_TRUE(t.ok());
  for (uint64_t i = 0; i < 5000; ++i) ASSERT_TRUE(t.value()->Put(Key::FromU64(i), "x").ok());
  for (uint64_t i = 5000; i-- > 0;) ASSERT_TRUE(t.value()->Put(Key::FromU64(i), "yy").ok());
  auto shape = t.value()->Check();
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_EQ(shape.value().entries, 5000u);
  EXPECT_EQ(t.value()->stats().updates, 5000u);
  EXPECT_EQ(t.value()->Get(Key::FromU64(4321)).value(), "yy");
}

TEST(BTreeTest, EvictionWritesDirtyPagesBackInPlace) {
  Rig rig;
  BTreeOptions o = Opts(4096, 8);
  o.region_offset = 1 << 20;
  auto t = BTree::Create(rig.dev.get(), o);
  ASSERT_TRUE(t.ok());
  BTree& tree = *t.value();
  sim::Rng rng(TestSeed() + 2);
  const uint64_t writes_before = rig.dev->counters().host_write_bytes;
  const uint64_t pages_before = tree.pool().stats().page_writes;  // Create's sync
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(tree.Put(RandomKey(rng), std::string(100, 'e')).ok());
  const PoolStats& ps = tree.pool().stats();
  EXPECT_GT(tree.meta().pages, 8u * 4) << "the tree outgrew the pool";
  EXPECT_GT(ps.dirty_evictions, 100u);
  EXPECT_EQ(ps.page_writes - pages_before, ps.dirty_evictions) << "no sync yet: every write is an eviction's";
  EXPECT_EQ(rig.dev->counters().host_write_bytes - writes_before, ps.dirty_evictions * 4096)
      << "each write-back is one page-sized write";
  EXPECT_LE(tree.pool().size(), 8u);
  // Every page not in the pool is on the device, at its own offset, and decodes.
  for (uint32_t p = 1; p < tree.meta().pages; ++p) {
    if (tree.pool().Cached(p)) continue;
    std::vector<uint8_t> buf(4096);
    rig.dev->Peek(o.region_offset + uint64_t{p} * 4096, 4096, buf.data());
    Node n;
    EXPECT_TRUE(DecodeNode(buf.data(), 4096, p, &n).ok()) << "page " << p;
  }
  ASSERT_TRUE(tree.Check().ok());
  // Sync writes the rest and leaves nothing dirty.
  ASSERT_TRUE(tree.Sync().ok());
  EXPECT_EQ(tree.pool().dirty_pages(), 0u);
}

TEST(BTreeTest, ReopenReadsBackTheSyncedTree) {
  Rig rig;
  BTreeOptions o = Opts(2048, 12);
  std::map<Key, std::string> model;
  sim::Rng rng(TestSeed() + 3);
  {
    auto t = BTree::Create(rig.dev.get(), o);
    ASSERT_TRUE(t.ok());
    for (int i = 0; i < 3000; ++i) {
      Key k = RandomKey(rng);
      std::string v = RandomValue(rng, 300);
      ASSERT_TRUE(t.value()->Put(k, v).ok());
      model[k] = v;
    }
    ASSERT_TRUE(t.value()->Sync().ok());
    // A put after the sync that never reaches the device.
    ASSERT_TRUE(t.value()->Put(RandomKey(rng), "lost").ok());
  }
  auto t = BTree::Open(rig.dev.get(), o);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t.value()->meta().entries, model.size());
  EXPECT_EQ(t.value()->pool().size(), 0u);
  auto shape = t.value()->Check();
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  for (const auto& [k, v] : model) {
    auto g = t.value()->Get(k);
    ASSERT_TRUE(g.ok()) << g.status().message();
    ASSERT_EQ(g.value(), v);
  }
  EXPECT_GT(t.value()->pool().stats().page_reads, 12u) << "the reopened tree is read from the device";

  BTreeOptions wrong = o;
  wrong.page_bytes = 4096;
  auto w = BTree::Open(rig.dev.get(), wrong);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("2048-byte pages"), std::string::npos) << w.status().message();
}

TEST(BTreeTest, ACorruptPageReadIsAClearError) {
  Rig rig;
  BTreeOptions o = Opts(1024, 8);
  auto t = BTree::Create(rig.dev.get(), o);
  ASSERT_TRUE(t.ok());
  for (uint64_t i = 0; i < 500; ++i) ASSERT_TRUE(t.value()->Put(Key::FromU64(i * 7919), std::string(40, 'c')).ok());
  ASSERT_TRUE(t.value()->Sync().ok());
  t.value().reset();
  auto r = BTree::Open(rig.dev.get(), o);
  ASSERT_TRUE(r.ok());
  // Find the leaf holding key 0 (the leftmost) from the device and damage one value byte.
  const uint32_t leaf = 1;  // the first root leaf stays the leftmost leaf through every split
  uint8_t b;
  rig.dev->Peek(uint64_t{leaf} * 1024 + 200, 1, &b);
  b ^= 0x40;
  rig.dev->Poke(uint64_t{leaf} * 1024 + 200, 1, &b);
  auto g = r.value()->Get(Key::FromU64(0));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), StatusCode::kCorruption);
  EXPECT_NE(g.status().message().find("page 1: checksum mismatch"), std::string::npos) << g.status().message();
  EXPECT_FALSE(r.value()->Check().ok());

  // A region with no tree at all.
  Rig empty;
  auto none = BTree::Open(empty.dev.get(), o);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("never written"), std::string::npos) << none.status().message();
}

TEST(BTreeTest, BadOptionsAndValuesAreRefusedByName) {
  Rig rig;
  BTreeOptions o;
  o.page_bytes = 3000;
  auto t = BTree::Create(rig.dev.get(), o);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("page_bytes"), std::string::npos);
  o.page_bytes = 4096;
  o.pool_pages = 2;
  t = BTree::Create(rig.dev.get(), o);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("pool_pages"), std::string::npos);
  o.pool_pages = 8;
  o.region_bytes = 6 * 4096;  // room for the meta page and 5 tree pages
  t = BTree::Create(rig.dev.get(), o);
  ASSERT_TRUE(t.ok());
  Status big = t.value()->Put(Key::FromU64(1), std::string(MaxValueBytes(4096) + 1, 'x'));
  EXPECT_EQ(big.code(), StatusCode::kInvalidArgument);
  Status full = Status::Ok();
  for (uint64_t i = 0; i < 1000 && full.ok(); ++i) full = t.value()->Put(Key::FromU64(i * 13), std::string(500, 'f'));
  EXPECT_EQ(full.code(), StatusCode::kResourceExhausted) << full.message();
  EXPECT_TRUE(t.value()->Check().ok()) << "a refused put changes nothing";
}

TEST(BTreeTest, RandomWriteBacksOnTheCompactFlashCardCostMerges) {
  // The mechanism of FAWN SOSP'09 §4.1.2: once the tree outgrows the pool, each insert
  // evicts a dirty page to a random place on the card, and the block-mapped FTL merges.
  sim::Simulator sim;
  auto dev = device::MakeFlash(&sim, *device::FindFlashProfile("sandisk-cf-4gb"), uint64_t{32} << 20);
  ASSERT_TRUE(dev.ok());
  dev.value()->FillSequential([](uint64_t lpn) { return lpn; });
  BTreeOptions o;
  o.pool_pages = 64;
  auto t = BTree::Create(dev.value().get(), o);
  ASSERT_TRUE(t.ok());
  sim::Rng rng(TestSeed() + 4);
  const std::string v(200, 'b');
  int i = 0;
  for (; t.value()->pool().stats().evictions == 0; ++i) ASSERT_TRUE(t.value()->Put(RandomKey(rng), v).ok());
  const sim::SimTime fits = sim.now();
  const int fitting = i;
  for (int j = 0; j < 300; ++j) ASSERT_TRUE(t.value()->Put(RandomKey(rng), v).ok());
  const double us_fitting = sim::NsToSec(fits) * 1e6 / fitting;
  const double us_after = sim::NsToSec(sim.now() - fits) * 1e6 / 300;
  EXPECT_LT(us_fitting, 100) << "inserts in the pool cost no I/O";
  EXPECT_GT(us_after, 1000) << "each eviction is a random 4 KB write: a merge on the card";
  EXPECT_GT(dev.value()->counters().write_amplification(), 10);
}

}  // namespace
}  // namespace fawnlab::btree
