#include "fawnkvhost/host_config.h"

#include <cmath>

#include "base/json_reader.h"
#include "fawnkv/codec.h"

namespace fawnlab::fawnkvhost {

namespace {

// Reads integer member `name` into *out when present, checking [lo, hi].
Status Int(const JsonValue& v, const char* name, double lo, double hi, int64_t* out) {
  const JsonValue* m = v.Find(name);
  if (!m) return Status::Ok();
  const std::string range = "[" + std::to_string(static_cast<int64_t>(lo)) + ", " + std::to_string(static_cast<int64_t>(hi)) + "]";
  if (!m->is_number() || std::floor(m->number_value()) != m->number_value()) {
    return Status::InvalidArgument("config: '" + std::string(name) + "' must be an integer in " + range);
  }
  if (m->number_value() < lo || m->number_value() > hi) {
    return Status::InvalidArgument("config: '" + std::string(name) + "' = " + std::to_string(static_cast<int64_t>(m->number_value())) +
                                   " is out of range " + range);
  }
  *out = static_cast<int64_t>(m->number_value());
  return Status::Ok();
}

}  // namespace

StatusOr<HostConfig> ParseHostConfig(std::string_view json) {
  StatusOr<JsonValue> parsed = ParseJson(json);
  if (!parsed.ok()) return Status::InvalidArgument("config: " + parsed.status().message());
  const JsonValue& v = parsed.value();
  if (!v.is_object()) return Status::InvalidArgument("config: must be a JSON object");
  static const char* kKnown[] = {"role", "id", "dataDir", "replicas", "vids", "fileBytes", "indexBits",
                                 "heartbeatMs", "missed", "cacheEntries", "timeoutMs", "checkpointMs", "recoverMs"};
  for (const auto& [name, value] : v.object_members()) {
    bool known = false;
    for (const char* k : kKnown) known = known || name == k;
    if (!known) return Status::InvalidArgument("config: unknown member '" + name + "'");
  }
  HostConfig c;
  const JsonValue* role = v.Find("role");
  if (!role || !role->is_string() || (role->string_value() != "backend" && role->string_value() != "frontend")) {
    return Status::InvalidArgument("config: 'role' must be \"backend\" or \"frontend\"");
  }
  c.frontend = role->string_value() == "frontend";
  if (const JsonValue* d = v.Find("dataDir")) {
    if (!d->is_string()) return Status::InvalidArgument("config: 'dataDir' must be a string");
    c.data_dir = d->string_value();
  }
  if (!c.frontend && c.data_dir.empty()) return Status::InvalidArgument("config: a back-end needs 'dataDir' (where its card file lives)");
  int64_t id = c.id, r = c.replicas, vids = c.vids, fb = static_cast<int64_t>(c.file_bytes), ib = c.index_bits;
  int64_t missed = c.missed, cache = static_cast<int64_t>(c.cache_entries);
  Status s;
  if (!(s = Int(v, "id", 0, fawnkv::codec::kMaxBackendId, &id)).ok()) return s;
  if (!(s = Int(v, "replicas", 1, 16, &r)).ok()) return s;
  if (!(s = Int(v, "vids", 1, 64, &vids)).ok()) return s;
  if (!(s = Int(v, "fileBytes", 1 << 20, 1 << 30, &fb)).ok()) return s;
  if (!(s = Int(v, "indexBits", 8, 22, &ib)).ok()) return s;
  if (!(s = Int(v, "heartbeatMs", 10, 60000, &c.heartbeat_ms)).ok()) return s;
  if (!(s = Int(v, "missed", 1, 100, &missed)).ok()) return s;
  if (!(s = Int(v, "cacheEntries", 0, 1 << 24, &cache)).ok()) return s;
  if (!(s = Int(v, "timeoutMs", 10, 600000, &c.timeout_ms)).ok()) return s;
  if (!(s = Int(v, "checkpointMs", 0, 3600000, &c.checkpoint_ms)).ok()) return s;
  if (!(s = Int(v, "recoverMs", 100, 3600000, &c.recover_ms)).ok()) return s;
  c.id = static_cast<int>(id);
  c.replicas = static_cast<int>(r);
  c.vids = static_cast<int>(vids);
  c.file_bytes = static_cast<uint64_t>(fb);
  c.index_bits = static_cast<int>(ib);
  c.missed = static_cast<int>(missed);
  c.cache_entries = static_cast<uint64_t>(cache);
  return c;
}

}  // namespace fawnlab::fawnkvhost
