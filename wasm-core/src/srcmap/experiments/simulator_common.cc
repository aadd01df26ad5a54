#include "srcmap/experiments/simulator_common.h"

#include <cstdio>
#include <utility>

#include "srcmap/profile.h"

namespace fawnlab::srcmap {

std::string VolumeAxis() {
  std::string s = "volume (";
  for (int v = 0; v < kNumDisks; ++v) {
    if (v) s += ", ";
    s += std::to_string(v) + " " + EvaluationVolumes()[static_cast<size_t>(v)].name;
  }
  return s + ")";
}

std::string Sig(double v, int digits) {
  char buf[40];
  if (v >= 1e4 || v <= -1e4) {
    std::snprintf(buf, sizeof buf, "%.0f", v);  // counts in full
  } else {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  }
  return buf;
}

StatusOr<ScaledDay> PrepareScaledDay(uint64_t seed, double rate_scale) {
  ScaledDay d;
  d.rate_scale = rate_scale;
  auto full = Generator::Create(EvaluationWorkload(seed));
  if (!full.ok()) return full.status();
  auto hist = GeneratedHistory(*full.value(), kHistoryDays);
  if (!hist.ok()) return hist.status();
  d.hist = std::move(hist.value());
  for (VolumeHistory& h : d.hist) h.rho *= rate_scale;
  WorkloadConfig wc = EvaluationWorkload(seed);
  wc.rate_scale = rate_scale;
  auto gen = Generator::Create(wc);
  if (!gen.ok()) return gen.status();
  d.gen = std::move(gen.value());
  double expected = 0;
  for (const VolumeWorkload& v : wc.volumes) expected += v.avg_iops * rate_scale * 86400;
  if (expected <= kKeptRequests) {  // with the warm start's interval before 00:00
    const int64_t from = static_cast<int64_t>(kHistoryDays) * kDayNs - static_cast<int64_t>(DayConfig{}.interval_h * 3.6e12);
    auto src = d.gen->Days(kHistoryDays - 1, 2);
    Request r;
    while (src->Next(&r)) {
      if (r.t_ns >= from) d.requests.push_back(r);
    }
  }
  return d;
}

StatusOr<DayReport> RunScaled(const ScaledDay& d, DayConfig c) {
  c.capacity_scale *= d.rate_scale;
  c.history_days = kHistoryDays;
  if (d.requests.empty()) return RunGeneratedDayWith(*d.gen, d.hist, c);
  // RunGeneratedDayWith on the kept requests (its whole day: from_h 0 to 24).
  VectorSource src(&d.requests);
  const int64_t day0 = static_cast<int64_t>(kHistoryDays) * kDayNs;
  return RunDay(d.hist, d.gen->config().extent_bytes, &src, day0, day0 + kDayNs, c);
}

ParamSpec RateScaleParam(double default_value, const std::string& help) {
  return ParamSpec::Real("rate_scale", default_value, 0.01, 1, "× Table 3.2's IOPS", help);
}

}  // namespace fawnlab::srcmap
