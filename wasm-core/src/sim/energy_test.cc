#include "sim/energy.h"

#include <gtest/gtest.h>

namespace fawnlab::sim {
namespace {

TEST(EnergyMeter, JoulesAreWattsTimesTimeInEachState) {
  EnergyMeter m;
  auto node = m.AddComponent("node", {{"idle", 3.0}, {"busy", 6.0}}, 0, 0);
  auto sw = m.AddComponent("switch", {{"on", 10.0}}, 0, 0);
  m.SetState(node, 1, 2 * kSec);  // idle 2 s
  m.SetState(node, 1, 3 * kSec);  // no-op
  m.SetState(node, 0, 5 * kSec);  // busy 3 s, then idle
  EXPECT_EQ(m.TimeInState(node, 0, 10 * kSec), 7 * kSec);
  EXPECT_EQ(m.TimeInState(node, 1, 10 * kSec), 3 * kSec);
  EXPECT_DOUBLE_EQ(m.Joules(node, 10 * kSec), 3.0 * 7 + 6.0 * 3);
  EXPECT_DOUBLE_EQ(m.Joules(sw, 10 * kSec), 100.0);
  EXPECT_DOUBLE_EQ(m.TotalJoules(10 * kSec), 139.0);
  EXPECT_DOUBLE_EQ(m.AverageWatts(10 * kSec), 13.9);
}

TEST(EnergyMeter, ComponentAddedLaterCountsFromItsStart) {
  EnergyMeter m;
  auto a = m.AddComponent("late", {{"on", 2.0}}, 0, 4 * kSec);
  EXPECT_DOUBLE_EQ(m.Joules(a, 5 * kSec), 2.0);
  EXPECT_DOUBLE_EQ(m.AverageWatts(5 * kSec), 2.0);
}

}  // namespace
}  // namespace fawnlab::sim
