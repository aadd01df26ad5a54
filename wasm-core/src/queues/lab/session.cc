#include "queues/lab/session.h"

#include <utility>
#include <vector>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/params.h"
#include "queues/theory.h"

namespace fawnlab::queues {
std::vector<ParamSpec> QueueSession::Schema() {
  return {
      ParamSpec::Int("servers", 1, 1, QueueSession::kMaxServers, "servers", "Servers sharing the queue."),
      ParamSpec::Real("arrival_rate_per_s", 50000, 1, 1e9, "requests/s", "Poisson arrival rate."),
      ParamSpec::Real("service_us", 10, 0.01, 1e7, "µs", "Mean service time."),
      ParamSpec::Choice("service", "exponential", {"exponential", "deterministic"}, "Service-time distribution."),
      ParamSpec::Int("queue_limit", 1000, 1, 10000, "requests", "Waiting room; arrivals beyond it are dropped."),
  };
}

QueueSession::Config QueueSession::FromParams(const ParamValues& p) {
  Config c;
  c.servers = static_cast<int>(p.Int("servers"));
  c.arrival_rate_per_s = p.Real("arrival_rate_per_s");
  c.service_us = p.Real("service_us");
  c.service_kind = p.Choice("service") == "deterministic" ? sim::ServiceTime::Kind::kDeterministic : sim::ServiceTime::Kind::kExponential;
  c.queue_limit = static_cast<int>(p.Int("queue_limit"));
  return c;
}

StatusOr<std::unique_ptr<LabSession>> QueueSession::New(const ParamValues& config, uint64_t seed) {
  return std::unique_ptr<LabSession>(new QueueSession(FromParams(config), seed));
}

StatusOr<std::unique_ptr<QueueSession>> QueueSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<QueueSession>("queues", config_json, seed);
}

QueueSession::QueueSession(const Config& c, uint64_t seed) : config_(c) {
  sim::Rng root(seed);
  station_ = std::make_unique<sim::FifoStation>(c.servers, static_cast<size_t>(c.queue_limit),
                                                sim::ServiceTime{c.service_kind, c.service_us * 1000.0}, root.Split(),
                                                this);
  source_ = std::make_unique<sim::PoissonSource>(c.arrival_rate_per_s, UINT64_MAX, root.Split(), station_.get());
  station_->ResetCounters(0);
  source_->Start(sim_);
}

Status QueueSession::Reconfigured(const ParamValues& config, const ParamValues&) {
  config_ = FromParams(config);
  source_->set_rate(config_.arrival_rate_per_s);
  station_->set_service(sim::ServiceTime{config_.service_kind, config_.service_us * 1000.0});
  // Statistics restart so they describe the new setting.
  station_->ResetCounters(sim_.now());
  response_.Clear();
  completed_ = dropped_ = 0;
  ++version_;
  return Status::Ok();
}

void QueueSession::OnDone(sim::Simulator& sim, const sim::Job& job) {
  ++completed_;
  response_.Record(static_cast<uint64_t>(sim.now() - job.arrival));
  recent_.push_back(Departure{job.id, job.server, job.arrival, job.start, sim.now()});
  if (recent_.size() > kRecentDepartures) recent_.pop_front();
}

void QueueSession::OnDropped(sim::Simulator&, const sim::Job&) { ++dropped_; }

