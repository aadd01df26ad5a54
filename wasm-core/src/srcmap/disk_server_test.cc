#include "srcmap/disk_server.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "sim/rng.h"

namespace fawnlab::srcmap {
namespace {

// The inline server against DiskDevice's event loop: the same requests, the same completions,
// with the timeout off and on (spin-downs and spin-ups included), with and without the drive's
// write cache (`cache_mb` > 0: a cache of that size in place of the drive's 8 MB; half the
// requests then fall in the first 32 MB, so reads hit it). `bursty`: every other 100 requests
// arrive 20 times faster (the cache fills).
void Compare(double spin_down_s, double mean_gap_s, uint64_t seed, double cache_mb, bool bursty = false) {
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  const bool cache = cache_mb > 0;
  sim::Simulator sim;
  DiskPower p = ThesisDiskPower();
  p.spin_down_s = spin_down_s;
  device::DiskConfig dc = MakeDisk(&sim, 1, 8000000000ull, p, cache).value()->config();
  if (cache) dc.cache_mb = cache_mb;
  auto dev = device::DiskDevice::Create(&sim, "WD360GD", dc).value();
  dev->set_spin_down_s(spin_down_s);
  auto mech = device::DiskDevice::Create(&sim, "WD360GD", dc).value();
  ASSERT_EQ(dev->write_cache() != nullptr, cache);
  DiskServer server(mech.get(), p);
  sim::Rng rng(seed);
  std::map<uint64_t, int64_t> done;
  std::vector<int64_t> expect;
  int64_t t = 0;
  std::vector<uint8_t> buf(65536);
  for (int i = 0; i < 3000; ++i) {
    double gap = bursty && (i / 100) % 2 == 1 ? mean_gap_s / 20 : mean_gap_s;
    t += static_cast<int64_t>(rng.Exponential(gap) * 1e9) + 1;
    uint64_t off = rng.UniformU64(dev->info().capacity_bytes / 4096 - 16) * 4096;
    if (cache && rng.Bernoulli(0.5)) off %= 32u << 20;
    uint32_t len = 4096u << rng.UniformU64(5);
    bool w = rng.Bernoulli(0.5);
    sim.RunUntil(t);
    device::IoCommand cmd = device::IoCommand::Single(w ? device::IoEntry::Write(off, len, buf.data())
                                                        : device::IoEntry::Read(off, len, buf.data()));
    uint64_t id = dev->next_id();
    ASSERT_TRUE(dev->Submit(cmd, [&done, id](const device::IoCompletion& c) { done[id] = c.completed; }).ok());
    expect.push_back(server.Serve(t, off, len, w).done_ns);
  }
  sim.Run(100000000);
  ASSERT_EQ(done.size(), expect.size());
  size_t i = 0;
  for (const auto& kv : done) ASSERT_EQ(kv.second, expect[i++]) << "request " << i;
  EXPECT_EQ(dev->stats().spin_ups, server.spin_ups());
  if (cache) {
    server.Settle(INT64_MAX / 2);
    EXPECT_EQ(dev->stats().cached_writes, server.cache_stats().cached_writes);
    EXPECT_EQ(dev->stats().cache_read_hits, server.cache_stats().read_hits);
    EXPECT_EQ(dev->stats().cache_full_waits, server.cache_stats().full_waits);
    EXPECT_EQ(dev->stats().destages, server.cache_stats().destages);
    EXPECT_EQ(dev->stats().destage_ns, server.cache_stats().destage_ns);
    EXPECT_GT(server.cache_stats().destages, 0u);
    EXPECT_GT(server.cache_stats().read_hits, 0u);
    if (bursty) {
      EXPECT_GT(server.cache_stats().full_waits, 0u);
    }
  }
}

TEST(SrcmapDiskServer, EqualsDiskDeviceWithoutSpinDown) { Compare(0, 0.004, 11, 0); }
TEST(SrcmapDiskServer, EqualsDiskDeviceWithSpinDown) { Compare(2, 0.8, 12, 0); }
TEST(SrcmapDiskServer, EqualsDiskDeviceWithWriteCache) { Compare(0, 0.004, 13, 8); }
TEST(SrcmapDiskServer, EqualsDiskDeviceWithWriteCacheFilling) { Compare(0, 0.004, 14, 0.5, true); }
TEST(SrcmapDiskServer, EqualsDiskDeviceWithWriteCacheAndSpinDown) { Compare(0.05, 0.1, 15, 0.5, true); }

TEST(SrcmapDiskServer, TheDrivesHaveTheirDatasheetCaches) {
  sim::Simulator sim;
  DiskPower p = ThesisDiskPower();
  EXPECT_EQ(MakeDisk(&sim, 0, 1000000, p).value()->write_cache()->capacity(), 16u << 20);  // WD5000AAKB
  EXPECT_EQ(MakeDisk(&sim, 1, 1000000, p).value()->write_cache()->capacity(), 8u << 20);   // WD360GD
  EXPECT_EQ(MakeDisk(&sim, 6, 1000000, p).value()->write_cache()->capacity(), 16u << 20);  // WD2500AAKS
  EXPECT_EQ(MakeDisk(&sim, 1, 1000000, p, false).value()->write_cache(), nullptr);
}

TEST(SrcmapDiskServer, ADirtyCacheKeepsTheDiskFromSpinningDown) {
  sim::Simulator sim;
  DiskPower p = ThesisDiskPower();
  p.spin_down_s = 0.001;
  auto mech = MakeDisk(&sim, 1, 8000000000ull, p).value();
  DiskServer s(mech.get(), p);
  int64_t last_ack = 0;
  for (int i = 0; i < 50; ++i) {  // 50 scattered 64 KB writes, 0.1 ms apart: queued, acknowledged, destaged
    last_ack = s.Serve(i * 100000, static_cast<uint64_t>(i * 7919 % 1000) * 7000000, 65536, true).done_ns;
  }
  EXPECT_EQ(last_ack, 50 * mech->CacheTransferNs(65536)) << "back to back, none waiting for space";
  s.Settle(last_ack + 2 * sim::kMs);
  EXPECT_EQ(s.state(), DiskServer::kSpinning) << "still destaging";
  s.Settle(int64_t{10} * sim::kSec);
  EXPECT_EQ(s.state(), DiskServer::kStandby);
  ASSERT_FALSE(s.changes().empty());
  EXPECT_EQ(s.changes().back().t_ns, s.head_free_at() + sim::kMs) << "1 ms after the last destage";
  EXPECT_GT(s.head_free_at(), last_ack + 50 * sim::kMs) << "50 destages took the head for longer";
  EXPECT_EQ(s.cache_stats().destages, 50u);
}

TEST(SrcmapDiskServer, ActiveSetKeepsTheDiskSpinning) {
  sim::Simulator sim;
  DiskPower p = ThesisDiskPower();
  auto mech = MakeDisk(&sim, 0, 300000000000ull, p).value();
  DiskServer s(mech.get(), p);
  s.SetActive(true, 0);
  s.Serve(1000, 0, 4096, false);
  s.Settle(int64_t{3600} * 1000000000);
  EXPECT_EQ(s.state(), DiskServer::kSpinning);
  s.SetActive(false, int64_t{3600} * 1000000000);
  s.Settle(int64_t{3600 + 119} * 1000000000);
  EXPECT_EQ(s.state(), DiskServer::kSpinning);
  s.Settle(int64_t{3600 + 120} * 1000000000);
  EXPECT_EQ(s.state(), DiskServer::kStandby);
  auto r = s.Serve(int64_t{4000} * 1000000000, 0, 4096, false);
  EXPECT_TRUE(r.waited_spinup);
  EXPECT_GE(r.done_ns - int64_t{4000} * 1000000000, int64_t{6} * 1000000000);
  EXPECT_EQ(s.spin_ups(), 1u);
  EXPECT_EQ(s.planned_spin_ups(), 0u);
  s.Settle(int64_t{5000} * 1000000000);
  s.SetActive(true, int64_t{5000} * 1000000000);
  EXPECT_EQ(s.planned_spin_ups(), 1u);
}

}  // namespace
}  // namespace fawnlab::srcmap
