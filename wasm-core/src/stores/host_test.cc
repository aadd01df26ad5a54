#include "stores/host.h"

#include "fawnds/host_cpu.h"
#include "gtest/gtest.h"

namespace fawnlab::stores {
namespace {

TEST(StoresHost, TheThreeHosts) {
  const auto& h = Hosts();
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].id, "laptop");
  EXPECT_EQ(h[1].id, "fawn");
  EXPECT_EQ(h[2].id, "server");
  EXPECT_DOUBLE_EQ(h[0].cpu_scale, 1.0);
  EXPECT_EQ(h[1].dram_bytes, uint64_t{256} << 20);
  EXPECT_EQ(h[1].cores, 1);
  for (const Host& x : h) {
    EXPECT_FALSE(x.source.empty());
    EXPECT_LT(x.os_bytes, x.dram_bytes);
    EXPECT_GT(x.idle_watts, 0);
    EXPECT_GT(x.core_busy_watts, 0);
  }
  auto f = FindHost("fawn");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.value().label, h[1].label);
  auto bad = FindHost("cray");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("known: laptop, fawn, server"), std::string::npos);
}

// The Geode's scale reproduces FAWN Table 2's in-memory 256 B get on the i7 model's steps.
TEST(StoresHost, GeodeScaleComesFromTable2) {
  const double k = GeodeCpuScale();
  EXPECT_GT(k, 40);
  EXPECT_LT(k, 60);
  EXPECT_DOUBLE_EQ(FindHost("fawn").value().cpu_scale, k);
}

}  // namespace
}  // namespace fawnlab::stores