std::string QueueSession::SnapshotJson() {
  const sim::SimTime now = sim_.now();
  JsonWriter w;
  w.BeginObject();
  w.Key("version");
  w.Number(static_cast<double>(version_));
  w.Key("now_ns");
  w.Number(static_cast<double>(now));
  w.Key("config");
  w.BeginObject();
  w.Key("servers");
  w.Int(config_.servers);
  w.Key("arrival_rate_per_s");
  w.Number(config_.arrival_rate_per_s);
  w.Key("service_us");
  w.Number(config_.service_us);
  w.Key("service");
  w.String(config_.service_kind == sim::ServiceTime::Kind::kDeterministic ? "deterministic" : "exponential");
  w.Key("queue_limit");
  w.Int(config_.queue_limit);
  w.EndObject();

  w.Key("servers");
  w.BeginArray();
  for (int i = 0; i < station_->num_servers(); ++i) {
    const sim::Job* j = station_->ServerJob(i);
    w.BeginObject();
    w.Key("busy");
    w.Bool(j != nullptr);
    if (j) {
      w.Key("id");
      w.Number(static_cast<double>(j->id));
      w.Key("arrival_ns");
      w.Number(static_cast<double>(j->arrival));
      w.Key("start_ns");
      w.Number(static_cast<double>(j->start));
      w.Key("done_ns");
      w.Number(static_cast<double>(station_->ServerDoneAt(i)));
    }
    w.EndObject();
  }
  w.EndArray();

  const sim::BoundedFifo<sim::Job>& q = station_->queue();
  w.Key("queue_length");
  w.Number(static_cast<double>(q.size()));
  w.Key("queue");
  w.BeginArray();
  for (size_t i = 0; i < q.size() && i < static_cast<size_t>(kQueueShown); ++i) {
    w.BeginArray(true);
    w.Number(static_cast<double>(q.At(i).id));
    w.Number(static_cast<double>(q.At(i).arrival));
    w.EndArray();
  }
  w.EndArray();

  w.Key("recent");
  w.BeginArray();
  for (const Departure& d : recent_) {
    w.BeginObject();
    w.Key("id");
    w.Number(static_cast<double>(d.id));
    w.Key("server");
    w.Int(d.server);
    w.Key("arrival_ns");
    w.Number(static_cast<double>(d.arrival));
    w.Key("start_ns");
    w.Number(static_cast<double>(d.start));
    w.Key("done_ns");
    w.Number(static_cast<double>(d.done));
    w.EndObject();
  }
  w.EndArray();

  const sim::StationCounters& c = station_->counters();
  const double window_s = sim::NsToSec(now - c.since);
  const double x = window_s > 0 ? static_cast<double>(completed_) / window_s : 0;
  const double r_ns = response_.mean();
  w.Key("counters");
  w.BeginObject();
  w.Key("window_start_ns");
  w.Number(static_cast<double>(c.since));
  w.Key("arrived");
  w.Number(static_cast<double>(c.arrived));
  w.Key("completed");
  w.Number(static_cast<double>(completed_));
  w.Key("dropped");
  w.Number(static_cast<double>(dropped_));
  w.Key("throughput_per_s");
  w.Number(x);
  w.Key("mean_response_us");
  w.Number(r_ns / 1000.0);
  w.Key("p50_response_us");
  w.Number(response_.Quantile(0.5) / 1000.0);
  w.Key("p99_response_us");
  w.Number(response_.Quantile(0.99) / 1000.0);
  w.Key("mean_in_system");
  w.Number(station_->MeanInSystem(now));
  w.Key("littles_x_times_r");
  w.Number(x * r_ns / 1e9);
  w.Key("utilisation");
  w.Number(station_->Utilisation(now));
  w.EndObject();

  const double rho = config_.arrival_rate_per_s * config_.service_us / 1e6 / config_.servers;
  w.Key("theory");
  w.BeginObject();
  w.Key("rho");
  w.Number(rho);
  w.Key("stable");
  w.Bool(rho < 1);
  if (rho < 1) {
    const double lambda = config_.arrival_rate_per_s / 1e6;  // per µs
    const double mu = 1.0 / config_.service_us;
    if (config_.service_kind == sim::ServiceTime::Kind::kExponential) {
      w.Key("model");
      w.String("M/M/" + std::to_string(config_.servers));
      w.Key("mean_response_us");
      w.Number(MmkMeanResponse(config_.servers, lambda, mu));
      w.Key("mean_in_system");
      w.Number(lambda * MmkMeanResponse(config_.servers, lambda, mu));
    } else if (config_.servers == 1) {
      w.Key("model");
      w.String("M/D/1");
      w.Key("mean_response_us");
      w.Number(Md1MeanResponse(lambda, config_.service_us));
      w.Key("mean_in_system");
      w.Number(lambda * Md1MeanResponse(lambda, config_.service_us));
    }
  }
  w.EndObject();
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::queues
