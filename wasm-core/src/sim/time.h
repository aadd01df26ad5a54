// Virtual time. Every simulated clock in fawnlab counts integer nanoseconds from the start of
// a run; nothing in model code reads a wall clock. int64 ns covers 292 years of virtual time.
#ifndef FAWNLAB_SIM_TIME_H_
#define FAWNLAB_SIM_TIME_H_

#include <cstdint>

namespace fawnlab::sim {

using SimTime = int64_t;      // an instant, ns since the start of the run
using SimDuration = int64_t;  // a span, ns

constexpr SimDuration kNs = 1;
constexpr SimDuration kUs = 1000;
constexpr SimDuration kMs = 1000 * kUs;
constexpr SimDuration kSec = 1000 * kMs;
constexpr SimTime kTimeMax = INT64_MAX;

// Converts a duration in (fractional) microseconds to ns, rounding to nearest.
// REQUIRES: 0 <= us < 9.2e12.
inline SimDuration UsToNs(double us) { return static_cast<SimDuration>(us * 1000.0 + 0.5); }
inline double NsToUs(SimDuration ns) { return static_cast<double>(ns) / 1000.0; }
inline double NsToSec(SimDuration ns) { return static_cast<double>(ns) / 1e9; }

}  // namespace fawnlab::sim

#endif  // FAWNLAB_SIM_TIME_H_
