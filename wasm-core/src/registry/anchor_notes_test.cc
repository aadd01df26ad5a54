// Every anchor of every registered experiment says whether it was fitted or emergent, where its
// number comes from and, when the run misses it, why; the notes reach the JSON and the CSV.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "registry/result.h"

namespace fawnlab {
namespace {

// The cheapest parameters at which each experiment still emits its anchors. A new experiment
// must be listed here (the test below fails otherwise) so that its anchors are checked.
const std::map<std::string, std::string>& CheapParams() {
  static const std::map<std::string, std::string> m = {
      {"queues.mm1", R"({"requests": 200000, "points": 3})"},
      {"queues.closed-loop", R"({"requests": 20000, "clients_max": 8})"},
      {"queues.batching", R"({"requests": 20000, "width_max": 8})"},
      {"devices.table1", R"({"region_mb": 16, "random_ops": 300})"},
      {"devices.nvm-latency", R"({"ops_per_point": 5000, "threads_max": 8})"},
      {"devices.write-pattern", R"({"write_mb": 16, "streams_max": 4})"},
      {"devices.disk-seek", R"({"samples": 300, "queue_depth": 2})"},
      {"devices.fill-gc", R"({"profile": "intel-x25e", "capacity_mb": 256, "passes": 2, "sweep": false})"},
      {"fawnds.bulk-insert", R"({"insert_mb": 4})"},
      {"fawnds.vs-btree", R"({"insert_mb": 2})"},
      {"fawnds.table2", R"({"scale_div": 128, "queries": 300, "rows": 3})"},
      {"fawnds.semi-random", R"({"insert_mb": 4, "files_max": 4})"},
      {"fawnds.mix", R"({"scale_div": 16, "warm_s": 0.1, "measure_s": 0.1})"},
      {"fawnds.maintenance", R"({"scale_div": 256, "gap_ms": 100})"},
      {"fawnkv.cluster", R"({"nodes": 3, "dataset_gb": 1, "scale_div": 256, "duration_s": 0.2})"},
      {"fawnkv.join", R"({"nodes": 4, "dataset_gb": 1, "scale_div": 256, "join_at_s": 0.5, "after_s": 0.2})"},
      {"fawnkv.latency", R"({"seconds": 1, "scale_div": 128})"},
      {"fawnkv.put-latency", R"({"seconds": 1})"},
      {"fawnkv.hotspot", R"({"seconds": 1})"},
      {"fawnkv.tco", "{}"},
      {"vector.multiget", R"({"max_multiget": 16, "refine": 0})"},
      {"vector.multiread", R"({"max_multiread": 8, "refine": 0})"},
      {"vector.combined", R"({"refine": 0})"},
      {"vector.peak-width", "{}"},
      {"vector.unequal", R"({"max_multiread": 32, "refine": 0})"},
      {"vector.gap", R"({"measure_ms": 100})"},
      {"vector.issue-path", R"({"measure_ms": 100})"},
      {"vector.completions", R"({"measure_ms": 100})"},
      {"vector.block-size", R"({"measure_ms": 100})"},
      {"vector.scale", R"({"trials": 10})"},
      {"vector.latency-width", R"({"ops_per_point": 2000})"},
      {"vector.device", R"({"max_threads": 16, "warmup_us": 200, "measure_us": 500})"},
      {"vector.sync-lookups", R"({"ops_per_point": 2000, "threads_max": 32})"},
      {"cona.trie-memory", R"({"scale": 0.002})"},
      {"cona.ycsb", R"({"scale": 0.0002})"},
      {"cona.timeseries", R"({"scale": 0.0002, "samples": 50})"},
      {"cona.trie-speed", R"({"scale": 0.0002, "operations": 1000})"},
      {"cona.buffer-size", R"({"scale": 0.0002, "operations": 1000})"},
      {"cona.merges", R"({"scale": 0.0002, "operations": 1000})"},
      {"stores.ycsb", R"({"scale": 0.00004})"},
      {"stores.memory", R"({"scale": 0.0001})"},
      {"stores.amplification", R"({"scale": 0.0001, "updates": 0.2})"},
      {"stores.energy", R"({"scale": 0.00004})"},
      {"srcmap.timeline", R"({"from_h": 0, "hours": 1})"},
      {"srcmap.response", R"({"from_h": 0, "hours": 0.5})"},
      {"srcmap.day", R"({"rate_scale": 0.01})"},
      {"srcmap.per-disk", R"({"rate_scale": 0.01})"},
      {"srcmap.overprovision", R"({"rate_scale": 0.02})"},
      {"srcmap.proportionality", R"({"rate_scale": 0.02})"},
      {"srcmap.workload", R"({"rate_scale": 0.05})"},
      {"srcmap.metadata", "{}"},
  };
  return m;
}

TEST(AnchorNotesTest, EveryExperimentsAnchorsHaveABasisAndASource) {
  int fitted = 0, emergent = 0;
  for (const Experiment& e : AllExperiments()) {
    const auto it = CheapParams().find(e.info.id);
    ASSERT_NE(it, CheapParams().end()) << e.info.id << " is not listed in CheapParams: add it so its anchors are checked";
    SCOPED_TRACE(e.info.id);
    const Result r = exptest::MustRun(e.info.id, it->second);  // checks every note (anchor_testing.h)
    for (const auto& [metric, note] : r.anchor_notes) (note.basis == AnchorBasis::kFitted ? fitted : emergent)++;
  }
  EXPECT_GT(fitted, 0);
  EXPECT_GT(emergent, fitted) << "most anchors should be predictions, not fits";
}

// The anchors docs/experiments.md lists as missed at the paper's setting explain themselves.
TEST(AnchorNotesTest, TheKnownMissesSayWhy) {
  for (const char* id : {"fawnkv.latency", "fawnkv.put-latency"}) {
    const Result r = exptest::MustRun(id, CheapParams().at(id));
    int missed = 0;
    for (size_t i = 0; i < r.anchors.size(); ++i) missed += !exptest::WithinTolerance(r, i);
    EXPECT_GT(missed, 0) << id << ": the lab now meets every anchor; update docs/experiments.md";
    exptest::ExpectMissesExplained(r);
  }
}

TEST(AnchorNotesTest, NotesGoIntoTheJsonAndTheCsv) {
  Result r;
  r.id = "x";
  r.AddMetric("a", 1);
  r.AddMetric("b", 3);
  r.AddAnchor("a", 1, {true, 0.1}, Fitted("Table 1", "the constant c", ""));
  r.AddAnchor("b", 2, {false, 0.5}, Emergent("Fig 2", "the mechanism", "the \"reason\""));
  const std::string json = ResultToJson(r);
  EXPECT_NE(json.find("\"anchor_notes\": {\n    \"a\": {\n      \"basis\": \"fitted\",\n      \"source\": \"Table 1\",\n"
                      "      \"why\": \"the constant c\",\n      \"miss\": \"\"\n    },\n    \"b\": {\n      \"basis\": \"emergent\","),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("miss": "the \"reason\"")"), std::string::npos) << json;
  const std::string csv = ResultToCsv(r);
  EXPECT_NE(csv.find("anchor_basis,a,,,,fitted\nanchor_basis,b,,,,emergent\n"), std::string::npos) << csv;
  EXPECT_STREQ(AnchorBasisName(AnchorBasis::kFitted), "fitted");
}

}  // namespace
}  // namespace fawnlab
