#include "ycsb/zipfian.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "gtest/gtest.h"

namespace fawnlab::ycsb {
namespace {

// Euler-Maclaurin: sum_{k=1}^{n} k^-s from the first N-1 terms, the integral and two corrections.
double ZetaAsymptotic(double n, double s) {
  const int N = 2000;
  double sum = 0;
  for (int k = 1; k < N; ++k) sum += std::pow(k, -s);
  sum += (std::pow(n, 1 - s) - std::pow(N, 1 - s)) / (1 - s);
  sum += (std::pow(N, -s) + std::pow(n, -s)) / 2;
  sum += s / 12 * (std::pow(N, -s - 1) - std::pow(n, -s - 1));
  return sum;
}

TEST(YcsbZipfian, ZetaIsYcsbsSumAndZetanIsTenBillionItems) {
  EXPECT_DOUBLE_EQ(Zeta(0, 1, 0.99, 0), 1.0);
  double brute = 0;
  for (int k = 1; k <= 1000; ++k) brute += std::pow(k, -0.99);
  EXPECT_NEAR(Zeta(0, 1000, 0.99, 0), brute, 1e-9);
  EXPECT_NEAR(Zeta(400, 1000, 0.99, Zeta(0, 400, 0.99, 0)), brute, 1e-9);  // incremental
  // YCSB's precomputed ZETAN is zeta(10^10, 0.99): the item count this port uses.
  EXPECT_NEAR(ZetaAsymptotic(1e10, 0.99), kScrambledZetan, 1e-6);
}

TEST(YcsbZipfian, FnvHashIsFnv1aOfTheEightBytesMadeNonNegative) {
  // FNV-1a 64 of the single byte 'a' (0x61) is af63dc4c8601ec8c; of eight bytes it continues.
  uint64_t h = 0xCBF29CE484222325ULL;
  uint64_t v = 0x61;
  for (int i = 0; i < 8; ++i) {
    h ^= v & 0xff;
    v >>= 8;
    h *= 1099511628211ULL;
    if (i == 0) {
      EXPECT_EQ(h, 0xAF63DC4C8601EC8CULL);
    }
  }
  const uint64_t expect = (h >> 63) ? (~h + 1) : h;
  EXPECT_EQ(FnvHash64(0x61), expect);
  for (uint64_t i = 0; i < 1000; ++i) EXPECT_EQ(FnvHash64(i) >> 63, 0u) << i;
}

// Gray et al.'s method: P(rank 0) = 1/zetan, P(rank 1) = 0.5^theta/zetan, and rank k >= 2 for
// u in [u(k), u(k+1)) with u(k) = 1 - (1 - (k/items)^(1-theta))/eta.
double GrayProbability(uint64_t k, double items, double zetan, double theta) {
  const double zeta2 = 1 + std::pow(0.5, theta);
  const double eta = (1 - std::pow(2.0 / items, 1 - theta)) / (1 - zeta2 / zetan);
  auto u = [&](double r) { return 1 - (1 - std::pow(r / items, 1 - theta)) / eta; };
  const double u0 = zeta2 / zetan;
  if (k == 0) return 1 / zetan;
  if (k == 1) return std::pow(0.5, theta) / zetan;
  return std::max(0.0, u(static_cast<double>(k + 1)) - std::max(u0, u(static_cast<double>(k))));
}

TEST(YcsbZipfian, ScrambledHeadFrequenciesMatchTheAnalyticOnes) {
  const uint64_t seed = 7, n = 25000, draws = 1000000;
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  sim::Rng rng(seed);
  ScrambledZipfian z(0, n - 1);
  std::vector<uint32_t> count(n);
  for (uint64_t i = 0; i < draws; ++i) {
    uint64_t r = z.Next(rng);
    ASSERT_LT(r, n);
    ++count[r];
  }
  const double items = static_cast<double>(kScrambledItemCount) + 1;
  double head = 0;
  std::map<uint64_t, double> expect;
  for (uint64_t k = 0; k < 10; ++k) {
    const double p = GrayProbability(k, items, kScrambledZetan, 0.99);
    expect[FnvHash64(k) % n] += p;
    head += p;
  }
  ASSERT_EQ(expect.size(), 10u) << "the ten head ranks hash to distinct records";
  for (const auto& [record, p0] : expect) {
    const double p = p0 + (1 - head) / static_cast<double>(n);  // plus the tail's average share
    const double got = static_cast<double>(count[record]) / draws;
    const double sigma = std::sqrt(p * (1 - p) / draws);
    EXPECT_NEAR(got, p, 5 * sigma + 2e-4) << "record " << record << " seed " << seed;
  }
  // The most popular record is rank 0's, at 1/zetan = 3.78%.
  EXPECT_NEAR(static_cast<double>(count[FnvHash64(0) % n]) / draws, 1 / kScrambledZetan, 0.002);
}

TEST(YcsbZipfian, UnscrambledZipfianOverItsOwnCountFollowsKToTheMinusTheta) {
  const uint64_t seed = 11, n = 1000, draws = 400000;
  sim::Rng rng(seed);
  Zipfian z(0, n - 1);
  EXPECT_NEAR(z.zetan(), Zeta(0, n, 0.99, 0), 1e-12);
  std::vector<uint32_t> count(n);
  for (uint64_t i = 0; i < draws; ++i) ++count[z.Next(rng)];
  for (uint64_t k = 0; k < 5; ++k) {
    const double p = GrayProbability(k, static_cast<double>(n), z.zetan(), 0.99);
    const double got = static_cast<double>(count[k]) / draws;
    EXPECT_NEAR(got, p, 5 * std::sqrt(p / draws)) << "rank " << k << " seed " << seed;
  }
  EXPECT_GT(count[0], count[1]);
  EXPECT_GT(count[1], count[5]);
}

TEST(YcsbZipfian, SkewedLatestFavoursTheNewestRecords) {
  const uint64_t seed = 3, n = 25000, draws = 200000;
  sim::Rng rng(seed);
  SkewedLatest latest(n - 1);
  uint64_t newest = 0, recent = 0, zero = 0;
  for (uint64_t i = 0; i < draws; ++i) {
    uint64_t r = latest.Next(rng, n - 1);
    ASSERT_LT(r, n);
    newest += r == n - 1;
    recent += r >= n - n / 100;
    zero += r == 0;
  }
  // The newest is drawn with probability 1/zeta(n-1); the newest 1% take about 56%.
  EXPECT_NEAR(static_cast<double>(newest) / draws, 1 / Zeta(0, n - 1, 0.99, 0), 0.003) << "seed " << seed;
  EXPECT_GT(static_cast<double>(recent) / draws, 0.5) << "seed " << seed;
  EXPECT_EQ(zero, 0u);  // YCSB's last - zipf(last) never reaches record 0
  // A newer record takes over: the count grows and the newest is the new one.
  uint64_t newer = 0;
  for (uint64_t i = 0; i < 20000; ++i) newer += latest.Next(rng, n + 99) == n + 99;
  EXPECT_GT(newer, 20000 / 15);
}

}  // namespace
}  // namespace fawnlab::ycsb
