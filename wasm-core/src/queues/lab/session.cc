#include "queues/lab/session.h"

#include <utility>
#include <vector>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/params.h"
#include "queues/theory.h"

namespace fawnlab::queues {
namespace {

const char kWhat[] = "the queue session";

}  // namespace

std::vector<ParamSpec> QueueSession::Schema() {
  return {
      ParamSpec::Int("servers", 1, 1, QueueSession::kMaxServers, "servers", "Servers sharing the queue."),
      ParamSpec::Real("arrival_rate_per_s", 50000, 1, 1e9, "requests/s", "Poisson arrival rate."),
      ParamSpec::Real("service_us", 10, 0.01, 1e7, "µs", "Mean service time."),
      ParamSpec::Choice("service", "exponential", {"exponential", "deterministic"}, "Service-time distribution."),
      ParamSpec::Int("queue_limit", 1000, 1, 10000, "requests", "Waiting room; arrivals beyond it are dropped."),
  };
}

Status QueueSession::ParseConfig(const std::string& json, Config* out, bool patch) {
  StatusOr<JsonValue> v = ParseJson(json.empty() ? "{}" : json);
  if (!v.ok()) return Status::InvalidArgument(std::string("configuration of ") + kWhat + ": " + v.status().message());
  if (patch && v.value().is_object()) {
    for (const auto& m : v.value().object_members()) {
      if (m.first != "arrival_rate_per_s" && m.first != "service_us" && m.first != "service") {
        return Status::InvalidArgument("parameter '" + m.first +
                                       "' cannot change while the queue runs; start a new session");
      }
    }
  }
  // A patch is resolved on top of the current values.
  std::vector<ParamSpec> schema = Schema();
  if (patch) {
    schema[0].default_value = out->servers;
    schema[1].default_value = out->arrival_rate_per_s;
    schema[2].default_value = out->service_us;
    schema[3].default_choice = out->service_kind == sim::ServiceTime::Kind::kDeterministic ? "deterministic" : "exponential";
    schema[4].default_value = out->queue_limit;
  }
  StatusOr<ParamValues> p = ResolveParams(kWhat, schema, v.value());
  if (!p.ok()) return p.status();
  out->servers = static_cast<int>(p.value().Int("servers"));
  out->arrival_rate_per_s = p.value().Real("arrival_rate_per_s");
  out->service_us = p.value().Real("service_us");
  out->service_kind = p.value().Choice("service") == "deterministic" ? sim::ServiceTime::Kind::kDeterministic
                                                                       : sim::ServiceTime::Kind::kExponential;
  out->queue_limit = static_cast<int>(p.value().Int("queue_limit"));
  return Status::Ok();
}

StatusOr<std::unique_ptr<QueueSession>> QueueSession::Create(const std::string& config_json, uint64_t seed) {
  Config c;
  Status s = ParseConfig(config_json, &c, false);
  if (!s.ok()) return s;
  return std::unique_ptr<QueueSession>(new QueueSession(c, seed));
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

uint64_t QueueSession::Advance(sim::SimDuration dt_ns, uint64_t max_events) {
  if (dt_ns < 0) dt_ns = 0;
  uint64_t n = sim_.RunUntil(sim_.now() + dt_ns, max_events);
  ++version_;
  return n;
}

bool QueueSession::Step() {
  bool ran = sim_.Step();
  ++version_;
  return ran;
}

Status QueueSession::Reconfigure(const std::string& patch_json) {
  Config next = config_;
  Status s = ParseConfig(patch_json, &next, true);
  if (!s.ok()) return s;
  config_ = next;
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

std::string QueueSession::SnapshotJson() const {
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
