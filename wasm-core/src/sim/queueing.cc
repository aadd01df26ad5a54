#include "sim/queueing.h"

#include <algorithm>
#include <utility>

namespace fawnlab::sim {

SimDuration ServiceTime::Sample(Rng& rng) const {
  double ns = kind == Kind::kDeterministic ? mean_ns : rng.Exponential(mean_ns);
  return static_cast<SimDuration>(ns + 0.5);
}

// ---------------------------------------------------------------- FifoStation

FifoStation::FifoStation(int servers, size_t queue_limit, ServiceTime service, Rng rng,
                         JobListener* listener)
    : servers_(static_cast<size_t>(servers)),
      queue_(queue_limit),
      service_(service),
      rng_(rng),
      listener_(listener) {
  assert(servers >= 1);
}

void FifoStation::UpdateOccupancy(SimTime now) {
  counters_.in_system.Set(now, static_cast<double>(queue_.size() + static_cast<size_t>(busy_)));
  counters_.busy.Set(now, static_cast<double>(busy_));
}

void FifoStation::ResetCounters(SimTime now) {
  counters_.since = now;
  counters_.arrived = counters_.completed = counters_.dropped = 0;
  counters_.in_system.Reset(now, static_cast<double>(queue_.size() + static_cast<size_t>(busy_)));
  counters_.busy.Reset(now, static_cast<double>(busy_));
}

void FifoStation::AttachEnergyMeter(EnergyMeter* meter, std::vector<EnergyMeter::ComponentId> ids) {
  assert(ids.size() == servers_.size());
  meter_ = meter;
  meter_ids_ = std::move(ids);
}

void FifoStation::Start(Simulator& sim, int server, Job job) {
  Server& s = servers_[server];
  if (meter_) meter_->SetState(meter_ids_[server], 1, sim.now());
  job.start = sim.now();
  job.server = server;
  job.service = service_.Sample(rng_);
  s.busy = true;
  s.job = job;
  s.done_at = sim.now() + job.service;
  ++busy_;
  sim.At(s.done_at, this, static_cast<uint64_t>(server));
}

void FifoStation::Arrive(Simulator& sim, Job job) {
  ++counters_.arrived;
  job.arrival = sim.now();
  job.start = -1;
  if (busy_ < num_servers()) {
    for (int i = 0; i < num_servers(); ++i) {
      if (!servers_[i].busy) {
        Start(sim, i, job);
        break;
      }
    }
  } else if (!queue_.Push(job)) {
    ++counters_.dropped;
    if (listener_) listener_->OnDropped(sim, job);
    return;
  }
  UpdateOccupancy(sim.now());
}

void FifoStation::OnEvent(Simulator& sim, uint64_t tag) {
  int server = static_cast<int>(tag);
  Server& s = servers_[server];
  assert(s.busy && s.done_at == sim.now());
  Job done = s.job;
  s.busy = false;
  --busy_;
  ++counters_.completed;
  if (!queue_.empty()) {
    Start(sim, server, queue_.Pop());
  } else if (meter_) {
    meter_->SetState(meter_ids_[server], 0, sim.now());
  }
  UpdateOccupancy(sim.now());
  if (listener_) listener_->OnDone(sim, done);
}

// ---------------------------------------------------------------- BatchStation

BatchStation::BatchStation(Config config, JobListener* listener)
    : config_(config),
      servers_(static_cast<size_t>(config.servers)),
      queue_(config.queue_limit),
      listener_(listener) {
  assert(config.servers >= 1 && config.width >= 1 && config.timeout_ns >= 0);
}

void BatchStation::UpdateOccupancy(SimTime now) {
  counters_.in_system.Set(now, static_cast<double>(queue_.size() + in_service_));
  counters_.busy.Set(now, static_cast<double>(busy_));
}

void BatchStation::ResetCounters(SimTime now) {
  counters_.since = now;
  counters_.arrived = counters_.completed = counters_.dropped = 0;
  batches_ = 0;
  counters_.in_system.Reset(now, static_cast<double>(queue_.size() + in_service_));
  counters_.busy.Reset(now, static_cast<double>(busy_));
}

int BatchStation::IdleServer() const {
  for (size_t i = 0; i < servers_.size(); ++i) {
    if (!servers_[i].busy) return static_cast<int>(i);
  }
  return -1;
}

void BatchStation::TryDispatch(Simulator& sim, bool force) {
  const size_t width = static_cast<size_t>(config_.width);
  for (;;) {
    if (queue_.empty()) return;
    int server = IdleServer();
    if (server < 0) return;
    bool full = queue_.size() >= width;
    bool timed_out = config_.timeout_ns > 0 && sim.now() - queue_.At(0).arrival >= config_.timeout_ns;
    if (!full && !timed_out && !force && !draining_) return;
    size_t n = std::min(width, queue_.size());
    Server& s = servers_[server];
    s.busy = true;
    ++busy_;
    ++batches_;
    SimDuration cost = config_.batch_cost_ns + static_cast<SimDuration>(n) * config_.item_cost_ns;
    s.jobs.clear();
    for (size_t i = 0; i < n; ++i) {
      Job j = queue_.Pop();
      j.start = sim.now();
      j.server = server;
      j.service = cost;
      j.batch_size = static_cast<uint32_t>(n);
      s.jobs.push_back(j);
    }
    in_service_ += n;
    sim.After(cost, this, static_cast<uint64_t>(server));
    // A job left waiting behind this batch needs its own timer. It may already have waited
    // past its timeout (all servers were busy): then the timer fires now, and finds no server.
    if (config_.timeout_ns > 0 && !queue_.empty()) {
      sim.At(std::max(sim.now(), queue_.At(0).arrival + config_.timeout_ns), this, kTimerTag);
    }
  }
}

void BatchStation::Arrive(Simulator& sim, Job job) {
  ++counters_.arrived;
  job.arrival = sim.now();
  job.start = -1;
  if (!queue_.Push(job)) {
    ++counters_.dropped;
    if (listener_) listener_->OnDropped(sim, job);
    return;
  }
  if (config_.timeout_ns > 0 && queue_.size() == 1) {
    sim.At(job.arrival + config_.timeout_ns, this, kTimerTag);
  }
  TryDispatch(sim, false);
  UpdateOccupancy(sim.now());
}

void BatchStation::OnEvent(Simulator& sim, uint64_t tag) {
  if (tag & kTimerTag) {  // a batch timeout; a stale one finds nothing old enough
    TryDispatch(sim, false);
    UpdateOccupancy(sim.now());
    return;
  }
  Server& s = servers_[tag];
  assert(s.busy);
  std::vector<Job> done;
  done.swap(s.jobs);
  s.busy = false;
  --busy_;
  in_service_ -= done.size();
  counters_.completed += done.size();
  TryDispatch(sim, false);
  UpdateOccupancy(sim.now());
  if (listener_) {
    for (const Job& j : done) listener_->OnDone(sim, j);
  }
}

void BatchStation::Flush(Simulator& sim) {
  draining_ = true;
  TryDispatch(sim, true);
  UpdateOccupancy(sim.now());
}

// ---------------------------------------------------------------- PoissonSource

PoissonSource::PoissonSource(double rate_per_sec, uint64_t limit, Rng rng, JobSink* sink)
    : mean_gap_ns_(1e9 / rate_per_sec), limit_(limit), rng_(rng), sink_(sink) {
  assert(rate_per_sec > 0);
}

void PoissonSource::Start(Simulator& sim) {
  if (limit_ == 0) return;
  sim.After(static_cast<SimDuration>(rng_.Exponential(mean_gap_ns_) + 0.5), this, 0);
}

void PoissonSource::OnEvent(Simulator& sim, uint64_t) {
  Job job;
  job.id = emitted_++;
  job.arrival = sim.now();
  sink_->Arrive(sim, job);
  if (emitted_ < limit_) {
    sim.After(static_cast<SimDuration>(rng_.Exponential(mean_gap_ns_) + 0.5), this, 0);
  }
}

// ---------------------------------------------------------------- ClosedLoopClients

ClosedLoopClients::ClosedLoopClients(int clients, double think_ns, uint64_t limit, Rng rng,
                                     JobSink* station, JobListener* downstream)
    : clients_(clients), think_ns_(think_ns), limit_(limit), rng_(rng), station_(station),
      downstream_(downstream) {
  assert(clients >= 1 && think_ns >= 0);
}

void ClosedLoopClients::Start(Simulator& sim) {
  for (int c = 0; c < clients_; ++c) Think(sim, static_cast<uint32_t>(c));
}

void ClosedLoopClients::Think(Simulator& sim, uint32_t client) {
  if (submitted_ >= limit_) return;
  SimDuration think = think_ns_ > 0 ? static_cast<SimDuration>(rng_.Exponential(think_ns_) + 0.5) : 0;
  sim.After(think, this, client);
}

void ClosedLoopClients::OnEvent(Simulator& sim, uint64_t client) {
  if (submitted_ >= limit_) return;
  Job job;
  job.id = submitted_++;
  job.origin = static_cast<uint32_t>(client);
  station_->Arrive(sim, job);
}

void ClosedLoopClients::OnDone(Simulator& sim, const Job& job) {
  if (downstream_) downstream_->OnDone(sim, job);
  Think(sim, job.origin);
}

void ClosedLoopClients::OnDropped(Simulator& sim, const Job& job) {
  if (downstream_) downstream_->OnDropped(sim, job);
  Think(sim, job.origin);
}

}  // namespace fawnlab::sim
