// stores.memory (issue 17; CONA thesis §2.2 and §3.1, FAWN SOSP'09 §3.2, SILT SOSP'11 as the
// thesis quotes it): the DRAM each store really holds per key, against the entries it holds,
// and how many keys fit a FAWN node's DRAM.
//
// Per store (FAWN-DS, SILT, CONA, the LSM, the B+tree), one machine sized for `records`
// (25M × scale) is loaded in order to a quarter, half, three quarters and all of them; at each
// checkpoint, once its background work is done, the store's dram_bytes() (its index, filters,
// buffers, memtable, buffer pool: kv/kv_store.h) over the keys it holds is the series.
// <store>_dram_bpk: the DRAM the store adds per key, (DRAM at N − the empty store's) / N, which
// is what a paper's "bytes per key" means (fixed buffers vanish over 25M keys); FAWN-DS
// allocates its whole index with the store, so its figure is the DRAM per index bucket.
// <store>_keys_in_node_m: million keys whose DRAM fits the FAWN node's (stores/host.h "fawn",
// 256 MB, all of it taken as the index budget: docs/decisions.md) = (budget − the fixed part)
// / dram_bpk. The anchors (FAWN-DS 6 B, SILT ~0.7 B, CONA ~1.7 B) are EMERGENT: each store
// reports the bytes of the structures it really built.
#include <algorithm>
#include <string>
#include <vector>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "registry/experiments.h"
#include "stores/experiments/common.h"
#include "stores/factory.h"
#include "stores/host.h"

