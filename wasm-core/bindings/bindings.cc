// The JavaScript face of the core (embind). The only C++ that knows about JavaScript.
//
// Contract (mirrored by web/src/model/wasm.d.ts):
//   version()                                   -> string
//   listExperiments()                           -> JSON text: [{id, lab, title, ..., params}]
//   resolveParams(id, paramsJson)               -> {ok: true, json} | {ok: false, code, message}
//   resolveParamStrings(id, pairsJson)          -> the same, from [["name", "text"], ...] as typed
//                                                  on a command line (values parsed by type)
//   runExperiment(id, paramsJson, seed, onProgress?)
//                                               -> {ok: true, json, csv} | {ok: false, code, message}
//       seed is a decimal string (0 .. 2^53 - 1); onProgress(fraction) may return false to cancel.
//   describeSessions()                          -> JSON text: every live session's schema
//                                                  (registry/sessions.h DescribeSessionsJson)
//   new LabSession(id, configJson, seed)        -> any registered session by id:
//       .ok(), .error(), .advance(dtNs, maxEvents) -> events run, .step() -> bool,
//       .reconfigure(patchJson) -> "" | message, .snapshot() -> JSON text,
//       .apply(opJson) -> {ok: true, json} | {ok: false, code, message},
//       .version() -> number, .busy() -> number,
//       .columns(view, argsJson) -> {ok: true, <column>: Uint8Array | Uint16Array |
//                                    Uint32Array | Float64Array | number | number[], ...}
//                                   | {ok: false, code, message},
//       .delete() when done.
//   The typed arrays are copies owned by JavaScript.
// Failures come back as values with a code and a message; no C++ exception crosses into JS.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "registry/experiments.h"
#include "registry/sessions.h"

