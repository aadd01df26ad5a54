// vector.latency-width (thesis Fig 7.7): latency of one command against vector width, alone
// and with T threads sharing the NVM's four DMA channels and 8 host cores.
//
// T threads each issue a vector of w random 512 B reads, wait for its one completion, spend the
// host's per-completion cost on a core (interrupt, wake-up, resubmission) and issue again
// (devicelab/nvm_threads.h). At T = 1 the latency is the device's command + w entries; with more
// threads commands queue on the channels and latency grows with load.
#include <string>
#include <vector>

#include "device/profiles.h"
#include "devicelab/nvm_threads.h"
#include "registry/experiments.h"
#include "registry/sweep.h"

namespace fawnlab {
namespace {

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const double host_us = p.Real("host_us");
  const int cores = static_cast<int>(p.Int("cores"));
  const uint64_t ops = static_cast<uint64_t>(p.Int("ops_per_point"));
  const device::NvmConfig cfg = device::FindNvmProfile("nvm-4ch")->config;
  const std::vector<int> widths = {1, 2, 4, 8, 16, 32};
  const std::vector<int> threads = {1, 8, 32, 64};
  SweepProgress sweep(&ctx, static_cast<double>(widths.size() * threads.size()));
  Result r;
  r.scale_note = "no scaling: the emulator's own parameters";
  for (int t : threads) {
    Series s{std::to_string(t) + (t == 1 ? " thread" : " threads"), "measured", "vector width w (I/Os per command)",
             "latency per command (µs)", {}};
    for (int w : widths) {
      nvmlab::Point pt = nvmlab::RunThreads(cfg, t, w, cores, host_us, ops, ctx.seed());
      s.points.emplace_back(w, pt.mean_latency_us);
      if (t == 1 && w == 1) r.AddMetric("lat_w1_us", pt.mean_latency_us);
      if (t == 1 && w == 32) r.AddMetric("lat_w32_us", pt.mean_latency_us);
      if (t == 64 && w == 32) r.AddMetric("lat_w32_t64_us", pt.mean_latency_us);
      if (!sweep.Step(1)(1.0)) return Status::Cancelled("cancelled");
      sweep.Done();
    }
    r.series.push_back(s);
  }
  r.AddMetric("lat_ratio", r.Metric("lat_w32_us") / r.Metric("lat_w1_us"));
  Series paper{"paper: ~10 µs single, ~80 µs at w = 32", "paper", "vector width w (I/Os per command)",
               "latency per command (µs)", {{1, 10}, {32, 80}}};
  r.series.push_back(paper);
  const std::string fit =
      "the NVM profile's 7.7 µs per command and 2.26 µs per entry are the straight line through Fig 7.7's two points";
  r.AddAnchor("lat_w1_us", 10, {true, 0.10}, Fitted("vector thesis Fig 7.7: ~10 µs single retrieval", fit));
  r.AddAnchor("lat_w32_us", 80, {true, 0.10}, Fitted("vector thesis Fig 7.7: ~80 µs at width 32", fit));
  r.AddAnchor("lat_ratio", 8, {true, 0.10}, Fitted("vector thesis §7.3: 8× the latency for 32× the width", fit));
  r.notes.push_back(device::FindNvmProfile("nvm-4ch")->source);
  return r;
}

}  // namespace

Experiment MakeVectorLatencyWidth() {
  Experiment e;
  e.info.id = "vector.latency-width";
  e.info.lab = "vector";
  e.info.title = "Latency against vector width";
  e.info.summary =
      "One command of w 512 B reads on the NVM takes a fixed 7.7 µs plus 2.26 µs per entry: 10 µs alone, 80 µs at "
      "w = 32, 8× the latency for 32× the work. With many threads the commands queue on four DMA channels.";
  e.info.reference = "Vector thesis §7.3, Fig 7.7 (SoCC'12 §4.1)";
  e.info.params = {
      ParamSpec::Real("host_us", 8, 0, 100, "µs", "Host CPU time per completion (about 8 core-µs, §7.3)."),
      ParamSpec::Int("cores", 8, 1, 64, "cores", "Host cores handling completions."),
      ParamSpec::Int("ops_per_point", 20000, 1000, 1000000, "I/Os", "I/Os completed per point."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
