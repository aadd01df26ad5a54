// queues.batching: requests grouped into batches of width w, each batch costing a fixed
// batch_cost plus item_cost per request: the shape of a vector I/O (one command carrying w
// reads) or a multiget. Batching raises capacity from 1/(c_b + c_i) to w/(c_b + w c_i), but a
// request must wait for w - 1 others to arrive. At low load that wait dominates (latency grows
// with w); at high load the extra capacity dominates (a wide batch keeps the queue short).
//
// Default costs: a straight line through the vector-I/O paper's two quoted device latencies,
// 10 µs for one read and 80 µs for a vector of 32 at one thread (Vasudevan et al., SoCC'12
// Fig. 8 = thesis Fig. 7.7): L(w) = 7.7 + 2.26 w µs. The fit is ours (docs/decisions.md).
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

constexpr double kStableFraction = 0.97;  // simulate only loads below 97% of capacity

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const double cb_us = p.Real("batch_cost_us");
  const double ci_us = p.Real("item_cost_us");
  const int w_max = static_cast<int>(p.Int("width_max"));
  const double low = p.Real("low_load_kreq_s") * 1000.0;
  const double high = p.Real("high_load_kreq_s") * 1000.0;
  const double timeout_us = p.Real("timeout_us");
  const uint64_t requests = static_cast<uint64_t>(p.Int("requests"));
  const sim::SimDuration cb_ns = sim::UsToNs(cb_us);
  const sim::SimDuration ci_ns = sim::UsToNs(ci_us);

  auto capacity = [&](int w) { return w / ((cb_ns + w * ci_ns) / 1e9); };  // requests/s
  std::vector<int> widths = PowersOfTwo(w_max);
  SweepProgress sweep(&ctx, static_cast<double>(widths.size()) * 2.2 * static_cast<double>(requests));

  Result r;
  r.scale_note = "no scaling: a queueing model, times in µs";
  const std::string xl = "batch width w (requests per batch)";
  Series cap_sim{"capacity (simulated, saturated)", "measured", xl, "throughput (thousand requests/s)", {}};
  Series cap_th{"capacity (theory: w/(c_b + w·c_i))", "theory", xl, "throughput (thousand requests/s)", {}};
  Series low_sim{"mean latency, low load (simulated)", "measured", xl, "latency (µs)", {}};
  Series high_sim{"mean latency, high load (simulated)", "measured", xl, "latency (µs)", {}};
  Series low_p99{"p99 latency, low load (simulated)", "measured", xl, "latency (µs)", {}};
  Series high_p99{"p99 latency, high load (simulated)", "measured", xl, "latency (µs)", {}};
  Series low_th{"mean latency, low load (approximation: (w−1)/(2λ) fill wait + service)", "theory", xl, "latency (µs)", {}};
  Series batch_sim{"mean batch size, high load (simulated)", "measured", xl, "requests per batch", {}};

  double best_low = 0, best_low_lat = 1e300, best_high = 0, best_high_lat = 1e300;
  std::vector<int> unstable;
  for (int w : widths) {
    StatusOr<double> cap = queues::MeasureBatchCapacity(w, cb_ns, ci_ns, std::max<uint64_t>(10000, requests / 10));
    if (!cap.ok()) return cap.status();
    cap_sim.points.emplace_back(w, cap.value() / 1000.0);
    cap_th.points.emplace_back(w, capacity(w) / 1000.0);
    if (w == 1) r.AddMetric("capacity_kreq_s_w_1", cap.value() / 1000.0);
    if (w == w_max) r.AddMetric("capacity_kreq_s_w_max", cap.value() / 1000.0);

    for (int phase = 0; phase < 2; ++phase) {
      const double lambda = phase == 0 ? low : high;
      auto progress = sweep.Step(static_cast<double>(requests));
      if (lambda >= kStableFraction * capacity(w)) {
        if (phase == 1) unstable.push_back(w);
        sweep.Done();
        continue;
      }
      queues::BatchQueueConfig c;
      c.arrival_rate_per_sec = lambda;
      c.width = w;
      c.timeout_ns = sim::UsToNs(timeout_us);
      c.batch_cost_ns = cb_ns;
      c.item_cost_ns = ci_ns;
      c.measure = requests;
      c.warmup = std::max<uint64_t>(1000, requests / 20);
      sim::Rng rng = sim::Rng::ForStream(ctx.seed(), static_cast<uint64_t>(w) * 2 + static_cast<uint64_t>(phase));
      StatusOr<QueueMeasurement> m = queues::RunBatchQueue(c, rng, progress);
      if (!m.ok()) return m.status();
      sweep.Done();
      const QueueMeasurement& v = m.value();
      double mean_us = v.mean_response_ns / 1000.0;
      if (phase == 0) {
        low_sim.points.emplace_back(w, mean_us);
        low_p99.points.emplace_back(w, v.p99_ns / 1000.0);
        if (mean_us < best_low_lat) { best_low_lat = mean_us; best_low = w; }
        if (w == 1) r.AddMetric("mean_latency_us_low_w_1", mean_us);
      } else {
        high_sim.points.emplace_back(w, mean_us);
        high_p99.points.emplace_back(w, v.p99_ns / 1000.0);
        batch_sim.points.emplace_back(w, v.mean_batch);
        if (mean_us < best_high_lat) { best_high_lat = mean_us; best_high = w; }
      }
    }
    if (timeout_us == 0) {
      low_th.points.emplace_back(w, (w - 1) / (2.0 * low) * 1e6 + cb_us + w * ci_us);
    }
  }
  if (best_low > 0) r.AddMetric("best_width_low_load", best_low);
  if (best_high > 0) {
    r.AddMetric("best_width_high_load", best_high);
    r.AddMetric("mean_latency_us_high_best", best_high_lat);
  }

  const AnchorNote cap_note = Emergent("w / (c_b + w·c_i)", "the simulated station saturated with requests; capacity is what it completes");
  r.AddAnchor("capacity_kreq_s_w_1", capacity(1) / 1000.0, {true, 0.01}, cap_note);
  r.AddAnchor("capacity_kreq_s_w_max", capacity(w_max) / 1000.0, {true, 0.01}, cap_note);
  if (low < kStableFraction * capacity(1)) {
    // With w = 1 every request is its own batch: an M/D/1 queue with service c_b + c_i.
    r.AddAnchor("mean_latency_us_low_w_1", queues::Md1MeanResponse(low / 1e6, cb_us + ci_us), {true, 0.05},
                Emergent("M/D/1 theory (Pollaczek–Khinchine)", "width 1 makes every request its own batch of fixed cost",
                         "a finite run wanders around the theory; a longer run narrows it"));
  }

  r.series = {cap_sim, cap_th, low_sim, high_sim, low_p99, high_p99};
  if (!low_th.points.empty()) r.series.push_back(low_th);
  r.series.push_back(batch_sim);
  if (!unstable.empty()) {
    std::string ws;
    for (int w : unstable) ws += (ws.empty() ? "" : ", ") + std::to_string(w);
    r.notes.push_back("High load (" + FormatNumber(high / 1000.0) + "k requests/s) exceeds 97% of the capacity at w = " +
                      ws + ": the queue would grow without bound, so those points are not simulated.");
  }
  r.notes.push_back("A batch of n requests costs " + FormatNumber(cb_us) + " + " + FormatNumber(ci_us) +
                    "·n µs (default: the vector-I/O paper's device fit, 10 µs for 1 read and 80 µs for 32).");
  if (timeout_us > 0) {
    r.notes.push_back("A partial batch is sent once its oldest request has waited " + FormatNumber(timeout_us) + " µs.");
  } else {
    r.notes.push_back("No timeout: a batch waits until w requests are queued, as the paper's intermediate queue does.");
  }
  return r;
}

}  // namespace

