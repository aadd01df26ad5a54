#include "cona/runner.h"

#include <cstdio>

#include "gtest/gtest.h"

namespace fawnlab::cona {
namespace {

MachineConfig Small(uint64_t records) {
  MachineConfig c;
  c.records = records;
  return c;
}

TEST(ConaMachine, ScalesTheThesisMachine) {
  auto m = Machine::Create(MachineConfig{});
  ASSERT_TRUE(m.ok()) << m.status().message();
  Machine* mm = m.value().get();
  EXPECT_EQ(mm->config().records, 25000u);
  // (8 GB - 3 GB) / 1000, less the two 64 KB buffers.
  EXPECT_EQ(mm->cache_bytes(), static_cast<uint64_t>(5.0 * (1 << 30) / 1000) - 2 * 65536);
  EXPECT_EQ(mm->flash()->info().profile, "crucial-m500");
  EXPECT_GE(mm->flash()->info().capacity_bytes, 240'000'000u);
  EXPECT_GT(mm->file_bytes(), 2 * 25000u * 220u);
  EXPECT_FALSE(mm->fault()->crashed());
  std::printf("%s\n", mm->Describe().c_str());
  MachineConfig bad;
  bad.scale = 0;
  auto b = Machine::Create(bad);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("scale"), std::string::npos);
}

TEST(ConaRunner, LoadThenRunChecksEveryReadAndSamples) {
  auto m = Machine::Create(Small(3000));
  ASSERT_TRUE(m.ok()) << m.status().message();
  RunConfig rc;
  rc.workload = "a";
  rc.operations = 3000;
  rc.sample_every = 300;
  auto r = RunYcsb(m.value().get(), rc);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const YcsbRun& y = r.value();
  EXPECT_EQ(y.load.ops, 3000u);
  EXPECT_EQ(y.load.writes, 3000u);
  EXPECT_EQ(y.run.ops, 3000u);
  EXPECT_EQ(y.run.reads + y.run.updates, 3000u);
  EXPECT_NEAR(static_cast<double>(y.run.reads) / 3000, 0.5, 0.05);
  EXPECT_EQ(y.samples.size(), 10u);
  EXPECT_EQ(y.load_samples.size(), 10u);
  EXPECT_GT(y.run.write_iops, 0);
  EXPECT_GT(y.run.read_iops, 0);
  EXPECT_GT(y.load.induces, 0u);
  EXPECT_GT(y.load.merges, 0u);
  // Rates are per kind: writes over the time in writes.
  EXPECT_NEAR(y.run.write_iops, y.run.writes / y.run.write_s, 1e-6 * y.run.write_iops);
  EXPECT_LT(y.run.write_s + y.run.read_s, y.run.seconds * 1.0001);
  std::printf("A: write %.0f/s read %.0f/s, %d levels, hit ratio %.2f\n", y.run.write_iops, y.run.read_iops, y.run.levels,
              y.run.cache_hit_ratio);
}

TEST(ConaRunner, EveryCoreWorkloadRunsAndRmwReadsThenWrites) {
  for (const char* w : {"b", "c", "d", "e", "f"}) {
    auto m = Machine::Create(Small(1500));
    ASSERT_TRUE(m.ok());
    RunConfig rc;
    rc.workload = w;
    rc.operations = 1500;
    rc.clients = 4;
    auto r = RunYcsb(m.value().get(), rc);
    ASSERT_TRUE(r.ok()) << w << ": " << r.status().message();
    const PhaseTotals& t = r.value().run;
    if (std::string(w) == "f") {
      // The thesis's count: a read-modify-write is two operations, so a third of them write.
      EXPECT_GE(t.ops, 1500u);
      EXPECT_LE(t.ops, 1501u);
      EXPECT_EQ(t.writes, t.rmws) << "each read-modify-write writes once";
      EXPECT_EQ(t.reads + t.writes, t.ops) << "every F operation reads; a RMW also writes";
      EXPECT_NEAR(static_cast<double>(t.writes) / static_cast<double>(t.ops), 1.0 / 3, 0.05);
    } else {
      EXPECT_EQ(t.ops, 1500u) << w;
    }
    if (std::string(w) == "c") { EXPECT_EQ(t.writes, 0u); }
    if (std::string(w) == "d") { EXPECT_EQ(t.writes, t.inserts); }
    if (std::string(w) == "e") { EXPECT_GT(t.scans, 0u); }
  }
}

TEST(ConaRunner, DeterministicForASeed) {
  auto run = [](uint64_t seed) {
    auto m = Machine::Create(Small(2000));
    RunConfig rc;
    rc.workload = "b";
    rc.operations = 2000;
    rc.seed = seed;
    return RunYcsb(m.value().get(), rc).value();
  };
  YcsbRun a = run(5), b = run(5), c = run(6);
  EXPECT_EQ(a.run.seconds, b.run.seconds);
  EXPECT_EQ(a.run.write_iops, b.run.write_iops);
  EXPECT_EQ(a.run.reads, b.run.reads);
  EXPECT_NE(a.run.seconds, c.run.seconds);
}

TEST(ConaRunner, CrashLosesNothingSyncedAndTheRunGoesOn) {
  auto made = Machine::Create(Small(2000));
  ASSERT_TRUE(made.ok());
  Machine* m = made.value().get();
  RunConfig load;
  load.run = false;
  ASSERT_TRUE(RunYcsb(m, load).ok());
  bool synced = false;
  ASSERT_TRUE(m->store()->Sync([&](const Status& s) { synced = s.ok(); }).ok());
  while (!synced && m->sim()->Step()) {
  }
  ASSERT_TRUE(synced);
  m->CrashNow();
  EXPECT_EQ(m->store(), nullptr);
  EXPECT_TRUE(m->fault()->crashed());
  RunConfig after;
  after.load = false;
  after.workload = "c";
  EXPECT_FALSE(RunYcsb(m, after).ok()) << "no store until Recover";
  RecoveryReport rep;
  Status s = m->Recover(&rep);
  ASSERT_TRUE(s.ok()) << s.message();
  after.operations = 2000;
  auto r = RunYcsb(m, after);  // reads every record it draws, checking its value
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().run.reads, 2000u);
}

TEST(ConaRunner, ColdStartFinishesMergesAndEmptiesTheCache) {
  auto made = Machine::Create(Small(3000));
  ASSERT_TRUE(made.ok());
  Machine* m = made.value().get();
  RunConfig load;
  load.run = false;
  ASSERT_TRUE(RunYcsb(m, load).ok());
  EXPECT_GT(m->cache()->cached_pages(), 0u);
  ASSERT_TRUE(m->DropCaches().ok());
  EXPECT_EQ(m->cache()->cached_pages(), 0u);
  EXPECT_TRUE(m->store()->idle());
  RunConfig cold;
  cold.load = false;
  cold.workload = "c";
  cold.sample_every = 300;
  auto r = RunYcsb(m, cold);  // every record still reads back
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_LT(r.value().samples.front().cache_hit_ratio, r.value().samples.back().cache_hit_ratio) << "the cache warms";
}

TEST(ConaRunner, BadWorkloadIsNamed) {
  auto m = Machine::Create(Small(100));
  RunConfig rc;
  rc.workload = "z";
  auto r = RunYcsb(m.value().get(), rc);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("'z'"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("workload"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab::cona
