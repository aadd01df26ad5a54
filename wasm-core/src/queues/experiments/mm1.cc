// queues.mm1: an M/M/k server swept over utilisation, against the analytic M/M/k curve.
//
// Each load point simulates Poisson arrivals into k exponential servers behind one FIFO and
// measures the response time of every request after a 5% warm-up. The number of requests per
// point scales with how slowly the estimate converges at that load. Allocation heuristic: the
// relative variance per request of an M/M/1 mean-response estimate grows like
// rho(2 + 5rho - 4rho^2 + rho^3) / (1 - rho)^2, so points below rho = 0.9 get proportionally
// fewer requests (at least 200,000). The precision actually reached is measured, not assumed:
// the result reports a batch-means 95% confidence half-width at rho = 0.9 (about 2-3%).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "registry/experiments.h"
#include "registry/sweep.h"
#include "queues/models.h"
#include "queues/theory.h"
#include "sim/rng.h"

namespace fawnlab {
namespace {

using queues::QueueMeasurement;

constexpr double kAnchorRhos[] = {0.5, 0.8, 0.9};

double RelativeVariance(double rho) {
  return rho * (2 + 5 * rho - 4 * rho * rho + rho * rho * rho) / ((1 - rho) * (1 - rho));
}

uint64_t RequestsAt(double rho, uint64_t requests_at_0_9) {
  double scaled = static_cast<double>(requests_at_0_9) * RelativeVariance(rho) / RelativeVariance(0.9);
  uint64_t floor_n = std::min<uint64_t>(requests_at_0_9, 200000);
  uint64_t n = static_cast<uint64_t>(std::min(scaled, static_cast<double>(requests_at_0_9)));
  return std::max(n, floor_n);
}

Status Validate(const ParamValues& p) {
  if (p.Real("rho_min") >= p.Real("rho_max")) {
    return Status::InvalidArgument("parameter 'rho_min' = " + FormatNumber(p.Real("rho_min")) +
                                   " must be below 'rho_max' = " + FormatNumber(p.Real("rho_max")));
  }
  if (p.Real("server_busy_w") < p.Real("server_idle_w")) {
    return Status::InvalidArgument("parameter 'server_busy_w' must be at least 'server_idle_w'");
  }
  return Status::Ok();
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const int k = static_cast<int>(p.Int("servers"));
  const double service_us = p.Real("service_us");
  const double mu_per_us = 1.0 / service_us;
  const uint64_t requests = static_cast<uint64_t>(p.Int("requests"));
  const double idle_w = p.Real("server_idle_w");
  const double busy_w = p.Real("server_busy_w");

  std::vector<double> rhos = UnionSorted(Linspace(p.Real("rho_min"), p.Real("rho_max"), static_cast<int>(p.Int("points"))),
                                         {kAnchorRhos[0], kAnchorRhos[1], kAnchorRhos[2]});
  double total_units = 0;
  for (double rho : rhos) total_units += static_cast<double>(RequestsAt(rho, requests));
  SweepProgress sweep(&ctx, total_units);

  Result r;
  r.scale_note = "no scaling: a queueing model, times in µs";
  Series mean_sim{"mean response (simulated)", "measured", "utilisation ρ", "response time (µs)", {}};
  Series p99_sim{"p99 response (simulated)", "measured", "utilisation ρ", "response time (µs)", {}};
  Series qpj_sim{"requests per joule (simulated)", "measured", "utilisation ρ", "requests per joule", {}};
  Series cdf_sim{"response CDF at ρ = 0.9 (simulated)", "measured", "response time (µs)", "fraction of requests ≤ x", {}};
  double littles_max = 0;
  uint64_t events = 0;
  QueueMeasurement at_0_9;

  for (double rho : rhos) {
    queues::OpenQueueConfig c;
    c.servers = k;
    c.arrival_rate_per_sec = rho * k * mu_per_us * 1e6;
    c.service.kind = sim::ServiceTime::Kind::kExponential;
    c.service.mean_ns = service_us * 1000.0;
    c.measure = RequestsAt(rho, requests);
    c.warmup = std::max<uint64_t>(1000, c.measure / 20);
    c.server_idle_w = idle_w;
    c.server_busy_w = busy_w;
    // Each load point has its own stream of the run's seed, so adding points never changes
    // the others.
    sim::Rng rng = sim::Rng::ForStream(ctx.seed(), static_cast<uint64_t>(std::llround(rho * 1e6)));
    StatusOr<QueueMeasurement> m = queues::RunOpenQueue(c, rng, sweep.Step(static_cast<double>(c.measure)));
    if (!m.ok()) return m.status();
    sweep.Done();
    const QueueMeasurement& v = m.value();
    mean_sim.points.emplace_back(rho, v.mean_response_ns / 1000.0);
    p99_sim.points.emplace_back(rho, v.p99_ns / 1000.0);
    qpj_sim.points.emplace_back(rho, v.queries_per_joule);
    littles_max = std::max(littles_max, v.littles_law_error);
    events += v.events;
    for (double anchor : kAnchorRhos) {
      if (rho == anchor) {
        r.AddMetric("mean_response_us_at_rho_" + MetricSuffix(rho), v.mean_response_ns / 1000.0);
      }
    }
    if (rho == 0.9) at_0_9 = v;
  }

  const double lambda_0_9 = 0.9 * k * mu_per_us;
  r.AddMetric("mean_response_us_at_rho_0_9_ci95", at_0_9.ci95_ns / 1000.0);
  r.AddMetric("p99_response_us_at_rho_0_9", at_0_9.p99_ns / 1000.0);
  r.AddMetric("utilisation_at_rho_0_9", at_0_9.utilisation);
  r.AddMetric("queries_per_joule_at_rho_0_9", at_0_9.queries_per_joule);
  r.AddMetric("littles_law_error", littles_max);
  r.AddMetric("simulated_events", static_cast<double>(events));

  for (double anchor : kAnchorRhos) {
    r.AddAnchor("mean_response_us_at_rho_" + MetricSuffix(anchor),
                queues::MmkMeanResponse(k, anchor * k * mu_per_us, mu_per_us), {true, 0.05},
                Emergent("M/M/k theory (Erlang C)", "the simulated queue draws exponential arrivals and services; nothing is tuned to the formula",
                         "a finite run's mean wanders around the theory; a longer run (`requests`) narrows it"));
  }
  r.AddAnchor("p99_response_us_at_rho_0_9", queues::MmkResponseQuantile(k, lambda_0_9, mu_per_us, 0.99), {true, 0.10},
              Emergent("M/M/k response-time distribution", "measured from the simulated requests' histogram",
                       "a tail percentile needs many requests; a longer run narrows it"));
  r.AddAnchor("utilisation_at_rho_0_9", 0.9, {true, 0.02},
              Emergent("ρ = λ / (k·μ)", "the servers' measured busy time over the run"));
  if (busy_w > 0) {
    // Requests per joule = lambda / (k (P_idle + (P_busy - P_idle) rho)).
    r.AddAnchor("queries_per_joule_at_rho_0_9",
                lambda_0_9 * 1e6 / (k * (idle_w + (busy_w - idle_w) * 0.9)), {true, 0.02},
                Emergent("λ / k(P_idle + (P_busy − P_idle)ρ)", "the energy meter integrates each server's power state over virtual time"));
  }
  r.AddAnchor("littles_law_error", 0, {false, 0.01},
              Emergent("Little's law, L = λW", "the time-average number in the system against throughput × mean response, both measured"));

  for (const auto& pt : at_0_9.cdf_ns) cdf_sim.points.emplace_back(pt.first / 1000.0, pt.second);

  // Theory on a fine grid over the same range.
  Series mean_th{"mean response (M/M/k theory)", "theory", "utilisation ρ", "response time (µs)", {}};
  Series p99_th{"p99 response (M/M/k theory)", "theory", "utilisation ρ", "response time (µs)", {}};
  Series qpj_th{"requests per joule (theory)", "theory", "utilisation ρ", "requests per joule", {}};
  for (double rho : Linspace(rhos.front(), rhos.back(), 60)) {
    double lambda = rho * k * mu_per_us;
    mean_th.points.emplace_back(rho, queues::MmkMeanResponse(k, lambda, mu_per_us));
    p99_th.points.emplace_back(rho, queues::MmkResponseQuantile(k, lambda, mu_per_us, 0.99));
    if (busy_w > 0) qpj_th.points.emplace_back(rho, lambda * 1e6 / (k * (idle_w + (busy_w - idle_w) * rho)));
  }
  Series cdf_th{"response CDF at ρ = 0.9 (M/M/k theory)", "theory", "response time (µs)", "fraction of requests ≤ x", {}};
  double x_max = cdf_sim.points.empty() ? 10 * service_us : cdf_sim.points.back().first;
  for (int i = 0; i <= 80; ++i) {
    double x = x_max * i / 80.0;
    cdf_th.points.emplace_back(x, 1.0 - queues::MmkResponseTail(k, lambda_0_9, mu_per_us, x));
  }

  r.series = {mean_sim, mean_th, p99_sim, p99_th, cdf_sim, cdf_th, qpj_sim};
  if (busy_w > 0) r.series.push_back(qpj_th);
  r.notes.push_back("Service times are exponential with mean " + FormatNumber(service_us) + " µs; " +
                    std::to_string(k) + " server(s) share one FIFO queue.");
  r.notes.push_back("Each load point measures up to " + std::to_string(requests) +
                    " requests after a 5% warm-up; lighter loads converge faster and use fewer.");
  r.notes.push_back("Energy: each server draws server_idle_w when idle and server_busy_w when busy "
                    "(defaults: a FAWN back-end, 3 W idle and 6 W at full load, SOSP'09 §4).");
  return r;
}

}  // namespace

Experiment MakeQueuesMm1() {
  Experiment e;
  e.info.id = "queues.mm1";
  e.info.lab = "queues";
  e.info.title = "M/M/k: response time against utilisation";
  e.info.summary =
      "Poisson arrivals to k exponential servers sharing one queue, swept over utilisation ρ. "
      "Mean and 99th-percentile response times climb as 1/(1−ρ); the simulated points sit on the "
      "analytic M/M/k curve. Energy per request falls with load, because idle power is paid regardless.";
  e.info.reference = "Queueing theory: M/M/1 and M/M/k with Erlang C (Kleinrock, Queueing Systems vol. 1, §3.2, §3.5)";
  e.info.params = {
      ParamSpec::Int("servers", 1, 1, 64, "servers", "Number of identical servers sharing one FIFO queue (k)."),
      ParamSpec::Real("service_us", 10, 0.1, 1e6, "µs",
                      "Mean (exponential) service time. 10 µs is about one lookup on the vector-I/O paper's NVM device."),
      ParamSpec::Real("rho_min", 0.1, 0.01, 0.95, "", "Lowest utilisation ρ = λ/(kμ) in the sweep."),
      ParamSpec::Real("rho_max", 0.95, 0.05, 0.98, "", "Highest utilisation in the sweep."),
      ParamSpec::Int("points", 18, 2, 40, "points", "Load points between rho_min and rho_max (0.5, 0.8 and 0.9 are always added)."),
      ParamSpec::Int("requests", 3000000, 20000, 20000000, "requests",
                     "Requests measured at ρ = 0.9; lighter loads use proportionally fewer (at least 200,000)."),
      ParamSpec::Real("server_idle_w", 3, 0, 1000, "W", "Power of an idle server (FAWN back-end: 3 W, SOSP'09 §4)."),
      ParamSpec::Real("server_busy_w", 6, 0, 1000, "W", "Power of a busy server (FAWN back-end: 6 W at full load)."),
  };
  e.validate = Validate;
  e.run = Run;
  return e;
}

}  // namespace fawnlab
