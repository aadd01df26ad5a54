// queues.closed-loop: N clients that think, send one request and wait for it, against a
// k-server station. Throughput rises linearly with N until the station saturates near
// N* = k (S + Z) / S, then flattens at k / S while response time grows linearly: the
// interactive response-time law R = N / X - Z. The simulation is checked against the exact
// product-form solution and against Little's law, L = X R, where L is the station's
// time-averaged occupancy (measured separately from the per-request response times).
#include <algorithm>
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

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const int n_max = static_cast<int>(p.Int("clients_max"));
  const int k = static_cast<int>(p.Int("servers"));
  const double service_us = p.Real("service_us");
  const double think_us = p.Real("think_us");
  const uint64_t requests = static_cast<uint64_t>(p.Int("requests"));

  std::vector<int> grid = ClientGrid(n_max);
  SweepProgress sweep(&ctx, static_cast<double>(grid.size()) * static_cast<double>(requests));

  Result r;
  r.scale_note = "no scaling: a queueing model, times in µs";
  Series x_sim{"throughput (simulated)", "measured", "clients N", "throughput (thousand requests/s)", {}};
  Series r_sim{"response time (simulated)", "measured", "clients N", "response time (µs)", {}};
  Series l_sim{"L measured (time average)", "measured", "clients N", "requests at the server", {}};
  Series l_little{"X × R (Little's law)", "measured", "clients N", "requests at the server", {}};
  double littles_max = 0;
  QueueMeasurement last;
  for (int n : grid) {
    queues::ClosedQueueConfig c;
    c.clients = n;
    c.servers = k;
    c.think_ns = think_us * 1000.0;
    c.service.kind = sim::ServiceTime::Kind::kExponential;
    c.service.mean_ns = service_us * 1000.0;
    c.measure = requests;
    c.warmup = std::max<uint64_t>(1000, requests / 20);
    sim::Rng rng = sim::Rng::ForStream(ctx.seed(), static_cast<uint64_t>(n));
    StatusOr<QueueMeasurement> m = queues::RunClosedQueue(c, rng, sweep.Step(static_cast<double>(requests)));
    if (!m.ok()) return m.status();
    sweep.Done();
    const QueueMeasurement& v = m.value();
    x_sim.points.emplace_back(n, v.throughput_per_sec / 1000.0);
    r_sim.points.emplace_back(n, v.mean_response_ns / 1000.0);
    l_sim.points.emplace_back(n, v.mean_in_system);
    l_little.points.emplace_back(n, v.throughput_per_sec / 1e9 * v.mean_response_ns);
    littles_max = std::max(littles_max, v.littles_law_error);
    last = v;
  }

  r.AddMetric("throughput_kreq_s_at_n_max", last.throughput_per_sec / 1000.0);
  r.AddMetric("response_us_at_n_max", last.mean_response_ns / 1000.0);
  r.AddMetric("utilisation_at_n_max", last.utilisation);
  r.AddMetric("littles_law_error", littles_max);

  queues::ClosedPoint exact = queues::ClosedNetwork(n_max, think_us, service_us, k);
  const AnchorNote product_form = Emergent("exact product-form solution (delay station + k-server FCFS)",
                                           "the simulated clients think and queue; nothing is tuned to the formula",
                                           "a finite run wanders around the theory; a longer run (`requests`) narrows it");
  r.AddAnchor("throughput_kreq_s_at_n_max", exact.throughput * 1000.0, {true, 0.03}, product_form);
  r.AddAnchor("response_us_at_n_max", exact.response, {true, 0.05}, product_form);
  r.AddAnchor("littles_law_error", 0, {false, 0.01},
              Emergent("Little's law, L = λW", "the time-average number in the system against throughput × mean response, both measured"));

  Series x_th{"throughput (exact product form)", "theory", "clients N", "throughput (thousand requests/s)", {}};
  Series r_th{"response time (exact product form)", "theory", "clients N", "response time (µs)", {}};
  Series x_bound{"throughput bound (min(N/(S+Z), k/S))", "theory", "clients N", "throughput (thousand requests/s)", {}};
  Series r_bound{"response bound (max(S, N·S/k − Z))", "theory", "clients N", "response time (µs)", {}};
  for (int n = 1; n <= n_max; n += (n_max > 120 ? 2 : 1)) {
    queues::ClosedPoint pt = queues::ClosedNetwork(n, think_us, service_us, k);
    x_th.points.emplace_back(n, pt.throughput * 1000.0);
    r_th.points.emplace_back(n, pt.response);
    x_bound.points.emplace_back(n, std::min(n / (service_us + think_us), k / service_us) * 1000.0);
    r_bound.points.emplace_back(n, std::max(service_us, n * service_us / k - think_us));
  }
  r.series = {x_sim, x_th, x_bound, r_sim, r_th, r_bound, l_sim, l_little};
  double n_star = k * (service_us + think_us) / service_us;
  r.notes.push_back("Saturation point N* = k(S + Z)/S = " + FormatNumber(n_star) +
                    " clients: beyond it, each added client adds S/k to every response time.");
  r.notes.push_back("Little's law is checked with L measured as the time-average number of requests at the "
                    "server, independently of the per-request response times R.");
  return r;
}

}  // namespace

Experiment MakeQueuesClosedLoop() {
  Experiment e;
  e.info.id = "queues.closed-loop";
  e.info.lab = "queues";
  e.info.title = "Closed loop: clients with think time";
  e.info.summary =
      "N clients each think, send one request and wait for the answer. Throughput grows with N until "
      "the server saturates, then response time grows instead. Little's law L = X·R holds at every N.";
  e.info.reference = "Operational laws and exact MVA for a closed network (Lazowska et al., Quantitative System Performance, ch. 3, 6)";
  e.info.params = {
      ParamSpec::Int("clients_max", 32, 1, 256, "clients", "Largest number of clients N in the sweep."),
      ParamSpec::Int("servers", 1, 1, 16, "servers", "Servers at the station (k)."),
      ParamSpec::Real("service_us", 10, 0.1, 1e6, "µs", "Mean (exponential) service time S."),
      ParamSpec::Real("think_us", 100, 0, 1e7, "µs", "Mean (exponential) think time Z between a reply and the next request."),
      ParamSpec::Int("requests", 200000, 10000, 5000000, "requests", "Requests measured at each N (after a 5% warm-up)."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
