// The TCO model against SOSP'09 Table 4's printed columns and §5.2's regions.
#include "fawnkv/tco.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace fawnlab::fawnkv {
namespace {

const Config& Find(const std::string& name) {
  for (const Config& c : Table4Configs()) {
    if (c.name == name) return c;
  }
  ADD_FAILURE() << "no configuration " << name;
  return Table4Configs().front();
}

TEST(TcoTest, AWattCostsTwoDollarsSixtyThreeOverThreeYears) {
  EXPECT_NEAR(PowerCostPerWatt(Economics{}), 2.628, 1e-12);  // 3 × 8760 h × $0.10/kWh
  Economics e;
  e.years = 1;
  EXPECT_NEAR(PowerCostPerWatt(e), 0.876, 1e-12);
}

TEST(TcoTest, ReproducesTable4sDerivedColumns) {
  const Economics e;
  // {name, TCO/GB, TCO/QPS, queries/J, GB/W} as printed, with the printed precision.
  struct Row { const char* name; double gb, gb_tol, qps, qps_tol, qj, qj_tol, gbw, gbw_tol; };
  const Row rows[] = {
      {"Traditional+Disk", 0.26, 0.01, 1.77, 0.005, 6, 0.5, 40, 0.5},
      {"Traditional+SSD", 53, 1, 0.04, 0.005, 909, 0.5, 0.72, 0.01},
      {"Traditional+DRAM", 59, 1, 0.004, 0.0005, 3500, 100, 0.23, 0.005},
      {"FAWN+Disk", 0.20, 0.005, 1.61, 0.005, 12.5, 0.05, 100, 0.5},
      {"FAWN+SSD", 16.9, 0.05, 0.015, 0.0005, 2300, 50, 2.1, 0.05},
      {"FAWN+DRAM", 134, 0.1 * 134, 0.003, 0.0005, 6600, 100, 0.13, 0.005},
  };
  for (const Row& row : rows) {
    const Config& c = Find(row.name);
    EXPECT_NEAR(TcoPerGb(c, e), row.gb, row.gb_tol) << row.name;
    EXPECT_NEAR(TcoPerQps(c, e), row.qps, row.qps_tol) << row.name;
    EXPECT_NEAR(QueriesPerJoule(c), row.qj, row.qj_tol) << row.name;
    EXPECT_NEAR(GbPerWatt(c), row.gbw, row.gbw_tol) << row.name;
  }
  // The one the table does not follow from its own inputs: (250 + 15 × 2.628) / 2 = 144.7.
  EXPECT_NEAR(TcoPerGb(Find("FAWN+DRAM"), e), 144.71, 0.01);
}

TEST(TcoTest, NodesFollowTheLargerOfCapacityAndQueryRate) {
  const Economics e;
  const Config& ssd = Find("FAWN+SSD");
  EXPECT_DOUBLE_EQ(NodesNeeded(ssd, 320, 35000, e).value(), 10);     // capacity-bound
  EXPECT_DOUBLE_EQ(NodesNeeded(ssd, 32, 350000, e).value(), 10);     // query-bound
  EXPECT_DOUBLE_EQ(NodesNeeded(ssd, 16, 17500, e).value(), 0.5);     // the paper's equation: no rounding
  Economics whole;
  whole.whole_nodes = true;
  EXPECT_DOUBLE_EQ(NodesNeeded(ssd, 16, 17500, whole).value(), 1);
  EXPECT_DOUBLE_EQ(NodesNeeded(ssd, 33, 17500, whole).value(), 2);
  EXPECT_NEAR(ClusterTco(ssd, 320, 1000, e).value(), 10 * (500 + 15 * 2.628), 1e-9);
}

TEST(TcoTest, EachOfThePapersRegionsHasItsCheapestSystem) {
  const Economics e;
  const auto& cs = Table4Configs();
  auto name_at = [&](double tb, double qps) { return cs[Cheapest(cs, tb * 1000, qps, e).value()].name; };
  EXPECT_EQ(name_at(10000, 1e5), "FAWN+Disk");        // large dataset, low rate
  EXPECT_EQ(name_at(0.1, 1e9), "FAWN+DRAM");          // small dataset, high rate
  EXPECT_EQ(name_at(10, 1e7), "FAWN+SSD");            // middle
  EXPECT_EQ(name_at(10, 2e8), "Traditional+DRAM");    // larger dataset at a high rate
  // Traditional disks and SSDs never win inside the figure's window (§5.2).
  for (double tb = 0.1; tb <= 10000; tb *= 1.5) {
    for (double q = 1e5; q <= 1e9; q *= 1.5) {
      const std::string n = name_at(tb, q);
      EXPECT_TRUE(n.rfind("FAWN", 0) == 0 || n == "Traditional+DRAM") << tb << " TB " << q << " q/s: " << n;
    }
  }
}

TEST(TcoTest, ACheaperPowerBillNeverMakesAClusterDearer) {
  Economics cheap;
  cheap.usd_per_kwh = 0.05;
  for (const Config& c : Table4Configs()) {
    EXPECT_LT(ClusterTco(c, 1000, 1e6, cheap).value(), ClusterTco(c, 1000, 1e6, Economics{}).value()) << c.name;
  }
}

TEST(TcoTest, RefusesBadInputsNamingThem) {
  const Config& c = Find("FAWN+SSD");
  const Economics e;
  auto msg = [](const Status& s) { return s.message(); };
  EXPECT_NE(msg(NodesNeeded(c, 0, 1, e).status()).find("dataset size"), std::string::npos);
  EXPECT_NE(msg(NodesNeeded(c, -5, 1, e).status()).find("dataset size"), std::string::npos);
  EXPECT_NE(msg(ClusterTco(c, 1, 0, e).status()).find("query rate"), std::string::npos);
  EXPECT_NE(msg(ClusterTco(c, 1, std::numeric_limits<double>::quiet_NaN(), e).status()).find("query rate"),
            std::string::npos);
  Economics bad;
  bad.usd_per_kwh = 0;
  EXPECT_NE(msg(ClusterTco(c, 1, 1, bad).status()).find("electricity price"), std::string::npos);
  bad = Economics{};
  bad.years = -1;
  EXPECT_NE(msg(CheckEconomics(bad)).find("years"), std::string::npos);
  EXPECT_FALSE(Cheapest({}, 1, 1, e).ok());
  Config broken = c;
  broken.gb = 0;
  EXPECT_NE(msg(NodesNeeded(broken, 1, 1, e).status()).find("FAWN+SSD"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab::fawnkv
