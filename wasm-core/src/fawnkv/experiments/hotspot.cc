// fawnkv.hotspot: a skewed load with the front-end's cache off and on (SOSP'09 §3.4.2:
// "caching prevents wimpy hot-spots").
//
// A cluster serves Poisson gets whose keys follow Zipf(s) over the dataset, at `load_pct` of
// the cluster's even-load capacity. Without the cache every get of a hot key goes to the one
// tail holding it; with it, the front-end answers repeats of the hottest keys itself.
#include <algorithm>
#include <numeric>
#include <string>

#include "fawnkv/experiments/rig.h"
#include "registry/experiments.h"
#include "registry/sweep.h"

namespace fawnlab {
namespace {

struct Spread {
  double hottest = 0, mean = 0, hit_ratio = 0, p99_ms = 0, answered = 0;
  std::vector<double> per_node;
};

StatusOr<Spread> RunOne(const ParamValues& p, size_t cache, uint64_t seed, SweepProgress* sweep) {
  KvRigOptions o;
  o.nodes = static_cast<int>(p.Int("nodes"));
  o.vids = static_cast<int>(p.Int("vids"));
  o.dataset_gb = p.Real("dataset_gb");
  o.scale_div = static_cast<int>(p.Int("scale_div"));
  o.cache_entries = cache;
  auto rig = KvRig::Create(o, sweep->Step(1));
  if (!rig.ok()) return rig.status();
  sweep->Done();
  KvRig& r = *rig.value();
  sim::Rng rng = sim::Rng::ForStream(seed, 51);
  r.OpenLoop(p.Real("rate"), &rng, false, p.Real("zipf_s"));
  r.Run(sim::kSec);
  r.Measure();
  const sim::SimDuration d = static_cast<sim::SimDuration>(p.Int("seconds")) * sim::kSec;
  const auto& fe = r.cluster->front(0).stats();
  const uint64_t h0 = fe.cache_hits, m0 = fe.cache_misses;
  r.Run(d);
  r.Stop();
  Spread s;
  const double secs = sim::NsToSec(d);
  for (uint64_t n : r.counts().per_node) s.per_node.push_back(static_cast<double>(n) / secs);
  s.per_node.resize(static_cast<size_t>(o.nodes), 0);
  s.hottest = *std::max_element(s.per_node.begin(), s.per_node.end());
  s.mean = std::accumulate(s.per_node.begin(), s.per_node.end(), 0.0) / static_cast<double>(o.nodes);
  const double hits = static_cast<double>(fe.cache_hits - h0), misses = static_cast<double>(fe.cache_misses - m0);
  s.hit_ratio = hits + misses > 0 ? hits / (hits + misses) : 0;
  s.p99_ms = r.counts().latency_ns.Quantile(0.99) / 1e6;
  s.answered = static_cast<double>(r.counts().total) / secs;
  return s;
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  SweepProgress sweep(&ctx, 2);
  auto off = RunOne(p, 0, ctx.seed() * 2, &sweep);
  if (!off.ok()) return off.status();
  auto on = RunOne(p, static_cast<size_t>(p.Int("cache_entries")), ctx.seed() * 2 + 1, &sweep);
  if (!on.ok()) return on.status();
  Result res;
  res.scale_factor = static_cast<double>(p.Int("scale_div"));
  res.scale_note = "the dataset and DRAM at 1/" + std::to_string(p.Int("scale_div"));
  const Spread& a = off.value();
  const Spread& b = on.value();
  res.AddMetric("hottest_node_qps_cache_off", a.hottest);
  res.AddMetric("hottest_node_qps_cache_on", b.hottest);
  res.AddMetric("load_spread_cache_off", a.mean > 0 ? a.hottest / a.mean : 0);
  res.AddMetric("load_spread_cache_on", b.mean > 0 ? b.hottest / b.mean : 0);
  res.AddMetric("cache_hit_ratio", b.hit_ratio);
  res.AddMetric("p99_ms_cache_off", a.p99_ms);
  res.AddMetric("p99_ms_cache_on", b.p99_ms);
  res.AddMetric("answered_per_s_cache_off", a.answered);
  res.AddMetric("answered_per_s_cache_on", b.answered);
  Series so{"cache off", "measured", "back-end", "gets per second it answers", {}};
  Series sn{"cache on (" + std::to_string(p.Int("cache_entries")) + " entries)", "measured", "back-end", "gets per second it answers", {}};
  for (size_t i = 0; i < a.per_node.size(); ++i) so.points.emplace_back(static_cast<double>(i), a.per_node[i]);
  for (size_t i = 0; i < b.per_node.size(); ++i) sn.points.emplace_back(static_cast<double>(i), b.per_node[i]);
  res.series = {so, sn};
  res.notes.push_back("The paper gives no numbers for the cache (§3.4.2); this experiment shows the mechanism: the hottest back-end's "
                      "load with and without the front-end's LRU cache, and the hit ratio the cache reaches.");
  return res;
}

}  // namespace

Experiment MakeFawnkvHotspot() {
  Experiment e;
  e.info.id = "fawnkv.hotspot";
  e.info.lab = "fawnkv";
  e.info.title = "A hot spot, with the front-end's cache off and on";
  e.info.summary = "Gets skewed by Zipf's law pile onto the few back-ends holding the hottest keys; a small cache at the front-end "
                   "absorbs them.";
  e.info.reference = "FAWN SOSP'09 §3.4.2";
  e.info.params = {
      ParamSpec::Int("nodes", 10, 2, 64, "back-ends", "Back-ends in the cluster."),
      ParamSpec::Int("vids", 4, 1, 64, "VIDs", "Virtual IDs per back-end."),
      ParamSpec::Real("dataset_gb", 5, 0.1, 100, "GB", "Values in the cluster at the paper's scale."),
      ParamSpec::Int("scale_div", 256, 16, 1024, "×", "Divide the dataset and DRAM by this factor."),
      ParamSpec::Real("zipf_s", 1.0, 0, 2, "", "Zipf exponent of key popularity (0: uniform)."),
      ParamSpec::Int("cache_entries", 1000, 1, 1000000, "entries", "The front-end cache's size for the second run."),
      ParamSpec::Real("rate", 6000, 100, 100000, "gets/s", "Gets offered per second (Poisson)."),
      ParamSpec::Int("seconds", 3, 1, 60, "s", "Virtual seconds measured per run."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
