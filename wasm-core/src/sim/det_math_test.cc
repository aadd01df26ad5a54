#include "sim/det_math.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fawnlab::sim::det {
namespace {

// Relative error against the platform libm, which is within 1 ulp.
double RelErr(double got, double want) { return std::fabs(got - want) / std::fabs(want); }

TEST(DetMath, LogMatchesLibmOverManyDecades) {
  for (double x = 1e-300; x < 1e300; x *= 1.37) {
    ASSERT_LT(RelErr(Log(x), std::log(x)), 4e-16) << "x=" << x;
  }
  EXPECT_EQ(Log(1.0), 0.0);
  EXPECT_NEAR(Log(2.0), 0.6931471805599453, 1e-16);
  EXPECT_LT(RelErr(Log(4.9e-324), std::log(4.9e-324)), 1e-15);  // subnormal
  EXPECT_TRUE(std::isinf(Log(0.0)));
  EXPECT_TRUE(std::isnan(Log(-1.0)));
}

TEST(DetMath, ExpMatchesLibm) {
  for (double x = -700; x < 700; x += 0.731) {
    ASSERT_LT(RelErr(Exp(x), std::exp(x)), 4e-16) << "x=" << x;
  }
  EXPECT_EQ(Exp(0.0), 1.0);
  EXPECT_TRUE(std::isinf(Exp(710)));
  EXPECT_EQ(Exp(-746), 0.0);
  EXPECT_GT(Exp(-740), 0.0);  // subnormal range
  EXPECT_LT(RelErr(Exp(-740), std::exp(-740)), 1e-6);
}

TEST(DetMath, Log1pAndExpm1KeepPrecisionNearZero) {
  for (double x = 1e-300; x < 10; x *= 3.1) {
    ASSERT_LT(RelErr(Log1p(x), std::log1p(x)), 1e-15) << "x=" << x;
    ASSERT_LT(RelErr(Log1p(-x / 11), std::log1p(-x / 11)), 1e-15) << "x=" << x;
    ASSERT_LT(RelErr(Expm1(x), std::expm1(x)), 1e-15) << "x=" << x;
    ASSERT_LT(RelErr(Expm1(-x), std::expm1(-x)), 1e-15) << "x=" << x;
  }
}

TEST(DetMath, PowMatchesLibm) {
  for (double x = 0.01; x < 1000; x *= 1.9) {
    for (double y = -5; y < 5; y += 0.37) {
      ASSERT_LT(RelErr(Pow(x, y), std::pow(x, y)), 1e-14) << x << "^" << y;
    }
  }
  EXPECT_EQ(Pow(0.0, 2.0), 0.0);
  EXPECT_EQ(Pow(5.0, 0.0), 1.0);
}

// Within two ulp of the correctly rounded values (the cross-build determinism tests check that
// native and WASM agree bit for bit on whole experiments).
TEST(DetMath, NearCorrectlyRounded) {
  auto ulps = [](double got, double want) { return std::fabs(got - want) / (std::nextafter(want, 1e308) - want); };
  EXPECT_LE(ulps(Log(10.0), 2.302585092994046), 2);
  EXPECT_LE(ulps(Exp(1.0), 2.718281828459045), 2);
  EXPECT_LE(ulps(-Log(0.1), 2.3025850929940455), 2);
}

}  // namespace
}  // namespace fawnlab::sim::det
