// Queueing building blocks on the Simulator: jobs, bounded FIFOs, server stations and load
// sources. The Queues lab composes them directly; later labs (vector I/O, the cluster's
// request path) reuse them.
//
//   PoissonSource ──Arrive──▶ FifoStation (k servers, bounded FIFO) ──OnDone──▶ JobListener
//   ClosedLoopClients ◀────────────────────────────────────────────────OnDone──┘ (think, resubmit)
//   BatchStation: like FifoStation, but a server takes up to `width` jobs at once and costs
//                 batch_cost + n * item_cost (the shape of a vector I/O or a multiget).
//
// Every queue has a bound (jobs beyond it are dropped and counted) and every source a job
// limit, so no run can grow without end. All randomness comes from the Rng each component is
// given. Stations measure their own time-averaged occupancy (for Little's law) separately
// from the per-job times their listeners record.
#ifndef FAWNLAB_SIM_QUEUEING_H_
#define FAWNLAB_SIM_QUEUEING_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/energy.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "sim/stats.h"
#include "sim/time.h"

namespace fawnlab::sim {

struct Job {
  uint64_t id = 0;
  SimTime arrival = 0;       // entered the station
  SimTime start = -1;        // service began (-1 while waiting)
  SimDuration service = 0;   // service time charged to this job
  uint32_t origin = 0;       // source-specific: the client index of a closed loop
  uint32_t batch_size = 1;   // jobs served together with this one (BatchStation)
  int32_t server = -1;       // the server that took it (-1 while waiting)
};

// A service-time distribution.
struct ServiceTime {
  enum class Kind { kExponential, kDeterministic };
  Kind kind = Kind::kExponential;
  double mean_ns = 1000;
  SimDuration Sample(Rng& rng) const;
};

// FIFO with a fixed maximum length; storage grows on demand up to the bound.
template <typename T>
class BoundedFifo {
 public:
  explicit BoundedFifo(size_t limit) : limit_(limit) { assert(limit > 0); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == limit_; }
  size_t limit() const { return limit_; }

  // Returns false (and stores nothing) when full.
  bool Push(const T& v) {
    if (size_ == limit_) return false;
    if (size_ == buf_.size()) Grow();
    buf_[(head_ + size_) % buf_.size()] = v;
    ++size_;
    return true;
  }
  // REQUIRES: !empty().
  T Pop() {
    assert(size_ > 0);
    T v = buf_[head_];
    head_ = (head_ + 1) % buf_.size();
    --size_;
    return v;
  }
  // The i-th oldest element. REQUIRES: i < size().
  const T& At(size_t i) const {
    assert(i < size_);
    return buf_[(head_ + i) % buf_.size()];
  }

 private:
  void Grow() {
    size_t cap = buf_.empty() ? 16 : buf_.size() * 2;
    if (cap > limit_) cap = limit_;
    std::vector<T> next(cap);
    for (size_t i = 0; i < size_; ++i) next[i] = At(i);
    buf_.swap(next);
    head_ = 0;
  }

  size_t limit_;
  std::vector<T> buf_;
  size_t head_ = 0;
  size_t size_ = 0;
};

// Told when a station finishes or drops a job.
class JobListener {
 public:
  virtual ~JobListener() = default;
  virtual void OnDone(Simulator& sim, const Job& job) = 0;
  virtual void OnDropped(Simulator& sim, const Job& job) {}
};

// Anything that accepts jobs.
class JobSink {
 public:
  virtual ~JobSink() = default;
  virtual void Arrive(Simulator& sim, Job job) = 0;
};

// Occupancy and throughput counters shared by the stations.
struct StationCounters {
  SimTime since = 0;  // when the counters were last reset
  uint64_t arrived = 0;
  uint64_t completed = 0;
  uint64_t dropped = 0;
  TimeAverage in_system;  // jobs waiting + in service
  TimeAverage busy;       // servers busy
};

// k identical servers behind one FIFO. A job that finds a server idle starts at once (the
// lowest-numbered idle server takes it); otherwise it waits, or is dropped when the FIFO is
// full. Service times are drawn when service starts.
class FifoStation : public EventHandler, public JobSink {
 public:
  FifoStation(int servers, size_t queue_limit, ServiceTime service, Rng rng, JobListener* listener);

  void Arrive(Simulator& sim, Job job) override;
  void OnEvent(Simulator& sim, uint64_t server) override;

  // Restarts the occupancy averages and counters at `now` (end of warm-up).
  void ResetCounters(SimTime now);
  const StationCounters& counters() const { return counters_; }
  double MeanInSystem(SimTime now) const { return counters_.in_system.Average(now); }
  double Utilisation(SimTime now) const { return counters_.busy.Average(now) / servers_.size(); }

