// vector.combined: matched widths G = R, direct pattern (thesis Figs 7.11 and 7.2, SoCC'12
// Figs 11 and 3). The handler issues its own multiread of the RPC's G keys: one RPC, one
// command, one interrupt, one burst for G keys, so the per-RPC and the per-I/O costs shrink
// together and throughput climbs from ~112K to ~1.6M lookups/s at a median under 1 ms, ~90%
// of what the device alone delivers. The device-alone figure is measured too: 4 streams
// keeping the NVM device's 4 DMA channels busy with 32-entry vectors.
#include <memory>
#include <string>

#include "device/nvm.h"
#include "registry/experiments.h"
#include "registry/sweep.h"
#include "sim/simulator.h"
#include "vecio/experiments/net_common.h"

namespace fawnlab {
namespace {

// The NVM device alone: `streams` submitters (stream s on channel s mod 4), each keeping one
// 32-entry read vector in flight for `ms` of virtual time; entries completed per second.
double DevicePeak(int streams, double ms) {
  sim::Simulator sim;
  device::NvmDevice dev(&sim, "nvm-emulator", device::NvmConfig{});
  std::vector<uint8_t> buf(32 * 512);
  uint64_t entries = 0;
  const sim::SimTime end = sim::UsToNs(ms * 1000);
  std::function<void(int)> issue = [&](int s) {
    device::IoCommand cmd;
    cmd.stream = s;
    for (int k = 0; k < 32; ++k) cmd.entries.push_back(device::IoEntry::Read(uint64_t(k) * 512, 512, buf.data() + k * 512));
    (void)dev.Submit(cmd, [&, s](const device::IoCompletion& io) {
      if (io.completed > end) return;
      entries += 32;
      issue(s);
    });
  };
  for (int s = 0; s < streams; ++s) issue(s);
  sim.Run(10'000'000);
  return static_cast<double>(entries) / (ms / 1000.0);
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const std::vector<int> widths = PowersOfTwo(static_cast<int>(p.Int("max_width")));
  SweepProgress sweep(&ctx, 16.0 * static_cast<double>(widths.size()));
  Result r;
  Series peaks{"rule throughput vs G = R", "measured", "width G = R", vecio::kThroughputLabel, {}};
  double g1_peak = 0, top_peak = 0;
  int top = 0;
  for (int w : widths) {
    vecio::SystemConfig c = vecio::NetBaseConfig(p);
    c.multiget = w;
    c.multiread = w;
    auto curve = vecio::RunCurve(c, vecio::CurveSpec{}, p, ctx.seed(), &sweep);
    if (!curve.ok()) return curve.status();
    const vecio::Curve& cv = curve.value();
    vecio::AddCurveSeries(&r, "G=R=" + std::to_string(w), cv, false);
    const double peak = cv.has_best ? cv.best.throughput_per_s : 0;
    peaks.points.emplace_back(w, peak);
    if (w == 1) g1_peak = peak;
    top_peak = peak;
    top = w;
    if (w == 32 && !cv.points.empty()) {
      r.AddMetric("g32_low_p50_us", cv.points.front().p50_us);
      r.AddMetric("g32_p50_at_peak_us", cv.has_best ? cv.best.p50_us : 0);
      if (cv.has_best) {
        double cores = 0;
        for (double v : cv.best.core_us_per_key) cores += v;
        r.AddMetric("g32_core_us_per_key", cores);
      }
    }
  }
  r.series.push_back(peaks);
  const double device_peak = DevicePeak(8, 2);  // two vectors per channel: no idle gap between commands
  const std::string tag = "g" + std::to_string(top) + "_peak";
  if (top != 32) r.AddMetric(tag, top_peak);
  if (top == 32) r.AddMetric("g32_peak", top_peak);
  r.AddMetric("g1_peak", g1_peak);
  r.AddMetric("headline_ratio", g1_peak > 0 ? top_peak / g1_peak : 0);
  r.AddMetric("device_peak", device_peak);
  r.AddMetric("device_share", device_peak > 0 ? top_peak / device_peak : 0);
  // Fig 7.2's three bars as three one-point series (a dot each, its own colour and legend
  // entry), so the chart does not join three different systems into one line.
  const std::string sys_x = "system (0 device alone, 1 FAWN-KV G=R=1, 2 vector FAWN-KV)";
  const std::string widest = "vector FAWN-KV G=R=" + std::to_string(top) + " (Fig 7.2)";
  r.series.push_back(Series{"NVM device alone (Fig 7.2)", "measured", sys_x, vecio::kThroughputLabel, {{0, device_peak}}});
  r.series.push_back(Series{"FAWN-KV G=R=1 (Fig 7.2)", "measured", sys_x, vecio::kThroughputLabel, {{1, g1_peak}}});
  r.series.push_back(Series{widest, "measured", sys_x, vecio::kThroughputLabel, {{2, top_peak}}});
  vecio::AddPaperSeries(&r, "paper: Fig 7.2 (1.8M device, 112K, 1.6M)", sys_x, vecio::kThroughputLabel,
                        {{0, 1.8e6}, {1, 112000}, {2, 1.6e6}});
  vecio::AddPaperSeries(&r, "paper: G=R=32 (1.6M at p50 < 1 ms)", vecio::kThroughputLabel, vecio::kLatencyLabel, {{1.6e6, 1000}});
  const bool paper_setting = p.Choice("host") == "xeon-x5570" && p.Int("clients") == 25 && top == 32;
  if (paper_setting) {
    r.AddAnchor("g32_peak", 1.6e6, Tolerance{true, 0.12},
                Emergent("thesis Fig 7.11 / SoCC'12 Fig 11 (1.6M at median < 1 ms)",
                         "per-key lookup cost plus per-RPC and per-command costs over 32 keys, and the device's four "
                         "channels; the constants were fitted to the G=1, G=16, R=8 and queue points, not to this",
                         "the lab's knee is sharper than the paper's: it holds the rule up to where the device "
                         "channels saturate (~1.7M)"));
    r.AddAnchor("headline_ratio", 14, Tolerance{true, 0.15},
                Emergent("SoCC'12 abstract / thesis §7.4.3 (112K → 1.6M: 14×)",
                         "the ratio of the two measured rule throughputs (G=1 is fitted, G=R=32 is not)"));
    r.AddAnchor("device_share", 0.9, Tolerance{true, 0.10},
                Emergent("SoCC'12 §5.3 / thesis §7.4.3 (roughly 90% of the device's 1.8M)",
                         "the network throughput over the device-alone throughput, both measured"));
    r.AddAnchor("device_peak", 1.8e6, Tolerance{true, 0.05},
                Fitted("thesis Fig 7.2 / §7.3 (1.8M IOPS device peak)",
                       "NvmDevice's per-entry time (2.26 µs, 4 channels) was fitted to Fig 7.7 and the 1.8M peak"));
  }
  vecio::AddNetNotes(&r, p);
  return r;
}

}  // namespace

Experiment MakeVectorCombined() {
  Experiment e;
  e.info.id = "vector.combined";
  e.info.lab = "vector";
  e.info.title = "Multiget × multiread, G = R: 112K → 1.6M (Figs 7.11, 7.2)";
  e.info.summary =
      "Matched widths, direct pattern: the RPC handler issues one multiread for its G keys, so every per-RPC and every "
      "per-I/O cost is paid once per G keys. Throughput climbs ~14× to about 90% of the device's 1.8M at a median "
      "under 1 ms, with the low-load latency of multiget alone: the price of batching, once paid, is paid for both.";
  e.info.reference = "Vasudevan thesis §7.4.3, Figs 7.11, 7.2; SoCC'12 §5.3, Figs 11, 3";
  e.info.params = vecio::NetCommonParams();
  e.info.params.insert(e.info.params.begin(),
                       ParamSpec::Int("max_width", 32, 1, 256, "keys", "Widest G = R (powers of two up to it)."));
  e.run = Run;
  return e;
}

}  // namespace fawnlab
