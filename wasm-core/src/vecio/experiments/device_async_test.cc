// vector.device and its driver (vecio/async_driver.h): every host cost is charged once per
// event of its kind, writes store what they wrote, anchors, determinism, named errors.
#include <string>

#include <gtest/gtest.h>

#include "device/profiles.h"
#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "vecio/async_driver.h"

namespace fawnlab {
namespace {

using vecio::CostKind;

size_t K(CostKind k) { return static_cast<size_t>(k); }

vecio::AsyncSetup Small(bool writes, int threads, int qd, int width) {
  vecio::AsyncSetup s;
  s.device = device::FindNvmProfile("nvm-4ch")->config;
  s.device.write_command_ns = 1000;
  s.device.write_entry_ns = 3210;
  s.writes = writes;
  s.threads = threads;
  s.qd = qd;
  s.width = width;
  s.warmup_ns = 200'000;
  s.measure_ns = 500'000;
  return s;
}

TEST(VectorDeviceAsyncTest, EachHostCostIsChargedOncePerEvent) {
  for (bool writes : {false, true}) {
    for (int width : {1, 8}) {
      SCOPED_TRACE(std::string(writes ? "writes" : "reads") + " width " + std::to_string(width));
      const vecio::AsyncSetup s = Small(writes, 6, 16, width);
      const vecio::AsyncOutcome o = vecio::RunAsync(s, 3);
      ASSERT_GT(o.commands, 100u);
      // The run drains, so every command submitted also completed and was handled.
      EXPECT_EQ(o.completions, o.commands);
      EXPECT_EQ(o.device.commands, o.commands);
      EXPECT_EQ(o.entries, o.commands * static_cast<uint64_t>(width));
      EXPECT_EQ((writes ? o.device.writes : o.device.reads), o.entries);
      EXPECT_EQ(o.events[K(CostKind::kSubmit)], o.commands) << "one doorbell per command";
      EXPECT_EQ(o.events[K(CostKind::kQueue)], o.entries) << "one I/O structure per entry";
      EXPECT_EQ(o.events[K(CostKind::kIoIrq)], o.completions) << "one interrupt per command";
      EXPECT_EQ(o.events[K(CostKind::kWakeup)], o.completions) << "one wake-up per completion";
      for (CostKind k : {CostKind::kNicIrq, CostKind::kTcp, CostKind::kSyscall, CostKind::kRpc, CostKind::kLookup}) {
        EXPECT_EQ(o.events[K(k)], 0u) << vecio::CostKindName(k) << " is not part of this benchmark";
      }
      EXPECT_EQ(o.busy_ns[K(CostKind::kSubmit)], static_cast<sim::SimDuration>(o.commands) * s.costs.submit_ns);
      EXPECT_EQ(o.busy_ns[K(CostKind::kQueue)], static_cast<sim::SimDuration>(o.entries) * s.costs.entry_ns);
      EXPECT_EQ(o.busy_ns[K(CostKind::kIoIrq)], static_cast<sim::SimDuration>(o.commands) * s.costs.irq_ns);
      EXPECT_EQ(o.busy_ns[K(CostKind::kWakeup)], static_cast<sim::SimDuration>(o.commands) * s.costs.wakeup_ns);
      // Host time per I/O in the window is the per-command part over the width plus the per-entry part.
      const double per_io_us = (s.costs.submit_ns + s.costs.irq_ns + s.costs.wakeup_ns) / 1000.0 / width +
                               s.costs.entry_ns / 1000.0;
      EXPECT_NEAR(o.cores_busy / o.iops * 1e6, per_io_us, 0.1 * per_io_us);
    }
  }
}

TEST(VectorDeviceAsyncTest, WritesStoreTheirPayloadsAndReadBack) {
  vecio::AsyncSetup s = Small(true, 5, 8, 4);
  s.span_bytes = 256 * 512;  // few slots, so slots are overwritten many times
  s.read_back = true;
  s.measure_ns = 3'000'000;
  const vecio::AsyncOutcome o = vecio::RunAsync(s, 7);
  EXPECT_GT(o.entries, 1000u);
  EXPECT_EQ(o.verified, 256u) << "every slot was written at least once";
  EXPECT_EQ(o.mismatches, 0u) << "the device holds each slot's last write";
}

TEST(VectorDeviceAsyncTest, ReadsAreDmaBoundWritesGainFromVectors) {
  const vecio::AsyncOutcome rs = vecio::RunAsync(Small(false, 16, 16, 1), 1);
  const vecio::AsyncOutcome rm = vecio::RunAsync(Small(false, 16, 16, 8), 1);
  EXPECT_NEAR(rs.iops / rm.iops, 1.0, 0.05);
  EXPECT_GT(rs.cores_busy, 2 * rm.cores_busy) << "single reads cost the host more per I/O";
  const vecio::AsyncOutcome ws = vecio::RunAsync(Small(true, 16, 16, 1), 1);
  const vecio::AsyncOutcome wm = vecio::RunAsync(Small(true, 16, 16, 8), 1);
  EXPECT_GT(wm.iops, 1.15 * ws.iops) << "the per-command write cost is paid once per vector";
  // Fewer than four threads leave DMA channels idle.
  const vecio::AsyncOutcome two = vecio::RunAsync(Small(false, 2, 64, 32), 1);
  EXPECT_LT(two.iops, 0.55 * rm.iops);
}

TEST(VectorDeviceAsyncTest, BadSetupsAreNamed) {
  vecio::AsyncSetup s = Small(false, 4, 16, 3);
  EXPECT_NE(vecio::ValidateAsync(s).message().find("width"), std::string::npos);
  s.width = 1;
  s.threads = 0;
  EXPECT_NE(vecio::ValidateAsync(s).message().find("threads"), std::string::npos);
  s.threads = 4;
  s.span_bytes = 100;
  EXPECT_NE(vecio::ValidateAsync(s).message().find("span_bytes"), std::string::npos);
  s.span_bytes = 1 << 20;
  EXPECT_TRUE(vecio::ValidateAsync(s).ok());
}

TEST(VectorDeviceExperimentTest, AnchorsMetAtDefaults) {
  const Result r = exptest::MustRun("vector.device", "{}");
  exptest::ExpectAnchorsMet(r);
  EXPECT_EQ(r.anchors.size(), 8u);
  EXPECT_GT(r.Metric("write_gain_qd16"), 1.1);
  EXPECT_LT(r.Metric("read_one_thread_qd64_multi"), 0.3 * r.Metric("read_multi_peak")) << "one DMA channel";
}

TEST(VectorDeviceExperimentTest, SameSeedSameJson) {
  const std::string params = R"({"max_threads": 8, "measure_us": 300})";
  auto a = RunExperimentJson("vector.device", params, 5, nullptr);
  auto b = RunExperimentJson("vector.device", params, 5, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
}

TEST(VectorDeviceExperimentTest, BadParamsAreNamed) {
  for (const char* param : {"max_threads", "cores", "entry_us", "measure_us"}) {
    auto r = RunExperimentJson("vector.device", std::string("{\"") + param + "\": -5}", 1, nullptr);
    ASSERT_FALSE(r.ok()) << param;
    EXPECT_NE(r.status().message().find(param), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace fawnlab
