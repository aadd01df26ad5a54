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
  return d;
}

StatusOr<DayReport> RunScaled(const ScaledDay& d, DayConfig c) {
  c.capacity_scale *= d.rate_scale;
  c.history_days = kHistoryDays;
  return RunGeneratedDayWith(*d.gen, d.hist, c);
}

ParamSpec RateScaleParam(double default_value, const std::string& help) {
  return ParamSpec::Real("rate_scale", default_value, 0.01, 1, "× Table 3.2's IOPS", help);
}

}  // namespace fawnlab::srcmap
