#include "sim/rng.h"

#include <cassert>
#include <cmath>

#include "sim/det_math.h"

namespace fawnlab::sim {
namespace {

inline uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// log(1 + x) / x, continuous at 0.
double Helper1(double x) {
  if (std::fabs(x) > 1e-8) return det::Log1p(x) / x;
  return 1.0 - x * (0.5 - x * (1.0 / 3.0 - x * 0.25));
}

// (e^x - 1) / x, continuous at 0.
double Helper2(double x) {
  if (std::fabs(x) > 1e-8) return det::Expm1(x) / x;
  return 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + x * 0.25));
}

}  // namespace

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed) {
  uint64_t sm = seed;
  for (uint64_t& word : s_) word = SplitMix64(&sm);
}

Rng Rng::ForStream(uint64_t root, uint64_t stream) {
  uint64_t sm = root;
  uint64_t a = SplitMix64(&sm);
  uint64_t sm2 = stream ^ 0xd1b54a32d192ed03ULL;
  uint64_t b = SplitMix64(&sm2);
  return Rng(a ^ Rotl(b, 17) ^ (b >> 3));
}

Rng Rng::Split() {
  Rng child(0);
  for (uint64_t& word : child.s_) word = NextU64();
  // Guard against the all-zero state (period 1); astronomically unlikely but free to check.
  if ((child.s_[0] | child.s_[1] | child.s_[2] | child.s_[3]) == 0) child.s_[0] = 1;
  return child;
}

uint64_t Rng::NextU64() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

uint64_t Rng::UniformU64(uint64_t n) {
  assert(n > 0);
  unsigned __int128 m = static_cast<unsigned __int128>(NextU64()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(NextU64()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

int64_t Rng::UniformInt(int64_t lo, int64_t hi) {
  assert(lo <= hi);
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (span == UINT64_MAX) return static_cast<int64_t>(NextU64());
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + UniformU64(span + 1));
}

double Rng::UniformDouble() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }

double Rng::UniformOpenZero() { return static_cast<double>((NextU64() >> 11) + 1) * 0x1.0p-53; }

bool Rng::Bernoulli(double p) { return UniformDouble() < p; }

double Rng::Exponential(double mean) {
  assert(mean >= 0);
  return -mean * det::Log(UniformOpenZero());
}

double Rng::Pareto(double x_min, double alpha) {
  assert(x_min > 0 && alpha > 0);
  // Inverse CDF: x_min * U^(-1/alpha) with U in (0, 1].
  return x_min * det::Exp(-det::Log(UniformOpenZero()) / alpha);
}

ZipfSampler::ZipfSampler(uint64_t n, double s) : n_(n), s_(s) {
  assert(n >= 1 && s >= 0);
  h_integral_x1_ = HIntegral(1.5) - 1.0;
  h_integral_n_ = HIntegral(static_cast<double>(n) + 0.5);
  threshold_ = 2.0 - HIntegralInverse(HIntegral(2.5) - H(2.0));
}

double ZipfSampler::H(double x) const { return det::Exp(-s_ * det::Log(x)); }

double ZipfSampler::HIntegral(double x) const {
  const double log_x = det::Log(x);
  return Helper2((1.0 - s_) * log_x) * log_x;
}

double ZipfSampler::HIntegralInverse(double x) const {
  double t = x * (1.0 - s_);
  if (t < -1.0) t = -1.0;
  return det::Exp(Helper1(t) * x);
}

uint64_t ZipfSampler::Sample(Rng& rng) const {
  for (;;) {
    // u is uniform in (h_integral_x1_, h_integral_n_].
    const double u = h_integral_n_ + rng.UniformDouble() * (h_integral_x1_ - h_integral_n_);
    const double x = HIntegralInverse(u);
    double kd = std::floor(x + 0.5);
    if (kd < 1) kd = 1;
    if (kd > static_cast<double>(n_)) kd = static_cast<double>(n_);
    const uint64_t k = static_cast<uint64_t>(kd);
    if (kd - x <= threshold_ || u >= HIntegral(kd + 0.5) - H(kd)) return k;
  }
}

}  // namespace fawnlab::sim
