#include "bench/soak_bench.h"

#include <chrono>
#include <string>

#include "fawnds/reliability.h"

namespace fawnlab::bench {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

BenchFigure SoakCrashPoints(uint64_t crash_points, uint64_t seed) {
  fawnds::reliability::CrashOptions o;
  o.seed = seed;
  o.crash_points = crash_points;
  const double t0 = Now();
  const fawnds::reliability::CrashReport r = fawnds::reliability::RunCrashPoints(o);
  const double dt = Now() - t0;
  std::string note = "seed " + std::to_string(seed) + "; " + std::to_string(r.runs) + " runs, " +
                     std::to_string(r.ops) + " ops, " + std::to_string(r.keys_checked) + " keys checked, " +
                     std::to_string(r.maintenance_started) + " maintenance ops; crashes during";
  for (const auto& [phase, n] : r.by_phase) note += " " + phase + " " + std::to_string(n) + ",";
  note.pop_back();
  if (!r.first_failure.empty()) note += "; first failure: " + r.first_failure;
  BenchFigure f{"soak.crash_points", static_cast<double>(r.crash_points), "crash points", dt, r.keys_checked};
  f.failures = r.failures;
  f.note = note;
  return f;
}

BenchFigure SoakModel(uint64_t ops, uint64_t seed) {
  fawnds::reliability::ModelOptions o;
  o.seed = seed;
  o.ops = ops;
  o.restart_every = 100000;
  const double t0 = Now();
  const fawnds::reliability::ModelReport r = fawnds::reliability::RunMaintenanceModel(o);
  const double dt = Now() - t0;
  std::string note = "seed " + std::to_string(seed) + "; " + std::to_string(r.gets_checked) + " gets checked, " +
                     std::to_string(r.compactions) + " compactions, " + std::to_string(r.splits) + " splits, " +
                     std::to_string(r.merges) + " merges, " + std::to_string(r.restarts) + " restarts; " +
                     std::to_string(r.index_entries) + " keys indexed, " + std::to_string(r.model_keys) + " in the model";
  if (!r.first_failure.empty()) note += "; first failure: " + r.first_failure;
  BenchFigure f{"soak.model_ops", static_cast<double>(r.ops), "ops", dt, r.gets_checked};
  // Mismatched reads, a refused operation or failed restart, and the final index-vs-model count.
  f.failures = r.mismatches + (r.mismatches == 0 && !r.first_failure.empty() ? 1 : 0) +
               (r.index_entries != r.model_keys ? 1 : 0);
  f.note = note;
  return f;
}

}  // namespace fawnlab::bench
