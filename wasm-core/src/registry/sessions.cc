#include "registry/sessions.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/json_writer.h"
#include "registry/experiments.h"

namespace fawnlab {

// One per lab, defined in <system>/lab/.
void RegisterQueuesSessions(std::vector<SessionInfo>* out);
void RegisterDevicesSessions(std::vector<SessionInfo>* out);
void RegisterFawndsSessions(std::vector<SessionInfo>* out);
void RegisterFawnkvSessions(std::vector<SessionInfo>* out);
void RegisterVectorSessions(std::vector<SessionInfo>* out);
void RegisterConaSessions(std::vector<SessionInfo>* out);
void RegisterStoresSessions(std::vector<SessionInfo>* out);
void RegisterSrcmapSessions(std::vector<SessionInfo>* out);

namespace {

std::vector<SessionRegistrar>& ExtraRegistrars() {
  static std::vector<SessionRegistrar>* extra = new std::vector<SessionRegistrar>();
  return *extra;
}

bool registry_built = false;

std::vector<SessionInfo> BuildRegistry() {
  std::vector<SessionInfo> all;
  RegisterQueuesSessions(&all);
  RegisterDevicesSessions(&all);
  RegisterFawndsSessions(&all);
  RegisterFawnkvSessions(&all);
  RegisterVectorSessions(&all);
  RegisterConaSessions(&all);
  RegisterStoresSessions(&all);
  RegisterSrcmapSessions(&all);
  for (SessionRegistrar r : ExtraRegistrars()) r(&all);
  registry_built = true;
  return all;
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// What an argument accepts, for messages: "an integer in [1, 100]", "a string".
std::string Accepts(const ParamSpec& s) {
  const std::string range = "[" + FormatNumber(s.min) + ", " + FormatNumber(s.max) + "]";
  switch (s.type) {
    case ParamType::kInt: return "an integer in " + range;
    case ParamType::kReal: return "a number in " + range;
    case ParamType::kBool: return "true or false";
    case ParamType::kString: return "a string";
    case ParamType::kChoice: {
      std::string c;
      for (const std::string& x : s.choices) c += (c.empty() ? "'" : ", '") + x + "'";
      return "one of " + c;
    }
  }
  return "";
}

// `v` checked against argument `a`; the message names the argument and what it accepts.
StatusOr<ParamValue> CheckArg(const ArgSpec& a, const JsonValue& v) {
  const ParamSpec& s = a.spec;
  ParamValue out;
  out.type = s.type;
  bool ok = false;
  switch (s.type) {
    case ParamType::kInt:
    case ParamType::kReal:
      ok = v.is_number() && std::isfinite(v.number_value()) && v.number_value() >= s.min && v.number_value() <= s.max &&
           (s.type == ParamType::kReal || v.number_value() == std::floor(v.number_value()));
      if (ok) out.number = v.number_value();
      break;
    case ParamType::kBool:
      ok = v.is_bool();
      if (ok) out.number = v.bool_value() ? 1 : 0;
      break;
    case ParamType::kString:
      ok = v.is_string();
      if (ok) out.choice = v.string_value();
      break;
    case ParamType::kChoice:
      ok = v.is_string() && std::find(s.choices.begin(), s.choices.end(), v.string_value()) != s.choices.end();
      if (ok) out.choice = v.string_value();
      break;
  }
  if (!ok) return Status::InvalidArgument("'" + s.name + "' must be " + (a.accepts.empty() ? Accepts(s) : a.accepts));
  return out;
}

// The operation `op` names, with its arguments checked against its schema.
StatusOr<const OpInfo*> CheckOp(const SessionInfo& info, const JsonValue& op, ParamValues* args) {
  std::vector<std::string> names;
  for (const OpInfo& o : info.ops) names.push_back(o.name);
  if (!op.is_object() || !op.Find("op") || !op.Find("op")->is_string()) {
    return Status::InvalidArgument("an operation is a JSON object with \"op\": one of " + Join(names));
  }
  const std::string& name = op.Find("op")->string_value();
  const OpInfo* spec = info.FindOp(name);
  if (!spec) return Status::InvalidArgument("unknown operation '" + name + "' (known: " + Join(names) + ")");
  for (const auto& [k, _] : op.object_members()) {
    if (k == "op") continue;
    bool known = false;
    for (const ArgSpec& a : spec->args) known = known || a.spec.name == k;
    if (!known) {
      std::vector<std::string> fields;
      for (const ArgSpec& a : spec->args) fields.push_back(a.spec.name);
      return Status::InvalidArgument("unknown field '" + k + "' for " + name + " (known: " + Join(fields) + ")");
    }
  }
  for (const ArgSpec& a : spec->args) {
    const JsonValue* v = op.Find(a.spec.name);
    if (!v) {
      if (a.required) {
        return Status::InvalidArgument("'" + a.spec.name + "' is required: " + name + " needs \"" + a.spec.name + "\", " +
                                       (a.accepts.empty() ? Accepts(a.spec) : a.accepts));
      }
      continue;
    }
    StatusOr<ParamValue> pv = CheckArg(a, *v);
    // "split's 'fraction' must be …": the message names the operation too.
    if (!pv.ok()) return Status::InvalidArgument(name + "'s " + pv.status().message());
    args->Set(a.spec.name, std::move(pv).value());
  }
  return spec;
}

}  // namespace

// --- columns ------------------------------------------------------------------------------

namespace {

template <typename V>
Column MakeColumn(std::string name, Column::Kind kind, V Column::*field, V v) {
  Column c;
  c.name = std::move(name);
  c.kind = kind;
  c.*field = std::move(v);
  return c;
}

}  // namespace

ColumnSet& ColumnSet::Add(Column c) {
  columns_.push_back(std::move(c));
  return *this;
}

ColumnSet& ColumnSet::U8(std::string name, std::vector<uint8_t> v) {
  return Add(MakeColumn(std::move(name), Column::Kind::kU8, &Column::u8, std::move(v)));
}
ColumnSet& ColumnSet::U16(std::string name, std::vector<uint16_t> v) {
  return Add(MakeColumn(std::move(name), Column::Kind::kU16, &Column::u16, std::move(v)));
}
ColumnSet& ColumnSet::U32(std::string name, std::vector<uint32_t> v) {
  return Add(MakeColumn(std::move(name), Column::Kind::kU32, &Column::u32, std::move(v)));
}
ColumnSet& ColumnSet::F64(std::string name, std::vector<double> v) {
  return Add(MakeColumn(std::move(name), Column::Kind::kF64, &Column::f64, std::move(v)));
}
ColumnSet& ColumnSet::Number(std::string name, double v) {
  return Add(MakeColumn(std::move(name), Column::Kind::kNumber, &Column::number, v));
}
ColumnSet& ColumnSet::Numbers(std::string name, std::vector<double> v) {
  return Add(MakeColumn(std::move(name), Column::Kind::kNumbers, &Column::f64, std::move(v)));
}

const Column* ColumnSet::Find(const std::string& name) const {
  for (const Column& c : columns_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// --- schema -------------------------------------------------------------------------------

bool SessionInfo::IsLive(const std::string& param) const {
  return std::find(live.begin(), live.end(), param) != live.end();
}

const OpInfo* SessionInfo::FindOp(const std::string& name) const {
  for (const OpInfo& o : ops) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

const ViewInfo* SessionInfo::FindView(const std::string& name) const {
  for (const ViewInfo& v : views) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

// --- the session base ---------------------------------------------------------------------

LabSession::~LabSession() = default;

uint64_t LabSession::Advance(sim::SimDuration dt_ns, uint64_t max_events) {
  sim::Simulator* s = simulator();
  if (!s) return 0;
  const sim::SimTime until = s->now() + std::max<sim::SimDuration>(0, dt_ns);
  uint64_t n = 0;
  if (watch_events_) {
    while (n < max_events && s->next_event_time() <= until) {
      s->Step();
      ++n;
      AfterEvent();
    }
    if (n < max_events) s->RunUntil(until, 0);
  } else {
    n = s->RunUntil(until, max_events);
  }
  Advanced();
  return n;
}

bool LabSession::Step() {
  sim::Simulator* s = simulator();
  if (!s) return false;
  const bool ran = s->Step();
  if (ran && watch_events_) AfterEvent();
  Advanced();
  return ran;
}

Status LabSession::Reconfigure(const std::string& patch_json) {
  const SessionInfo& in = info();
  StatusOr<JsonValue> v = ParseJson(patch_json.empty() ? "{}" : patch_json);
  if (!v.ok()) return Status::InvalidArgument("patch for " + in.noun + ": " + v.status().message());
  if (!v.value().is_object()) return Status::InvalidArgument("a patch for " + in.noun + " must be a JSON object");
  std::vector<ParamSpec> live, given;
  for (const ParamSpec& p : in.params) {
    if (in.IsLive(p.name)) live.push_back(p);
  }
  for (const auto& [k, _] : v.value().object_members()) {
    const ParamSpec* spec = nullptr;
    for (const ParamSpec& p : in.params) spec = p.name == k ? &p : spec;
    // An unknown name: refused as ResolveParams refuses it, listing the live fields.
    if (!spec) return ResolveParams(in.noun, live, v.value()).status();
    if (!in.IsLive(k)) {
      return Status::InvalidArgument("parameter '" + k + "' cannot change while " + in.noun + " runs (only " + Join(in.live) +
                                     "); start a new session");
    }
    given.push_back(*spec);
  }
  StatusOr<ParamValues> patch = ResolveParams(in.noun, given, v.value());
  if (!patch.ok()) return patch.status();
  ParamValues next = config_;
  for (const auto& [k, value] : patch.value().entries()) next.Set(k, value);
  if (Status s = Reconfigured(next, patch.value()); !s.ok()) return s;
  config_ = std::move(next);
  return Status::Ok();
}

StatusOr<std::string> LabSession::Apply(const std::string& op_json) {
  StatusOr<JsonValue> v = ParseJson(op_json);
  if (!v.ok()) return Status::InvalidArgument("operation: " + v.status().message());
  return ApplyOp(v.value());
}

StatusOr<std::string> LabSession::ApplyOp(const JsonValue& op) {
  ParamValues args;
  StatusOr<const OpInfo*> spec = CheckOp(info(), op, &args);
  if (!spec.ok()) return spec.status();
  return RunOp(spec.value()->name, args, op);
}

StatusOr<ColumnSet> LabSession::Columns(const std::string& view, const std::string& args_json) {
  const SessionInfo& in = info();
  const ViewInfo* spec = in.FindView(view);
  if (!spec) {
    std::vector<std::string> names;
    for (const ViewInfo& x : in.views) names.push_back(x.name);
    return Status::InvalidArgument("unknown view '" + view + "' for " + in.noun + " (known: " + Join(names) + ")");
  }
  const std::string where = "view '" + view + "' of " + in.noun;
  StatusOr<JsonValue> v = ParseJson(args_json.empty() ? "{}" : args_json);
  if (!v.ok()) return Status::InvalidArgument("arguments of " + where + ": " + v.status().message());
  StatusOr<ParamValues> args = ResolveParams(where, spec->args, v.value());
  if (!args.ok()) return args.status();
  return View(view, args.value());
}

StatusOr<std::string> LabSession::RunOp(const std::string& name, const ParamValues&, const JsonValue&) {
  return Status::Internal(info().noun + " declares operation '" + name + "' but does not run it");
}

Status LabSession::Reconfigured(const ParamValues&, const ParamValues&) { return Status::Ok(); }

StatusOr<ColumnSet> LabSession::View(const std::string& name, const ParamValues&) {
  return Status::Internal(info().noun + " declares view '" + name + "' but does not draw it");
}

// --- the registry -------------------------------------------------------------------------

bool AddSessionRegistrar(SessionRegistrar registrar) {
  // A registrar added after the registry was built would be silently missing.
  if (registry_built) return false;
  ExtraRegistrars().push_back(registrar);
  return true;
}

const std::vector<SessionInfo>& AllSessions() {
  static const std::vector<SessionInfo>* all = new std::vector<SessionInfo>(BuildRegistry());
  return *all;
}

const SessionInfo* FindSession(const std::string& id) {
  for (const SessionInfo& s : AllSessions()) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

StatusOr<std::unique_ptr<LabSession>> CreateSession(const std::string& id, const std::string& config_json, uint64_t seed) {
  const SessionInfo* info = FindSession(id);
  if (!info) {
    std::vector<std::string> known;
    for (const SessionInfo& s : AllSessions()) known.push_back(s.id);
    return Status::NotFound("unknown session '" + id + "'; known sessions: " + Join(known));
  }
  if (seed > kMaxSeed) {
    return Status::InvalidArgument("seed " + std::to_string(seed) + " is out of range [0, " + std::to_string(kMaxSeed) + "]");
  }
  StatusOr<JsonValue> v = ParseJson(config_json.empty() ? "{}" : config_json);
  if (!v.ok()) return Status::InvalidArgument(info->noun + " config: " + v.status().message());
  StatusOr<ParamValues> config =
      ResolveSessionConfig(info->noun, info->params, v.value(), false, info->live, info->script ? std::vector<std::string>{"script"} : std::vector<std::string>{});
  if (!config.ok()) return config.status();
  const JsonValue* script = info->script ? v.value().Find("script") : nullptr;
  if (script && !script->is_array()) return Status::InvalidArgument(info->noun + ": script must be an array of operations");
  StatusOr<std::unique_ptr<LabSession>> made = info->create(config.value(), seed);
  if (!made.ok()) return made.status();
  std::unique_ptr<LabSession> session = std::move(made).value();
  session->info_ = info;
  session->config_ = std::move(config).value();
  if (script) {
    const auto& ops = script->array_items();
    for (size_t i = 0; i < ops.size(); ++i) {
      StatusOr<std::string> r = session->ApplyOp(ops[i]);
      if (!r.ok()) return Status::InvalidArgument(info->noun + ": script operation " + std::to_string(i) + ": " + r.status().message());
    }
  }
  return session;
}

std::string DescribeSessionsJson() {
  JsonWriter w;
  w.BeginArray();
  for (const SessionInfo& s : AllSessions()) {
    w.BeginObject();
    w.Key("id");
    w.String(s.id);
    w.Key("lab");
    w.String(s.lab);
    w.Key("view");
    w.String(s.view);
    w.Key("title");
    w.String(s.title);
    w.Key("summary");
    w.String(s.summary);
    w.Key("params");
    w.BeginArray();
    for (const ParamSpec& p : s.params) {
      w.BeginObject();
      WriteParamSpecFields(p, &w);
      w.Key("live");
      w.Bool(s.IsLive(p.name));
      w.EndObject();
    }
    w.EndArray();
    w.Key("script");
    w.Bool(s.script);
    w.Key("ops");
    w.BeginArray();
    for (const OpInfo& o : s.ops) {
      w.BeginObject();
      w.Key("name");
      w.String(o.name);
      w.Key("help");
      w.String(o.help);
      w.Key("args");
      w.BeginArray();
      for (const ArgSpec& a : o.args) {
        w.BeginObject();
        WriteParamSpecFields(a.spec, &w);
        w.Key("required");
        w.Bool(a.required);
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.Key("views");
    w.BeginArray();
    for (const ViewInfo& view : s.views) {
      w.BeginObject();
      w.Key("name");
      w.String(view.name);
      w.Key("help");
      w.String(view.help);
      w.Key("args");
      w.BeginArray();
      for (const ParamSpec& p : view.args) WriteParamSpecJson(p, &w);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  return w.str() + "\n";
}

}  // namespace fawnlab
