// The JavaScript face of the core (embind). The only C++ that knows about JavaScript.
//
// Contract (mirrored by web/src/model/coreTypes.ts):
//   version()                                   -> string
//   listExperiments()                           -> JSON text: [{id, lab, title, ..., params}]
//   resolveParams(id, paramsJson)               -> {ok: true, json} | {ok: false, code, message}
//   resolveParamStrings(id, pairsJson)          -> the same, from [["name", "text"], ...] as typed
//                                                  on a command line (values parsed by type)
//   runExperiment(id, paramsJson, seed, onProgress?)
//                                               -> {ok: true, json, csv} | {ok: false, code, message}
//       seed is a decimal string (0 .. 2^53 - 1); onProgress(fraction) may return false to cancel.
//   new QueueSession | FlashSession | DiskSession (configJson, seed)
//                                               -> .ok(), .error(), .advance(dtNs, maxEvents),
//       .step(), .reconfigure(patchJson) -> "" | error message, .snapshot() -> JSON text,
//       .delete() when done.
//   new FawndsSession(configJson, seed)         -> the same, and
//       .apply(opJson) -> {ok: true, json} | {ok: false, code, message}   (fawnds/lab/session.h)
//       .log(store)    -> {ok: true, offsets: Uint32Array, flags: Uint8Array, keys: Uint32Array,
//                          logEnd, counts: [live, orphaned, deleted, outOfRange, lost]} | error
//       .index(store, first, count, group)
//                      -> {ok: true, indexBits, first, group, valid: Uint16Array,
//                          fragments: Uint16Array, offsets: Uint32Array} | error
//       .version()     -> a number that changes when the log or index may have
//   new FawnkvSession(configJson, seed)         -> the live-session methods, and
//       .apply(opJson) -> {ok: true, json} | {ok: false, code, message}   (fawnkv/lab/session.h)
//       .vids()        -> {ok: true, version, node: Uint32Array, index: Uint16Array,
//                          pos: Float64Array} | error     (the ring's VIDs in ring order)
//       .version()     -> the ring's version: changes when its VIDs do (fetch vids() again)
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
#include "devicelab/lab/disk_session.h"
#include "devicelab/lab/flash_session.h"
#include "fawnds/lab/session.h"
#include "fawnkv/lab/session.h"
#include "queues/lab/session.h"
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

