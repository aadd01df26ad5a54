#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fawnlab::sim {
namespace {

class Recorder : public EventHandler {
 public:
  void OnEvent(Simulator& sim, uint64_t tag) override { log.push_back({sim.now(), tag}); }
  std::vector<std::pair<SimTime, uint64_t>> log;
};

TEST(Simulator, DispatchesInOrderAndAdvancesTime) {
  Simulator sim;
  Recorder r;
  sim.At(50, &r, 1);
  sim.At(10, &r, 2);
  sim.After(10, &r, 3);  // same time as tag 2, scheduled later: runs after it
  EXPECT_EQ(sim.Run(100), 3u);
  ASSERT_EQ(r.log.size(), 3u);
  EXPECT_EQ(r.log[0], (std::pair<SimTime, uint64_t>{10, 2}));
  EXPECT_EQ(r.log[1], (std::pair<SimTime, uint64_t>{10, 3}));
  EXPECT_EQ(r.log[2], (std::pair<SimTime, uint64_t>{50, 1}));
  EXPECT_EQ(sim.now(), 50);
  EXPECT_EQ(sim.events_processed(), 3u);
}

TEST(Simulator, RunUntilStopsAtTheBoundaryAndMovesTheClock) {
  Simulator sim;
  Recorder r;
  sim.At(10, &r, 1);
  sim.At(20, &r, 2);
  sim.At(21, &r, 3);
  EXPECT_EQ(sim.RunUntil(20), 2u);
  EXPECT_EQ(sim.now(), 20);
  EXPECT_EQ(sim.pending(), 1u);
  EXPECT_EQ(sim.RunUntil(1000), 1u);
  EXPECT_EQ(sim.now(), 1000);  // no events left: the clock moves to the target
}

TEST(Simulator, EventBudgetBoundsARunawayModel) {
  Simulator sim;
  struct Forever : EventHandler {
    void OnEvent(Simulator& s, uint64_t) override { s.After(1, this); }
  } forever;
  sim.At(0, &forever);
  EXPECT_EQ(sim.Run(1000), 1000u);
  EXPECT_EQ(sim.RunUntil(kTimeMax - 1, 500), 500u);
  EXPECT_EQ(sim.pending(), 1u);
}

TEST(Simulator, ClosuresCanScheduleClosures) {
  Simulator sim;
  std::vector<std::string> log;
  sim.Schedule(5, [&] {
    log.push_back("a@" + std::to_string(sim.now()));
    sim.Schedule(sim.now() + 5, [&] { log.push_back("c@" + std::to_string(sim.now())); });
  });
  sim.Schedule(7, [&] { log.push_back("b@" + std::to_string(sim.now())); });
  sim.Run(10);
  EXPECT_EQ(log, (std::vector<std::string>{"a@5", "b@7", "c@10"}));
}

TEST(Simulator, RequestStopEndsTheRunAfterTheCurrentEvent) {
  Simulator sim;
  int n = 0;
  for (int i = 0; i < 10; ++i) sim.Schedule(i, [&] { if (++n == 3) sim.RequestStop(); });
  EXPECT_EQ(sim.Run(100), 3u);
  EXPECT_EQ(sim.Run(100), 7u);  // a new Run clears the stop request
}

}  // namespace
}  // namespace fawnlab::sim
