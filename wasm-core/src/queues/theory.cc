#include "queues/theory.h"

#include <algorithm>
#include <cassert>
#include <vector>

#include "sim/det_math.h"

namespace fawnlab::queues {

using sim::det::Exp;
using sim::det::Log;

double ErlangC(int k, double a) {
  assert(k >= 1 && a >= 0 && a < k);
  // Erlang B by the stable recursion B(n) = a B(n-1) / (n + a B(n-1)), then C from B.
  double b = 1.0;
  for (int n = 1; n <= k; ++n) b = a * b / (n + a * b);
  return k * b / (k - a * (1.0 - b));
}

double MmkMeanWait(int k, double lambda, double mu) {
  assert(lambda < k * mu);
  return ErlangC(k, lambda / mu) / (k * mu - lambda);
}

double MmkMeanResponse(int k, double lambda, double mu) { return MmkMeanWait(k, lambda, mu) + 1.0 / mu; }

double MmkResponseTail(int k, double lambda, double mu, double t) {
  const double c = ErlangC(k, lambda / mu);
  const double theta = k * mu - lambda;  // rate of the exponential wait, given a wait
  // Response = S + W, S ~ exp(mu), W = 0 w.p. 1 - c, else exp(theta).
  double both;
  if (theta == mu) {
    both = (1.0 + mu * t) * Exp(-mu * t);
  } else {
    both = (theta * Exp(-mu * t) - mu * Exp(-theta * t)) / (theta - mu);
  }
  return (1.0 - c) * Exp(-mu * t) + c * both;
}

double MmkResponseQuantile(int k, double lambda, double mu, double q) {
  assert(q > 0 && q < 1);
  const double target = 1.0 - q;
  double hi = 1.0 / mu;
  while (MmkResponseTail(k, lambda, mu, hi) > target) hi *= 2;
  double lo = 0;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    double mid = 0.5 * (lo + hi);
    if (MmkResponseTail(k, lambda, mu, mid) > target) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

double Md1MeanResponse(double lambda, double s) {
  const double rho = lambda * s;
  assert(rho < 1);
  return s + rho * s / (2.0 * (1.0 - rho));
}

ClosedPoint ClosedNetwork(int n, double z, double s, int k) {
  assert(n >= 1 && z >= 0 && s > 0 && k >= 1);
  // Product form: P(j at the station) ∝ z^(n-j)/(n-j)! * s^j / prod_{i<=j} min(i, k).
  // Weights in log space, from j = n downward (z may be 0: then only j = n has weight).
  std::vector<double> logw(static_cast<size_t>(n) + 1, 0.0);
  std::vector<bool> zero(static_cast<size_t>(n) + 1, false);
  double log_z = z > 0 ? Log(z) : 0.0;
  double log_s = Log(s);
  double acc = 0;  // log of s^j / prod min(i, k)
  for (int j = 0; j <= n; ++j) {
    if (j > 0) acc += log_s - Log(static_cast<double>(std::min(j, k)));
    int m = n - j;  // clients thinking
    if (z == 0 && m > 0) {
      zero[static_cast<size_t>(j)] = true;
      continue;
    }
    double log_fact = 0;
    for (int i = 2; i <= m; ++i) log_fact += Log(static_cast<double>(i));
    logw[static_cast<size_t>(j)] = acc + (m > 0 ? m * log_z : 0.0) - log_fact;
  }
  double max_log = -1e300;
  for (int j = 0; j <= n; ++j) {
    if (!zero[static_cast<size_t>(j)]) max_log = std::max(max_log, logw[static_cast<size_t>(j)]);
  }
  double total = 0, busy = 0, in_station = 0;
  for (int j = 0; j <= n; ++j) {
    if (zero[static_cast<size_t>(j)]) continue;
    double p = Exp(logw[static_cast<size_t>(j)] - max_log);
    total += p;
    busy += p * std::min(j, k);
    in_station += p * j;
  }
  busy /= total;
  in_station /= total;
  ClosedPoint pt;
  pt.clients = n;
  pt.throughput = busy / s;
  pt.in_station = in_station;
  pt.response = in_station / pt.throughput;
  return pt;
}

}  // namespace fawnlab::queues
