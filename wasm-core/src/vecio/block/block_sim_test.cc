// BlockSim: each cost charged once per event, conservation, NCQ bound, coalescing, determinism.
#include "vecio/block/block_sim.h"

#include <set>

#include <gtest/gtest.h>

#include "vecio/block/fio_run.h"

namespace fawnlab::vecio::block {
namespace {

struct Outcome {
  BlockCounters counters;
  std::set<uint32_t> done;
  uint64_t duplicate = 0, irq_collected = 0;
  int max_ncq = 0;
};

Outcome RunFor(const BlockConfig& c, sim::SimDuration t, uint64_t seed = 1) {
  sim::Simulator sim;
  BlockSim b(&sim, c, seed);
  Outcome r;
  b.set_on_complete([&](const IoRecord& rec) {
    if (!r.done.insert(rec.id).second) ++r.duplicate;
    EXPECT_LE(rec.q, rec.g);
    EXPECT_LE(rec.g, rec.i);
    EXPECT_LE(rec.i, rec.d);
    EXPECT_LT(rec.d, rec.c);
  });
  b.set_on_irq([&](const IrqRecord& irq) { r.irq_collected += irq.n; });
  b.Start();
  sim.RunUntil(t, 10'000'000);
  r.counters = b.counters();
  r.max_ncq = b.device().max_outstanding();
  EXPECT_LE(r.counters.issued - r.counters.completed, static_cast<uint64_t>(c.iodepth));
  return r;
}

BlockConfig Cfg(const std::string& host, const std::string& sched, const std::string& co) {
  BlockConfig c;
  c.host = host;
  c.scheduler = sched;
  c.coalescing = co;
  return c;
}

class EveryMode : public ::testing::TestWithParam<std::tuple<const char*, const char*, const char*>> {};

TEST_P(EveryMode, EachCostOncePerEventAndEveryIoCompletesOnce) {
  const auto [host, sched, co] = GetParam();
  Outcome r = RunFor(Cfg(host, sched, co), 50 * sim::kMs);
  const BlockCounters& k = r.counters;
  ASSERT_GT(k.completed, 500u);
  EXPECT_EQ(r.duplicate, 0u);
  EXPECT_EQ(r.done.size(), k.completed);
  for (uint32_t id : r.done) EXPECT_LT(id, k.issued);
  // One I/O at a time walks the issue path: every phase once per issued I/O.
  EXPECT_LE(k.phase_events[0], k.issued);
  EXPECT_GE(k.phase_events[0] + 1, k.issued) << "the next I/O's QG may wait behind interrupt work";
  for (int p = 1; p < 4; ++p) {
    EXPECT_LE(k.phase_events[static_cast<size_t>(p)], k.phase_events[static_cast<size_t>(p - 1)]);
    EXPECT_GE(k.phase_events[static_cast<size_t>(p)] + 1, k.phase_events[0]);
  }
  // softIRQ, block completion and notify once per completed I/O; every collected completion completes.
  for (int e = 1; e <= 3; ++e) EXPECT_EQ(k.irq_events[static_cast<size_t>(e)], k.completed);
  EXPECT_EQ(k.irq_events[0], k.interrupts) << "one hard-IRQ cost per interrupt (timer ticks included)";
  EXPECT_GE(k.collected, k.completed);
  EXPECT_LE(k.collected - k.completed, 64u) << "collected, its completion work still queued";
  EXPECT_LE(r.irq_collected, k.collected);
  EXPECT_GE(r.irq_collected + 64, k.collected) << "only the running batch is unreported";
  EXPECT_LE(r.max_ncq, X25::kNcqDepth);
  if (std::string(co) != "napi") {
    EXPECT_EQ(k.irq_events[4], 0u) << "only NAPI polls";
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, EveryMode,
                         ::testing::Combine(::testing::Values("atom-d510", "xeon"), ::testing::Values("cfq", "noop"),
                                            ::testing::Values("none", "napi", "defer")));

TEST(BlockSimTest, XeonFillsTheNcqButNeverPassesIt) {
  Outcome r = RunFor(Cfg("xeon", "cfq", "none"), 50 * sim::kMs);
  EXPECT_EQ(r.max_ncq, X25::kNcqDepth) << "the Xeon outruns the drive, so the driver queue holds the rest";
}

TEST(BlockSimTest, NapiDoesNotCutInterruptsOnTheAtom) {
  auto none = RunFio(Cfg("atom-d510", "cfq", "none"), 10 * sim::kMs, 200 * sim::kMs, 1).value();
  auto napi = RunFio(Cfg("atom-d510", "cfq", "napi"), 10 * sim::kMs, 200 * sim::kMs, 1).value();
  EXPECT_LT(napi.completions_per_irq, 1.15) << "thesis §6.3.3: a slow core rarely finds a second completion";
  EXPECT_LE(napi.iops, none.iops) << "the poll round costs the Atom";
}

TEST(BlockSimTest, DeferBatchesCompletionsAndLeavesABumpAtD) {
  BlockConfig c = Cfg("atom-d510", "cfq", "defer");
  auto d = RunFio(c, 10 * sim::kMs, 200 * sim::kMs, 1).value();
  auto s = RunFio(Cfg("atom-d510", "cfq", "none"), 10 * sim::kMs, 200 * sim::kMs, 1).value();
  EXPECT_GT(d.completions_per_irq, 2);
  EXPECT_GT(d.iops, s.iops);
  double mode = GapMode(d.gap_hist, 80, 240);
  EXPECT_GT(mode, 120);
  EXPECT_LT(mode, 175);
  uint64_t stock_long = 0;
  for (int b = 130; b < 200; ++b) stock_long += s.gap_hist[static_cast<size_t>(b)];
  EXPECT_EQ(stock_long, 0u) << "no 130-200 µs gaps without deferral";
  EXPECT_NEAR(GapMode(d.gap_hist, 0, 20), 6.5, 1.5);
}

TEST(BlockSimTest, DeterministicPerSeed) {
  BlockConfig c = Cfg("atom-d510", "noop", "defer");
  auto a = RunFio(c, 5 * sim::kMs, 50 * sim::kMs, 7).value();
  auto b = RunFio(c, 5 * sim::kMs, 50 * sim::kMs, 7).value();
  auto other = RunFio(c, 5 * sim::kMs, 50 * sim::kMs, 8).value();
  EXPECT_EQ(a.gap_hist, b.gap_hist);
  EXPECT_EQ(a.iops, b.iops);
  EXPECT_EQ(a.issue_median_us, b.issue_median_us);
  EXPECT_NE(a.gap_hist, other.gap_hist);
}

TEST(BlockSimTest, ValidateNamesTheField) {
  BlockConfig c;
  c.iodepth = 0;
  EXPECT_NE(Validate(c).message().find("iodepth"), std::string::npos);
  c = BlockConfig{};
  c.coalescing = "sometimes";
  EXPECT_NE(Validate(c).message().find("coalescing"), std::string::npos);
  c = BlockConfig{};
  c.defer_us = 5;
  EXPECT_NE(Validate(c).message().find("defer_us"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab::vecio::block
