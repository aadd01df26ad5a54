// cona.trie-speed, cona.buffer-size and cona.merges: what each mechanism must show whatever the
// host's cost constants (orderings, conservation, bounds), every anchor noted and every miss
// explained at the defaults' shape, determinism, and named bad parameters. Cheap parameters
// (a smaller machine, fewer operations) keep the suite fast.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

double PointY(const Result& r, const std::string& series, double x) {
  for (const Series& s : r.series) {
    if (s.name != series) continue;
    for (const auto& [px, py] : s.points) {
      if (px == x) return py;
    }
  }
  ADD_FAILURE() << r.id << ": no point " << x << " in '" << series << "'";
  return 0;
}

TEST(ConaTrieSpeedTest, BiggerBlocksDecodeMoreAndReadSlower) {
  Result r = exptest::MustRun("cona.trie-speed", R"({"scale": 0.0004, "operations": 3000})");
  exptest::ExpectMissesExplained(r);
  EXPECT_LT(r.Metric("symbols_per_read_4"), r.Metric("symbols_per_read_16"));
  EXPECT_LT(r.Metric("symbols_per_read_16"), r.Metric("symbols_per_read_64"));
  EXPECT_GT(r.Metric("symbols_per_read_mix"), r.Metric("symbols_per_read_4"));
  EXPECT_LT(r.Metric("symbols_per_read_mix"), r.Metric("symbols_per_read_64"));
  EXPECT_GT(r.Metric("trie_bpk_4"), r.Metric("trie_bpk_16"));
  EXPECT_GT(r.Metric("trie_bpk_16"), r.Metric("trie_bpk_64"));
  EXPECT_LT(r.Metric("trie_bpk_mix"), r.Metric("trie_bpk_4"));
  // C is read-only and fully cached here: the read time follows the trie's work.
  EXPECT_GT(r.Metric("read_iops_4"), r.Metric("read_iops_64"));
  EXPECT_LT(r.Metric("delta_64_pct"), r.Metric("delta_16_pct"));
  EXPECT_LT(r.Metric("delta_64_pct"), 0);
}

TEST(ConaTrieSpeedTest, EveryWorkloadGetsItsDeltas) {
  Result r = exptest::MustRun("cona.trie-speed", R"({"scale": 0.0002, "operations": 1000, "workload": "all"})");
  for (const char* w : {"a", "b", "c", "d", "f"}) {
    SCOPED_TRACE(w);
    EXPECT_NO_FATAL_FAILURE(r.Metric(std::string("delta_64_pct_") + w));
  }
  EXPECT_EQ(r.Metric("delta_64_pct"), r.Metric("delta_64_pct_c")) << "C is the headline";
  EXPECT_EQ(r.anchors.size(), 3u);
  // Off C no anchor (the thesis's deltas are C's and D's).
  Result a = exptest::MustRun("cona.trie-speed", R"({"scale": 0.0002, "operations": 1000, "workload": "a"})");
  EXPECT_TRUE(a.anchors.empty());
}

TEST(ConaBufferSizeTest, TheUCurvesPartsMoveAsTheThesisSays) {
  Result r = exptest::MustRun("cona.buffer-size", R"({"scale": 0.0004, "operations": 2000, "reads": "all"})");
  exptest::ExpectMissesExplained(r);
  // Bigger buffers: fewer levels, costlier normal inserts, cheaper induces overall.
  double last_levels = 1e9, last_normal = -1;
  for (double kb : {8, 16, 32, 64, 128, 256, 512, 1024}) {
    SCOPED_TRACE(kb);
    const double levels = PointY(r, "lab: levels after the load", kb);
    const double normal = PointY(r, "lab: normal inserts", kb);
    EXPECT_LE(levels, last_levels);
    EXPECT_GT(normal, last_normal);
    EXPECT_NEAR(PointY(r, "lab: total insertion time", kb),
                normal + PointY(r, "lab: induce", kb) + PointY(r, "lab: exposed merge", kb), 1e-9);
    last_levels = levels;
    last_normal = normal;
  }
  EXPECT_GT(r.Metric("levels_8k"), r.Metric("levels_1m") + 4);
  EXPECT_GT(PointY(r, "lab: induce", 8), PointY(r, "lab: induce", 1024));
  const double best = r.Metric("best_buffer_kb");
  for (double kb : {8, 16, 32, 64, 128, 256, 512, 1024}) {
    EXPECT_LE(PointY(r, "lab: total insertion time", best), PointY(r, "lab: total insertion time", kb));
  }
  // Fig 3.9: every read is served somewhere.
  double served = 0;
  for (const Series& s : r.series) {
    if (s.name.find("64 KB, % of C's reads") == std::string::npos) continue;
    for (const auto& [x, y] : s.points) served += y;
  }
  EXPECT_NEAR(served, 100, 1e-6);
}

