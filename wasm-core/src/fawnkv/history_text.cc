#include "fawnkv/history_text.h"

#include <charconv>
#include <vector>

#include "base/json_writer.h"

namespace fawnlab::fawnkv {
namespace {

Status LineError(size_t line, const std::string& what) {
  return Status::InvalidArgument("history line " + std::to_string(line) + ": " + what);
}

bool ParseInt(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

StatusOr<History> ParseHistoryText(std::string_view text) {
  History h;
  size_t line = 0;
  size_t at = 0;
  while (at < text.size()) {
    ++line;
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(at, end - at);
    at = end + 1;
    if (l.empty()) continue;
    std::vector<std::string_view> f;
    size_t s = 0;
    for (;;) {
      size_t t = l.find('\t', s);
      f.push_back(l.substr(s, t == std::string_view::npos ? std::string_view::npos : t - s));
      if (t == std::string_view::npos) break;
      s = t + 1;
    }
    if (f.size() != 7) return LineError(line, "expected 7 tab-separated fields, got " + std::to_string(f.size()));
    HistoryOp op;
    if (f[0] == "put") {
      op.kind = HistoryOp::Kind::kPut;
    } else if (f[0] == "get") {
      op.kind = HistoryOp::Kind::kGet;
    } else if (f[0] == "del") {
      op.kind = HistoryOp::Kind::kDelete;
    } else {
      return LineError(line, "kind must be put, get or del, got '" + std::string(f[0].substr(0, 16)) + "'");
    }
    op.key = std::string(f[1]);
    op.value = std::string(f[2]);
    if (f[3] != "0" && f[3] != "1") return LineError(line, "found must be 0 or 1");
    op.found = f[3] == "1";
    if (!ParseInt(f[4], &op.invoke_ns) || op.invoke_ns < 0) return LineError(line, "invoke ns must be an integer ≥ 0");
    if (!ParseInt(f[5], &op.complete_ns) || op.complete_ns < -1) return LineError(line, "complete ns must be an integer ≥ −1");
    if (f[6] != "0" && f[6] != "1") return LineError(line, "ok must be 0 or 1");
    op.ok = f[6] == "1";
    if (op.ok && op.complete_ns < op.invoke_ns) return LineError(line, "an ok operation must complete no earlier than it was invoked");
    h.Add(std::move(op));
  }
  return h;
}

std::string CheckReportJson(const CheckReport& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("ok");
  w.Bool(true);
  w.Key("keys");
  w.Int(static_cast<int64_t>(r.keys));
  w.Key("operations");
  w.Int(static_cast<int64_t>(r.operations));
  w.Key("violations");
  w.Int(static_cast<int64_t>(r.violations));
  w.Key("undetermined_keys");
  w.Int(static_cast<int64_t>(r.undetermined_keys));
  w.Key("details");
  w.BeginArray();
  for (const std::string& d : r.details) w.String(d);
  w.EndArray();
  w.EndObject();
  return w.str();
}

std::string CheckHistoryText(std::string_view text, size_t max_details) {
  auto h = ParseHistoryText(text);
  if (!h.ok()) {
    JsonWriter w;
    w.BeginObject();
    w.Key("ok");
    w.Bool(false);
    w.Key("error");
    w.String(h.status().message());
    w.EndObject();
    return w.str();
  }
  return CheckReportJson(CheckLinearizable(h.value(), max_details));
}

}  // namespace fawnlab::fawnkv
