#include "stores/machine.h"

#include "gtest/gtest.h"

namespace fawnlab::stores {
namespace {

TEST(StoresMachine, PageCacheIsTheHostsDramLessOsAndTheStoresOwn) {
  MachineConfig c;  // cona on the laptop, 25,000 records, scale 1/1000
  auto m = Machine::Create(c);
  ASSERT_TRUE(m.ok()) << m.status().message();
  const double cacheable = static_cast<double>(cona::kThesisDramBytes - cona::kThesisOsBytes) / 1000;
  const uint64_t own = DramEstimateFor("cona", c.params, c.records);
  EXPECT_EQ(own, 2u * 64 * 1024 + 2 * 25000);
  EXPECT_EQ(m.value()->cache_bytes(), static_cast<uint64_t>(cacheable - static_cast<double>(own)));
  EXPECT_EQ(m.value()->file_bytes(), FileBytesFor("cona", c.params, 2 * c.records));
  EXPECT_GE(m.value()->flash()->info().capacity_bytes, m.value()->file_bytes());
  EXPECT_EQ(m.value()->flash()->info().profile, "crucial-m500");
  EXPECT_DOUBLE_EQ(m.value()->config().params.cpu_scale, 1.0);
  EXPECT_NE(m.value()->Describe().find("laptop"), std::string::npos);

  // The FAWN node: 256 MB less its 32 MB OS, scaled, leaves less than the store's DRAM: the
  // cache keeps its floor of 64 pages; its CPU is the Geode's.
  c.host = "fawn";
  m = Machine::Create(c);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m.value()->cache_bytes(), 64u * device::PageCache::kPage);
  EXPECT_TRUE(m.value()->cache_floored());
  EXPECT_NE(m.value()->Describe().find("the floor it got instead"), std::string::npos) << m.value()->Describe();
  EXPECT_GT(m.value()->config().params.cpu_scale, 30);

  c.scale = 1.0 / 100;
  m = Machine::Create(c);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m.value()->cache_bytes(),
            static_cast<uint64_t>(static_cast<double>((uint64_t{256} << 20) - (uint64_t{32} << 20)) / 100 -
                                  static_cast<double>(DramEstimateFor("cona", c.params, c.records))));
}

// FAWN-DS's and the B+tree's own DRAM is known exactly: the index of a file of 2 x records
// entries, the pool; the server's 12 GB less its OS leave the rest.
TEST(StoresMachine, ExactStoreDramComesOffTheCache) {
  MachineConfig c;
  c.store = "fawnds";
  c.host = "server";
  auto m = Machine::Create(c);
  ASSERT_TRUE(m.ok()) << m.status().message();
  const double cacheable = static_cast<double>((uint64_t{12} << 30) - cona::kThesisOsBytes) / 1000;
  EXPECT_EQ(DramEstimateFor("fawnds", c.params, c.records), 6u << 16);  // 50,000 entries: 2^16 buckets
  EXPECT_EQ(m.value()->store()->dram_bytes(), 6u << 16);
  EXPECT_EQ(m.value()->cache_bytes(), static_cast<uint64_t>(cacheable - (6 << 16)));
  c.store = "btree";
  m = Machine::Create(c);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m.value()->cache_bytes(), static_cast<uint64_t>(cacheable - 64 * 4096));
}

TEST(StoresMachine, Errors) {
  MachineConfig c;
  c.host = "mainframe";
  auto m = Machine::Create(c);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("unknown host 'mainframe' (known: laptop, fawn, server)"), std::string::npos)
      << m.status().message();
  c = MachineConfig();
  c.device = "floppy";
  m = Machine::Create(c);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("unknown device 'floppy'"), std::string::npos);
  EXPECT_NE(m.status().message().find("intel-x25m"), std::string::npos);
  c = MachineConfig();
  c.store = "rocks";
  m = Machine::Create(c);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("unknown store"), std::string::npos);
  c = MachineConfig();
  c.scale = 0;
  EXPECT_FALSE(Machine::Create(c).ok());
  c = MachineConfig();
  c.records = 0;
  EXPECT_FALSE(Machine::Create(c).ok());
  c = MachineConfig();
  c.os_bytes = uint64_t{9} << 30;
  m = Machine::Create(c);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("os_bytes"), std::string::npos);
}

TEST(StoresMachine, SharedSimulatorAndEnergy) {
  sim::Simulator shared;
  MachineConfig c;
  c.records = 1000;
  auto a = Machine::Create(c, &shared);
  c.store = "cona-1t";
  c.device = "intel-x25m";
  auto b = Machine::Create(c, &shared);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value()->sim(), &shared);
  EXPECT_EQ(b.value()->sim(), &shared);
  EXPECT_STREQ(b.value()->store()->kind(), "cona-1t");
  shared.Run(100000000);  // the stores' creation I/O
  const double j0 = a.value()->Joules();
  shared.RunUntil(shared.now() + sim::kSec);
  // One idle second: the laptop's idle watts plus the device's idle draw.
  const double j1 = a.value()->Joules();
  EXPECT_GT(j1 - j0, a.value()->host().idle_watts);
  EXPECT_LT(j1 - j0, a.value()->host().idle_watts + 1.0);
}

}  // namespace
}  // namespace fawnlab::stores
