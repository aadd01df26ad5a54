#include "registry/experiments.h"

#include <utility>

#include "base/json_reader.h"
#include "base/json_writer.h"

namespace fawnlab {

// One per lab, defined in src/<system>/experiments/register.cc.
void RegisterQueuesExperiments(std::vector<Experiment>* out);
void RegisterDevicesExperiments(std::vector<Experiment>* out);
void RegisterFawndsExperiments(std::vector<Experiment>* out);
void RegisterFawnkvExperiments(std::vector<Experiment>* out);
void RegisterVectorExperiments(std::vector<Experiment>* out);
void RegisterConaExperiments(std::vector<Experiment>* out);
void RegisterStoresExperiments(std::vector<Experiment>* out);
void RegisterSrcmapPrototypeExperiments(std::vector<Experiment>* out);
void RegisterSrcmapSimulatorExperiments(std::vector<Experiment>* out);

namespace {

std::vector<Experiment> BuildRegistry() {
  std::vector<Experiment> all;
  RegisterQueuesExperiments(&all);
  RegisterDevicesExperiments(&all);
  RegisterFawndsExperiments(&all);
  RegisterFawnkvExperiments(&all);
  RegisterVectorExperiments(&all);
  RegisterConaExperiments(&all);
  RegisterStoresExperiments(&all);
  RegisterSrcmapPrototypeExperiments(&all);
  RegisterSrcmapSimulatorExperiments(&all);
  return all;
}

}  // namespace

RunContext::RunContext(uint64_t seed, std::function<bool(double)> progress)
    : seed_(seed), progress_(std::move(progress)) {}

bool RunContext::Progress(double fraction) {
  if (cancelled_) return false;
  if (!progress_) return true;
  if (fraction < 1.0 && fraction - last_reported_ < 0.01) return true;
  last_reported_ = fraction;
  if (!progress_(fraction)) cancelled_ = true;
  return !cancelled_;
}

const std::vector<Experiment>& AllExperiments() {
  static const std::vector<Experiment>* all = new std::vector<Experiment>(BuildRegistry());
  return *all;
}

const Experiment* FindExperiment(const std::string& id) {
  for (const Experiment& e : AllExperiments()) {
    if (e.info.id == id) return &e;
  }
  return nullptr;
}

namespace {

Status UnknownExperiment(const std::string& id) {
  std::string known;
  for (const Experiment& e : AllExperiments()) {
    if (!known.empty()) known += ", ";
    known += e.info.id;
  }
  return Status::NotFound("unknown experiment '" + id + "'; known experiments: " + known);
}

}  // namespace

StatusOr<Result> RunExperiment(const std::string& id, const ParamValues& params, uint64_t seed,
                               std::function<bool(double)> progress) {
  const Experiment* e = FindExperiment(id);
  if (!e) return UnknownExperiment(id);
  if (seed > kMaxSeed) {
    return Status::InvalidArgument("seed " + std::to_string(seed) + " is out of range [0, " +
                                   std::to_string(kMaxSeed) + "]");
  }
  if (e->validate) {
    Status s = e->validate(params);
    if (!s.ok()) return s;
  }
  RunContext ctx(seed, std::move(progress));
  StatusOr<Result> r = e->run(params, ctx);
  if (!r.ok()) return r;
  if (ctx.cancelled()) return Status::Cancelled("run of " + id + " cancelled");
  Result out = std::move(r).value();
  out.id = e->info.id;
  out.title = e->info.title;
  out.params = params;
  out.seed = seed;
  ctx.Progress(1.0);
  return out;
}

StatusOr<ParamValues> ResolveExperimentParams(const std::string& id, const std::string& params_json) {
  const Experiment* e = FindExperiment(id);
  if (!e) return UnknownExperiment(id);
  StatusOr<JsonValue> given = ParseJson(params_json.empty() ? "{}" : params_json);
  if (!given.ok()) {
    return Status::InvalidArgument("parameters for " + id + " are not valid JSON: " + given.status().message());
  }
  return ResolveParams(id, e->info.params, given.value());
}

StatusOr<Result> RunExperimentJson(const std::string& id, const std::string& params_json, uint64_t seed,
                                   std::function<bool(double)> progress) {
  StatusOr<ParamValues> params = ResolveExperimentParams(id, params_json);
  if (!params.ok()) return params.status();
  return RunExperiment(id, params.value(), seed, std::move(progress));
}

std::string ListExperimentsJson() {
  JsonWriter w;
  w.BeginArray();
  for (const Experiment& e : AllExperiments()) {
    w.BeginObject();
    w.Key("id");
    w.String(e.info.id);
    w.Key("lab");
    w.String(e.info.lab);
    w.Key("title");
    w.String(e.info.title);
    w.Key("summary");
    w.String(e.info.summary);
    w.Key("reference");
    w.String(e.info.reference);
    w.Key("params");
    w.BeginArray();
    for (const ParamSpec& p : e.info.params) WriteParamSpecJson(p, &w);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  return w.str() + "\n";
}

std::string ErrorJson(const Status& status) {
  JsonWriter w;
  w.BeginObject();
  w.Key("ok");
  w.Bool(false);
  w.Key("code");
  w.String(StatusCodeName(status.code()));
  w.Key("message");
  w.String(status.message());
  w.EndObject();
  return w.str() + "\n";
}

}  // namespace fawnlab
