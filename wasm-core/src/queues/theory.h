// Analytic queueing results the Queues lab draws beside its simulations.
//
// Every formula is textbook (Kleinrock, "Queueing Systems" vol. 1; Harchol-Balter,
// "Performance Modeling and Design of Computer Systems"); each function names its model.
// All use det:: math so the theory curves are byte-identical across builds too.
// Times are in any consistent unit; rates are per that unit.
#ifndef FAWNLAB_QUEUES_THEORY_H_
#define FAWNLAB_QUEUES_THEORY_H_

#include <vector>

namespace fawnlab::queues {

// Erlang C: probability that an arrival waits in an M/M/k queue with offered load
// a = lambda / mu (in Erlangs). REQUIRES: k >= 1, 0 <= a < k.
double ErlangC(int k, double a);

// M/M/k FCFS, arrival rate lambda, per-server service rate mu. REQUIRES: lambda < k mu.
double MmkMeanWait(int k, double lambda, double mu);      // E[time in queue]
double MmkMeanResponse(int k, double lambda, double mu);  // E[wait + service]
// P(response > t).
double MmkResponseTail(int k, double lambda, double mu, double t);
// The q-quantile of the response time (0 < q < 1), by bisection on MmkResponseTail.
double MmkResponseQuantile(int k, double lambda, double mu, double q);

// M/D/1 (deterministic service s, Pollaczek-Khinchine): mean response. REQUIRES: lambda s < 1.
double Md1MeanResponse(double lambda, double s);

// Closed network: n clients with mean think time z (a delay station) and one FCFS station
// of k exponential servers with mean service time s. Exact product-form solution.
struct ClosedPoint {
  int clients;
  double throughput;   // completions per unit time
  double response;     // mean time at the station (wait + service)
  double in_station;   // mean number at the station
};
ClosedPoint ClosedNetwork(int n, double z, double s, int k);

}  // namespace fawnlab::queues

#endif  // FAWNLAB_QUEUES_THEORY_H_
