#include "ycsb/zipfian.h"

#include <cassert>

#include "sim/det_math.h"

namespace fawnlab::ycsb {

uint64_t FnvHash64(uint64_t v) {
  uint64_t h = 0xCBF29CE484222325ULL;  // FNV offset basis (64-bit)
  for (int i = 0; i < 8; ++i) {
    h ^= v & 0xff;
    v >>= 8;
    h *= 1099511628211ULL;  // FNV prime (64-bit)
  }
  // Java's Math.abs on the signed value (Long.MIN_VALUE stays itself; as unsigned, 2^63).
  return (h >> 63) ? (~h + 1) : h;
}

double Zeta(uint64_t st, uint64_t n, double theta, double initial) {
  double sum = initial;
  for (uint64_t i = st; i < n; ++i) sum += 1.0 / sim::det::Pow(static_cast<double>(i + 1), theta);
  return sum;
}

Zipfian::Zipfian(uint64_t min, uint64_t max, double theta, double zetan)
    : items_(max - min + 1), base_(min), theta_(theta) {
  assert(max >= min && theta > 0 && theta < 1);
  zeta2theta_ = Zeta(0, 2, theta_, 0);
  alpha_ = 1.0 / (1.0 - theta_);
  zetan_ = zetan < 0 ? Zeta(0, items_, theta_, 0) : zetan;
  countforzeta_ = items_;
  eta_ = (1 - sim::det::Pow(2.0 / static_cast<double>(items_), 1 - theta_)) / (1 - zeta2theta_ / zetan_);
}

uint64_t Zipfian::Next(sim::Rng& rng) { return Next(rng, items_); }

uint64_t Zipfian::Next(sim::Rng& rng, uint64_t itemcount) {
  if (itemcount > countforzeta_) {
    // More items: extend zeta incrementally. YCSB keeps eta's `items` term at the original
    // count (its code does); so do we. A smaller count keeps zeta (allowitemcountdecrease=false).
    zetan_ = Zeta(countforzeta_, itemcount, theta_, zetan_);
    countforzeta_ = itemcount;
    eta_ = (1 - sim::det::Pow(2.0 / static_cast<double>(items_), 1 - theta_)) / (1 - zeta2theta_ / zetan_);
  }
  const double u = rng.UniformDouble();
  const double uz = u * zetan_;
  if (uz < 1.0) return base_;
  if (uz < 1.0 + sim::det::Pow(0.5, theta_)) return base_ + 1;
  const double x = static_cast<double>(itemcount) * sim::det::Pow(eta_ * u - eta_ + 1, alpha_);
  return base_ + static_cast<uint64_t>(x);  // Java's (long) cast: truncation
}

ScrambledZipfian::ScrambledZipfian(uint64_t min, uint64_t max)
    : min_(min), itemcount_(max - min + 1), gen_(0, kScrambledItemCount, kZipfianConstant, kScrambledZetan) {}

uint64_t ScrambledZipfian::Next(sim::Rng& rng) {
  const uint64_t r = gen_.Next(rng);
  return min_ + FnvHash64(r) % itemcount_;
}

SkewedLatest::SkewedLatest(uint64_t last) : zipf_(0, last > 0 ? last - 1 : 0) {}

uint64_t SkewedLatest::Next(sim::Rng& rng, uint64_t last) {
  if (last == 0) return 0;
  const uint64_t z = zipf_.Next(rng, last);
  return z >= last ? 0 : last - z;
}

}  // namespace fawnlab::ycsb
