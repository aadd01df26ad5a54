#include "base/op_args.h"

#include <algorithm>
#include <cmath>

namespace fawnlab {
namespace {

// Refuses any member of `op` besides "op" and `fields`, naming the operation and its fields.
Status CheckOpFields(const JsonValue& op, const std::string& kind, const std::vector<std::string>& fields) {
  for (const auto& [k, _] : op.object_members()) {
    if (k == "op" || std::find(fields.begin(), fields.end(), k) != fields.end()) continue;
    std::string known;
    for (const std::string& f : fields) known += (known.empty() ? "" : ", ") + f;
    return Status::InvalidArgument("unknown field '" + k + "' for " + kind + " (known: " + (known.empty() ? "none" : known) + ")");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<const OpSpec*> FindOp(const JsonValue& op, const std::vector<OpSpec>& ops) {
  std::string names;
  for (const OpSpec& s : ops) names += (names.empty() ? "" : ", ") + std::string(s.name);
  if (!op.is_object() || !op.Find("op") || !op.Find("op")->is_string()) {
    return Status::InvalidArgument("an operation is a JSON object with \"op\": one of " + names);
  }
  const std::string& kind = op.Find("op")->string_value();
  for (const OpSpec& s : ops) {
    if (kind != s.name) continue;
    if (Status st = CheckOpFields(op, kind, s.fields); !st.ok()) return st;
    return &s;
  }
  return Status::InvalidArgument("unknown operation '" + kind + "' (known: " + names + ")");
}

StatusOr<uint64_t> UIntArg(const JsonValue& op, const char* name, uint64_t def, uint64_t min, uint64_t max, bool required) {
  const JsonValue* v = op.Find(name);
  if (!v) {
    if (required) return Status::InvalidArgument(std::string("'") + name + "' is required");
    return def;
  }
  if (!v->is_number() || v->number_value() != std::floor(v->number_value()) || v->number_value() < static_cast<double>(min) ||
      v->number_value() > static_cast<double>(max)) {
    return Status::InvalidArgument(std::string("'") + name + "' must be an integer in [" + std::to_string(min) + ", " +
                                   std::to_string(max) + "]");
  }
  return static_cast<uint64_t>(v->number_value());
}

Status CheckAppKey(const std::string& key, size_t max_bytes) {
  if (key.empty() || key.size() > max_bytes) {
    return Status::InvalidArgument("key must be 1 to " + std::to_string(max_bytes) + " characters (got " +
                                   std::to_string(key.size()) + ")");
  }
  for (unsigned char c : key) {
    if (c < 0x20 || c == 0x7f) return Status::InvalidArgument("key must not contain control characters");
  }
  return Status::Ok();
}


}  // namespace fawnlab
