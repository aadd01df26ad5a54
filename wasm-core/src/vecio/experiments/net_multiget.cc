// vector.multiget: networked FAWN-KV with multiget width G (thesis Figs 7.8/7.9, SoCC'12 Fig 9).
// For each G (powers of two up to max_multiget; R fixed, so G > R issues ⌈G/R⌉ commands per
// RPC in turn), the median and 99th-percentile latency against throughput as the offered load
// rises, and the reporting rule's throughput. Multiget amortises the per-RPC costs (packets,
// interrupts, system calls, Thrift) over G keys, but each key still pays its own device
// command, interrupt and wake-up: ~2× alone (§7.4.3).
#include <cmath>
#include <string>

#include "registry/experiments.h"
#include "registry/sweep.h"
#include "vecio/experiments/net_common.h"

namespace fawnlab {
namespace {

using vecio::Curve;
using vecio::CurveSpec;

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const int r_width = static_cast<int>(p.Int("multiread"));
  const std::vector<int> widths = PowersOfTwo(static_cast<int>(p.Int("max_multiget")));
  SweepProgress sweep(&ctx, 16.0 * static_cast<double>(widths.size()));
  Result r;
  Series peaks{"rule throughput vs G", "measured", "multiget width G", vecio::kThroughputLabel, {}};
  double g1_peak = 0;
  for (int g : widths) {
    vecio::SystemConfig c = vecio::NetBaseConfig(p);
    c.multiget = g;
    c.multiread = r_width;
    auto curve = vecio::RunCurve(c, CurveSpec{}, p, ctx.seed(), &sweep);
    if (!curve.ok()) return curve.status();
    const Curve& cv = curve.value();
    vecio::AddCurveSeries(&r, "G=" + std::to_string(g), cv);
    const double peak = cv.has_best ? cv.best.throughput_per_s : 0;
    peaks.points.emplace_back(g, peak);
    const std::string tag = "g" + std::to_string(g);
    if (g == 1 || g == 4 || g == 16 || g == widths.back()) r.AddMetric(tag + "_peak", peak);
    if (g == 1 && !cv.points.empty()) {
      g1_peak = peak;
      const vecio::PointResult& low = cv.points.front();
      r.AddMetric("g1_low_p50_us", low.p50_us);
      r.AddMetric("g1_low_p99_us", low.p99_us);
      r.AddMetric("p99_ratio_low", low.p50_us > 0 ? low.p99_us / low.p50_us : 0);
      // Below the knee: the highest point at no more than 80% of the rule's load.
      double ratio = 0;
      for (const vecio::PointResult& pt : cv.points) {
        if (cv.has_best && pt.offered_per_s <= 0.8 * cv.best.offered_per_s && pt.p50_us > 0) ratio = pt.p99_us / pt.p50_us;
      }
      r.AddMetric("p99_ratio_high", ratio);
      r.AddMetric("g1_p50_at_peak_us", cv.has_best ? cv.best.p50_us : 0);
    }
    if (g == 4) {
      for (const vecio::PointResult& pt : cv.points) {
        if (std::fabs(pt.offered_per_s - 50000) < 1) r.AddMetric("g4_p50_at_50k_us", pt.p50_us);
      }
    }
  }
  r.series.push_back(peaks);
  if (g1_peak > 0 && peaks.points.size() > 1) r.AddMetric("best_gain_over_g1", [&] {
    double best = 0;
    for (const auto& pt : peaks.points) best = std::max(best, pt.second);
    return best / g1_peak;
  }());
  vecio::AddPaperSeries(&r, "paper: G=1 (112K at p50 500 µs)", vecio::kThroughputLabel, vecio::kLatencyLabel, {{112000, 500}});
  vecio::AddPaperSeries(&r, "paper: G=4 (300 µs at 50K; ~212K at 340 µs)", vecio::kThroughputLabel, vecio::kLatencyLabel,
                        {{50000, 300}, {212000, 340}});
  vecio::AddPaperSeries(&r, "paper: rule throughput vs G", "multiget width G", vecio::kThroughputLabel,
                        {{1, 112000}, {4, 212000}, {16, 370000}});
  if (r_width == 1 && p.Choice("host") == "xeon-x5570" && p.Int("clients") == 25) {
    const Tolerance ten{true, 0.10}, fifteen{true, 0.15}, twenty{true, 0.20};
    r.AddAnchor("g1_low_p50_us", 220, ten,
                Fitted("thesis Fig 7.8 / SoCC'12 Fig 9 (220 µs at low load)",
                       "the Atom client's own stack time (client_ns) was fitted so the G=1 low-load median is 220 µs; "
                       "the base RTT (100 µs, SoCC'12 §5.1) and the server's path are separate"));
    r.AddAnchor("g1_peak", 112000, ten,
                Fitted("thesis Fig 7.8 / Fig 7.2 / SoCC'12 Fig 3 (112K lookups/s)",
                       "the per-RPC costs (NIC interrupt, TCP per packet, syscall, Thrift) were fitted so G=1 R=1 "
                       "saturates the 8 cores near 112K"));
    if (widths.size() > 2) {
      r.AddAnchor("g4_p50_at_50k_us", 300, fifteen,
                  Emergent("thesis Fig 7.8 (G=4: 300 µs at 50K lookups/s)",
                           "four serial device commands per RPC on top of the G=1 path; nothing fitted to it"));
      r.AddAnchor("g4_peak", 212000, twenty,
                  Emergent("thesis Fig 7.8 (~212K at 340 µs; SoCC'12: ~210K)",
                           "per-RPC costs amortised over 4 keys while each key keeps its own command",
                           "with one linear cost per event, 112K at G=1 and 370K at G=16 imply ~250K at G=4 "
                           "(digest §5.4 finds the same: 230K); the paper's G=4 point lies below that line"));
    }
    if (widths.size() > 4) {
      r.AddAnchor("g16_peak", 370000, ten,
                  Fitted("thesis Fig 7.8 / SoCC'12 §5.3 (370K at G=16)",
                         "the per-command costs (submit, storage interrupt, wake-up) were fitted so G=16 reaches "
                         "~370K under the rule"));
    }
    r.AddAnchor("p99_ratio_low", 1.2, fifteen,
                Emergent("thesis Fig 7.9 (p99 ~20% above the median at low load)",
                         "Poisson arrivals queueing on the cores and the device channels"));
    r.AddAnchor("p99_ratio_high", 1.6, Tolerance{false, 0.45},
                Emergent("thesis Fig 7.9 (p99 at most ~2× the median at high load below the knee)",
                         "the same queueing at 80% of the rule's load"));
  }
  vecio::AddNetNotes(&r, p);
  r.notes.push_back("The R it runs with: " + std::to_string(r_width) +
                    " (the figure's multiget-alone curves use R = 1: ⌈G/R⌉ commands per RPC, each waiting for the last).");
  return r;
}

}  // namespace

Experiment MakeVectorMultiget() {
  Experiment e;
  e.info.id = "vector.multiget";
  e.info.lab = "vector";
  e.info.title = "Multiget width G: latency vs throughput (Figs 7.8/7.9)";
  e.info.summary =
      "One FAWN-KV back-end serving 25 open-loop clients over 1 GbE, each RPC carrying G keys. Wider multigets share "
      "the per-RPC network and RPC costs, so throughput climbs from ~112K to ~370K, but each key still costs its own "
      "device command and interrupt, and G serial commands add latency.";
  e.info.reference = "Vasudevan thesis §7.4.2, Figs 7.8/7.9; SoCC'12 §5.3, Fig 9";
  e.info.params = vecio::NetCommonParams();
  e.info.params.insert(e.info.params.begin(),
                       {ParamSpec::Int("max_multiget", 32, 1, 256, "keys", "Widest multiget G (powers of two up to it)."),
                        ParamSpec::Int("multiread", 1, 1, 256, "keys", "Multiread width R held fixed (paper: 1).")});
  e.run = Run;
  return e;
}

}  // namespace fawnlab
