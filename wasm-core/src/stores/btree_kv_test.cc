#include "stores/btree_kv.h"

#include <cstring>
#include <memory>

#include "device/nvm.h"
#include "device/page_cache.h"
#include "gtest/gtest.h"
#include "stores/factory.h"
#include "stores/test_util.h"

namespace fawnlab::stores {
namespace {

using testing::Nvm;

TEST(StoresBTreeKv, RandomOpsAgainstAMap) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  StoreParams p;
  const uint64_t ops = 20000;
  auto s = MakeStore("btree", p, dev.get(), 0, FileBytesFor("btree", p, ops), 0);
  ASSERT_TRUE(s.ok()) << s.status().message();
  kv::KvStore* kv = s.value().get();
  EXPECT_STREQ(kv->kind(), "btree");
  EXPECT_TRUE(kv->has_scan());
  const auto n = testing::RandomAgainstMap(&sim, kv, testing::TestSeed(1704), ops, 5000, 200, 0.01);
  const kv::KvCounters c = kv->counters();
  EXPECT_EQ(c.puts, n.puts);
  EXPECT_EQ(c.deletes, n.deletes);
  EXPECT_EQ(c.scans, n.scans);
  EXPECT_GT(n.scans, 100u);
  EXPECT_GT(c.lookup_reads, 0u);  // the 64-page pool is smaller than the tree
  EXPECT_GT(c.store_bytes_written, 0u);
  EXPECT_EQ(kv->dram_bytes(), 64u * 4096);
  auto* b = static_cast<BTreeKv*>(kv);
  auto shape = b->tree()->Check();
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_GE(shape.value().height, 2u);
  JsonWriter w;
  kv->DescribeJson(&w);
  EXPECT_NE(w.str().find("\"leaves\": " + std::to_string(shape.value().leaves)), std::string::npos) << w.str();
  EXPECT_NE(w.str().find("\"internals\": " + std::to_string(shape.value().internals)), std::string::npos) << w.str();
}

// The tree runs at call time on the recorder; its page I/O is replayed one operation at a time
// on the real device, inside the shared simulator's callbacks (a put issued from a completion).
TEST(StoresBTreeKv, ReplaysItsPageIoOneOperationAtATime) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  device::PageCache cache(dev.get(), 1 << 20);
  StoreParams p;
  auto s = MakeStore("btree", p, &cache, 0, FileBytesFor("btree", p, 5000), 0);
  ASSERT_TRUE(s.ok());
  kv::KvStore* kv = s.value().get();
  int done = 0;
  std::function<void(const Status&)> next = [&](const Status& st) {
    ASSERT_TRUE(st.ok()) << st.message();
    if (++done >= 3000) return;
    std::string k;
    ycsb::KeyFor(static_cast<uint64_t>(done), 20, &k);
    ASSERT_TRUE(kv->Put(k, std::string(200, 'a' + done % 26), next).ok());
  };
  std::string k0;
  ycsb::KeyFor(0, 20, &k0);
  ASSERT_TRUE(kv->Put(k0, std::string(200, 'a'), next).ok());
  sim.Run(100000000);
  EXPECT_EQ(done, 3000);
  EXPECT_TRUE(kv->idle());
  // Every page the pool wrote reached the real device: a sync then a fresh tree on the device's
  // bytes reads everything back.
  ASSERT_TRUE(testing::SyncSync(&sim, kv).ok());
  btree::BTreeOptions bo;
  bo.region_bytes = FileBytesFor("btree", p, 5000);
  auto reopened = btree::BTree::Open(dev.get(), bo);
  ASSERT_TRUE(reopened.ok()) << reopened.status().message();
  for (uint64_t r = 0; r < 3000; r += 97) {
    std::string k;
    ycsb::KeyFor(r, 20, &k);
    btree::Key key;
    std::memcpy(key.bytes.data(), k.data(), 20);
    auto v = reopened.value()->Get(key);
    ASSERT_TRUE(v.ok()) << r << ": " << v.status().message();
    EXPECT_EQ(v.value(), std::string(1, '\0') + std::string(200, static_cast<char>('a' + r % 26))) << r;
  }
  EXPECT_GT(cache.hits() + cache.misses(), 0u);
}

