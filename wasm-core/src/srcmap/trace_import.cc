#include "srcmap/trace_import.h"

#include <algorithm>
#include <map>

namespace fawnlab::srcmap {
namespace {

bool ParseU64(std::string_view s, uint64_t* out) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

std::string Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

}  // namespace

StatusOr<ImportedTrace> ImportMsrCsv(std::string_view text, int max_volumes, uint32_t extent_bytes) {
  ImportedTrace out;
  std::map<std::string, uint32_t> ids;
  std::vector<uint64_t> top;
  struct Raw {
    uint64_t ts;
    Request r;
  };
  std::vector<Raw> raw;
  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    std::string trimmed = Trim(line);
    if (trimmed.empty()) continue;
    std::vector<std::string_view> f;
    size_t a = 0;
    std::string_view l(trimmed);
    while (true) {
      size_t c = l.find(',', a);
      f.push_back(l.substr(a, c == std::string_view::npos ? std::string_view::npos : c - a));
      if (c == std::string_view::npos) break;
      a = c + 1;
    }
    auto err = [&](const std::string& what) {
      return Status::InvalidArgument("trace line " + std::to_string(line_no) + ": " + what);
    };
    uint64_t ts = 0, disk = 0, offset = 0, size = 0, resp = 0;
    if (raw.empty() && Lower(Trim(f[0])) == "timestamp") continue;  // a header line
    if (f.size() != 7) {
      return err("expected 7 comma-separated fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), found " +
                 std::to_string(f.size()));
    }
    if (!ParseU64(f[0], &ts)) return err("Timestamp '" + Trim(f[0]) + "' is not a whole number of 100 ns ticks");
    std::string host = Trim(f[1]);
    if (host.empty()) return err("Hostname is empty");
    if (!ParseU64(f[2], &disk)) return err("DiskNumber '" + Trim(f[2]) + "' is not a whole number");
    std::string type = Lower(Trim(f[3]));
    if (type != "read" && type != "write") return err("Type '" + Trim(f[3]) + "' is neither Read nor Write");
    if (!ParseU64(f[4], &offset)) return err("Offset '" + Trim(f[4]) + "' is not a whole number of bytes");
    if (!ParseU64(f[5], &size)) return err("Size '" + Trim(f[5]) + "' is not a whole number of bytes");
    if (size == 0) return err("Size is 0");
    if (size > (uint64_t{1} << 30)) return err("Size " + std::to_string(size) + " exceeds 1 GiB");
    if (!ParseU64(f[6], &resp)) return err("ResponseTime '" + Trim(f[6]) + "' is not a whole number of 100 ns ticks");
    if (offset > (uint64_t{1} << 56)) return err("Offset " + std::to_string(offset) + " is beyond any disk");
    std::string name = host + ":" + std::to_string(disk);
    auto it = ids.find(name);
    if (it == ids.end()) {
      if (static_cast<int>(ids.size()) >= max_volumes) {
        return err("volume '" + name + "' is the trace's " + std::to_string(ids.size() + 1) + "th; at most " +
                   std::to_string(max_volumes) + " volumes (one per disk)");
      }
      it = ids.emplace(name, static_cast<uint32_t>(ids.size())).first;
      out.volume_names.push_back(name);
      top.push_back(0);
    }
    Raw x;
    x.ts = ts;
    x.r.volume = it->second;
    x.r.write = type == "write";
    x.r.offset = offset;
    x.r.bytes = static_cast<uint32_t>(size);
    top[it->second] = std::max(top[it->second], offset + size);
    raw.push_back(x);
  }
  if (raw.empty()) return Status::InvalidArgument("trace: no requests");
  std::stable_sort(raw.begin(), raw.end(), [](const Raw& a, const Raw& b) { return a.ts < b.ts; });
  uint64_t t0 = raw.front().ts;
  out.requests.reserve(raw.size());
  for (Raw& x : raw) {
    x.r.t_ns = static_cast<int64_t>((x.ts - t0) * 100);
    out.requests.push_back(x.r);
  }
  out.span_ns = out.requests.back().t_ns;
  for (uint64_t b : top) out.volume_bytes.push_back((b + extent_bytes - 1) / extent_bytes * extent_bytes);
  return out;
}

}  // namespace fawnlab::srcmap
