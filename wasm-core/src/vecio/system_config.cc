// Validate(SystemConfig) and PatternName: each field's range, named in the message.
#include <string>

#include "base/json_writer.h"
#include "vecio/system.h"

namespace fawnlab::vecio {
namespace {

Status Range(const std::string& field, double v, double lo, double hi, const std::string& unit) {
  if (v >= lo && v <= hi) return Status::Ok();
  return Status::InvalidArgument("'" + field + "' = " + FormatNumber(v) + " is out of range [" + FormatNumber(lo) + ", " +
                                 FormatNumber(hi) + "]" + (unit.empty() ? "" : " (" + unit + ")"));
}

}  // namespace

const char* PatternName(Pattern p) { return p == Pattern::kQueue ? "queue" : "auto"; }

Status Validate(const SystemConfig& c) {
  struct Check {
    const char* field;
    double v, lo, hi;
    const char* unit;
  };
  const Check checks[] = {
      {"multiget", double(c.multiget), 1, 256, "keys per RPC (G)"},
      {"multiread", double(c.multiread), 1, 256, "keys per device command (R)"},
      {"queue_timeout_us", c.queue_timeout_us, 0, 1e6, "µs"},
      {"load_per_s", c.load_per_s, 1, 5e6, "lookups/s"},
      {"clients", double(c.clients), 1, 256, "connections"},
      {"cores", double(c.cores), 0, 64, "cores, 0 = the host's"},
      {"keys", double(c.keys), 64, 1 << 20, "records"},
      {"link_gbps", c.link_gbps, 0.01, 100, "Gbit/s"},
      {"base_rtt_us", c.base_rtt_us, 0, 100000, "µs"},
      {"key_bytes", double(c.key_bytes), 1, 1024, "bytes"},
      {"value_bytes", double(c.value_bytes), 1, 65536, "bytes"},
      {"read_bytes", double(c.read_bytes), 64, 65536, "bytes"},
      {"nic_queues", double(c.nic_queues), 1, 64, "rx rings"},
      {"nic_coalesce_us", c.nic_coalesce_us, 0, 10000, "µs"},
      {"ack_delay_us", c.ack_delay_us, 0, 100000, "µs"},
  };
  for (const Check& k : checks) {
    Status s = Range(k.field, k.v, k.lo, k.hi, k.unit);
    if (!s.ok()) return s;
  }
  if (c.pattern != Pattern::kAuto && c.pattern != Pattern::kQueue) return Status::InvalidArgument("'pattern' must be auto or queue");
  if (FindHostProfile(c.host) == nullptr) {
    std::string known;
    for (const HostProfile& p : HostProfiles()) known += (known.empty() ? "" : ", ") + p.id;
    return Status::InvalidArgument("'host' = \"" + c.host + "\" is not a host profile (" + known + ")");
  }
  return Status::Ok();
}

}  // namespace fawnlab::vecio
