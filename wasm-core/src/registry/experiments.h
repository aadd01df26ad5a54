// The experiment registry: every experiment the lab can run, by id.
//
// It is the single source for the web lab (in a Worker), the CLI (`npm run repro`) and the
// tests. An experiment declares its schema and anchor tolerances in ExperimentInfo and
// implements Run(params, context); the registry validates parameters, seeds, runs, and
// serialises. Adding an experiment: write it as src/<system>/experiments/<name>.cc (it wraps
// the system's model in src/<system>/), add its Make function to that folder's register.cc,
// and, for a new lab, list the lab's Register function in registry/experiments.cc.
//
// Runs are deterministic: the same id, parameters and seed give byte-identical JSON in every
// build. Every run is bounded by its parameters' ranges.
#ifndef FAWNLAB_REGISTRY_EXPERIMENTS_H_
#define FAWNLAB_REGISTRY_EXPERIMENTS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/params.h"
#include "registry/result.h"

namespace fawnlab {

// Largest accepted seed: 2^53 - 1, so that a seed survives a round trip through JavaScript.
constexpr uint64_t kMaxSeed = (uint64_t{1} << 53) - 1;

// What a running experiment can ask of its caller.
class RunContext {
 public:
  // `progress` receives fractions in [0, 1]; returning false asks the run to stop.
  RunContext(uint64_t seed, std::function<bool(double)> progress);
  uint64_t seed() const { return seed_; }
  // Reports progress (throttled to steps of 1%). Returns false when the caller cancelled;
  // the experiment should then return Status::Cancelled.
  bool Progress(double fraction);
  bool cancelled() const { return cancelled_; }

 private:
  uint64_t seed_;
  std::function<bool(double)> progress_;
  double last_reported_ = -1;
  bool cancelled_ = false;
};

struct ExperimentInfo {
  std::string id;         // "queues.mm1": <lab>.<name>
  std::string lab;        // "queues"
  std::string title;
  std::string summary;    // two or three sentences: what it shows
  std::string reference;  // the paper figure/table or theory it reproduces
  std::vector<ParamSpec> params;
};

struct Experiment {
  ExperimentInfo info;
  // Checks constraints between parameters (ranges are already checked). May be null.
  std::function<Status(const ParamValues&)> validate;
  std::function<StatusOr<Result>(const ParamValues&, RunContext&)> run;
};

// All experiments, in registration order.
const std::vector<Experiment>& AllExperiments();
// The experiment with `id`, or nullptr.
const Experiment* FindExperiment(const std::string& id);

// Validates and runs. Errors: kNotFound (unknown id, listing the known ones),
// kInvalidArgument (parameters), kCancelled.
StatusOr<Result> RunExperiment(const std::string& id, const ParamValues& params, uint64_t seed,
                               std::function<bool(double)> progress);
// Resolves parameters given as a JSON object text, then runs.
StatusOr<Result> RunExperimentJson(const std::string& id, const std::string& params_json, uint64_t seed,
                                   std::function<bool(double)> progress);
// Resolves parameters for `id` from JSON text without running (for the CLI and the web form).
StatusOr<ParamValues> ResolveExperimentParams(const std::string& id, const std::string& params_json);

// [{id, lab, title, summary, reference, params: [spec...]}, ...] as JSON.
std::string ListExperimentsJson();

// {"ok": false, "code": "...", "message": "..."} for a failed status.
std::string ErrorJson(const Status& status);

}  // namespace fawnlab

#endif  // FAWNLAB_REGISTRY_EXPERIMENTS_H_
