// fawnkv.cluster: the 21-node cluster's throughput and power (SOSP'09 §4.2, Figures 11–12).
//
// A cluster of `nodes` back-ends holds the dataset (20 GB at the paper's scale, one replica),
// with VIDs evenly spaced; the front-end keeps `clients_per_node` × nodes random-key gets
// outstanding (many independent clients, so a slow node holds up only its own; the cache
// off, as in the paper) and counts answers: once with 256 B values,
// once with 1 KB. Power is sampled every 100 ms while the cluster idles, serves gets at that
// maximum rate, and takes puts offered at the same rate (the paper does not give its put
// rate). A single back-end holding 512 MB answers gets over the network for §4.2's 1,850/s.
#include <algorithm>
#include <string>

#include "fawnkv/experiments/rig.h"
#include "registry/experiments.h"
#include "registry/sweep.h"

namespace fawnlab {
namespace {

constexpr sim::SimDuration kSample = 100 * sim::kMs;

struct Phase {
  double rate = 0;   // answers per second
  double watts = 0;  // back-ends + switches
  std::vector<double> per_node;
};

double Joules(const fawnkv::Cluster& c) { return c.BackendsJoules() + c.SwitchJoules(); }

// Runs `d` with the load already started, sampling power into `watts` from time `t0`.
Phase Window(KvRig& r, sim::SimDuration d, Series* watts, double t0) {
  Phase ph;
  r.Measure();
  const double e0 = Joules(*r.cluster);
  const sim::SimTime start = r.now();
  for (sim::SimTime t = 0; t < d; t += kSample) {
    const double e = Joules(*r.cluster);
    r.Run(kSample);
    if (watts) watts->points.emplace_back(t0 + sim::NsToSec(t + kSample), (Joules(*r.cluster) - e) / sim::NsToSec(kSample));
  }
  const double secs = sim::NsToSec(r.now() - start);
  ph.rate = static_cast<double>(r.counts().total) / secs;
  ph.watts = (Joules(*r.cluster) - e0) / secs;
  for (uint64_t n : r.counts().per_node) ph.per_node.push_back(static_cast<double>(n) / secs);
  return ph;
}

KvRigOptions RigFor(const ParamValues& p, uint64_t value_bytes) {
  KvRigOptions o;
  o.nodes = static_cast<int>(p.Int("nodes"));
  o.dataset_gb = p.Real("dataset_gb");
  o.scale_div = static_cast<int>(p.Int("scale_div"));
  o.value_bytes = value_bytes;
  return o;
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  SweepProgress sweep(&ctx, 10);
  const sim::SimDuration d = static_cast<sim::SimDuration>(p.Real("duration_s") * 1e9);
  const int per_node = static_cast<int>(p.Int("clients_per_node"));
  Result res;
  res.scale_factor = static_cast<double>(p.Int("scale_div"));
  res.scale_note = "the dataset, each node's DRAM and its card at 1/" + std::to_string(p.Int("scale_div")) +
                   "; rates and watts are unchanged by the scale";
  Series power{"cluster power (256 B values)", "measured", "time (s)", "power (W)", {}};

  // 256 B: idle, gets at the maximum rate, puts at that rate.
  auto small = KvRig::Create(RigFor(p, 256), sweep.Step(3));
  if (!small.ok()) return small.status();
  sweep.Done();
  KvRig& r = *small.value();
  sim::Rng rng = sim::Rng::ForStream(ctx.seed(), 11);
  const Phase idle = Window(r, d, &power, 0);
  r.ClosedLoopPerNode(per_node, &rng);
  r.Run(500 * sim::kMs);  // warm up: queues fill, the page cache settles
  const Phase gets = Window(r, d, &power, sim::NsToSec(d));
  r.Stop();
  r.Run(200 * sim::kMs);
  // Puts insert new keys: appends only, "log-structured bulk writes" (Fig 12's footnote 4). A put
  // over an existing key would also read the old record for FAWN-DS's key check (SOSP'09 §3.3.1),
  // a flash read on a cache miss: then puts cost the card what gets do and the two levels merge.
  r.OpenLoop(gets.rate, &rng, true, 0, p.Bool("fresh_puts"));
  r.Run(200 * sim::kMs);
  const Phase puts = Window(r, d, &power, 2 * sim::NsToSec(d));
  r.Stop();
  sweep.Step(2)(1);
  sweep.Done();

  // 1 KB: gets at the maximum rate.
  auto big = KvRig::Create(RigFor(p, 1024), sweep.Step(3));
  if (!big.ok()) return big.status();
  sweep.Done();
  sim::Rng rng1 = sim::Rng::ForStream(ctx.seed(), 12);
  big.value()->ClosedLoopPerNode(per_node, &rng1);
  big.value()->Run(500 * sim::kMs);
  const Phase gets1k = Window(*big.value(), d, nullptr, 0);

  // One node, 512 MB of 256 B values, over the network.
  KvRigOptions one = RigFor(p, 256);
  one.nodes = 1;
  one.dataset_gb = 0.5;
  auto single = KvRig::Create(one, sweep.Step(2));
  if (!single.ok()) return single.status();
  sweep.Done();
  sim::Rng rng2 = sim::Rng::ForStream(ctx.seed(), 13);
  single.value()->ClosedLoopPerNode(per_node, &rng2);
  single.value()->Run(500 * sim::kMs);
  const Phase solo = Window(*single.value(), d, nullptr, 0);

  const double nodes = static_cast<double>(p.Int("nodes"));
  // SOSP'09 §4.2: the 27 W front-end serves about 80 back-ends, "nearly 0.5 W per node".
  const double fe_share_w = 27.0 / 80.0 * nodes;
  res.AddMetric("gets_per_s_256b", gets.rate);
  res.AddMetric("gets_per_s_1kb", gets1k.rate);
  res.AddMetric("per_node_gets_256b", gets.rate / nodes);
  res.AddMetric("per_node_gets_1kb", gets1k.rate / nodes);
  res.AddMetric("single_node_gets_512mb", solo.rate);
  res.AddMetric("busiest_node_share", *std::max_element(gets.per_node.begin(), gets.per_node.end()) / (gets.rate / nodes));
  res.AddMetric("idle_w", idle.watts);
  res.AddMetric("gets_w", gets.watts);
  res.AddMetric("puts_w", puts.watts);
  res.AddMetric("puts_per_s", puts.rate);
  res.AddMetric("switches", r.cluster->switches());
  res.AddMetric("queries_per_joule", gets.rate / gets.watts);
  res.AddMetric("queries_per_joule_with_frontend", gets.rate / (gets.watts + fe_share_w));
  res.AddMetric("median_get_ms", gets.rate > 0 ? r.counts().latency_ns.Quantile(0.5) / 1e6 : 0);
  // SOSP'09 §4.2, Figures 11 and 12.
  const std::string fig11 = "SOSP'09 §4.2, Fig 11";
  const std::string fig12 = "SOSP'09 §4.2, Fig 12";
  res.AddAnchor("gets_per_s_256b", 36000, {true, 0.15},
                Emergent(fig11, "each node's flash-bound rate (fawnds.table2's model) through the request handling fitted to the "
                                "one-node 1,850/s; nothing was fitted to the cluster's rate",
                         "the cluster inherits the node's flash-bound rate at ~1 GB per node, which fawnds.table2 already puts "
                         "18% under Table 2 (1,605 vs 1,964/s); the paper's own numbers imply 1,700/s per node over the network "
                         "against 1,964 locally, a larger loss than the request handling the one-node 1,850/s allows"));
  res.AddAnchor("gets_per_s_1kb", 24000, {true, 0.15},
                Emergent(fig11, "as the 256 B rate, with 1 KB values",
                         "the paper's 1 KB cluster loses 28% against its local 1 KB rate (Table 2), the lab ~13%: closing it would "
                         "take ~250 ns per byte of marshalling on the Geode, which no mechanism we can name explains; not fitted"));
  res.AddAnchor("single_node_gets_512mb", 1850, {true, 0.15},
                Fitted("SOSP'09 §4.2: one node, 512 MB, over the network",
                       "the back-end's request handling (60 µs + 40 ns per byte) was fitted so that this comes out (the lab: ~1,770)"));
  res.AddAnchor("idle_w", 83, {true, 0.15},
                Fitted(fig12, "3 W per idle Alix and 10 W per switch are the paper's own figures (§4): 21 × 3 + 2 × 10 = 83 by "
                              "construction"));
  res.AddAnchor("gets_w", 99, {true, 0.15},
                Emergent(fig12, "idle power plus each component's extra draw for the time it is busy (CPU 1.3 W, card 0.4 W, "
                                "network 0.3 W: estimates, not fits)",
                         "the lab's nodes are flash-bound: the Geode is busy only ~15% of the time at ~1,430 gets/s per node, "
                         "so its 1.3 W adds little; the paper's 16 W above idle means ~0.75 W per node, which the component "
                         "estimates do not reach without a fit"));
  res.AddAnchor("puts_w", 91, {true, 0.15},
                Emergent(fig12, "puts of new keys offered at the measured get rate (the paper gives no put rate): appends "
                                "through the write-back page cache, so the card is busy less than for gets (footnote 4)",
                         "puts are offered at the lab's get rate, which is below the paper's"));
  res.AddAnchor("queries_per_joule", 364, {true, 0.15},
                Emergent("SOSP'09 §4.2: 36,000 / 99 W", "the measured get rate over the measured get power"));
  res.AddAnchor("queries_per_joule_with_frontend", 330, {true, 0.15},
                Emergent("SOSP'09 §4.2: with the front-end's share", "as queries_per_joule, with 27 W / 80 back-ends per node"));

  Series by_node{"gets per second by back-end (256 B)", "measured", "back-end", "gets per second", {}};
  for (size_t i = 0; i < gets.per_node.size(); ++i) by_node.points.emplace_back(static_cast<double>(i), gets.per_node[i]);
  // Fig 12's three levels, one point in the middle of each phase (the paper's phases were longer).
  const double ds = sim::NsToSec(d);
  Series paper_power{"SOSP'09 Fig 12: 83 / 99 / 91 W", "paper", "time (s)", "power (W)",
                     {{0.5 * ds, 83}, {1.5 * ds, 99}, {2.5 * ds, 91}}};
  res.series.push_back(power);
  res.series.push_back(paper_power);
  res.series.push_back(by_node);
  res.notes.push_back("Power on the time axis: idle 0–" + FormatNumber(sim::NsToSec(d)) + " s, gets at the maximum rate until " +
                      FormatNumber(2 * sim::NsToSec(d)) + " s, then puts of new keys offered at that rate: three levels, as SOSP'09 Fig 12's 83 / 99 / 91 W (drawn beside them). "
                      "Gets cost more than puts because each get that misses the page cache reads the card, while puts are "
                      "appends the write-back cache gathers (Fig 12's footnote 4). With fresh_puts=false the puts overwrite "
                      "existing keys, FAWN-DS reads each old record to check its key, and the two loaded levels merge.");
  res.notes.push_back("Each back-end draws 3 W idle plus, while busy, 1.3 W for its CPU, the CF card's 0.4 W and 0.3 W for its "
                      "network interface; " + std::to_string(r.cluster->switches()) + " switches draw 10 W each (docs/decisions.md).");
  res.notes.push_back("The front-end's share for queries_per_joule_with_frontend: 27 W over 80 back-ends per front-end (SOSP'09 §4.2), " +
                      FormatNumber(fe_share_w) + " W for this cluster.");
  return res;
}

}  // namespace

Experiment MakeFawnkvCluster() {
  Experiment e;
  e.info.id = "fawnkv.cluster";
  e.info.lab = "fawnkv";
  e.info.title = "The 21-node cluster: gets per second and watts (Figs 11, 12)";
  e.info.summary =
      "Twenty-one wimpy back-ends hold the dataset; the front-end asks for random keys as fast as they answer, with "
      "256 B and 1 KB values, while a meter reads the cluster's watts idle, during gets and during puts.";
  e.info.reference = "FAWN SOSP'09 §4.2, Figs 11–12";
  e.info.params = {
      ParamSpec::Int("nodes", 21, 1, 64, "back-ends", "Back-ends in the cluster (the paper: 21)."),
      ParamSpec::Real("dataset_gb", 20, 0.1, 200, "GB", "Values in the cluster at the paper's scale (the paper: 20 GB)."),
      ParamSpec::Int("scale_div", 128, 16, 1024, "×", "Divide the dataset, DRAM and cards by this factor."),
      ParamSpec::Real("duration_s", 2, 0.2, 60, "s", "Virtual seconds measured in each phase."),
      ParamSpec::Int("clients_per_node", 8, 1, 64, "requests", "Gets the front-end keeps outstanding, per back-end."),
      ParamSpec::Bool("fresh_puts", true, "The power figure's puts insert new keys (true) or overwrite random existing ones, "
                                          "which makes FAWN-DS read each old record to check its key (false)."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