// A handle JavaScript can own around a live session (QueueSession, FlashSession,
// DiskSession); creation errors are kept rather than thrown.
template <typename Session>
class SessionHandle {
 public:
  SessionHandle(std::string config_json, std::string seed_text) {
    uint64_t seed = 0;
    if (!ParseSeed(seed_text, &seed)) {
      error_ = "seed '" + seed_text + "' is not an integer in [0, " + std::to_string(fawnlab::kMaxSeed) + "]";
      return;
    }
    auto s = Session::Create(config_json, seed);
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
  // For sessions with operations (Session::Apply); instantiated only where bound.
  val apply(std::string op_json) {
    if (!session_) return ErrorVal(fawnlab::Status::Unavailable(error_));
    auto r = session_->Apply(op_json);
    if (!r.ok()) return ErrorVal(r.status());
    val v = val::object();
    v.set("ok", true);
    v.set("json", r.value());
    return v;
  }

 protected:
  std::unique_ptr<Session> session_;
  std::string error_;
};

template <typename Session>
void BindSession(const char* name) {
  using H = SessionHandle<Session>;
  emscripten::class_<H>(name)
      .template constructor<std::string, std::string>()
      .function("ok", &H::ok)
      .function("error", &H::error)
      .function("advance", &H::advance)
      .function("step", &H::step)
      .function("reconfigure", &H::reconfigure)
      .function("snapshot", &H::snapshot);
}

// A JavaScript-owned copy of `v` as the typed array `type` ("Uint32Array", ...).
template <typename T>
val TypedCopy(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(val(emscripten::typed_memory_view(v.size(), v.data())));
}

// The FAWN-DS lab's session: a live session plus operations and the column views.
class FawndsHandle : public SessionHandle<fawnlab::fawndslab::FawndsSession> {
 public:
  using SessionHandle::SessionHandle;
  val log(double store) {
    if (!session_) return ErrorVal(fawnlab::Status::Unavailable(error()));
    if (!(store >= 0)) return ErrorVal(fawnlab::Status::InvalidArgument("store must be a store number"));
    auto c = session_->Log(static_cast<size_t>(store));
    if (!c.ok()) return ErrorVal(c.status());
    val v = val::object();
    v.set("ok", true);
    v.set("offsets", TypedCopy("Uint32Array", c.value().offsets));
    v.set("flags", TypedCopy("Uint8Array", c.value().flags));
    v.set("keys", TypedCopy("Uint32Array", c.value().keys));
    v.set("logEnd", static_cast<double>(c.value().log_end));
    val counts = val::array();
    for (uint64_t n : c.value().counts) counts.call<void>("push", static_cast<double>(n));
    v.set("counts", counts);
    return v;
  }
  val index(double store, double first, double count, double group) {
    if (!session_) return ErrorVal(fawnlab::Status::Unavailable(error()));
    if (!(store >= 0) || !(first >= 0) || !(count >= 0) || !(group >= 0)) {
      return ErrorVal(fawnlab::Status::InvalidArgument("index cells: store, first, count and group must be non-negative"));
    }
    auto c = session_->Index(static_cast<size_t>(store), static_cast<uint64_t>(first), static_cast<uint64_t>(count),
                             static_cast<uint64_t>(group));
    if (!c.ok()) return ErrorVal(c.status());
    val v = val::object();
    v.set("ok", true);
    v.set("indexBits", c.value().index_bits);
    v.set("first", static_cast<double>(c.value().first));
    v.set("group", static_cast<double>(c.value().group));
    v.set("valid", TypedCopy("Uint16Array", c.value().valid));
    v.set("fragments", TypedCopy("Uint16Array", c.value().fragments));
    v.set("offsets", TypedCopy("Uint32Array", c.value().offsets));
    return v;
  }
  double version() const { return session_ ? static_cast<double>(session_->version()) : 0; }
  int busy() const { return session_ ? session_->Busy() : 0; }
};

// The FAWN-KV lab's session: a live session plus operations and the ring's VIDs as columns.
class FawnkvHandle : public SessionHandle<fawnlab::fawnkvlab::FawnkvSession> {
 public:
  using SessionHandle::SessionHandle;
  val vids() {
    if (!session_) return ErrorVal(fawnlab::Status::Unavailable(error()));
    const fawnlab::fawnkvlab::VidColumns c = session_->Vids();
    val v = val::object();
    v.set("ok", true);
    v.set("version", static_cast<double>(c.version));
    v.set("node", TypedCopy("Uint32Array", c.node));
    v.set("index", TypedCopy("Uint16Array", c.index));
    v.set("pos", TypedCopy("Float64Array", c.pos));
    return v;
  }
  double version() { return session_ ? static_cast<double>(session_->version()) : 0; }
  int busy() const { return session_ ? session_->Busy() : 0; }
};

// Binds a handle with operations: the live-session methods and apply. The inherited members
// are bound through lambdas: embind files a base-class member pointer under the base class,
// which is not bound on its own.
template <typename H>
emscripten::class_<H> BindOpsSession(const char* name) {
  using emscripten::optional_override;
  emscripten::class_<H> c(name);
  c.template constructor<std::string, std::string>()
      .function("ok", optional_override([](H& h) { return h.ok(); }))
      .function("error", optional_override([](H& h) { return h.error(); }))
      .function("advance", optional_override([](H& h, double dt, double n) { return h.advance(dt, n); }))
      .function("step", optional_override([](H& h) { return h.step(); }))
      .function("reconfigure", optional_override([](H& h, std::string p) { return h.reconfigure(std::move(p)); }))
      .function("snapshot", optional_override([](H& h) { return h.snapshot(); }))
      .function("apply", optional_override([](H& h, std::string op) { return h.apply(std::move(op)); }));
  return c;
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
  BindSession<fawnlab::queues::QueueSession>("QueueSession");
  BindSession<fawnlab::devices::FlashSession>("FlashSession");
  BindSession<fawnlab::devices::DiskSession>("DiskSession");
  BindOpsSession<FawndsHandle>("FawndsSession")
      .function("log", &FawndsHandle::log)
      .function("index", &FawndsHandle::index)
      .function("version", &FawndsHandle::version)
      .function("busy", &FawndsHandle::busy);
  BindOpsSession<FawnkvHandle>("FawnkvSession")
      .function("vids", &FawnkvHandle::vids)
      .function("version", &FawnkvHandle::version)
      .function("busy", &FawnkvHandle::busy);
}
