#include "queues/models.h"

#include <cmath>
#include <string>
#include <vector>

#include "sim/latency_recorder.h"
#include "sim/simulator.h"

namespace fawnlab::queues {

using sim::BatchStation;
using sim::ClosedLoopClients;
using sim::FifoStation;
using sim::LatencyRecorder;
using sim::PoissonSource;
using sim::SimTime;
using sim::Simulator;

namespace {

constexpr uint64_t kEventsPerChunk = 1 << 16;

// Runs until the recorder has its measurements. Errors when the caller cancels or the model
// runs out of events first (every job dropped, say).
Status RunToCompletion(Simulator& sim, const LatencyRecorder& rec, const ProgressFn& progress) {
  while (!rec.done()) {
    uint64_t ran = sim.Run(kEventsPerChunk);
    if (rec.done()) break;
    if (ran == 0) {
      return Status::InvalidArgument("the model ran out of events after " + std::to_string(rec.measured()) +
                                     " measured requests (" + std::to_string(rec.dropped()) +
                                     " dropped): is the queue limit too small?");
    }
    if (progress && !progress(rec.Progress())) return Status::Cancelled("cancelled");
  }
  return Status::Ok();
}

template <typename Station>
QueueMeasurement Measure(const Simulator& sim, const LatencyRecorder& rec, const Station& station,
                         double utilisation) {
  QueueMeasurement m;
  const sim::LogHistogram& h = rec.histogram();
  m.mean_response_ns = rec.batch_means().mean();
  m.ci95_ns = rec.batch_means().HalfWidth95();
  m.p50_ns = h.Quantile(0.50);
  m.p90_ns = h.Quantile(0.90);
  m.p99_ns = h.Quantile(0.99);
  m.p999_ns = h.Quantile(0.999);
  m.throughput_per_sec = rec.Throughput();
  m.mean_in_system = station.MeanInSystem(rec.window_end());
  m.utilisation = utilisation;
  double x_per_ns = m.throughput_per_sec / 1e9;
  double l_from_little = x_per_ns * m.mean_response_ns;
  m.littles_law_error = m.mean_in_system > 0 ? std::fabs(m.mean_in_system - l_from_little) / m.mean_in_system : 0;
  m.measured = rec.measured();
  m.dropped = rec.dropped();
  m.events = sim.events_processed();
  m.cdf_ns = h.Cdf(160);
  return m;
}

uint64_t SourceLimit(uint64_t warmup, uint64_t measure) { return 4 * (warmup + measure) + 1000; }

}  // namespace

StatusOr<QueueMeasurement> RunOpenQueue(const OpenQueueConfig& c, sim::Rng rng, const ProgressFn& progress) {
  Simulator sim;
  LatencyRecorder rec(c.warmup, c.measure);
  FifoStation station(c.servers, c.queue_limit, c.service, rng.Split(), &rec);
  sim::EnergyMeter meter;
  std::vector<sim::EnergyMeter::ComponentId> ids;
  for (int i = 0; i < c.servers; ++i) {
    ids.push_back(meter.AddComponent("server " + std::to_string(i),
                                     {{"idle", c.server_idle_w}, {"busy", c.server_busy_w}}, 0, 0));
  }
  station.AttachEnergyMeter(&meter, ids);
  double joules_at_start = 0;
  rec.set_on_window_start([&](SimTime t) {
    station.ResetCounters(t);
    joules_at_start = meter.TotalJoules(t);
  });
  PoissonSource source(c.arrival_rate_per_sec, SourceLimit(c.warmup, c.measure), rng.Split(), &station);
  source.Start(sim);
  Status s = RunToCompletion(sim, rec, progress);
  if (!s.ok()) return s;
  QueueMeasurement m = Measure(sim, rec, station, station.Utilisation(rec.window_end()));
  m.dropped = station.counters().dropped;
  m.joules = meter.TotalJoules(rec.window_end()) - joules_at_start;
  m.queries_per_joule = m.joules > 0 ? static_cast<double>(m.measured) / m.joules : 0;
  return m;
}

StatusOr<QueueMeasurement> RunClosedQueue(const ClosedQueueConfig& c, sim::Rng rng, const ProgressFn& progress) {
  Simulator sim;
  LatencyRecorder rec(c.warmup, c.measure);
  ClosedLoopClients clients(c.clients, c.think_ns, c.warmup + c.measure + static_cast<uint64_t>(c.clients),
                            rng.Split(), nullptr, &rec);
  FifoStation station(c.servers, static_cast<size_t>(c.clients), c.service, rng.Split(), &clients);
  clients.set_station(&station);
  rec.set_on_window_start([&station](SimTime t) { station.ResetCounters(t); });
  clients.Start(sim);
  Status s = RunToCompletion(sim, rec, progress);
  if (!s.ok()) return s;
  return Measure(sim, rec, station, station.Utilisation(rec.window_end()));
}

StatusOr<QueueMeasurement> RunBatchQueue(const BatchQueueConfig& c, sim::Rng rng, const ProgressFn& progress) {
  Simulator sim;
  LatencyRecorder rec(c.warmup, c.measure);
  BatchStation::Config bc;
  bc.width = c.width;
  bc.timeout_ns = c.timeout_ns;
  bc.batch_cost_ns = c.batch_cost_ns;
  bc.item_cost_ns = c.item_cost_ns;
  BatchStation station(bc, &rec);
  rec.set_on_window_start([&station](SimTime t) { station.ResetCounters(t); });
  PoissonSource source(c.arrival_rate_per_sec, SourceLimit(c.warmup, c.measure), rng.Split(), &station);
  source.Start(sim);
  Status s = RunToCompletion(sim, rec, progress);
  if (!s.ok()) return s;
  SimTime end = rec.window_end();
  QueueMeasurement m = Measure(sim, rec, station, station.counters().busy.Average(end));
  m.mean_batch = station.batches() ? static_cast<double>(station.counters().completed) /
                                         static_cast<double>(station.batches())
                                   : 0;
  return m;
}

StatusOr<double> MeasureBatchCapacity(int width, sim::SimDuration batch_cost_ns, sim::SimDuration item_cost_ns,
                                      uint64_t measure) {
  Simulator sim;
  LatencyRecorder rec(static_cast<uint64_t>(width) * 4, measure);
  BatchStation::Config bc;
  bc.width = width;
  bc.batch_cost_ns = batch_cost_ns;
  bc.item_cost_ns = item_cost_ns;
  const int clients = 2 * width;
  ClosedLoopClients load(clients, 0, measure + static_cast<uint64_t>(width) * 4 + static_cast<uint64_t>(clients),
                         sim::Rng(1), nullptr, &rec);
  BatchStation station(bc, &load);
  load.set_station(&station);
  load.Start(sim);
  Status s = RunToCompletion(sim, rec, nullptr);
  if (!s.ok()) return s;
  return rec.Throughput();
}

}  // namespace fawnlab::queues
