// The Stores lab's experiments: the pinned metric names are there for every store that runs
// (a store the factory does not build yet is skipped with a note, never an error), every anchor
// is emergent with its basis and every miss its reason, runs are deterministic, and bad
// parameters are named.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"
#include "stores/factory.h"
#include "stores/machine.h"

namespace fawnlab {
namespace {

// Whether the factory builds `kind` now (H2's SILT and H3's LSM land after the lab).
bool Built(const std::string& kind) {
  stores::MachineConfig c;
  c.store = kind;
  c.records = 100;
  auto m = stores::Machine::Create(c);
  return m.ok();
}

bool HasMetric(const Result& r, const std::string& m) {
  for (const auto& [name, v] : r.metrics) {
    if (name == m) return true;
  }
  return false;
}

bool Skipped(const Result& r, const std::string& kind) {
  for (const std::string& n : r.notes) {
    if (n.find("Skipped") != std::string::npos && n.find(kind + " (") != std::string::npos) return true;
  }
  return false;
}

void ExpectEmergentAndExplained(const Result& r) {
  for (const auto& [metric, note] : r.anchor_notes) {
    EXPECT_EQ(note.basis, AnchorBasis::kEmergent) << metric;
    EXPECT_FALSE(note.miss.empty()) << metric;
  }
  exptest::ExpectMissesExplained(r);
  bool says = false;
  for (const std::string& n : r.notes) says = says || n.find("disagrees") != std::string::npos || n.find("Every anchor") != std::string::npos;
  EXPECT_TRUE(says || r.anchors.empty()) << r.id << ": no note on where the lab disagrees with the paper";
}

TEST(StoresYcsbTest, EveryStoreAndWorkloadAndTheThesisRatios) {
  const Result r = exptest::MustRun("stores.ycsb", R"({"scale": 0.00008})");
  for (const char* kind : {"cona", "cona-1t", "silt", "lsm"}) {
    std::string id = kind;
    id.erase(std::remove(id.begin(), id.end(), '-'), id.end());
    if (!Built(kind)) {
      EXPECT_TRUE(Skipped(r, kind)) << kind;
      EXPECT_FALSE(HasMetric(r, id + "_a_write_iops")) << kind;
      continue;
    }
    for (const char* w : {"a", "b", "c", "d", "f"}) {
      if (std::string(w) != "c") {
        EXPECT_GT(r.Metric(id + "_" + w + "_write_iops"), 0) << id << " " << w;
      }
      EXPECT_GT(r.Metric(id + "_" + w + "_read_iops"), 0) << id << " " << w;
    }
  }
  if (Built("silt")) {
    for (const char* m : {"write_ratio_silt", "read_ratio_silt", "af_write_ratio_silt"}) EXPECT_GT(r.Metric(m), 0) << m;
  }
  if (Built("lsm")) {
    for (const char* m : {"write_ratio_lsm", "read_ratio_lsm", "af_write_ratio_lsm", "bd_write_ratio_lsm_max"}) {
      EXPECT_GT(r.Metric(m), 0) << m;
    }
    EXPECT_TRUE(HasMetric(r, "af_read_lsm_gain_pct"));
  }
  // The single-thread variant does its merges inline: under A its writes wait for them.
  EXPECT_GT(r.Metric("cona1t_a_stall_pct"), r.Metric("cona_a_stall_pct"));
  ExpectEmergentAndExplained(r);
}

TEST(StoresYcsbTest, MoreStoresAddsFawnDsAndTheBTree) {
  const Result r = exptest::MustRun("stores.ycsb", R"({"scale": 0.00004, "more_stores": true})");
  for (const char* kind : {"fawnds", "btree"}) {
    if (!Built(kind)) continue;
    EXPECT_GT(r.Metric(std::string(kind) + "_b_write_iops"), 0) << kind;
    EXPECT_GT(r.Metric(std::string(kind) + "_c_read_iops"), 0) << kind;
  }
  const Result plain = exptest::MustRun("stores.ycsb", R"({"scale": 0.00004})");
  EXPECT_FALSE(HasMetric(plain, "fawnds_c_read_iops"));
  EXPECT_EQ(r.Metric("write_ratio_lsm"), plain.Metric("write_ratio_lsm")) << "the thesis's stores run the same";
}

TEST(StoresYcsbTest, WorkloadEOnlyForStoresWithScans) {
  const Result r = exptest::MustRun("stores.ycsb", R"({"scale": 0.00004, "with_e": true})");
  EXPECT_GT(r.Metric("cona_e_read_iops"), 0);
  if (Built("silt")) {
    EXPECT_FALSE(HasMetric(r, "silt_e_read_iops")) << "SILT keeps no order";
  }
}

TEST(StoresMemoryTest, DramPerKeyAndKeysInANode) {
  const Result r = exptest::MustRun("stores.memory", R"({"scale": 0.0002})");
  for (const char* kind : {"fawnds", "silt", "cona", "lsm", "btree"}) {
    if (!Built(kind)) {
      EXPECT_TRUE(Skipped(r, kind)) << kind;
      continue;
    }
    EXPECT_GT(r.Metric(std::string(kind) + "_dram_bpk_held"), 0) << kind;
    if (std::string(kind) == "btree") {
      EXPECT_EQ(r.Metric("btree_dram_bpk"), 0) << "its DRAM is its fixed pool";
      EXPECT_FALSE(HasMetric(r, "btree_keys_in_node_m"));
    } else {
      EXPECT_GT(r.Metric(std::string(kind) + "_dram_bpk"), 0) << kind;
      EXPECT_GT(r.Metric(std::string(kind) + "_keys_in_node_m"), 0) << kind;
    }
  }
  if (Built("fawnds")) {
    EXPECT_NEAR(r.Metric("fawnds_dram_bpk"), 6, 0.01) << "6-byte buckets (FAWN SOSP'09 §3.2)";
  }
  // CONA's buffers are its fixed part: per key held it costs more than per key added.
  EXPECT_GT(r.Metric("cona_dram_bpk_held"), r.Metric("cona_dram_bpk"));
  EXPECT_GE(r.Metric("cona_cell_entries_per_key"), 1);
  ExpectEmergentAndExplained(r);
}

TEST(StoresAmplificationTest, StoreAndFtlWriteAmplification) {
  const Result r = exptest::MustRun("stores.amplification", R"({"scale": 0.0002})");
  for (const char* kind : {"cona", "silt", "lsm", "fawnds", "btree"}) {
    if (!Built(kind)) {
      EXPECT_TRUE(Skipped(r, kind)) << kind;
      continue;
    }
    EXPECT_GE(r.Metric(std::string(kind) + "_store_wa"), 1) << kind << ": every byte put is written at least once";
    EXPECT_GT(r.Metric(std::string(kind) + "_ftl_wa"), 0) << kind;
    EXPECT_GT(r.Metric(std::string(kind) + "_store_wa_updated"), 0) << kind;
  }
  // CONA rewrites each entry once per level: more than FAWN-DS's single append.
  if (Built("fawnds")) {
    EXPECT_GT(r.Metric("cona_store_wa"), r.Metric("fawnds_store_wa"));
  }
  ExpectEmergentAndExplained(r);
}

TEST(StoresEnergyTest, JoulesPerOperationOnThreeHosts) {
  const Result r = exptest::MustRun("stores.energy", R"({"scale": 0.00008})");
  for (const char* kind : {"cona", "silt", "lsm", "fawnds", "btree"}) {
    if (!Built(kind)) continue;
    for (const char* h : {"laptop", "fawn", "server"}) {
      EXPECT_GT(r.Metric(std::string(kind) + "_" + h + "_uj_per_op"), 0) << kind << " " << h;
    }
    // The FAWN node's CPU is ~50x slower: the same operations take it longer.
    EXPECT_LT(r.Metric(std::string(kind) + "_fawn_ops_per_s"), r.Metric(std::string(kind) + "_laptop_ops_per_s")) << kind;
  }
  if (Built("fawnds")) {
    EXPECT_GT(r.Metric("fawnds_fawn_cf_queries_per_joule"), 0);
  }
  ExpectEmergentAndExplained(r);
}

TEST(StoresExperimentsTest, DeterministicForASeedAndSeedsDiffer) {
  for (const char* id : {"stores.ycsb", "stores.energy"}) {
    const std::string params = R"({"scale": 0.00004})";
    auto a = RunExperimentJson(id, params, 3, nullptr);
    auto b = RunExperimentJson(id, params, 3, nullptr);
    auto c = RunExperimentJson(id, params, 4, nullptr);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok()) << id;
    EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value())) << id;
    EXPECT_NE(ResultToJson(a.value()), ResultToJson(c.value())) << id;
  }
}

TEST(StoresExperimentsTest, BadParametersAreNamed) {
  auto r = RunExperimentJson("stores.ycsb", R"({"scale": 2})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("scale"), std::string::npos) << r.status().message();
  r = RunExperimentJson("stores.memory", R"({"device": "floppy"})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("device"), std::string::npos) << r.status().message();
  r = RunExperimentJson("stores.energy", R"({"workload": "e"})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("workload"), std::string::npos) << r.status().message();
  r = RunExperimentJson("stores.amplification", R"({"bloom_bits": 21})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("bloom_bits"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace fawnlab
