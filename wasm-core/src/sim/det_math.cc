#include "sim/det_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace fawnlab::sim::det {
namespace {

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^20 (fdlibm's constants).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrt2 = 1.41421356237309514547e+00;

uint64_t Bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

double FromBits(uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// 2^k for -1022 <= k <= 1023, exactly.
double TwoPow(int k) { return FromBits(static_cast<uint64_t>(k + 1023) << 52); }

}  // namespace

double Log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  int e = 0;
  if (x < 2.2250738585072014e-308) {  // subnormal: scale into the normal range
    x *= 18014398509481984.0;         // 2^54
    e = -54;
  }
  uint64_t b = Bits(x);
  e += static_cast<int>((b >> 52) & 0x7ff) - 1023;
  double m = FromBits((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);  // [1, 2)
  if (m > kSqrt2) {
    m *= 0.5;
    e += 1;
  }
  // log(m) = 2 atanh(f), f = (m - 1) / (m + 1), |f| <= 0.1716; m - 1 is exact (Sterbenz).
  double f = (m - 1.0) / (m + 1.0);
  double s = f * f;
  double r = 1.0 / 23;
  r = 1.0 / 21 + s * r;
  r = 1.0 / 19 + s * r;
  r = 1.0 / 17 + s * r;
  r = 1.0 / 15 + s * r;
  r = 1.0 / 13 + s * r;
  r = 1.0 / 11 + s * r;
  r = 1.0 / 9 + s * r;
  r = 1.0 / 7 + s * r;
  r = 1.0 / 5 + s * r;
  r = 1.0 / 3 + s * r;
  double log_m = 2.0 * f + 2.0 * f * (s * r);
  double de = static_cast<double>(e);
  return de * kLn2Hi + (log_m + de * kLn2Lo);
}

double Exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  double kd = std::floor(x * kInvLn2 + 0.5);
  int k = static_cast<int>(kd);
  double r = (x - kd * kLn2Hi) - kd * kLn2Lo;  // |r| <= 0.3466
  // Taylor series of e^r - 1 to degree 13 (truncation < 5e-18), then add 1.
  double p = 1.0 / 6227020800.0;     // 1/13!
  p = 1.0 / 479001600.0 + r * p;     // 1/12!
  p = 1.0 / 39916800.0 + r * p;      // 1/11!
  p = 1.0 / 3628800.0 + r * p;       // 1/10!
  p = 1.0 / 362880.0 + r * p;        // 1/9!
  p = 1.0 / 40320.0 + r * p;         // 1/8!
  p = 1.0 / 5040.0 + r * p;          // 1/7!
  p = 1.0 / 720.0 + r * p;           // 1/6!
  p = 1.0 / 120.0 + r * p;           // 1/5!
  p = 1.0 / 24.0 + r * p;            // 1/4!
  p = 1.0 / 6.0 + r * p;             // 1/3!
  p = 0.5 + r * p;                   // 1/2!
  double y = 1.0 + (r + r * r * p);
  if (k > 1023) return y * TwoPow(1023) * TwoPow(k - 1023);
  if (k < -1021) return y * TwoPow(k + 1000) * TwoPow(-1000);
  return y * TwoPow(k);
}

double Log1p(double x) {
  if (std::isnan(x) || x < -1.0) return std::numeric_limits<double>::quiet_NaN();
  double ax = std::fabs(x);
  if (ax < 1e-4) {
    // x - x^2/2 + x^3/3 - x^4/4 (next term < 2e-21 relative)
    return x * (1.0 - x * (0.5 - x * (1.0 / 3 - x * 0.25)));
  }
  double u = 1.0 + x;
  // Correct for the rounding of 1 + x: log(u) - ((u - 1) - x) / u.
  return Log(u) - ((u - 1.0) - x) / u;
}

double Expm1(double x) {
  if (std::isnan(x)) return x;
  if (std::fabs(x) < 0.35) {
    // Taylor series to degree 16 (truncation < 1e-20 relative).
    // x (1 + x/2 (1 + x/3 (1 + ... (1 + x/17)))), evaluated from the inside out.
    double p = 1.0;
    for (int n = 17; n >= 2; --n) p = 1.0 + x * p / n;
    return x * p;
  }
  return Exp(x) - 1.0;
}

double Pow(double x, double y) {
  if (y == 0) return 1.0;
  if (x == 0) return y > 0 ? 0.0 : std::numeric_limits<double>::infinity();
  if (x == 1) return 1.0;
  return Exp(y * Log(x));
}

}  // namespace fawnlab::sim::det
