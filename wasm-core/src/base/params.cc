#include "base/params.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>

namespace fawnlab {
namespace {

std::string RangeText(const ParamSpec& s) {
  std::string r = "[" + FormatNumber(s.min) + ", " + FormatNumber(s.max) + "]";
  if (!s.unit.empty()) r += " " + s.unit;
  return r;
}

std::string ChoicesText(const ParamSpec& s) {
  std::string r;
  for (size_t i = 0; i < s.choices.size(); ++i) {
    if (i) r += ", ";
    r += "'" + s.choices[i] + "'";
  }
  return r;
}

std::string KnownNames(const std::vector<ParamSpec>& schema) {
  std::string r;
  for (size_t i = 0; i < schema.size(); ++i) {
    if (i) r += ", ";
    r += schema[i].name;
  }
  return r.empty() ? "(none)" : r;
}

Status CheckNumber(const std::string& exp, const ParamSpec& s, double v, ParamValue* out) {
  std::string where = "parameter '" + s.name + "' of " + exp;
  if (!std::isfinite(v)) return Status::InvalidArgument(where + " must be a finite number");
  if (s.type == ParamType::kInt && v != std::floor(v)) {
    return Status::InvalidArgument(where + " must be an integer, got " + FormatNumber(v));
  }
  if (v < s.min || v > s.max) {
    return Status::InvalidArgument("parameter '" + s.name + "' = " + FormatNumber(v) + " is out of range " +
                                   RangeText(s) + " for " + exp);
  }
  out->type = s.type;
  out->number = v;
  return Status::Ok();
}

Status CheckChoice(const std::string& exp, const ParamSpec& s, const std::string& v, ParamValue* out) {
  for (const std::string& c : s.choices) {
    if (c == v) {
      out->type = s.type;
      out->choice = v;
      return Status::Ok();
    }
  }
  return Status::InvalidArgument("parameter '" + s.name + "' = '" + v + "' is not one of " + ChoicesText(s) +
                                 " for " + exp);
}

ParamValue DefaultOf(const ParamSpec& s) {
  ParamValue v;
  v.type = s.type;
  v.number = s.default_value;
  v.choice = s.default_choice;
  return v;
}

const ParamSpec* FindSpec(const std::vector<ParamSpec>& schema, const std::string& name) {
  for (const ParamSpec& s : schema) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

Status UnknownParam(const std::string& exp, const std::vector<ParamSpec>& schema, const std::string& name) {
  return Status::InvalidArgument("unknown parameter '" + name + "' for " + exp + "; known parameters: " +
                                 KnownNames(schema));
}

}  // namespace

const char* ParamTypeName(ParamType type) {
  switch (type) {
    case ParamType::kInt: return "int";
    case ParamType::kReal: return "real";
    case ParamType::kChoice: return "choice";
    case ParamType::kBool: return "bool";
    case ParamType::kString: return "string";
  }
  return "unknown";
}

ParamSpec ParamSpec::Int(std::string name, long long def, long long min, long long max, std::string unit,
                         std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::kInt;
  s.default_value = static_cast<double>(def);
  s.min = static_cast<double>(min);
  s.max = static_cast<double>(max);
  s.unit = std::move(unit);
  s.help = std::move(help);
  assert(min <= def && def <= max);
  return s;
}

ParamSpec ParamSpec::Real(std::string name, double def, double min, double max, std::string unit,
                          std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::kReal;
  s.default_value = def;
  s.min = min;
  s.max = max;
  s.unit = std::move(unit);
  s.help = std::move(help);
  assert(min <= def && def <= max);
  return s;
}

ParamSpec ParamSpec::Choice(std::string name, std::string def, std::vector<std::string> choices,
                            std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::kChoice;
  s.default_choice = std::move(def);
  s.choices = std::move(choices);
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::Bool(std::string name, bool def, std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::kBool;
  s.default_value = def ? 1 : 0;
  s.min = 0;
  s.max = 1;
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::String(std::string name, std::string def, std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::kString;
  s.default_choice = std::move(def);
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::WithLabels(std::vector<std::string> display) const {
  assert(type == ParamType::kChoice && display.size() == choices.size());
  ParamSpec s = *this;
  s.labels = std::move(display);
  return s;
}

const ParamValue& ParamValues::Get(const std::string& name) const {
  for (const auto& e : entries_) {
    if (e.first == name) return e.second;
  }
  assert(false && "parameter not in schema");
  static ParamValue none;
  return none;
}

double ParamValues::Real(const std::string& name) const { return Get(name).number; }
long long ParamValues::Int(const std::string& name) const { return static_cast<long long>(Get(name).number); }
bool ParamValues::Bool(const std::string& name) const { return Get(name).number != 0; }
const std::string& ParamValues::Choice(const std::string& name) const {
  const ParamValue& v = Get(name);
  assert(v.type == ParamType::kChoice);
  return v.choice;
}
const std::string& ParamValues::Text(const std::string& name) const {
  const ParamValue& v = Get(name);
  assert(v.type == ParamType::kString);
  return v.choice;
}
bool ParamValues::Has(const std::string& name) const {
  for (const auto& e : entries_) {
    if (e.first == name) return true;
  }
  return false;
}

void ParamValues::Set(const std::string& name, ParamValue value) {
  for (auto& e : entries_) {
    if (e.first == name) {
      e.second = std::move(value);
      return;
    }
  }
  entries_.emplace_back(name, std::move(value));
}

void ParamValues::WriteJson(JsonWriter* w) const {
  w->BeginObject();
  for (const auto& e : entries_) {
    w->Key(e.first);
    switch (e.second.type) {
      case ParamType::kChoice:
      case ParamType::kString: w->String(e.second.choice); break;
      case ParamType::kBool: w->Bool(e.second.number != 0); break;
      default: w->Number(e.second.number);
    }
  }
  w->EndObject();
}

StatusOr<ParamValues> ResolveParams(const std::string& exp, const std::vector<ParamSpec>& schema,
                                    const JsonValue& given) {
  if (!given.is_object()) {
    return Status::InvalidArgument(std::string("parameters for ") + exp + " must be a JSON object, got " +
                                   JsonTypeName(given.type()));
  }
  for (const auto& m : given.object_members()) {
    if (!FindSpec(schema, m.first)) return UnknownParam(exp, schema, m.first);
  }
  ParamValues out;
  for (const ParamSpec& s : schema) {
    const JsonValue* v = given.Find(s.name);
    ParamValue pv = DefaultOf(s);
    if (v) {
      Status st;
      std::string where = "parameter '" + s.name + "' of " + exp;
      switch (s.type) {
        case ParamType::kInt:
        case ParamType::kReal:
          if (!v->is_number()) {
            return Status::InvalidArgument(where + " must be a number in " + RangeText(s) + ", got " +
                                           JsonTypeName(v->type()));
          }
          st = CheckNumber(exp, s, v->number_value(), &pv);
          break;
        case ParamType::kBool:
          if (!v->is_bool()) {
            return Status::InvalidArgument(where + " must be true or false, got " + JsonTypeName(v->type()));
          }
          pv.number = v->bool_value() ? 1 : 0;
          break;
        case ParamType::kChoice:
          if (!v->is_string()) {
            return Status::InvalidArgument(where + " must be one of " + ChoicesText(s) + ", got " +
                                           JsonTypeName(v->type()));
          }
          st = CheckChoice(exp, s, v->string_value(), &pv);
          break;
        case ParamType::kString:
          if (!v->is_string()) {
            return Status::InvalidArgument(where + " must be a string, got " + JsonTypeName(v->type()));
          }
          pv.choice = v->string_value();
          break;
      }
      if (!st.ok()) return st;
    }
    out.Set(s.name, pv);
  }
  return out;
}

StatusOr<ParamValues> ResolveSessionConfig(const std::string& session, const std::vector<ParamSpec>& schema, const JsonValue& given,
                                           bool patch, const std::vector<std::string>& live,
                                           const std::vector<std::string>& skip) {
  if (!given.is_object()) return Status::InvalidArgument(session + " config must be a JSON object");
  auto named = [](const std::vector<std::string>& names, const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  std::vector<std::pair<std::string, JsonValue>> members;
  for (const auto& [k, v] : given.object_members()) {
    if (!patch && named(skip, k)) continue;
    if (patch && !named(live, k)) {
      std::string only;
      for (const std::string& n : live) only += (only.empty() ? "" : ", ") + n;
      return Status::InvalidArgument(session + ": '" + k + "' cannot change while running (only " + only + "); start a new session");
    }
    members.emplace_back(k, v);
  }
  std::vector<ParamSpec> fields;
  for (const ParamSpec& s : schema) {
    if (!patch || named(live, s.name)) fields.push_back(s);
  }
  return ResolveParams(session, fields, JsonValue::MakeObject(std::move(members)));
}

StatusOr<ParamValues> ResolveParamStrings(const std::string& exp, const std::vector<ParamSpec>& schema,
                                          const std::vector<std::pair<std::string, std::string>>& given) {
  std::vector<std::pair<std::string, JsonValue>> members;
  for (const auto& kv : given) {
    const ParamSpec* s = FindSpec(schema, kv.first);
    if (!s) return UnknownParam(exp, schema, kv.first);
    for (const auto& m : members) {
      if (m.first == kv.first) return Status::InvalidArgument("parameter '" + kv.first + "' given twice");
    }
    const std::string& text = kv.second;
    JsonValue v;
    switch (s->type) {
      case ParamType::kInt:
      case ParamType::kReal: {
        char* end = nullptr;
        double d = text.empty() ? 0 : std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size()) {
          return Status::InvalidArgument("parameter '" + s->name + "' of " + exp + " must be a number in " +
                                         RangeText(*s) + ", got '" + text + "'");
        }
        v = JsonValue::MakeNumber(d);
        break;
      }
      case ParamType::kBool:
        if (text == "true" || text == "1") {
          v = JsonValue::MakeBool(true);
        } else if (text == "false" || text == "0") {
          v = JsonValue::MakeBool(false);
        } else {
          return Status::InvalidArgument("parameter '" + s->name + "' of " + exp + " must be true or false, got '" +
                                         text + "'");
        }
        break;
      case ParamType::kChoice:
      case ParamType::kString:
        v = JsonValue::MakeString(text);
        break;
    }
    members.emplace_back(kv.first, std::move(v));
  }
  return ResolveParams(exp, schema, JsonValue::MakeObject(std::move(members)));
}

void WriteParamSpecJson(const ParamSpec& s, JsonWriter* w) {
  w->BeginObject();
  WriteParamSpecFields(s, w);
  w->EndObject();
}

void WriteParamSpecFields(const ParamSpec& s, JsonWriter* w) {
  w->Key("name");
  w->String(s.name);
  w->Key("type");
  w->String(ParamTypeName(s.type));
  w->Key("default");
  switch (s.type) {
    case ParamType::kChoice:
    case ParamType::kString: w->String(s.default_choice); break;
    case ParamType::kBool: w->Bool(s.default_value != 0); break;
    default: w->Number(s.default_value);
  }
  if (s.type == ParamType::kInt || s.type == ParamType::kReal) {
    w->Key("min");
    w->Number(s.min);
    w->Key("max");
    w->Number(s.max);
  }
  if (s.type == ParamType::kChoice) {
    w->Key("choices");
    w->BeginArray(true);
    for (const std::string& c : s.choices) w->String(c);
    w->EndArray();
    if (!s.labels.empty()) {
      w->Key("labels");
      w->BeginArray(true);
      for (const std::string& l : s.labels) w->String(l);
      w->EndArray();
    }
  }
  w->Key("unit");
  w->String(s.unit);
  w->Key("help");
  w->String(s.help);
}

}  // namespace fawnlab
