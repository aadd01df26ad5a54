#include "stores/fawnds_kv.h"

#include <memory>

#include "device/nvm.h"
#include "fawnds/host_cpu.h"
#include "fawnds/record.h"
#include "gtest/gtest.h"
#include "stores/factory.h"
#include "stores/host.h"
#include "stores/test_util.h"

namespace fawnlab::stores {
namespace {

using testing::Nvm;

TEST(StoresFawnDsKv, RandomOpsAgainstAMap) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  StoreParams p;
  const uint64_t ops = 20000;
  auto s = MakeStore("fawnds", p, dev.get(), 0, FileBytesFor("fawnds", p, ops), 0);
  ASSERT_TRUE(s.ok()) << s.status().message();
  kv::KvStore* kv = s.value().get();
  EXPECT_STREQ(kv->kind(), "fawnds");
  EXPECT_FALSE(kv->has_scan());
  const auto n = testing::RandomAgainstMap(&sim, kv, testing::TestSeed(1703), ops, 3000, 200, 0.01);
  const kv::KvCounters c = kv->counters();
  EXPECT_EQ(c.puts, n.puts);
  EXPECT_EQ(c.deletes, n.deletes);
  EXPECT_EQ(c.gets, n.gets + 3000);  // the final check reads every key
  EXPECT_GT(c.lookup_reads, 0u);
  EXPECT_LE(c.lookup_reads, c.gets + c.gets / 100);  // about one read per hit, false positives rare
  EXPECT_GE(c.store_bytes_written, n.puts * fawnds::RecordSize(1));
  EXPECT_EQ(c.stall_ns, 0);
  EXPECT_EQ(c.background_ns, 0);
  // 2^15 buckets for 20,000 entries, 6 bytes each.
  EXPECT_EQ(kv->dram_bytes(), 6u << 15);
  EXPECT_TRUE(kv->idle());
  JsonWriter w;
  kv->DescribeJson(&w);
  EXPECT_NE(w.str().find("\"index_buckets\": 32768"), std::string::npos) << w.str();
}

TEST(StoresFawnDsKv, IndexSizedFromTheFile) {
  for (uint64_t entries : {1ull, 100ull, 1000ull, 4096ull, 4097ull, 50000ull, 1000000ull}) {
    const uint64_t bytes = FawnDsKv::FileBytes(entries, 200);
    const int bits = FawnDsKv::IndexBitsFor(bytes, 200);
    EXPECT_GE(uint64_t{1} << bits, entries) << entries;
    EXPECT_TRUE(bits == fawnds::HashIndex::kMinBits || (uint64_t{1} << (bits - 1)) < entries) << entries;
  }
}

// On the FAWN node, a get of a 256 B record costs the CPU FAWN Table 2's in-memory rows give
// (fawnds/host_cpu.h): the steps the Geode's cpu_scale was derived from.
TEST(StoresFawnDsKv, GeodeGetCostsTable2) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  StoreParams p;
  p.cpu_scale = GeodeCpuScale();
  p.value_bytes = 256 - fawnds::kRecordHeader;
  auto s = MakeStore("fawnds", p, dev.get(), 0, FileBytesFor("fawnds", p, 100), 0);
  ASSERT_TRUE(s.ok());
  std::string k, v(p.value_bytes, 'x'), got;
  ycsb::KeyFor(7, 20, &k);
  ASSERT_TRUE(testing::PutSync(&sim, s.value().get(), k, v).ok());
  const sim::SimDuration cpu0 = s.value()->counters().foreground_cpu_ns;
  ASSERT_TRUE(testing::GetSync(&sim, s.value().get(), k, &got).ok());
  EXPECT_EQ(got, v);
  const fawnds::CpuCosts g;
  const double table2 = static_cast<double>(g.base_ns) + 256.0 / 1024 * g.copy_ns_per_kb;
  EXPECT_NEAR(static_cast<double>(s.value()->counters().foreground_cpu_ns - cpu0), table2, 3);
}

TEST(StoresFawnDsKv, ServesOneAtATimeInCallOrder) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  StoreParams p;
  auto s = MakeStore("fawnds", p, dev.get(), 0, FileBytesFor("fawnds", p, 100), 0);
  ASSERT_TRUE(s.ok());
  std::string k;
  ycsb::KeyFor(1, 20, &k);
  std::vector<int> order;
  std::vector<sim::SimTime> at;
  ASSERT_TRUE(s.value()->Put(k, "one", [&](const Status&) { order.push_back(1); at.push_back(sim.now()); }).ok());
  ASSERT_TRUE(s.value()->Get(k, [&](const Status& st, std::string v) {
    EXPECT_TRUE(st.ok());
    EXPECT_EQ(v, "one");
    order.push_back(2);
    at.push_back(sim.now());
  }).ok());
  ASSERT_TRUE(s.value()->Put(k, "two", [&](const Status&) { order.push_back(3); at.push_back(sim.now()); }).ok());
  ASSERT_TRUE(s.value()->Delete(k, [&](const Status&) { order.push_back(4); at.push_back(sim.now()); }).ok());
  ASSERT_TRUE(s.value()->Get(k, [&](const Status& st, std::string) {
    EXPECT_EQ(st.code(), StatusCode::kNotFound);
    order.push_back(5);
    at.push_back(sim.now());
  }).ok());
  EXPECT_FALSE(s.value()->idle());
  sim.Run(10000000);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4, 5}));
  for (size_t i = 1; i < at.size(); ++i) EXPECT_GT(at[i], at[i - 1]);
  EXPECT_TRUE(s.value()->idle());
  // Errors at once.
  EXPECT_EQ(s.value()->Put("short", "v", nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.value()->Put(k, std::string(201, 'v'), nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.value()->Scan(k, 3, nullptr).code(), StatusCode::kInvalidArgument);
}

// A full log is refused at once, counting the puts queued and not yet run.
TEST(StoresFawnDsKv, FullLogIsRefusedAtOnce) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  StoreParams p;
  auto s = MakeStore("fawnds", p, dev.get(), 0, FileBytesFor("fawnds", p, 100), 0);
  ASSERT_TRUE(s.ok());
  std::string k, v(200, 'v');
  ycsb::KeyFor(3, 20, &k);
  int done = 0;
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(s.value()->Put(k, v, [&](const Status& st) { done += st.ok() ? 1 : 0; }).ok()) << i;
  }
  const Status full = s.value()->Put(k, v, [&](const Status&) { ADD_FAILURE() << "refused put completed"; });
  EXPECT_EQ(full.code(), StatusCode::kResourceExhausted) << full.message();
  sim.Run(10000000);
  EXPECT_EQ(done, 100);
  EXPECT_EQ(s.value()->Put(k, v, nullptr).code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace fawnlab::stores
