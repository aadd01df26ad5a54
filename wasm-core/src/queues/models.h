// The Queues lab's simulated systems, each a composition of the sim:: building blocks run to
// a fixed number of measured requests after a warm-up:
//
//   RunOpenQueue:   Poisson arrivals -> k servers behind a FIFO (M/M/k, or M/D/k).
//   RunClosedQueue: N clients with exponential think time -> k servers (the interactive model).
//   RunBatchQueue:  Poisson arrivals -> one server taking batches of up to w requests,
//                   costing batch_cost + n * item_cost (vector I/O's shape).
//
// Each returns a QueueMeasurement: response-time mean (with a 95% batch-means confidence
// half-width) and percentiles from the histogram, throughput over the measurement window, and
// the time-averaged number in the system measured independently of response times, so that
// Little's law (L = X R) is a real check. Deterministic for a given Rng; cancellable through
// `progress` (return false to stop; the run then returns kCancelled).
#ifndef FAWNLAB_QUEUES_MODELS_H_
#define FAWNLAB_QUEUES_MODELS_H_

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "base/status.h"
#include "sim/queueing.h"
#include "sim/rng.h"
#include "sim/time.h"

namespace fawnlab::queues {

using ProgressFn = std::function<bool(double)>;

struct QueueMeasurement {
  double mean_response_ns = 0;
  double ci95_ns = 0;  // half-width of the 95% confidence interval of the mean
  double p50_ns = 0, p90_ns = 0, p99_ns = 0, p999_ns = 0;
  double throughput_per_sec = 0;
  double mean_in_system = 0;     // time-average of jobs waiting + in service (L)
  double utilisation = 0;        // time-average fraction of servers busy
  double littles_law_error = 0;  // |L - X R| / L
  double mean_batch = 1;         // jobs per service (batching only)
  double joules = 0;             // energy of the servers over the window (open queue)
  double queries_per_joule = 0;  // measured requests / joules
  uint64_t measured = 0;
  uint64_t dropped = 0;
  uint64_t events = 0;
  std::vector<std::pair<double, double>> cdf_ns;  // (response ns, fraction <=)
};

struct OpenQueueConfig {
  int servers = 1;
  double arrival_rate_per_sec = 50000;
  sim::ServiceTime service;
  uint64_t warmup = 10000;
  uint64_t measure = 100000;
  size_t queue_limit = 1 << 24;
  double server_idle_w = 0;  // power of an idle server
  double server_busy_w = 0;  // power of a busy server
};
StatusOr<QueueMeasurement> RunOpenQueue(const OpenQueueConfig& config, sim::Rng rng, const ProgressFn& progress);

struct ClosedQueueConfig {
  int clients = 1;
  int servers = 1;
  double think_ns = 0;
  sim::ServiceTime service;
  uint64_t warmup = 10000;
  uint64_t measure = 100000;
};
StatusOr<QueueMeasurement> RunClosedQueue(const ClosedQueueConfig& config, sim::Rng rng,
                                          const ProgressFn& progress);

struct BatchQueueConfig {
  double arrival_rate_per_sec = 50000;
  int width = 1;
  sim::SimDuration timeout_ns = 0;
  sim::SimDuration batch_cost_ns = 0;
  sim::SimDuration item_cost_ns = 0;
  uint64_t warmup = 10000;
  uint64_t measure = 100000;
};
StatusOr<QueueMeasurement> RunBatchQueue(const BatchQueueConfig& config, sim::Rng rng, const ProgressFn& progress);

// Saturation throughput of the batch server: `clients` clients with no think time keep it
// busy; returns completions per second over `measure` requests.
StatusOr<double> MeasureBatchCapacity(int width, sim::SimDuration batch_cost_ns, sim::SimDuration item_cost_ns,
                                      uint64_t measure);

}  // namespace fawnlab::queues

#endif  // FAWNLAB_QUEUES_MODELS_H_
