#include "queues/theory.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fawnlab::queues {
namespace {

TEST(Theory, Mm1ClosedForms) {
  const double mu = 0.1;  // 10 µs service
  for (double rho : {0.1, 0.5, 0.9, 0.99}) {
    double lambda = rho * mu;
    EXPECT_NEAR(ErlangC(1, rho), rho, 1e-12);
    EXPECT_NEAR(MmkMeanResponse(1, lambda, mu), 1 / (mu - lambda), 1e-9);
    // M/M/1 response is exponential with rate mu - lambda: p99 = ln(100) / (mu - lambda).
    EXPECT_NEAR(MmkResponseQuantile(1, lambda, mu, 0.99), std::log(100.0) / (mu - lambda), 1e-6);
  }
}

TEST(Theory, ErlangCKnownValues) {
  // Textbook table values: k = 2, a = 1 -> 1/3; k = 10, a = 8 -> 0.4092.
  EXPECT_NEAR(ErlangC(2, 1.0), 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(ErlangC(10, 8.0), 0.40918, 1e-4);
  EXPECT_NEAR(ErlangC(64, 0.0), 0.0, 1e-15);
}

TEST(Theory, MmkTailIsAProperDistribution) {
  const double mu = 1.0;
  for (int k : {1, 2, 4, 16}) {
    double lambda = 0.8 * k * mu;
    EXPECT_NEAR(MmkResponseTail(k, lambda, mu, 0), 1.0, 1e-12);
    double prev = 1.0;
    double mean = 0, dt = 0.001;
    for (double t = dt; t < 200; t += dt) {
      double tail = MmkResponseTail(k, lambda, mu, t);
      ASSERT_LE(tail, prev + 1e-15);
      mean += tail * dt;  // E[T] = integral of the tail
      prev = tail;
    }
    EXPECT_NEAR(mean, MmkMeanResponse(k, lambda, mu), 2e-3) << "k=" << k;
  }
  // theta == mu branch: k = 2, lambda = 1, mu = 1 -> theta = 1.
  EXPECT_GT(MmkResponseTail(2, 1.0, 1.0, 1.0), 0);
}

TEST(Theory, Md1IsHalfTheMm1Wait) {
  const double s = 10, lambda = 0.08;  // rho 0.8
  double md1_wait = Md1MeanResponse(lambda, s) - s;
  double mm1_wait = MmkMeanResponse(1, lambda, 1 / s) - s;
  EXPECT_NEAR(md1_wait, mm1_wait / 2, 1e-9);
}

TEST(Theory, ClosedNetworkMatchesMvaForOneServer) {
  // Exact MVA recursion for one FCFS server plus a delay station.
  const double s = 10, z = 100;
  double q = 0;
  for (int n = 1; n <= 200; ++n) {
    double r = s * (1 + q);
    double x = n / (z + r);
    q = x * r;
    ClosedPoint pt = ClosedNetwork(n, z, s, 1);
    ASSERT_NEAR(pt.response, r, 1e-6 * r) << "n=" << n;
    ASSERT_NEAR(pt.throughput, x, 1e-9 * x) << "n=" << n;
  }
}

TEST(Theory, ClosedNetworkLimits) {
  // No think time: everyone is at the station; throughput k/s once n >= k.
  ClosedPoint a = ClosedNetwork(8, 0, 10, 4);
  EXPECT_NEAR(a.throughput, 0.4, 1e-12);
  EXPECT_NEAR(a.in_station, 8, 1e-12);
  // Many servers: nobody waits, response = s.
  ClosedPoint b = ClosedNetwork(5, 50, 10, 16);
  EXPECT_NEAR(b.response, 10, 1e-9);
  EXPECT_NEAR(b.throughput, 5 / 60.0, 1e-12);
}

}  // namespace
}  // namespace fawnlab::queues
