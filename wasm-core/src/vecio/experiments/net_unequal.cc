// vector.unequal: unequal widths (thesis Fig 7.13; panel (e) is G = 32). G is held fixed and R
// varies: R < G issues ⌈G/R⌉ commands per RPC, each waiting for the last (one interrupt and
// wake-up each), so at low load a low R nearly doubles the median at G = 32; R > G must go
// through the intermediate queue, which erodes the benefit. Match R = G.
#include <string>

#include "registry/experiments.h"
#include "registry/sweep.h"
#include "vecio/experiments/net_common.h"

namespace fawnlab {
namespace {

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const int g = static_cast<int>(p.Int("multiget"));
  const std::vector<int> widths = PowersOfTwo(static_cast<int>(p.Int("max_multiread")));
  SweepProgress sweep(&ctx, 16.0 * static_cast<double>(widths.size()));
  Result r;
  auto lows = vecio::RunRSweep(g, widths, "G=" + std::to_string(g) + " ", p, ctx.seed(), &sweep, &r);
  if (!lows.ok()) return lows.status();
  double low_r1 = 0, low_rg = 0;
  for (size_t i = 0; i < widths.size(); ++i) {
    if (widths[i] == 1) low_r1 = lows.value()[i];
    if (widths[i] == g) low_rg = lows.value()[i];
  }
  const std::string ratio = "g" + std::to_string(g) + "_low_r_p50_ratio";
  r.AddMetric(ratio, low_rg > 0 ? low_r1 / low_rg : 0);
  if (g == 32 && p.Choice("host") == "xeon-x5570" && p.Int("clients") == 25 && widths.back() >= 32) {
    r.AddAnchor(ratio, 2, Tolerance{true, 0.15},
                Emergent("thesis Fig 7.13(e) / SoCC'12 §5.3.2 (R = 1 'nearly doubles' the low-load median at G = 32)",
                         "32 serial commands (device, interrupt, wake-up each) against one 32-entry command; the "
                         "per-command costs were fitted to throughputs, not to this latency"));
  }
  vecio::AddNetNotes(&r, p);
  r.notes.push_back("The ratio compares the lowest-load medians of R = 1 and R = G. Panels (a)-(d) of Fig 7.13 do not say "
                    "their G (digest §7 gap 2): set multiget to draw any panel.");
  return r;
}

}  // namespace

Experiment MakeVectorUnequal() {
  Experiment e;
  e.info.id = "vector.unequal";
  e.info.lab = "vector";
  e.info.title = "Unequal widths: fixed G, varying R (Fig 7.13)";
  e.info.summary =
      "Multiget width G held fixed while the multiread width R varies. Below G, the RPC's keys are read ⌈G/R⌉ commands in "
      "turn, so at G = 32 a low R nearly doubles the low-load median; above G, keys must wait in the intermediate queue. "
      "At high G, match R to G.";
  e.info.reference = "Vasudevan thesis §7.4.3, Fig 7.13; SoCC'12 §5.3.2";
  e.info.params = vecio::NetCommonParams(2);  // its anchor is a latency ratio: coarser peaks keep it fast
  e.info.params.insert(e.info.params.begin(),
                       {ParamSpec::Int("multiget", 32, 1, 256, "keys", "Multiget width G of every RPC (panel (e): 32)."),
                        ParamSpec::Int("max_multiread", 64, 1, 256, "keys", "Widest multiread R (powers of two up to it)."),
                        ParamSpec::Real("queue_timeout_us", 0, 0, 100000, "µs", "Intermediate-queue timeout when R > G (0: none)."),
                        ParamSpec::Real("low_load_per_s", 50000, 1000, 1e6, "lookups/s", "The lowest offered load of each curve (the low-load medians).")});
  e.run = Run;
  return e;
}

}  // namespace fawnlab
