#include "srcmap/disk_server.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "sim/rng.h"

namespace fawnlab::srcmap {
namespace {

// The inline server against DiskDevice's event loop: the same requests, the same completions,
// with the timeout off and on (spin-downs and spin-ups included).
void Compare(double spin_down_s, double mean_gap_s, uint64_t seed) {
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  sim::Simulator sim;
  DiskPower p = ThesisDiskPower();
  p.spin_down_s = spin_down_s;
  auto dev = MakeDisk(&sim, 1, 8000000000ull, p).value();
  dev->set_spin_down_s(spin_down_s);
  auto mech = MakeDisk(&sim, 1, 8000000000ull, p).value();
  DiskServer server(mech.get(), p);
  sim::Rng rng(seed);
  std::map<uint64_t, int64_t> done;
  std::vector<int64_t> expect;
  int64_t t = 0;
  std::vector<uint8_t> buf(65536);
  for (int i = 0; i < 3000; ++i) {
    t += static_cast<int64_t>(rng.Exponential(mean_gap_s) * 1e9) + 1;
    uint64_t off = rng.UniformU64(dev->info().capacity_bytes / 4096 - 16) * 4096;
    uint32_t len = 4096u << rng.UniformU64(5);
    bool w = rng.Bernoulli(0.5);
    sim.RunUntil(t);
    device::IoCommand cmd = device::IoCommand::Single(w ? device::IoEntry::Write(off, len, buf.data())
                                                        : device::IoEntry::Read(off, len, buf.data()));
    uint64_t id = dev->next_id();
    ASSERT_TRUE(dev->Submit(cmd, [&done, id](const device::IoCompletion& c) { done[id] = c.completed; }).ok());
    expect.push_back(server.Serve(t, off, len).done_ns);
  }
  sim.Run(100000000);
  ASSERT_EQ(done.size(), expect.size());
  size_t i = 0;
  for (const auto& kv : done) ASSERT_EQ(kv.second, expect[i++]) << "request " << i;
  EXPECT_EQ(dev->stats().spin_ups, server.spin_ups());
}

TEST(SrcmapDiskServer, EqualsDiskDeviceWithoutSpinDown) { Compare(0, 0.004, 11); }
TEST(SrcmapDiskServer, EqualsDiskDeviceWithSpinDown) { Compare(2, 0.8, 12); }

TEST(SrcmapDiskServer, ActiveSetKeepsTheDiskSpinning) {
  sim::Simulator sim;
  DiskPower p = ThesisDiskPower();
  auto mech = MakeDisk(&sim, 0, 300000000000ull, p).value();
  DiskServer s(mech.get(), p);
  s.SetActive(true, 0);
  s.Serve(1000, 0, 4096);
  s.Settle(int64_t{3600} * 1000000000);
  EXPECT_EQ(s.state(), DiskServer::kSpinning);
  s.SetActive(false, int64_t{3600} * 1000000000);
  s.Settle(int64_t{3600 + 119} * 1000000000);
  EXPECT_EQ(s.state(), DiskServer::kSpinning);
  s.Settle(int64_t{3600 + 120} * 1000000000);
  EXPECT_EQ(s.state(), DiskServer::kStandby);
  auto r = s.Serve(int64_t{4000} * 1000000000, 0, 4096);
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
