// cona.trie-speed (CONA thesis §3.2.1, Fig 3.10): read throughput by trie block size. For each
// configuration — every cell's trie at block 4, at 16, at 64, and the thesis's per-level mix
// (4 on the first N-4 levels, 16 on N-3..N-1, 64 on the last) — a fresh machine loads the
// records through the YCSB runner and serves the workload. A lookup walks the buffers and then
// the cells newest to oldest, decoding each cell's trie (cona/trie.h: a bigger block decodes
// more Huffman symbols to skip the left subtrees it passes) before the fragment check and the
// one entry read; read IOPS = reads / the client's time in reads. The deltas are against
// block 4. Nothing is fitted here; the host's cost per symbol is cona/costs.h's.
#include <cmath>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "cona/experiments/index_common.h"
#include "registry/experiments.h"
#include "registry/sweep.h"

namespace fawnlab {
namespace {

struct Config {
  cona::TrieMix mix;
  const char* name;   // metric suffix
  const char* label;
};
const Config kConfigs[4] = {{cona::TrieMix::k4, "4", "block 4"},
                            {cona::TrieMix::k16, "16", "block 16"},
                            {cona::TrieMix::k64, "64", "block 64"},
                            {cona::TrieMix::kThesis, "mix", "per-level mix"}};

struct Measured {
  double read_iops = 0;
  double symbols_per_read = 0;
  double us_per_read = 0;
  double cache_hit_ratio = 0;
  double trie_bpk = 0;
  int levels = 0;
};

StatusOr<Measured> RunOne(double scale, uint32_t buffer_kb, cona::TrieMix mix, const std::string& workload, uint64_t ops,
                          uint64_t seed, const std::function<bool(double)>& progress) {
  cona::StoreOptions o;
  o.buffer_bytes = buffer_kb * 1024;
  o.trie = mix;
  auto m = cona::MakeMachine(scale, o);
  if (!m.ok()) return m.status();
  cona::StoreDelta load, run;
  auto l = cona::RunPhase(m.value().get(), "", 0, seed, [&](double f) { return progress(0.5 * f); }, &load);
  if (!l.ok()) return l.status();
  auto r = cona::RunPhase(m.value().get(), workload, ops, seed, [&](double f) { return progress(0.5 + 0.5 * f); }, &run);
  if (!r.ok()) return r.status();
  Measured out;
  out.read_iops = r.value().run.read_iops;
  out.symbols_per_read = run.gets ? static_cast<double>(run.trie_symbols) / static_cast<double>(run.gets) : 0;
  out.us_per_read = run.gets ? 1e6 * run.read_s / static_cast<double>(run.gets) : 0;
  out.cache_hit_ratio = r.value().run.cache_hit_ratio;
  const cona::Structure st = m.value()->store()->structure();
  out.levels = st.levels;
  out.trie_bpk = st.entries ? static_cast<double>(st.trie_bytes) / static_cast<double>(st.entries) : 0;
  return out;
}

double Pct(double v, double base) { return base > 0 ? 100 * (v / base - 1) : 0; }

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const double scale = p.Real("scale");
  const uint32_t buffer_kb = static_cast<uint32_t>(p.Int("buffer_kb"));
  const uint64_t ops = static_cast<uint64_t>(p.Int("operations"));
  const std::string choice = p.Choice("workload");
  const std::vector<std::string> workloads =
      choice == "all" ? std::vector<std::string>{"c", "a", "b", "d", "f"} : std::vector<std::string>{choice};
  SweepProgress sweep(&ctx, 4.0 * static_cast<double>(workloads.size()));

