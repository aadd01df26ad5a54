#include "stores/machine.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ycsb/keys.h"

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

namespace fawnlab::stores {
namespace {

// A live session's shape: every kind on its own machine, all on one simulator, fed the same
// open-loop stream from the simulator's own events (puts and gets issued inside callbacks,
// so no store may run the simulator itself), every value read back checked.
TEST(StoresMachine, EveryStoreOnOneClockFromEventCallbacks) {
  sim::Simulator shared;
  std::vector<std::unique_ptr<Machine>> ms;
  for (const StoreInfo& k : StoreKinds()) {
    MachineConfig c;
    c.store = k.id;
    c.records = 2000;
    auto m = Machine::Create(c, &shared);
    if (!m.ok()) {
      EXPECT_NE(m.status().message().find("not built yet"), std::string::npos) << m.status().message();
      continue;
    }
    ms.push_back(std::move(m).value());
  }
  ASSERT_GE(ms.size(), 4u);
  const int kOps = 3000;
  std::vector<int> completed(ms.size(), 0), bad(ms.size(), 0);
  std::vector<std::string> latest(500);
  // One arrival every 20 us; op i writes record i % 500 (new version i) or reads one.
  for (int i = 0; i < kOps; ++i) {
    shared.Schedule(shared.now() + sim::SimDuration{20'000} * (i + 1), [&, i] {
      std::string key;
      ycsb::KeyFor(static_cast<uint64_t>(i % 500), 20, &key);
      const bool write = i < 500 || i % 3 != 0;
      std::string value;
      if (write) {
        ycsb::ValueFor(static_cast<uint64_t>(i % 500), static_cast<uint64_t>(i), 200, &value);
        latest[i % 500] = value;
      }
      const std::string want = latest[i % 500];
      for (size_t s = 0; s < ms.size(); ++s) {
        kv::KvStore* st = ms[s]->store();
        Status r = write ? st->Put(key, value, [&, s](const Status& x) {
          ++completed[s];
          if (!x.ok()) ++bad[s];
        })
                         : st->Get(key, [&, s, want](const Status& x, std::string v) {
                             ++completed[s];
                             if (!x.ok() || v != want) ++bad[s];
                           });
        if (!r.ok()) ++bad[s];
      }
    });
  }
  shared.Run(500'000'000);
  for (size_t s = 0; s < ms.size(); ++s) {
    EXPECT_EQ(completed[s], kOps) << ms[s]->store()->kind();
    EXPECT_EQ(bad[s], 0) << ms[s]->store()->kind();
    EXPECT_TRUE(ms[s]->store()->idle()) << ms[s]->store()->kind();
    EXPECT_GT(ms[s]->Joules(), 0);
  }
}

}  // namespace
}  // namespace fawnlab::stores
