// Rng: the only source of randomness in model code. Seeded, splittable, deterministic.
//
// The generator is xoshiro256** (Blackman & Vigna), seeded through SplitMix64, so any 64-bit
// seed (including 0) gives a well-mixed state. One root seed derives every component's
// stream: Rng::ForStream(root, stream_id) is a pure function of its arguments, and Split()
// draws a child stream from a parent. No std::random_device, no wall clock, no Math.random.
//
// Distributions are implemented here with det:: math, so a draw gives the same bits natively
// and in WebAssembly. Not thread-safe: give each thread or component its own Rng.
#ifndef FAWNLAB_SIM_RNG_H_
#define FAWNLAB_SIM_RNG_H_

#include <cstdint>

namespace fawnlab::sim {

// One SplitMix64 step: advances *state and returns a mixed value. Also a good 64-bit hash.
uint64_t SplitMix64(uint64_t* state);

class Rng {
 public:
  explicit Rng(uint64_t seed);

  // The stream `stream` of root seed `root`: independent-looking streams for each component.
  static Rng ForStream(uint64_t root, uint64_t stream);

  // A child generator seeded from this one (advances this one by four draws).
  Rng Split();

  uint64_t NextU64();
  // Uniform integer in [0, n). REQUIRES: n > 0. Unbiased (Lemire's multiply-and-reject).
  uint64_t UniformU64(uint64_t n);
  // Uniform integer in [lo, hi]. REQUIRES: lo <= hi.
  int64_t UniformInt(int64_t lo, int64_t hi);
  // Uniform double in [0, 1) with 53 random bits.
  double UniformDouble();
  // Uniform double in (0, 1]: safe to take the logarithm of.
  double UniformOpenZero();
  // True with probability p (p clamped to [0, 1]).
  bool Bernoulli(double p);
  // Exponential with the given mean. REQUIRES: mean >= 0.
  double Exponential(double mean);
  // Pareto (type I) with scale x_min > 0 and shape alpha > 0: P(X > x) = (x_min / x)^alpha.
  double Pareto(double x_min, double alpha);

 private:
  uint64_t s_[4];
};

// Zipf over the ranks {1, ..., n}: P(k) proportional to k^-s. Rejection-inversion sampling
// (Hörmann & Derflinger 1996): O(1) expected time per draw, no table, any n, any s >= 0.
class ZipfSampler {
 public:
  // REQUIRES: n >= 1, s >= 0 (s = 0 is uniform).
  ZipfSampler(uint64_t n, double s);
  uint64_t Sample(Rng& rng) const;
  uint64_t n() const { return n_; }
  double s() const { return s_; }

 private:
  double H(double x) const;
  double HIntegral(double x) const;
  double HIntegralInverse(double x) const;

  uint64_t n_;
  double s_;
  double h_integral_x1_;
  double h_integral_n_;
  double threshold_;
};

}  // namespace fawnlab::sim

#endif  // FAWNLAB_SIM_RNG_H_
