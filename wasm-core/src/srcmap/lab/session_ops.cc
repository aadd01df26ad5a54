// SrcmapSession: the operations the page sends (their arguments already checked against the
// schema in srcmap/lab/schema.cc): run_to, locate, load_trace.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

#include "base/json_writer.h"
#include "srcmap/lab/session.h"

namespace fawnlab::srcmap {
namespace {

std::string Clock(int64_t t_ns) {
  int64_t min = t_ns / DayRun::kMinNs;
  char b[16];
  std::snprintf(b, sizeof b, "%02lld:%02lld", static_cast<long long>(min / 60), static_cast<long long>(min % 60));
  return b;
}

void IntList(JsonWriter& w, const char* key, const std::vector<int>& v) {
  w.Key(key);
  w.BeginArray(true);
  for (int x : v) w.Int(x);
  w.EndArray();
}

}  // namespace

StatusOr<std::string> SrcmapSession::RunOp(const std::string& name, const ParamValues& args, const JsonValue&) {
  if (name == "run_to") return DoRunTo(args);
  if (name == "locate") return DoLocate(args);
  if (name == "load_trace") return DoLoadTrace(args);
  return Status::InvalidArgument("unknown operation '" + name + "'");
}

StatusOr<std::string> SrcmapSession::DoRunTo(const ParamValues& args) {
  const double hour = args.Real("hour");
  const int64_t to = static_cast<int64_t>(std::llround(hour * 3.6e12));
  if (to < now_ns()) {
    return Status::InvalidArgument("run_to: 'hour' " + FormatNumber(hour) + " is before the day's clock (" + Clock(now_ns()) +
                                   "); the day runs forward only");
  }
  uint64_t n = RunTo(to, UINT64_MAX);
  if (!last_error_.empty()) return Status::InvalidArgument("run_to: " + last_error_);
  JsonWriter w;
  w.BeginObject();
  w.Key("t_h");
  w.Number(static_cast<double>(now_ns()) / 3.6e12);
  w.Key("requests");
  w.Int(static_cast<int64_t>(n));
  w.Key("done");
  w.Bool(done());
  w.EndObject();
  return w.str();
}

StatusOr<std::string> SrcmapSession::DoLocate(const ParamValues& args) {
  const int v = static_cast<int>(args.Int("volume"));
  if (v >= run_->num_volumes()) {
    return Status::InvalidArgument("locate: 'volume' " + std::to_string(v) + " is not in the day: it has " +
                                   std::to_string(run_->num_volumes()) + " volumes (0-" +
                                   std::to_string(run_->num_volumes() - 1) + ")");
  }
  const double mb = args.Real("offset_mb");
  const uint64_t bytes = run_->history(v).bytes;
  const double offset = std::floor(mb * 1e6);
  if (!(offset < static_cast<double>(bytes))) {
    return Status::InvalidArgument("locate: 'offset_mb' " + FormatNumber(mb) + " is past the end of volume " +
                                   std::to_string(v) + " (" + FormatNumber(static_cast<double>(bytes) / 1e6) + " MB)");
  }
  const ReplicaManager& rm = run_->replicas();
  const uint64_t e = std::min<uint64_t>(static_cast<uint64_t>(offset) / run_->extent_bytes(), rm.extents(v) - 1);
  const int u = rm.UnitOf(v, e);
  const uint32_t latest = rm.Latest(v, e);
  std::vector<int> replicas, latest_on;
  if (rm.PrimaryVersion(v, e) == latest) latest_on.push_back(v);
  for (int d = 0; d < run_->num_disks(); ++d) {
    int r = rm.ReplicaOn(u, d);
    if (r < 0) continue;
    replicas.push_back(d);
    if (rm.HeldVersion(r, e) == static_cast<int64_t>(latest)) latest_on.push_back(d);
  }
  std::sort(latest_on.begin(), latest_on.end());
  const auto& ws = run_->history(v).ws;
  JsonWriter w;
  w.BeginObject();
  w.Key("volume");
  w.Int(v);
  w.Key("extent");
  w.Int(static_cast<int64_t>(e));
  w.Key("primary");
  w.Int(v);
  w.Key("serving");
  w.Int(rm.ServingDisk(u));
  IntList(w, "replicas", replicas);
  w.Key("in_working_set");
  w.Bool(std::binary_search(ws.begin(), ws.end(), e));
  w.Key("dirty");
  w.Bool(latest > rm.PrimaryVersion(v, e));
  IntList(w, "latest_on", latest_on);
  w.EndObject();
  return w.str();
}

StatusOr<std::string> SrcmapSession::DoLoadTrace(const ParamValues& args) {
  const double history_h = args.Real("history_h");
  if (!(history_h > 0)) return Status::InvalidArgument("load_trace: 'history_h' must be > 0 (hours of the trace before the day)");
  auto t = ImportMsrCsv(args.Text("csv"));
  if (!t.ok()) return Status::InvalidArgument("load_trace: " + t.status().message());
  auto trace = std::make_unique<ImportedTrace>(std::move(t).value());
  const int64_t history_ns = static_cast<int64_t>(std::llround(history_h * 3.6e12));
  if (history_ns >= trace->span_ns) {
    return Status::InvalidArgument("load_trace: 'history_h' " + FormatNumber(history_h) + " is not inside the trace, which spans " +
                                   FormatNumber(static_cast<double>(trace->span_ns) / 3.6e12) + " h");
  }
  const size_t volumes = trace->volume_names.size();
  const size_t requests = trace->requests.size();
  const double span_h = static_cast<double>(trace->span_ns) / 3.6e12;
  if (Status st = StartTrace(std::move(trace), history_ns); !st.ok()) return Status::InvalidArgument("load_trace: " + st.message());
  last_error_.clear();
  JsonWriter w;
  w.BeginObject();
  w.Key("volumes");
  w.Int(static_cast<int64_t>(volumes));
  w.Key("requests");
  w.Int(static_cast<int64_t>(requests));
  w.Key("span_h");
  w.Number(span_h);
  w.Key("history_h");
  w.Number(history_h);
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::srcmap
