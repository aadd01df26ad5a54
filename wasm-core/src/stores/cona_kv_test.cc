#include "stores/cona_kv.h"

#include <memory>

#include "device/nvm.h"
#include "gtest/gtest.h"
#include "stores/factory.h"
#include "stores/test_util.h"

namespace fawnlab::stores {
namespace {

using testing::Nvm;

void RunRandom(const char* kind, uint64_t seed) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  StoreParams p;
  p.cona_buffer_kb = 4;  // small buffers: many levels and merges
  const uint64_t ops = 20000;
  auto s = MakeStore(kind, p, dev.get(), 0, FileBytesFor(kind, p, ops), 0);
  ASSERT_TRUE(s.ok()) << s.status().message();
  kv::KvStore* kv = s.value().get();
  EXPECT_STREQ(kv->kind(), kind);
  const auto n = testing::RandomAgainstMap(&sim, kv, seed, ops, 3000, 200, 0.01);
  const kv::KvCounters c = kv->counters();
  EXPECT_EQ(c.puts, n.puts);
  EXPECT_EQ(c.deletes, n.deletes);
  EXPECT_EQ(c.scans, n.scans);
  EXPECT_GT(c.background_jobs, 10u);
  EXPECT_GT(c.store_bytes_written, 0u);
  EXPECT_GT(c.store_bytes_read, 0u);
  EXPECT_GT(c.foreground_cpu_ns, 0);
  EXPECT_LE(c.foreground_cpu_ns, c.write_ns + c.read_ns);
  EXPECT_GT(kv->dram_bytes(), 0u);
  JsonWriter w;
  kv->DescribeJson(&w);
  EXPECT_NE(w.str().find("\"type\": \"cona\""), std::string::npos) << w.str();
  EXPECT_NE(w.str().find("\"levels\""), std::string::npos);
}

TEST(StoresConaKv, RandomOpsAgainstAMap) { RunRandom("cona", testing::TestSeed(1701)); }
TEST(StoresConaKv, SingleThreadRandomOpsAgainstAMap) { RunRandom("cona-1t", testing::TestSeed(1702)); }

TEST(StoresConaKv, CpuScaleMultipliesEveryCost) {
  const cona::HostCosts s = ScaledCosts(cona::I7_3610QM(), 2);
  EXPECT_DOUBLE_EQ(s.op_base_ns, 2 * cona::I7_3610QM().op_base_ns);
  EXPECT_DOUBLE_EQ(s.merge_ns_per_entry, 2 * cona::I7_3610QM().merge_ns_per_entry);
  EXPECT_DOUBLE_EQ(s.induce_copy_ns_per_byte, 2 * cona::I7_3610QM().induce_copy_ns_per_byte);
  // A slower host takes longer for the same puts.
  sim::SimTime t[2];
  for (int i = 0; i < 2; ++i) {
    sim::Simulator sim;
    auto dev = Nvm(&sim);
    StoreParams p;
    p.cpu_scale = i == 0 ? 1 : 10;
    auto st = MakeStore("cona", p, dev.get(), 0, FileBytesFor("cona", p, 2000), 0);
    ASSERT_TRUE(st.ok());
    std::string k, v(200, 'v');
    for (uint64_t r = 0; r < 1000; ++r) {
      ycsb::KeyFor(r, 20, &k);
      ASSERT_TRUE(testing::PutSync(&sim, st.value().get(), k, v).ok());
    }
    t[i] = sim.now();
  }
  EXPECT_GT(t[1], t[0]);
}

TEST(StoresConaKv, BadKeyIsAnErrorAtOnce) {
  sim::Simulator sim;
  auto dev = Nvm(&sim);
  StoreParams p;
  auto s = MakeStore("cona", p, dev.get(), 0, FileBytesFor("cona", p, 100), 0);
  ASSERT_TRUE(s.ok());
  bool called = false;
  Status st = s.value()->Put("short", "v", [&](const Status&) { called = true; });
  EXPECT_FALSE(st.ok());
  sim.Run(1000000);
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace fawnlab::stores