// The adapter changes when the tree's I/O happens, not what it is: the same puts on a tree run
// directly (blocking) and through the adapter leave the same bytes on their devices, with the
// same page reads and writes.
TEST(StoresBTreeKv, SameIoAsTheTreeRunDirectly) {
  const uint64_t region = BTreeKv::FileBytes(4000, 200);
  sim::Simulator sim1, sim2;
  auto d1 = Nvm(&sim1);
  auto d2 = Nvm(&sim2);
  btree::BTreeOptions bo;
  bo.pool_pages = 64;
  bo.region_bytes = region;
  auto direct = btree::BTree::Create(d1.get(), bo);
  ASSERT_TRUE(direct.ok());
  BTreeKvOptions o;
  o.region_bytes = region;
  auto adapted = BTreeKv::Create(d2.get(), o);
  ASSERT_TRUE(adapted.ok());
  std::string k;
  for (uint64_t i = 0; i < 4000; ++i) {
    ycsb::KeyFor(i * 7 % 3000, 20, &k);  // inserts, then updates
    const std::string v(1, '\0');
    const std::string value = v + std::string(200, static_cast<char>('a' + i % 26));
    btree::Key key;
    std::memcpy(key.bytes.data(), k.data(), 20);
    ASSERT_TRUE(direct.value()->Put(key, value).ok());
    ASSERT_TRUE(testing::PutSync(&sim2, adapted.value().get(), k, value.substr(1)).ok());
  }
  ASSERT_TRUE(direct.value()->Sync().ok());
  ASSERT_TRUE(testing::SyncSync(&sim2, adapted.value().get()).ok());
  const btree::PoolStats& a = direct.value()->pool().stats();
  const btree::PoolStats& b = adapted.value()->tree()->pool().stats();
  EXPECT_EQ(a.page_reads, b.page_reads);
  EXPECT_EQ(a.page_writes, b.page_writes);
  EXPECT_EQ(d1->counters().host_write_bytes, d2->counters().host_write_bytes);
  EXPECT_EQ(d1->counters().host_read_bytes, d2->counters().host_read_bytes);
  std::vector<uint8_t> x(region), y(region);
  d1->Peek(0, region, x.data());
  d2->Peek(0, region, y.data());
  EXPECT_TRUE(x == y);
}

TEST(StoresBTreeKv, Errors) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  StoreParams p;
  auto s = MakeStore("btree", p, dev.get(), 0, FileBytesFor("btree", p, 100), 0);
  ASSERT_TRUE(s.ok());
  std::string k;
  ycsb::KeyFor(1, 20, &k);
  EXPECT_EQ(s.value()->Put("short", "v", nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.value()->Put(k, std::string(201, 'v'), nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.value()->Scan(k, 0, nullptr).code(), StatusCode::kInvalidArgument);
  // A region too small for its puts: the tree refuses at once.
  auto tiny = MakeStore("btree", p, dev.get(), uint64_t{128} << 20, 8 * 4096, 0);
  ASSERT_TRUE(tiny.ok()) << tiny.status().message();
  Status last;
  for (uint64_t r = 0; r < 1000 && last.ok(); ++r) {
    ycsb::KeyFor(r, 20, &k);
    last = tiny.value()->Put(k, std::string(200, 'v'), [](const Status&) {});
  }
  EXPECT_EQ(last.code(), StatusCode::kResourceExhausted) << last.message();
  sim.Run(100000000);
  EXPECT_TRUE(tiny.value()->idle());
}

}  // namespace
}  // namespace fawnlab::stores