namespace {

using emscripten::val;

val ErrorVal(const fawnlab::Status& s) {
  val v = val::object();
  v.set("ok", false);
  v.set("code", std::string(fawnlab::StatusCodeName(s.code())));
  v.set("message", s.message());
  return v;
}

bool ParseSeed(const std::string& text, uint64_t* out) {
  if (text.empty() || text.size() > 20) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  *out = std::strtoull(text.c_str(), nullptr, 10);
  return *out <= fawnlab::kMaxSeed;
}

std::string Version() { return "fawnlab-core 0.1"; }

std::string ListExperiments() { return fawnlab::ListExperimentsJson(); }

val ResolveParams(std::string id, std::string params_json) {
  auto p = fawnlab::ResolveExperimentParams(id, params_json);
  if (!p.ok()) return ErrorVal(p.status());
  fawnlab::JsonWriter w;
  p.value().WriteJson(&w);
  val v = val::object();
  v.set("ok", true);
  v.set("json", w.str());
  return v;
}

val ResolveParamStrings(std::string id, std::string pairs_json) {
  const fawnlab::Experiment* e = fawnlab::FindExperiment(id);
  if (!e) return ResolveParams(id, "{}");  // reports the unknown id
  auto v = fawnlab::ParseJson(pairs_json);
  std::vector<std::pair<std::string, std::string>> pairs;
  bool shape_ok = v.ok() && v.value().is_array();
  if (shape_ok) {
    for (const auto& item : v.value().array_items()) {
      if (!item.is_array() || item.array_items().size() != 2 || !item.array_items()[0].is_string() ||
          !item.array_items()[1].is_string()) {
        shape_ok = false;
        break;
      }
      pairs.emplace_back(item.array_items()[0].string_value(), item.array_items()[1].string_value());
    }
  }
  if (!shape_ok) {
    return ErrorVal(fawnlab::Status::InvalidArgument("parameters must be a JSON array of [name, value] string pairs"));
  }
  auto p = fawnlab::ResolveParamStrings(id, e->info.params, pairs);
  if (!p.ok()) return ErrorVal(p.status());
  fawnlab::JsonWriter w;
  p.value().WriteJson(&w);
  val out = val::object();
  out.set("ok", true);
  out.set("json", w.str());
  return out;
}

val RunExperiment(std::string id, std::string params_json, std::string seed_text, val on_progress) {
  uint64_t seed = 0;
  if (!ParseSeed(seed_text, &seed)) {
    return ErrorVal(fawnlab::Status::InvalidArgument("seed '" + seed_text + "' is not an integer in [0, " +
                                                     std::to_string(fawnlab::kMaxSeed) + "]"));
  }
  std::function<bool(double)> progress;
  if (!on_progress.isUndefined() && !on_progress.isNull()) {
    progress = [on_progress](double f) {
      val r = on_progress(f);
      return !(r.isFalse());
    };
  }
  auto r = fawnlab::RunExperimentJson(id, params_json, seed, progress);
  if (!r.ok()) return ErrorVal(r.status());
  val v = val::object();
  v.set("ok", true);
  v.set("json", fawnlab::ResultToJson(r.value()));
  v.set("csv", fawnlab::ResultToCsv(r.value()));
  return v;
}

// A JavaScript-owned copy of `v` as the typed array `type` ("Uint32Array", ...).
template <typename T>
val TypedCopy(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(val(emscripten::typed_memory_view(v.size(), v.data())));
}

std::string DescribeSessions() { return fawnlab::DescribeSessionsJson(); }

// One column as a JavaScript value: typed vectors become JS-owned typed-array copies.
val ColumnVal(const fawnlab::Column& c) {
  using K = fawnlab::Column::Kind;
  switch (c.kind) {
    case K::kU8: return TypedCopy("Uint8Array", c.u8);
    case K::kU16: return TypedCopy("Uint16Array", c.u16);
    case K::kU32: return TypedCopy("Uint32Array", c.u32);
    case K::kF64: return TypedCopy("Float64Array", c.f64);
    case K::kNumber: return val(c.number);
    case K::kNumbers: {
      val a = val::array();
      for (double x : c.f64) a.call<void>("push", x);
      return a;
    }
  }
  return val::undefined();
}

// Any registered live session (registry/sessions.h), created by id; creation errors are kept
// rather than thrown.
class LabSessionHandle {
 public:
  LabSessionHandle(std::string id, std::string config_json, std::string seed_text) {
    uint64_t seed = 0;
    if (!ParseSeed(seed_text, &seed)) {
      error_ = "seed '" + seed_text + "' is not an integer in [0, " + std::to_string(fawnlab::kMaxSeed) + "]";
      return;
    }
    auto s = fawnlab::CreateSession(id, config_json, seed);
    if (!s.ok()) {
      error_ = s.status().message();
      return;
    }
    session_ = std::move(s).value();
  }
  bool ok() const { return session_ != nullptr; }
  std::string error() const { return error_; }
  double advance(double dt_ns, double max_events) {
    if (!session_ || !(dt_ns >= 0) || !(max_events >= 0)) return 0;
    return static_cast<double>(session_->Advance(static_cast<int64_t>(dt_ns), static_cast<uint64_t>(max_events)));
  }
  bool step() { return session_ && session_->Step(); }
  std::string reconfigure(std::string patch_json) {
    if (!session_) return error_;
    fawnlab::Status s = session_->Reconfigure(patch_json);
    return s.ok() ? "" : s.message();
  }
  std::string snapshot() { return session_ ? session_->SnapshotJson() : "null"; }
  val apply(std::string op_json) {
    if (!session_) return ErrorVal(fawnlab::Status::Unavailable(error_));
    auto r = session_->Apply(op_json);
    if (!r.ok()) return ErrorVal(r.status());
    val v = val::object();
    v.set("ok", true);
    v.set("json", r.value());
    return v;
  }
  double version() { return session_ ? static_cast<double>(session_->version()) : 0; }
  int busy() const { return session_ ? session_->Busy() : 0; }
  val columns(std::string view, std::string args_json) {
    if (!session_) return ErrorVal(fawnlab::Status::Unavailable(error_));
    auto c = session_->Columns(view, args_json);
    if (!c.ok()) return ErrorVal(c.status());
    val v = val::object();
    v.set("ok", true);
    for (const fawnlab::Column& col : c.value().columns()) v.set(col.name, ColumnVal(col));
    return v;
  }

 private:
  std::unique_ptr<fawnlab::LabSession> session_;
  std::string error_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(fawnlab_core) {
  emscripten::function("version", &Version);
  emscripten::function("listExperiments", &ListExperiments);
  emscripten::function("resolveParams", &ResolveParams);
  emscripten::function("resolveParamStrings", &ResolveParamStrings);
  emscripten::function("runExperiment", &RunExperiment);
  emscripten::function("describeSessions", &DescribeSessions);
  emscripten::class_<LabSessionHandle>("LabSession")
      .constructor<std::string, std::string, std::string>()
      .function("ok", &LabSessionHandle::ok)
      .function("error", &LabSessionHandle::error)
      .function("advance", &LabSessionHandle::advance)
      .function("step", &LabSessionHandle::step)
      .function("reconfigure", &LabSessionHandle::reconfigure)
      .function("snapshot", &LabSessionHandle::snapshot)
      .function("apply", &LabSessionHandle::apply)
      .function("version", &LabSessionHandle::version)
      .function("busy", &LabSessionHandle::busy)
      .function("columns", &LabSessionHandle::columns);
}