TEST(ConaBufferSizeTest, APartialSweepHasNoSweepAnchors) {
  Result r = exptest::MustRun("cona.buffer-size", R"({"scale": 0.0004, "min_kb": 32, "max_kb": 128, "reads": "none"})");
  EXPECT_TRUE(r.anchors.empty());
  EXPECT_GT(r.Metric("insert_s_64k"), 0);
}

TEST(ConaMergesTest, TheThreadHidesMergesAndTheSingleThreadHidesNone) {
  Result r = exptest::MustRun("cona.merges", R"({"scale": 0.0004, "operations": 3000})");
  exptest::ExpectMissesExplained(r);
  EXPECT_NEAR(r.Metric("hidden_single_pct"), 0, 1) << "inline merges are all exposed";
  for (const char* m : {"hidden_construction_pct", "hidden_a_pct", "hidden_b_pct"}) {
    EXPECT_GE(r.Metric(m), 0) << m;
    EXPECT_LE(r.Metric(m), 100) << m;
  }
  EXPECT_GE(r.Metric("hidden_b_pct"), r.Metric("hidden_a_pct") - 1) << "95% reads give the merges more time than 50%";
  const double k = r.Metric("levels");
  EXPECT_EQ(r.Metric("k_plus_1"), k + 1);
  EXPECT_EQ(r.Metric("cola_steps_per_insert"), 2 * k + 2);
  EXPECT_GT(r.Metric("steps_per_insert"), 1) << "entries are merged down more than once on average";
  EXPECT_LE(r.Metric("steps_per_insert"), k + 1) << "the two-buffer bound (§3.1.3)";
  EXPECT_GT(r.Metric("construction_s_single"), 0);
}

TEST(ConaMergesTest, CostlierMergesTakeTheActorLonger) {
  const std::string base = R"({"scale": 0.0004, "operations": 1000)";
  Result cheap = exptest::MustRun("cona.merges", base + R"(, "merge_entry_ns": 40})");
  Result dear = exptest::MustRun("cona.merges", base + R"(, "merge_entry_ns": 2000})");
  EXPECT_GT(dear.Metric("merge_construction_s"), cheap.Metric("merge_construction_s"));
  EXPECT_GE(dear.Metric("construction_s_single"), cheap.Metric("construction_s_single"))
      << "the single-thread writer does the costlier merges itself";
  EXPECT_EQ(dear.params.Real("merge_entry_ns"), 2000);
}

TEST(ConaStoreExperimentsTest, DeterministicBySeed) {
  for (const char* id : {"cona.trie-speed", "cona.buffer-size", "cona.merges"}) {
    SCOPED_TRACE(id);
    const std::string params = std::string(id) == "cona.buffer-size"
                                   ? R"({"scale": 0.0002, "operations": 500, "min_kb": 16, "max_kb": 64})"
                                   : R"({"scale": 0.0002, "operations": 500})";
    auto a = RunExperimentJson(id, params, 5, nullptr);
    auto b = RunExperimentJson(id, params, 5, nullptr);
    auto c = RunExperimentJson(id, params, 6, nullptr);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
    EXPECT_NE(ResultToJson(a.value()), ResultToJson(c.value())) << "the seed drives YCSB's requests";
  }
}

TEST(ConaStoreExperimentsTest, ACancelledRunStops) {
  for (const char* id : {"cona.trie-memory", "cona.trie-speed", "cona.buffer-size", "cona.merges"}) {
    int calls = 0;
    auto r = RunExperimentJson(id, R"({"scale": 0.002})", 1, [&](double) { return ++calls < 3; });
    ASSERT_FALSE(r.ok()) << id;
    EXPECT_EQ(r.status().code(), StatusCode::kCancelled) << id << ": " << r.status().message();
  }
}

TEST(ConaStoreExperimentsTest, BadParametersAreNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"cona.trie-speed", R"({"workload": "e"})"},   {"cona.trie-speed", R"({"scale": 0})"},
      {"cona.trie-speed", R"({"buffer_kb": 4})"},     {"cona.buffer-size", R"({"min_kb": 4})"},
      {"cona.buffer-size", R"({"max_kb": 2048})"},    {"cona.merges", R"({"scale": 1})"},
      {"cona.merges", R"({"operations": -1})"},
  };
  for (const auto& [id, params] : cases) {
    auto r = RunExperimentJson(id, params, 1, nullptr);
    ASSERT_FALSE(r.ok()) << id << " " << params;
    const std::string name = params.substr(2, params.find('"', 2) - 2);
    EXPECT_NE(r.status().message().find(name), std::string::npos) << r.status().message();
  }
  auto r = RunExperimentJson("cona.buffer-size", R"({"min_kb": 256, "max_kb": 64})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("min_kb"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace fawnlab
