#include "cona/experiments/ycsb_common.h"

#include <cstdio>

namespace fawnlab::cona_ycsb {

const std::vector<ThesisBar>& ThesisBars() {
  static const std::vector<ThesisBar> bars = {
      {"a", 150000, 20000, "Fig 3.14: A ~150K writes/s", "Fig 3.13: A 'just over 20K' reads/s"},
      {"b", 500000, 50000, "Fig 3.14: B > 500K writes/s", "Fig 3.13: B 'just over 50K' reads/s"},
      {"c", 0, 70000, "", "Fig 3.13: C > 65K reads/s ('around 70K', Fig 3.26)"},
      {"d", 500000, 95000, "Fig 3.14: D > 500K writes/s", "Fig 3.13: D 'just under 100K' reads/s, the best"},
      {"f", 250000, 20000, "Fig 3.14: F ~250K writes/s", "Fig 3.13: F 'just over 20K' reads/s"},
  };
  return bars;
}

std::vector<ParamSpec> MachineParams(double default_scale) {
  return {
      ParamSpec::Real("scale", default_scale, 0.0001, 0.05, "× the thesis",
                      "The thesis's machine and data scaled: records = 25M × scale (20 + 200 B each), page cache = "
                      "(8 GB − 3 GB) × scale, the M500 240 GB × scale; as many operations as records."),
      ParamSpec::Int("buffer_kb", 64, 8, 1024, "KB", "Insertion buffer B (64 KB in the thesis, §3.2.1)."),
      ParamSpec::Int("clients", 1, 1, 32, "clients", "Operations outstanding (the thesis: one client thread)."),
      ParamSpec::Bool("cold_start", false,
                      "Between load and run: finish the merges, sync and empty the page cache (off: the run follows "
                      "the load at once, its merges going and its pages cached)."),
  };
}

cona::MachineConfig MachineFor(const ParamValues& p) {
  cona::MachineConfig c;
  c.scale = p.Real("scale");
  c.records = static_cast<uint64_t>(static_cast<double>(cona::kThesisRecords) * c.scale + 0.5);
  c.store.buffer_bytes = static_cast<uint32_t>(p.Int("buffer_kb")) * 1024;
  return c;
}

StatusOr<cona::YcsbRun> RunWorkload(const ParamValues& p, const std::string& workload, uint64_t samples,
                                    RunContext& ctx, double p0, double p1, std::string* scale_note) {
  auto m = cona::Machine::Create(MachineFor(p));
  if (!m.ok()) return m.status();
  if (scale_note && scale_note->empty()) *scale_note = m.value()->Describe();
  cona::RunConfig rc;
  rc.workload = workload;
  rc.clients = static_cast<int>(p.Int("clients"));
  rc.seed = ctx.seed();
  rc.cold_start = p.Bool("cold_start");
  const uint64_t n = m.value()->config().records;
  rc.sample_every = samples ? std::max<uint64_t>(1, n / samples) : 0;
  auto r = cona::RunYcsb(m.value().get(), rc, [&](double f) { return ctx.Progress(p0 + (p1 - p0) * f); });
  if (!r.ok() && r.status().code() == StatusCode::kCancelled) return r.status();
  if (!r.ok()) return Status::Internal("workload " + workload + ": " + r.status().message());
  return r;
}

std::string WriteBreakdown(const cona::PhaseTotals& t) {
  if (t.writes == 0) return "";
  const double per = 1e6 / static_cast<double>(t.writes);
  char buf[640];
  std::snprintf(buf, sizeof buf,
                "per write %.1f µs of foreground time: %.1f µs inducing the frozen buffer, %.1f µs waiting for merges "
                "(%.0f%% exposed), %.1f µs inserting into the sorted buffer. Merges hide when the deepest one ends "
                "before the writer needs its level-1 slot: at 25M × scale records the deepest merges are 1/scale "
                "times shorter than the thesis's while a 64 KB buffer fills just as fast, so a small scale exposes "
                "less of A's and F's merging (docs/cona/ycsb.md: scale 0.01)",
                t.write_s * per, t.induce_s * per, t.exposed_merge_s * per,
                t.write_s > 0 ? 100 * t.exposed_merge_s / t.write_s : 0.0,
                (t.write_s - t.induce_s - t.exposed_merge_s) * per);
  return buf;
}

std::string ReadBreakdown(const cona::PhaseTotals& t) {
  if (t.reads == 0) return "";
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "per read %.1f µs; the page cache hit %.0f%% of the pages lookups touched; each miss is a depth-1 read "
                "of the M500 model (~200 µs: one command at a time)",
                t.read_s * 1e6 / static_cast<double>(t.reads), 100 * t.cache_hit_ratio);
  return buf;
}

}  // namespace fawnlab::cona_ycsb