namespace fawnlab {
namespace {

using stores_exp::Div;
using stores_exp::Fmt;
using stores_exp::MetricId;

struct Paper {
  const char* kind;
  double bpk;  // 0: no paper figure
  const char* source;
  const char* why;
  const char* miss;
};

const std::vector<Paper>& Papers() {
  static const std::vector<Paper> p = {
      {"fawnds", 6, "FAWN SOSP'09 §3.2 (digest fawn.md §2): 15-bit key fragment + valid bit + 4-B offset = 6 B per entry",
       "the real hash index's buckets (6 B each), sized by the adapter for the entries its file holds",
       "a bucket is 6 B by construction; the bytes per key held are higher (the table is sized for the file's "
       "entries, twice the load's, rounded up to a power of two)"},
      {"silt", 0.7, "CONA thesis §2.2 quoting SILT (SOSP'11): ~0.7 B/key overall, the SortedStore's trie 0.4 B/key",
       "the LogStore's cuckoo table (6 B per slot), the HashStores' filters and the SortedStore's entropy-coded trie",
       "the lab's LogStore scales with the file (docs/stores/silt.md), so nearly every key sits in the SortedStore "
       "(silt_sorted_pct) whose trie at block 64 costs ~0.4 B per key; SILT's ~0.7 B average counts its LogStore's "
       "and HashStores' 6-byte slots at their full-size share"},
      {"cona", 1.7, "CONA thesis §3.1.2, Tables 3.2/3.3 (digest §4.10): trie 0.678 B/key + 16-bit fragments ~1 B/key",
       "the cells' real entropy-coded tries and 16-bit fragments (the two buffers are the fixed part)",
       "CONA's merges advance with the inserts (no lookahead), so a load stops with shadows half merged whose "
       "sources are still indexed (cona_cell_entries_per_key counts the indexed entries per key), and only the last "
       "level goes without fragments: at 25M × scale records the last level holds a smaller share than at 25M"},
      {"lsm", 0, "", "", ""},
      {"btree", 0, "", "", ""},
  };
  return p;
}

// The store's DescribeJson, parsed (null on a parse failure).
JsonValue Describe(kv::KvStore* s) {
  JsonWriter w;
  s->DescribeJson(&w);
  auto v = ParseJson(w.str());
  return v.ok() ? v.value() : JsonValue();
}

// The number of index buckets FAWN-DS's DescribeJson reports (0 if absent).
double IndexBuckets(kv::KvStore* s) {
  const JsonValue v = Describe(s);
  const JsonValue* b = v.is_object() ? v.Find("index_buckets") : nullptr;
  return b && b->is_number() ? b->number_value() : 0;
}

// The entries in all of CONA's cells (shadows being merged included), from its DescribeJson.
double ConaCellEntries(kv::KvStore* s) {
  const JsonValue v = Describe(s);
  const JsonValue* levels = v.is_object() ? v.Find("levels") : nullptr;
  double n = 0;
  if (!levels || !levels->is_array()) return 0;
  for (const JsonValue& l : levels->array_items()) {
    const JsonValue* cells = l.is_object() ? l.Find("cells") : nullptr;
    if (!cells || !cells->is_array()) continue;
    for (const JsonValue& c : cells->array_items()) {
      const JsonValue* e = c.is_object() ? c.Find("entries") : nullptr;
      if (e && e->is_number()) n += e->number_value();
    }
  }
  return n;
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const uint64_t n = stores_exp::RecordsFor(p);
  auto fawn = stores::FindHost("fawn");
  if (!fawn.ok()) return fawn.status();
  const double budget = static_cast<double>(fawn.value().dram_bytes);
  Result r;
  std::vector<std::pair<std::string, std::string>> skipped;
  std::string describe;
  const auto& papers = Papers();
  for (size_t i = 0; i < papers.size(); ++i) {
    const std::string kind = papers[i].kind;
    auto m = stores_exp::Machine::Create(stores_exp::ConfigFor(p, kind, "laptop"));
    if (stores_exp::NotBuilt(m.status())) {
      skipped.emplace_back(kind, m.status().message());
      continue;
    }
    if (!m.ok()) return m.status();
    if (describe.empty()) describe = m.value()->Describe();
    kv::KvStore* store = m.value()->store();
    const double fixed = static_cast<double>(store->dram_bytes());  // the empty store's
    Series s{stores_exp::LabelOf(kind), "measured", "keys held", "DRAM bytes per key held", {}};
    uint64_t have = 0;
    double dram = 0;
    for (int q = 1; q <= 4; ++q) {
      const uint64_t to = n * static_cast<uint64_t>(q) / 4;
      if (Status st = stores_exp::PutRecords(m.value().get(), have, to); !st.ok()) return stores_exp::Prefixed(kind + ": ", st);
      have = to;
      dram = static_cast<double>(store->dram_bytes());
      s.points.emplace_back(static_cast<double>(to), Div(dram, static_cast<double>(to)));
      if (!ctx.Progress((static_cast<double>(i) + q / 4.0) / static_cast<double>(papers.size()))) return Status::Cancelled("cancelled");
    }
    r.series.push_back(s);
    const std::string id = MetricId(kind);
    // FAWN-DS allocates its whole index with the store (sized for the file): its cost per key
    // is its bucket's, the DRAM over the buckets. The B+tree's DRAM is its buffer pool, a
    // fixed number of pages it fills as it runs (the factory's estimate is exact for it): no
    // DRAM per key. The others grow with the keys they hold.
    const double buckets = kind == "fawnds" ? IndexBuckets(store) : 0;
    double bpk = 0, fixed_part = fixed;
    if (buckets > 0) {
      bpk = dram / buckets;
      fixed_part = 0;
    } else if (kind == "btree") {
      fixed_part = static_cast<double>(stores::DramEstimateFor(kind, m.value()->config().params, n));
      bpk = std::max(0.0, Div(dram - fixed_part, static_cast<double>(n)));
    } else {
      bpk = Div(dram - fixed, static_cast<double>(n));
    }
    r.AddMetric(id + "_dram_bpk", bpk);
    r.AddMetric(id + "_dram_bpk_held", Div(dram, static_cast<double>(n)));
    r.AddMetric(id + "_fixed_dram_kb", fixed_part / 1024);
    if (bpk > 0) r.AddMetric(id + "_keys_in_node_m", std::max(0.0, budget - fixed_part) / bpk / 1e6);
    if (kind == "silt") {
      // Where SILT's keys sit: the SortedStore's trie costs ~0.4 B per key, the LogStore's and
      // HashStores' slots 6 B (or their filters).
      const JsonValue v = Describe(store);
      const JsonValue* sorted = v.is_object() ? v.Find("sorted") : nullptr;
      const JsonValue* e = sorted && sorted->is_object() ? sorted->Find("entries") : nullptr;
      if (e && e->is_number()) r.AddMetric("silt_sorted_pct", 100 * Div(e->number_value(), static_cast<double>(n)));
    }
    if (kind == "cona") {
      // A merge in progress keeps its source cells and the shadow's copies of their entries,
      // each with its own trie and fragments: more indexed entries than keys.
      r.AddMetric("cona_cell_entries_per_key", Div(ConaCellEntries(store), static_cast<double>(n)));
    }
  }
  bool any = false;
  for (const Paper& pp : papers) {
    const std::string m = MetricId(pp.kind) + "_dram_bpk";
    bool have = false;
    for (const auto& [name, v] : r.metrics) have = have || name == m;
    any = any || have;
    if (!have || pp.bpk == 0) continue;
    r.AddAnchor(m, pp.bpk, {true, 0.35},
                Emergent(pp.source, std::string(pp.why) + "; nothing fitted: the store's own structures' bytes",
                         std::string(pp.miss) + " (" + MetricId(pp.kind) + "_dram_bpk_held = " +
                             Fmt(r.Metric(MetricId(pp.kind) + "_dram_bpk_held")) + " B per key held, fixed part included)"));
  }
  if (!any) return Status::Unavailable(stores_exp::SkippedNote(skipped));
  r.scale_factor = 1 / p.Real("scale");
  r.scale_note = std::to_string(n) + " records (the thesis: 25M) loaded in order into each store, checkpoints at each "
                 "quarter: " + describe;
  r.notes.push_back("<store>_dram_bpk: the DRAM a store adds per key it holds, (DRAM at N − the empty store's) / N, "
                    "what the papers quote (a store's fixed buffers spread over 25M keys vanish; over " +
                    std::to_string(n) + " they would not); for FAWN-DS, whose index is allocated whole with the "
                    "store, the DRAM per index bucket. <store>_dram_bpk_held: all of it over the keys held (the series).");
  r.notes.push_back("keys_in_node_m: million keys whose DRAM fits the FAWN node's " + Fmt(budget / (1 << 20)) +
                    " MB (FAWN SOSP'09 §4), all of it taken as the index budget: (256 MB − the fixed part) / dram_bpk. "
                    "The B+tree keeps no DRAM per key: its DRAM is its buffer pool (fixed pages), its inner nodes "
                    "are pages on flash, so DRAM does not bound its keys (no keys_in_node_m).");
  stores_exp::CloseNotes(&r, skipped);
  return r;
}

}  // namespace

Experiment MakeStoresMemory() {
  Experiment e;
  e.info.id = "stores.memory";
  e.info.lab = "stores";
  e.info.title = "DRAM per key: FAWN-DS, SILT, CONA, the LSM and the B+tree";
  e.info.summary =
      "Loads each store and weighs the DRAM its structures really hold, per key, as it grows: FAWN-DS's 6-byte "
      "buckets, SILT's cuckoo log and trie, CONA's tries and fragments, the LSM's Bloom filters and index blocks, "
      "the B+tree's buffer pool; and how many keys each fits in a FAWN node's 256 MB.";
  e.info.reference = "FAWN SOSP'09 §3.2; CONA thesis §2.2 (SILT), §3.1.2 and Tables 3.2/3.3";
  e.info.params = stores_exp::MachineParams(0.0008);
  e.run = Run;
  return e;
}

}  // namespace fawnlab
