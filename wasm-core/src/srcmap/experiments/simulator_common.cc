#include "srcmap/experiments/simulator_common.h"

#include <cstdio>

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

ParamSpec RateScaleParam(double default_value, const std::string& help) {
  return ParamSpec::Real("rate_scale", default_value, 0.01, 1, "× Table 3.2's IOPS", help);
}

}  // namespace fawnlab::srcmap
