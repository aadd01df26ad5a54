#include "srcmap/profile.h"

#include <gtest/gtest.h>

namespace fawnlab::srcmap {
namespace {

TEST(SrcmapProfile, Table32And33) {
  const auto& v = EvaluationVolumes();
  double avg = 0, mx = 0;
  for (const auto& x : v) {
    avg += x.avg_iops;
    mx += x.max_iops;
  }
  EXPECT_NEAR(avg, 86.23, 1e-9);  // digest §3.3: Σ Avg
  EXPECT_NEAR(mx, 311, 1e-9);
  double cap[kNumLevels] = {};
  for (int d = 0; d < kNumDisks; ++d)
    for (int l = 0; l < kNumLevels; ++l) cap[l] += CapacityIops(d, l);
  EXPECT_EQ(cap[0], 369);  // digest §9: total capacity per level
  EXPECT_EQ(cap[1], 634);
  EXPECT_EQ(cap[2], 826);
  EXPECT_EQ(cap[3], 1070);
  EXPECT_EQ(cap[4], 1395);
  EXPECT_EQ(SystemWatts(0), 19.8);
  EXPECT_EQ(SystemWatts(8), 66.1);
  EXPECT_EQ(SystemWatts(1), 27.2);
  // Fig 3.8's arithmetic: L3 saves 38.9 W with one disk, 33.4 W with two.
  EXPECT_NEAR(SystemWatts(8) - SystemWatts(1), 38.9, 1e-9);
  EXPECT_NEAR(SystemWatts(8) - SystemWatts(2), 33.4, 1e-9);
}

TEST(SrcmapProfile, DisksHaveTheirMechanics) {
  sim::Simulator sim;
  DiskPower p = ThesisDiskPower();
  EXPECT_NEAR(p.standby_w * 8, 19.8, 1e-9);
  EXPECT_NEAR(p.spinning_w * 8, 66.1, 1e-9);
  for (int d = 0; d < kNumDisks; ++d) {
    uint64_t bytes = static_cast<uint64_t>(EvaluationVolumes()[d].size_gb * 1.1 * 1e9);
    auto disk = MakeDisk(&sim, d, bytes, p);
    ASSERT_TRUE(disk.ok()) << disk.status().message();
    EXPECT_GE(disk.value()->info().capacity_bytes, bytes);
    EXPECT_EQ(disk.value()->config().standby_w, p.standby_w);
    // A 10k rpm Raptor turns in 6 ms, a 7200 rpm disk in 8.33 ms.
    double rev_ms = static_cast<double>(disk.value()->revolution_ns()) / 1e6;
    EXPECT_NEAR(rev_ms, EvaluationVolumes()[d].model == DiskModel::kWd360gd ? 6.0 : 8.333, 0.01);
  }
  EXPECT_FALSE(MakeDisk(&sim, 8, 1000000, p).ok());
}

}  // namespace
}  // namespace fawnlab::srcmap
