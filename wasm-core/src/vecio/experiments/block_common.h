// Shared by the Ch. 6 block experiments: the run-window parameters, one fio run with progress
// and cancellation, and the paper-vs-lab series helper. Header-only, experiments only.
#ifndef FAWNLAB_VECIO_EXPERIMENTS_BLOCK_COMMON_H_
#define FAWNLAB_VECIO_EXPERIMENTS_BLOCK_COMMON_H_

#include <string>
#include <utility>
#include <vector>

#include "registry/experiments.h"
#include "vecio/block/fio_run.h"

namespace fawnlab::vecio::block {

inline std::vector<ParamSpec> WindowParams() {
  return {ParamSpec::Int("warmup_ms", 20, 1, 1000, "ms", "virtual time before measuring (fio ramps up)"),
          ParamSpec::Int("measure_ms", 300, 10, 5000, "ms", "measured virtual time per fio run (the thesis ran ≥ 30 s)")};
}

// Runs `c` over the params' window; progress is one step of `of` runs.
inline StatusOr<FioResult> RunStep(const BlockConfig& c, const ParamValues& p, RunContext& ctx, int step, int of) {
  if (!ctx.Progress(static_cast<double>(step) / of)) return Status::Cancelled("cancelled");
  return RunFio(c, p.Int("warmup_ms") * sim::kMs, p.Int("measure_ms") * sim::kMs, ctx.seed());
}

inline BlockConfig Stock(const std::string& host) {
  BlockConfig c;
  c.host = host;
  return c;
}

inline Series PaperSeries(std::string name, std::string x, std::string y, std::vector<std::pair<double, double>> pts) {
  return Series{std::move(name), "paper", std::move(x), std::move(y), std::move(pts)};
}

}  // namespace fawnlab::vecio::block

#endif  // FAWNLAB_VECIO_EXPERIMENTS_BLOCK_COMMON_H_
