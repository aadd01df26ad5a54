// vector.sync-lookups and its bench (device_sync_bench.h): conservation, correct values, one
// charge per event of each kind, determinism, the paper's anchors and named bad parameters.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "device/profiles.h"
#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "vecio/experiments/device_sync_bench.h"

namespace fawnlab {
namespace {

using vecio::CostKind;

vecio::SyncCosts TestCosts() {
  vecio::SyncCosts c;
  c.lookup_ns = 500;
  c.submit_ns = 1500;
  c.irq_ns = 3700;
  c.wakeup_ns = 2300;
  c.sched_ns = 250;
  c.sched_free = 2;
  return c;
}

std::unique_ptr<vecio::SyncBench> Bench(int keys) {
  auto b = vecio::SyncBench::Create(keys, device::FindNvmProfile("nvm-4ch")->config, 3);
  EXPECT_TRUE(b.ok()) << b.status().message();
  return std::move(b).value();
}

uint64_t Events(const vecio::SyncPoint& p, CostKind k) { return p.events[static_cast<size_t>(k)]; }

TEST(VectorSyncLookupsTest, EveryLookupIsAnsweredOnceWithItsStoredValue) {
  auto bench = Bench(2048);
  for (auto [threads, width] : std::vector<std::pair<int, int>>{{1, 1}, {8, 4}, {64, 1}, {16, 32}}) {
    SCOPED_TRACE(std::to_string(threads) + " threads, R = " + std::to_string(width));
    auto p = bench->Run(threads, width, 8, TestCosts(), 500, 3000, 7);
    ASSERT_TRUE(p.ok()) << p.status().message();
    const vecio::SyncPoint& v = p.value();
    EXPECT_GE(v.answered_keys, 3500u);
    EXPECT_EQ(v.issued_keys, v.answered_keys) << "every key issued is answered, once";
    EXPECT_EQ(v.commands * static_cast<uint64_t>(width), v.issued_keys);
    EXPECT_EQ(v.commands, v.completions);
    EXPECT_EQ(v.mismatches, 0u);
    EXPECT_EQ(v.not_found, 0u);
    EXPECT_GT(v.lookups_per_s, 0);
  }
  EXPECT_GE(bench->store().stats().gets, 4u * 3500u) << "the lookups went through FAWN-DS";
}

TEST(VectorSyncLookupsTest, AValueDamagedOnTheDeviceIsCaught) {
  auto bench = Bench(1024);
  // One bit of every record's value (records are 512 B, appended in key order).
  for (uint64_t k = 0; k < 1024; ++k) {
    const uint64_t at = bench->store().DeviceOffsetOf(k * 512) + 100;
    uint8_t byte = 0;
    bench->device()->Peek(at, 1, &byte);
    byte ^= 1;
    bench->device()->Poke(at, 1, &byte);
  }
  auto p = bench->Run(4, 2, 8, TestCosts(), 100, 1000, 7);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.value().mismatches + p.value().not_found, p.value().answered_keys);
}

TEST(VectorSyncLookupsTest, EachHostCostIsChargedOncePerEvent) {
  auto bench = Bench(2048);
  for (int width : {1, 8}) {
    auto p = bench->Run(32, width, 4, TestCosts(), 400, 4000, 9);
    ASSERT_TRUE(p.ok());
    const vecio::SyncPoint& v = p.value();
    EXPECT_EQ(Events(v, CostKind::kLookup), v.issued_keys) << "one lookup per key";
    EXPECT_EQ(Events(v, CostKind::kSubmit), v.commands) << "one submit per command";
    EXPECT_EQ(Events(v, CostKind::kIoIrq), v.completions) << "one interrupt per completion";
    EXPECT_EQ(Events(v, CostKind::kWakeup), v.completions) << "one wake-up per completion";
    EXPECT_EQ(v.switches, v.completions);
    for (CostKind k : {CostKind::kNicIrq, CostKind::kTcp, CostKind::kSyscall, CostKind::kRpc, CostKind::kQueue}) {
      EXPECT_EQ(Events(v, k), 0u) << vecio::CostKindName(k);
    }
  }
}

TEST(VectorSyncLookupsTest, TheSchedulerCostGrowsWithTheRunQueue) {
  auto bench = Bench(2048);
  auto few = bench->Run(8, 1, 8, TestCosts(), 500, 4000, 1);
  auto many = bench->Run(128, 1, 8, TestCosts(), 500, 4000, 1);
  ASSERT_TRUE(few.ok() && many.ok());
  EXPECT_LT(few.value().mean_sched_us, 0.2);
  EXPECT_GT(many.value().mean_sched_us, 1.0);
  EXPECT_LT(many.value().lookups_per_s, few.value().lookups_per_s * 16 * 0.9) << "the switches cost host time";
}

TEST(VectorSyncLookupsTest, MeetsThePapersPointsAndDropsBeyond64Threads) {
  // The paper's setting with a smaller store and window (the defaults give the same numbers
  // within 0.3%; the sanitizer build runs this too).
  Result r = exptest::MustRun("vector.sync-lookups", R"({"ops_per_point": 3000, "keys": 16384})");
  exptest::ExpectAnchorsMet(r);
  EXPECT_EQ(r.Metric("value_mismatches"), 0);
  EXPECT_EQ(r.Metric("not_found"), 0);
  EXPECT_GT(r.Metric("single_at_64"), 0.95 * r.Metric("single_peak"));
  EXPECT_LT(r.Metric("single_at_128"), 0.9 * r.Metric("single_peak")) << "beyond 64 threads single I/O drops";
  EXPECT_LT(r.Metric("single_at_256"), r.Metric("single_at_128"));
  EXPECT_GT(r.Metric("multi_gain"), 1.6) << "multiread roughly doubles synchronous lookups";
  EXPECT_LT(r.Metric("r32_cores_busy_32"), 0.3 * r.Metric("r1_cores_busy_32")) << "R keys share the per-command costs";
  bool paper = false;
  for (const Series& s : r.series) paper = paper || s.kind == "paper";
  EXPECT_TRUE(paper);
}

TEST(VectorSyncLookupsTest, WithoutTheSchedulerCostThereIsNoDrop) {
  Result r = exptest::MustRun("vector.sync-lookups", R"({"sched_us": 0, "threads_max": 128, "max_multiread": 1, "keys": 4096})");
  EXPECT_GT(r.Metric("single_at_128"), 0.97 * r.Metric("single_peak"));
}

TEST(VectorSyncLookupsTest, DeterministicBySeed) {
  const std::string params = R"({"ops_per_point": 2000, "threads_max": 64, "max_multiread": 8, "keys": 4096})";
  auto a = RunExperimentJson("vector.sync-lookups", params, 5, nullptr);
  auto b = RunExperimentJson("vector.sync-lookups", params, 5, nullptr);
  auto c = RunExperimentJson("vector.sync-lookups", params, 6, nullptr);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
  EXPECT_NE(ResultToJson(a.value()), ResultToJson(c.value()));
}

TEST(VectorSyncLookupsTest, BadParametersAreNamed) {
  for (const auto& [param, bad] : std::vector<std::pair<std::string, std::string>>{{"threads_max", "0"},
                                                                                   {"threads_max", "5000"},
                                                                                   {"max_multiread", "0"},
                                                                                   {"max_multiread", "300"},
                                                                                   {"keys", "10"},
                                                                                   {"cores", "0"},
                                                                                   {"ops_per_point", "1"},
                                                                                   {"irq_us", "-1"}}) {
    auto r = RunExperimentJson("vector.sync-lookups", "{\"" + param + "\": " + bad + "}", 1, nullptr);
    ASSERT_FALSE(r.ok()) << param << " = " << bad;
    EXPECT_NE(r.status().message().find(param), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace fawnlab