Experiment MakeQueuesBatching() {
  Experiment e;
  e.info.id = "queues.batching";
  e.info.lab = "queues";
  e.info.title = "Batching: width against latency and throughput";
  e.info.summary =
      "Requests are served in batches of w with a fixed cost per batch and a small cost per request, "
      "like a vector read or a multiget. Wider batches multiply capacity but make each request wait "
      "for its batch to fill: a loss at low load, a large win at high load.";
  e.info.reference = "Vector interfaces (Vasudevan et al., SoCC'12 Fig. 8 = thesis Fig. 7.7): 10 µs at w = 1, 80 µs at w = 32, fitted as L(w) = 7.7 + 2.26·w µs";
  e.info.params = {
      ParamSpec::Real("batch_cost_us", 7.7, 0, 100000, "µs", "Fixed cost of one batch (command, interrupt, wake-up)."),
      ParamSpec::Real("item_cost_us", 2.26, 0.01, 100000, "µs", "Cost per request inside a batch (transfer, lookup)."),
      ParamSpec::Int("width_max", 32, 1, 256, "requests", "Widest batch in the sweep (widths are powers of two up to it)."),
      ParamSpec::Real("low_load_kreq_s", 20, 0.1, 100000, "k req/s", "Arrival rate of the low-load sweep."),
      ParamSpec::Real("high_load_kreq_s", 250, 0.1, 100000, "k req/s", "Arrival rate of the high-load sweep."),
      ParamSpec::Real("timeout_us", 0, 0, 1e6, "µs", "Send a partial batch after its oldest request waited this long (0: never)."),
      ParamSpec::Int("requests", 200000, 10000, 5000000, "requests", "Requests measured per point (after a 5% warm-up)."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
