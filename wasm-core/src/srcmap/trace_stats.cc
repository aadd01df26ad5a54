#include "srcmap/trace_stats.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/det_math.h"
#include "srcmap/flat_map.h"

namespace fawnlab::srcmap {
namespace {

struct Acc {
  FlatMap<uint16_t> r, w, any;  // 64 KB group -> mask of its 4 KB blocks (FlatMap: the hot path)
  std::map<int64_t, uint64_t> per_minute;
  int64_t last_read = -1;
  bool write_since_read = false;
  std::vector<double> idle_s;
};

uint64_t CountBits(const FlatMap<uint16_t>& m) {
  uint64_t n = 0;
  m.ForEach([&](uint64_t, uint16_t x) {
    while (x) {
      x &= static_cast<uint16_t>(x - 1);
      ++n;
    }
  });
  return n;
}

void Mark(FlatMap<uint16_t>* m, uint64_t offset, uint32_t bytes) {
  uint64_t first = offset / kBlockBytes, last = (offset + std::max<uint32_t>(bytes, 1) - 1) / kBlockBytes;
  for (uint64_t b = first; b <= last; ++b) (*m)[b >> 4] |= static_cast<uint16_t>(1u << (b & 15));
}

}  // namespace

double RangeDecades(const std::vector<uint32_t>& per_minute, int bin_minutes) {
  const size_t w = static_cast<size_t>(std::max(1, bin_minutes));
  uint64_t hi = 0, lo = UINT64_MAX;
  for (size_t i = 0; i < per_minute.size(); i += w) {
    uint64_t n = 0;
    for (size_t j = i; j < i + w && j < per_minute.size(); ++j) n += per_minute[j];
    if (n == 0) continue;
    hi = std::max(hi, n);
    lo = std::min(lo, n);
  }
  return hi ? sim::det::Log(static_cast<double>(hi) / static_cast<double>(lo)) / sim::det::Log(10.0) : 0;
}

StatusOr<TraceStats> MeasureTrace(RequestSource* src, int num_volumes, int64_t span_ns) {
  if (num_volumes <= 0) return Status::InvalidArgument("trace stats: no volumes");
  std::vector<Acc> acc(static_cast<size_t>(num_volumes));
  TraceStats out;
  out.volumes.resize(static_cast<size_t>(num_volumes));
  Request r;
  int64_t last_t = 0, first_t = -1;
  constexpr int64_t kMinNs = int64_t{60} * 1000000000;
  while (src->Next(&r)) {
    if (r.volume >= static_cast<uint32_t>(num_volumes)) {
      return Status::InvalidArgument("trace stats: a request names volume " + std::to_string(r.volume) + " of " +
                                     std::to_string(num_volumes));
    }
    if (first_t < 0) first_t = r.t_ns;
    last_t = r.t_ns;
    VolumeStats& s = out.volumes[r.volume];
    Acc& a = acc[r.volume];
    ++a.per_minute[r.t_ns / kMinNs];
    Mark(&a.any, r.offset, r.bytes);
    if (r.write) {
      ++s.writes;
      s.write_bytes += r.bytes;
      Mark(&a.w, r.offset, r.bytes);
      a.write_since_read = true;
    } else {
      ++s.reads;
      s.read_bytes += r.bytes;
      Mark(&a.r, r.offset, r.bytes);
      if (a.last_read >= 0 && a.write_since_read) a.idle_s.push_back(static_cast<double>(r.t_ns - a.last_read) / 1e9);
      a.last_read = r.t_ns;
      a.write_since_read = false;
    }
  }
  int64_t span = span_ns > 0 ? span_ns : std::max<int64_t>(1, last_t - std::max<int64_t>(first_t, 0));
  out.span_s = static_cast<double>(span) / 1e9;
  for (int v = 0; v < num_volumes; ++v) {
    VolumeStats& s = out.volumes[static_cast<size_t>(v)];
    Acc& a = acc[static_cast<size_t>(v)];
    s.uniq_read_bytes = CountBits(a.r) * kBlockBytes;
    s.uniq_write_bytes = CountBits(a.w) * kBlockBytes;
    s.uniq_bytes = CountBits(a.any) * kBlockBytes;
    s.avg_iops = static_cast<double>(s.reads + s.writes) / out.span_s;
    uint64_t hi = 0, lo = UINT64_MAX;
    for (const auto& kv : a.per_minute) {
      hi = std::max(hi, kv.second);
      lo = std::min(lo, kv.second);
    }
    s.max_iops = static_cast<double>(hi) / 60.0;
    s.decades = hi ? sim::det::Log(static_cast<double>(hi) / static_cast<double>(lo)) / sim::det::Log(10.0) : 0;
    std::map<int64_t, uint64_t> per_hour;
    for (const auto& kv : a.per_minute) per_hour[kv.first / 60] += kv.second;
    uint64_t hh = 0, hl = UINT64_MAX;
    for (const auto& kv : per_hour) {
      hh = std::max(hh, kv.second);
      hl = std::min(hl, kv.second);
    }
    s.decades_hour = hh ? sim::det::Log(static_cast<double>(hh) / static_cast<double>(hl)) / sim::det::Log(10.0) : 0;
    s.read_idle_periods = a.idle_s.size();
    uint64_t le2 = 0, le5 = 0, lt30 = 0;
    for (double x : a.idle_s) {
      s.read_idle_max_s = std::max(s.read_idle_max_s, x);
      le2 += x <= 120;
      le5 += x <= 300;
      lt30 += x < 1800;
    }
    if (!a.idle_s.empty()) {
      double n = static_cast<double>(a.idle_s.size());
      s.read_idle_le_2min = static_cast<double>(le2) / n;
      s.read_idle_le_5min = static_cast<double>(le5) / n;
      s.read_idle_lt_30min = static_cast<double>(lt30) / n;
    }
  }
  return out;
}

}  // namespace fawnlab::srcmap