  Result r;
  r.scale_factor = 1 / scale;
  const std::string wl_label = "workload (0 A, 1 B, 2 C, 3 D, 4 F)";
  auto wl_x = [](const std::string& w) { return w == "a" ? 0 : w == "b" ? 1 : w == "c" ? 2 : w == "d" ? 3 : 4; };
  std::vector<Series> by_block(4);
  for (int i = 0; i < 4; ++i) {
    by_block[i] = Series{std::string("lab: ") + kConfigs[i].label, "measured", wl_label, "read IOPS", {}};
  }
  Series deltas{"lab: read IOPS vs block 4", "measured", "configuration (0 block 16, 1 block 64, 2 per-level mix)",
                "change in read IOPS (%)", {}};
  for (size_t wi = 0; wi < workloads.size(); ++wi) {
    const std::string& w = workloads[wi];
    Measured got[4];
    for (int i = 0; i < 4; ++i) {
      auto one = RunOne(scale, buffer_kb, kConfigs[i].mix, w, ops, ctx.seed(), sweep.Step(1));
      if (!one.ok()) return one.status();
      sweep.Done();
      got[i] = one.value();
      by_block[static_cast<size_t>(i)].points.emplace_back(wl_x(w), got[i].read_iops);
    }
    const double d16 = Pct(got[1].read_iops, got[0].read_iops);
    const double d64 = Pct(got[2].read_iops, got[0].read_iops);
    const double dmix = Pct(got[3].read_iops, got[0].read_iops);
    if (wi == 0) {  // the headline workload (C when "all")
      for (int i = 0; i < 4; ++i) r.AddMetric(std::string("read_iops_") + kConfigs[i].name, got[i].read_iops);
      r.AddMetric("delta_16_pct", d16);
      r.AddMetric("delta_64_pct", d64);
      r.AddMetric("delta_mix_pct", dmix);
      for (int i = 0; i < 4; ++i) {
        r.AddMetric(std::string("symbols_per_read_") + kConfigs[i].name, got[i].symbols_per_read);
        r.AddMetric(std::string("us_per_read_") + kConfigs[i].name, got[i].us_per_read);
        r.AddMetric(std::string("trie_bpk_") + kConfigs[i].name, got[i].trie_bpk);
      }
      r.AddMetric("cache_hit_ratio", got[0].cache_hit_ratio);
      r.AddMetric("levels", got[0].levels);
      deltas.points = {{0, d16}, {1, d64}, {2, dmix}};
    }
    if (workloads.size() > 1) {
      r.AddMetric("delta_16_pct_" + w, d16);
      r.AddMetric("delta_64_pct_" + w, d64);
      r.AddMetric("delta_mix_pct_" + w, dmix);
    }
  }
  for (const Series& s : by_block) r.series.push_back(s);
  r.series.push_back(deltas);
  r.series.push_back(Series{"thesis Fig 3.10 (prose): 16 ≈ −5%, 64 up to −50%, the mix within 1%", "paper",
                            deltas.x_label, deltas.y_label, {{0, -5}, {1, -50}, {2, -1}}});
  const bool c_first = workloads.front() == "c";
  const std::string why =
      "nothing fitted: each cell a lookup passes decodes its trie (the real Huffman symbols, counted) at the host's "
      "cost per symbol (cona/costs.h trie_symbol_ns, an estimate from the i7-3610QM, not calibrated to Fig 3.10)";
  const std::string depth_miss =
      "fewer levels at this scale (" + std::to_string(static_cast<int>(r.Metric("levels"))) +
      " after the load, " + FormatNumber(std::floor(r.Metric("symbols_per_read_4") + 0.5)) +
      " symbols per read at block 4): a lookup passes about half the tries it passes at the thesis's 25M records "
      "(k = 15-16), and most of a C read's time here is its page-cache misses to the SSD, so the trie's share of a "
      "read, and the block size's effect, is smaller";
  if (c_first) {
    r.AddAnchor("delta_16_pct", -5, {false, 3},
                Emergent("thesis §3.2.1, Fig 3.10: block 16 reads about 5% slower than block 4", why, depth_miss));
    r.AddAnchor("delta_64_pct", -50, {false, 15},
                Emergent("thesis §3.2.1, Fig 3.10: block 64 up to 50% slower on some workloads (C and D most)", why,
                         depth_miss));
    r.AddAnchor("delta_mix_pct", 0, {false, 1},
                Emergent("thesis §3.2.1: the per-level mix reads within 1% of block 4", why,
                         "the mix decodes block 64's trie at the last level, which most of C's reads reach (the "
                         "last level holds most of the records after the load), and block 16's on the three above "
                         "it: its extra symbols per read are a sizeable part of block 64's"));
  }
  r.notes.push_back(
      "Each configuration loads a fresh machine (the tries are built at induce and merge time) and serves the same "
      "requests (one seed). Read IOPS = reads / the client's time in reads; symbols_per_read_* are the Huffman "
      "symbols the lookups really decoded, each charged cona/costs.h's trie_symbol_ns.");
  r.scale_note = "25M × " + cona::ScaleName(scale) + " records, DRAM and SSD; operations as many as the records unless set";
  return r;
}

}  // namespace

Experiment MakeConaTrieSpeed() {
  Experiment e;
  e.info.id = "cona.trie-speed";
  e.info.lab = "cona";
  e.info.title = "Read throughput by trie block size (Fig 3.10)";
  e.info.summary =
      "Loads the store with every cell's trie at block 4, 16 or 64, or the thesis's per-level mix, then serves a YCSB "
      "workload: bigger blocks decode more symbols per cell a lookup passes, so reads slow where the trie's CPU time "
      "shows (cached reads: C and D); the mix keeps block 4's speed on the levels most lookups pass through.";
  e.info.reference = "Khasymski thesis §3.2.1, Fig 3.10 (Tables 3.2-3.3 for the memory)";
  e.info.params = {
      ParamSpec::Choice("workload", "c", {"c", "a", "b", "d", "f", "all"},
                        "YCSB workload served after the load (all: C, A, B, D, F in turn)."),
      cona::ScaleParam(),
      cona::OperationsParam("Run-phase operations"),
      cona::BufferKbParam(),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