  int num_servers() const { return static_cast<int>(servers_.size()); }
  int busy_servers() const { return busy_; }
  const BoundedFifo<Job>& queue() const { return queue_; }
  // The job on `server`, or nullptr when it is idle; and when it will finish.
  const Job* ServerJob(int server) const { return servers_[server].busy ? &servers_[server].job : nullptr; }
  SimTime ServerDoneAt(int server) const { return servers_[server].done_at; }
  void set_service(ServiceTime service) { service_ = service; }
  // Reports each server's busy/idle transitions to `meter`: server i is component ids[i],
  // whose power state 0 is idle and 1 is busy. REQUIRES: ids.size() == num_servers().
  void AttachEnergyMeter(EnergyMeter* meter, std::vector<EnergyMeter::ComponentId> ids);

 private:
  struct Server {
    bool busy = false;
    Job job;
    SimTime done_at = 0;
  };
  void Start(Simulator& sim, int server, Job job);
  void UpdateOccupancy(SimTime now);

  std::vector<Server> servers_;
  int busy_ = 0;
  BoundedFifo<Job> queue_;
  ServiceTime service_;
  Rng rng_;
  JobListener* listener_;
  StationCounters counters_;
  EnergyMeter* meter_ = nullptr;
  std::vector<EnergyMeter::ComponentId> meter_ids_;
};

// Servers that each take up to `width` waiting jobs at once. A free server starts a batch
// when `width` jobs are waiting, or, if timeout_ns > 0, when the oldest waiting job has waited
// timeout_ns (then it takes all waiting jobs, fewer than width). A batch of n jobs takes
// batch_cost_ns + n * item_cost_ns; every job in it completes when the batch does.
class BatchStation : public EventHandler, public JobSink {
 public:
  struct Config {
    int servers = 1;
    size_t queue_limit = 1 << 20;
    int width = 1;
    SimDuration timeout_ns = 0;  // 0: wait for a full batch
    SimDuration batch_cost_ns = 0;
    SimDuration item_cost_ns = 0;
  };
  BatchStation(Config config, JobListener* listener);

  void Arrive(Simulator& sim, Job job) override;
  void OnEvent(Simulator& sim, uint64_t tag) override;

  // From now on, serves waiting jobs without waiting for full batches (drains the end of a run).
  void Flush(Simulator& sim);
  void ResetCounters(SimTime now);
  const StationCounters& counters() const { return counters_; }
  uint64_t batches() const { return batches_; }
  double MeanInSystem(SimTime now) const { return counters_.in_system.Average(now); }

 private:
  static constexpr uint64_t kTimerTag = uint64_t{1} << 63;
  struct Server {
    bool busy = false;
    std::vector<Job> jobs;
  };
  void TryDispatch(Simulator& sim, bool force);
  int IdleServer() const;
  void UpdateOccupancy(SimTime now);

  Config config_;
  std::vector<Server> servers_;
  int busy_ = 0;
  size_t in_service_ = 0;
  BoundedFifo<Job> queue_;
  JobListener* listener_;
  StationCounters counters_;
  uint64_t batches_ = 0;
  bool draining_ = false;
};

// Poisson arrivals at `rate_per_sec` into a sink, ids counting from 0, until `limit` jobs.
class PoissonSource : public EventHandler {
 public:
  PoissonSource(double rate_per_sec, uint64_t limit, Rng rng, JobSink* sink);
  // Schedules the first arrival.
  void Start(Simulator& sim);
  void OnEvent(Simulator& sim, uint64_t tag) override;
  // Changes the rate from the next arrival on. REQUIRES: rate_per_sec > 0.
  void set_rate(double rate_per_sec) { mean_gap_ns_ = 1e9 / rate_per_sec; }
  uint64_t emitted() const { return emitted_; }

 private:
  double mean_gap_ns_;
  uint64_t limit_;
  uint64_t emitted_ = 0;
  Rng rng_;
  JobSink* sink_;
};

// N clients in a closed loop: each thinks (exponential, mean think_ns; 0 = no think time),
// submits one job, waits for it, and thinks again, until `limit` jobs have been submitted.
// Wire the station's listener to this object; completed jobs are passed on to `downstream`.
class ClosedLoopClients : public EventHandler, public JobListener {
 public:
  ClosedLoopClients(int clients, double think_ns, uint64_t limit, Rng rng, JobSink* station,
                    JobListener* downstream);
  void set_station(JobSink* station) { station_ = station; }
  // Starts every client thinking at now.
  void Start(Simulator& sim);
  void OnEvent(Simulator& sim, uint64_t client) override;
  void OnDone(Simulator& sim, const Job& job) override;
  void OnDropped(Simulator& sim, const Job& job) override;
  uint64_t submitted() const { return submitted_; }

 private:
  void Think(Simulator& sim, uint32_t client);
  int clients_;
  double think_ns_;
  uint64_t limit_;
  uint64_t submitted_ = 0;
  Rng rng_;
  JobSink* station_;
  JobListener* downstream_;
};

}  // namespace fawnlab::sim

#endif  // FAWNLAB_SIM_QUEUEING_H_
