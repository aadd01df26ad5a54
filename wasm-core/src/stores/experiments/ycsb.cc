// stores.ycsb (CONA thesis §3.2.2, Figs 3.46 reads and 3.47 writes, the head-to-head): CONA,
// its single-thread variant, SILT (index block 64, as the thesis configured it) and the LSM
// (LevelDB's image), with FAWN-DS and the B+tree when `more_stores` asks, under YCSB A, B, C,
// D and F (E too, for the stores with scans, when `with_e` asks), each store and workload on its own machine after its own load (records =
// 25M × scale put in order, then as many operations, one client), as the thesis ran them.
// Write IOPS = writes / foreground time in writes, read IOPS = reads / foreground time in reads
// (stores/runner.h, as cona.ycsb). The anchors are the thesis's ratios (§3.2.2 and the
// abstract, digest §8.6): every one is EMERGENT, a ratio of two stores that ran on the same
// machine model; nothing in any store was fitted to them. The thesis gives no bar values for
// Figs 3.46/3.47, so only ratios can be compared.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "registry/experiments.h"
#include "stores/experiments/common.h"

namespace fawnlab {
namespace {

using stores_exp::Div;
using stores_exp::MetricId;

// The thesis's four (Figs 3.46/3.47), then FAWN-DS and the B+tree when `more_stores` asks.
std::vector<std::string> Kinds(bool more) {
  std::vector<std::string> k = {"cona", "cona-1t", "silt", "lsm"};
  if (more) {
    k.push_back("fawnds");
    k.push_back("btree");
  }
  return k;
}

struct Claim {
  const char* metric;
  double thesis;
  const char* source;
  const char* why;
  const char* miss;  // the mechanism behind a miss (the measured numbers are added to it)
};

// The thesis's claims (digest §8.6), in the order the result lists them.
const std::vector<Claim>& Claims() {
  static const std::vector<Claim> c = {
      {"write_ratio_silt", 2.5, "CONA thesis abstract and §3.2.2 (L223, L692): average write throughput 2.5× SILT's",
       "CONA's writes go to a sorted DRAM buffer and reach flash in sequential merges on their own core; SILT's go "
       "through its LogStore (cuckoo probes) and trigger conversions and merges that compete for the device",
       "a SILT put is a LogStore append and a cuckoo insert, CPU only until the LogStore fills, and CONA's a "
       "sorted-buffer insert; when neither writer waits for its background work (the stall shares) the "
       "cheaper insert wins, where the thesis measured SILT's writes 2.5× slower than CONA's"},
      {"write_ratio_lsm", 2.8, "CONA thesis abstract and §3.2.2 (L223, L692): average write throughput 2.8× leveldb's",
       "the LSM's puts append to its write-ahead log and insert into the memtable's skiplist; its growth factor 10 "
       "rewrites each entry more often than CONA's 2 and the compactions stall the writer when level 0 fills",
       "an LSM put is a WAL append and a skiplist insert; its compactions run on their own core and the "
       "writer waits only when level 0 reaches LevelDB's slowdown and stop triggers (the stall shares); "
       "CONA's writes exceed the thesis's on A and F because at 25M × scale records its merges end before "
       "the next buffer fills (cona.ycsb)"},
      {"read_ratio_silt", 2.9, "CONA thesis abstract and §3.2.2 (L223, L692, L717): average read throughput 2.9× SILT's",
       "SILT's lookups probe the LogStore, every HashStore and the SortedStore's trie, and its constant background "
       "sort competes with reads for the device",
       "each SILT get reads its entry from the device past the page cache (SILT's direct I/O: docs/stores/silt.md), "
       "a full M500 read, while CONA's reads mostly hit the page cache (the hit shares)"},
      {"read_ratio_lsm", 1.14, "CONA thesis §3.2.2 (L717): 'CONA outperforming leveldb by 14% on average' in reads",
       "the LSM reads the memtable, each level's index block and Bloom filter, then one data block; CONA one flash "
       "read past its tries and fragments",
       "an LSM get costs more than CONA's at similar page-cache hit shares: the memtable, a Bloom probe per table, "
       "an index block's binary search, a 4 KB data block read and searched"},
      {"af_write_ratio_silt", 1.4, "CONA thesis §3.2.2 (L692): write-heavy (A, F) writes 1.4× SILT's on average",
       "under A and F CONA's merges have little time to hide between writes (exposed merge time)",
       "SILT's A/F puts (a LogStore append and a cuckoo insert) wait for its conversions only when a "
       "LogStore fills before the last one ends (the stall shares); CONA's A/F writes exceed the thesis's "
       "(~150K and ~250K), since at 25M × scale records its merges end before the next buffer fills "
       "(cona.ycsb)"},
      {"af_write_ratio_lsm", 1.3, "CONA thesis §3.2.2 (L692): write-heavy (A, F) writes 1.3× leveldb's on average",
       "under A and F CONA's merges have little time to hide between writes (exposed merge time)",
       "the LSM's A/F puts (a WAL append and a skiplist insert) wait only when level 0 reaches its triggers "
       "(the stall shares); CONA's A/F writes exceed the thesis's (~150K and ~250K: no merge exposed at 25M "
       "× scale records, cona.ycsb)"},
      {"af_read_lsm_gain_pct", 39, "CONA thesis §3.2.2 (L717): on write-heavy workloads leveldb reads ~39% faster",
       "'CONA has to perform several major cell merges': big shadows becoming visible cost CONA its cached pages",
       "the thesis's LevelDB read faster on A and F because CONA's big shadows became visible uncached ('several "
       "major cell merges'); at 25M × scale records CONA's cells are small and its reads stay cached, while an LSM "
       "get costs more CPU"},
      {"bd_write_ratio_lsm_max", 5.6, "CONA thesis §3.2.2 (L692, L715): 'as much as 5.6×' the insertion throughput of leveldb on B/D",
       "read-heavy: CONA's merges finish between its few writes (none exposed) while the LSM still compacts by 10×",
       "the thesis's LevelDB wrote slowly on B and D because its growth factor 10 keeps compacting; here the "
       "LSM's few B/D writes wait only if they meet a compaction backlog at level 0's triggers (the stall "
       "shares)"},
  };
  return c;
}

std::vector<std::string> Workloads(bool with_e) {
  std::vector<std::string> w = {"a", "b", "c", "d", "f"};
  if (with_e) w.push_back("e");
  return w;
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const bool with_e = p.Bool("with_e");
  const std::vector<std::string> wls = Workloads(with_e);
  Result r;
  std::vector<std::pair<std::string, std::string>> skipped;
  // iops[kind][workload] = {write, read}
  std::vector<std::string> ran;
  std::vector<std::vector<std::pair<double, double>>> iops;
  std::vector<std::vector<stores::PhaseTotals>> totals;
  std::string describe;
  const std::vector<std::string> kinds = Kinds(p.Bool("more_stores"));
  const size_t jobs = kinds.size() * wls.size();
  size_t job = 0;
  for (const std::string& kind : kinds) {
    std::vector<std::pair<double, double>> row;
    std::vector<stores::PhaseTotals> trow;
    bool skip = false;
    for (const std::string& w : wls) {
      const double p0 = static_cast<double>(job) / static_cast<double>(jobs);
      ++job;
      if (skip) continue;
      if (w == "e" && !stores_exp::HasScan(kind)) {
        row.emplace_back(0, 0);
        trow.emplace_back();
        continue;
      }
      auto y = stores_exp::RunOne(stores_exp::ConfigFor(p, kind, "laptop"), w, ctx, p0, p0 + 1.0 / static_cast<double>(jobs),
                                  &describe);
      if (stores_exp::NotBuilt(y.status())) {
        skipped.emplace_back(kind, y.status().message());
        skip = true;
        continue;
      }
      if (!y.ok()) return y.status();
      row.emplace_back(y.value().run.write_iops, y.value().run.read_iops);
      trow.push_back(y.value().run);
    }
    if (skip) continue;
    ran.push_back(kind);
    iops.push_back(row);
    totals.push_back(trow);
  }
  if (ran.empty()) return Status::Unavailable(stores_exp::SkippedNote(skipped));

  const uint64_t records = stores_exp::RecordsFor(p);
  r.scale_factor = 1 / p.Real("scale");
  r.scale_note = std::to_string(records) + " records per run (the thesis: 25M), as many operations; each store and "
                 "workload on its own machine after its own load: " + describe;

  auto index_of = [&](const std::string& kind) -> int {
    for (size_t i = 0; i < ran.size(); ++i) {
      if (ran[i] == kind) return static_cast<int>(i);
    }
    return -1;
  };
  auto has_writes = [](const std::string& w) { return w != "c"; };
  for (size_t i = 0; i < ran.size(); ++i) {
    for (size_t j = 0; j < wls.size(); ++j) {
      const std::string m = MetricId(ran[i]) + "_" + wls[j];
      if (wls[j] == "e" && !stores_exp::HasScan(ran[i])) continue;
      if (has_writes(wls[j])) r.AddMetric(m + "_write_iops", iops[i][j].first);
      r.AddMetric(m + "_read_iops", iops[i][j].second);
    }
  }
  // Means over workloads (by position in wls) of a store's write or read IOPS.
  auto mean = [&](int i, const std::vector<std::string>& over, bool write) {
    double s = 0;
    int n = 0;
    for (size_t j = 0; j < wls.size(); ++j) {
      if (std::find(over.begin(), over.end(), wls[j]) == over.end()) continue;
      s += write ? iops[i][j].first : iops[i][j].second;
      ++n;
    }
    return n ? s / n : 0.0;
  };
  const int cona = index_of("cona");
  const std::vector<std::string> abdf = {"a", "b", "d", "f"}, abcdf = {"a", "b", "c", "d", "f"}, af = {"a", "f"};
  for (const char* other : {"silt", "lsm"}) {
    const int o = index_of(other);
    if (cona < 0 || o < 0) continue;
    const std::string id = other;
    r.AddMetric("write_ratio_" + id, Div(mean(cona, abdf, true), mean(o, abdf, true)));
    r.AddMetric("read_ratio_" + id, Div(mean(cona, abcdf, false), mean(o, abcdf, false)));
    r.AddMetric("af_write_ratio_" + id, Div(mean(cona, af, true), mean(o, af, true)));
    if (id == "lsm") {
      r.AddMetric("af_read_lsm_gain_pct", 100 * (Div(mean(o, af, false), mean(cona, af, false)) - 1));
      double best = 0;
      for (size_t j = 0; j < wls.size(); ++j) {
        if (wls[j] == "b" || wls[j] == "d") best = std::max(best, Div(iops[cona][j].first, iops[o][j].first));
      }
      r.AddMetric("bd_write_ratio_lsm_max", best);
    }
  }
  // What explains the ratios: per store, stall share of write time, store WA, reads per get.
  for (size_t i = 0; i < ran.size(); ++i) {
    for (size_t j = 0; j < wls.size(); ++j) {
      if (wls[j] == "e" && !stores_exp::HasScan(ran[i])) continue;
      const stores::PhaseTotals& t = totals[i][j];
      const std::string m = MetricId(ran[i]) + "_" + wls[j];
      r.AddMetric(m + "_stall_pct", 100 * t.stall_fraction);
      r.AddMetric(m + "_lookup_reads_per_get", t.lookup_reads_per_get);
      r.AddMetric(m + "_store_wa", t.store_wa);
      r.AddMetric(m + "_cache_hit_pct", 100 * t.cache_hit_ratio);
    }
  }

  // A miss note: what the two stores' runs measured (means over the claim's workloads).
  auto miss = [&](const std::string& metric, const std::string& why) {
    const std::string other = metric.find("silt") != std::string::npos ? "silt" : "lsm";
    const int o = index_of(other);
    const bool write = metric.find("write") != std::string::npos;
    const std::vector<std::string>& over = metric.rfind("af_", 0) == 0 ? af : write ? abdf : abcdf;
    auto avg = [&](int i, const char* what) {
      double s = 0;
      int n = 0;
      for (const std::string& w : over) {
        if (!has_writes(w) && write) continue;
        s += r.Metric(MetricId(ran[static_cast<size_t>(i)]) + "_" + w + what);
        ++n;
      }
      return n ? s / n : 0.0;
    };
    std::string m = std::string("at ") + std::to_string(records) + " records: CONA " + (write ? "writes" : "reads") + " " +
                    stores_exp::Fmt(mean(cona, over, write)) + "/s, " + other + " " + stores_exp::Fmt(mean(o, over, write)) +
                    "/s; " + other + "'s writers stalled " + stores_exp::Fmt(avg(o, "_stall_pct")) + "% of their time (CONA " +
                    stores_exp::Fmt(avg(cona, "_stall_pct")) + "%), store write amplification " +
                    stores_exp::Fmt(avg(o, "_store_wa")) + " (CONA " + stores_exp::Fmt(avg(cona, "_store_wa")) +
                    "), device reads per get " + stores_exp::Fmt(avg(o, "_lookup_reads_per_get")) + " (CONA " +
                    stores_exp::Fmt(avg(cona, "_lookup_reads_per_get")) + "), page-cache hits " +
                    stores_exp::Fmt(avg(o, "_cache_hit_pct")) + "% (CONA " + stores_exp::Fmt(avg(cona, "_cache_hit_pct")) +
                    "%). " + static_cast<char>(std::toupper(static_cast<unsigned char>(why[0]))) + why.substr(1);
    return m;
  };
  for (const Claim& c : Claims()) {
    bool have = false;
    for (const auto& [name, v] : r.metrics) have = have || name == c.metric;
    if (!have) continue;
    r.AddAnchor(c.metric, c.thesis, {true, 0.35},
                Emergent(c.source,
                         std::string(c.why) + "; nothing fitted: each store's CPU costs (cona/costs.h and each store's "
                                              "costs header) on the same host and device model",
                         miss(c.metric, c.miss)));
  }

  // Series: per store, write and read IOPS by workload; the ratios beside the thesis's.
  std::string xl = "workload (";
  for (size_t j = 0; j < wls.size(); ++j) xl += (j ? ", " : "") + std::to_string(j) + " " + wls[j];
  xl += ")";
  for (size_t i = 0; i < ran.size(); ++i) {
    Series ws{stores_exp::LabelOf(ran[i]) + ": write IOPS", "measured", xl, "write IOPS", {}};
    Series rs{stores_exp::LabelOf(ran[i]) + ": read IOPS", "measured", xl, "read IOPS", {}};
    for (size_t j = 0; j < wls.size(); ++j) {
      if (wls[j] == "e" && !stores_exp::HasScan(ran[i])) continue;
      if (has_writes(wls[j])) ws.points.emplace_back(static_cast<double>(j), iops[i][j].first);
      rs.points.emplace_back(static_cast<double>(j), iops[i][j].second);
    }
    r.series.push_back(ws);
    r.series.push_back(rs);
  }
  Series lab{"lab: ratio", "measured", "claim (index in the anchors' order)", "ratio (or %)", {}};
  Series thesis{"thesis §3.2.2", "paper", lab.x_label, lab.y_label, {}};
  for (size_t i = 0; i < r.anchors.size(); ++i) {
    lab.points.emplace_back(static_cast<double>(i), r.Metric(r.anchors[i].first));
    thesis.points.emplace_back(static_cast<double>(i), r.anchors[i].second);
  }
  if (!lab.points.empty()) {
    r.series.push_back(lab);
    r.series.push_back(thesis);
  }
  r.notes.push_back("Write IOPS = writes / foreground time in writes; read IOPS = reads / foreground time in reads "
                    "(stores/runner.h); every read is checked against the version it must see.");
  r.notes.push_back("The ratios are CONA's mean over A, B, D, F (writes) or A, B, C, D, F (reads) over the other "
                    "store's; af_* over A and F; bd_write_ratio_lsm_max the larger of B's and D's.");
  stores_exp::CloseNotes(&r, skipped);
  return r;
}

}  // namespace

Experiment MakeStoresYcsb() {
  Experiment e;
  e.info.id = "stores.ycsb";
  e.info.lab = "stores";
  e.info.title = "CONA, SILT and an LSM under YCSB: the head-to-head (Figs 3.46, 3.47)";
  e.info.summary =
      "Loads each store (CONA, single-thread CONA, SILT, the LSM) on its own copy of the scaled thesis machine and runs "
      "YCSB A, B, C, D and F on it: read and write IOPS per store and workload, and the thesis's ratios (CONA writes "
      "2.5× SILT and 2.8× LevelDB, reads 2.9× and 1.14×) as they come out of the stores running.";
  e.info.reference = "Khasymski thesis §3.2.2, Figs 3.46 and 3.47 (digest §8.6)";
  e.info.params = stores_exp::MachineParams(0.0002);
  e.info.params.push_back(ParamSpec::Bool("with_e", false, "Also run workload E (short scans) on the stores with scans."));
  e.info.params.push_back(ParamSpec::Bool("more_stores", false,
                                          "Also run FAWN-DS and the B+tree (not in the thesis's comparison)."));
  e.run = Run;
  return e;
}

}  // namespace fawnlab
