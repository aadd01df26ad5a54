// NetSession: its schema, building the system, the sample tick that records the window the
// snapshot reads, live changes and the `trace` operation. The snapshot: net_snapshot.cc.
#include "vecio/lab/net_session.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/json_writer.h"

namespace fawnlab::vecio {
namespace {

constexpr uint64_t kSampleTag = 1;

std::vector<std::string> HostIds() {
  std::vector<std::string> out;
  for (const HostProfile& p : HostProfiles()) out.push_back(p.id);
  return out;
}

std::vector<std::string> HostLabels() {
  std::vector<std::string> out;
  for (const HostProfile& p : HostProfiles()) out.push_back(p.label);
  return out;
}

}  // namespace

std::vector<ParamSpec> NetSession::Schema() {
  const SystemConfig d;
  return {
      ParamSpec::Int("multiget", d.multiget, 1, 256, "keys per RPC",
                     "multiget width G: the keys one client RPC carries (thesis §7.4.2, Fig 7.8)"),
      ParamSpec::Int("multiread", d.multiread, 1, 256, "keys per command",
                     "multiread width R: the keys one device command reads (thesis §7.4.3, Fig 7.10)"),
      ParamSpec::Choice("pattern", PatternName(d.pattern), {"auto", "queue"},
                        "auto: the handler issues its own multireads when G ≥ R (direct), an intermediate queue "
                        "collects R keys across RPCs when G < R; queue: always the queue (Fig 7.12)")
          .WithLabels({"auto (direct when G ≥ R)", "intermediate queue"}),
      ParamSpec::Real("queue_timeout_us", d.queue_timeout_us, 0, 1e6, "µs",
                      "a partly filled intermediate queue issues after this long (0: it waits for R keys)"),
      ParamSpec::Real("load_per_s", d.load_per_s, 1, 5e6, "lookups/s",
                      "offered load, all clients together, open loop (a token is one G-key multiget)"),
      ParamSpec::Int("clients", d.clients, 1, 256, "connections",
                     "open-loop clients, one connection and one server thread each (SoCC'12 §5.1: 25 Atoms)"),
      ParamSpec::Int("cores", d.cores, 0, 64, "cores", "the back-end's cores (0: the host profile's)"),
      ParamSpec::Choice("host", d.host, HostIds(), "the back-end's host profile: its cores and per-event costs")
          .WithLabels(HostLabels()),
      ParamSpec::Int("keys", d.keys, 64, 1 << 20, "records", "records preloaded into FAWN-DS on the NVM device"),
      ParamSpec::Real("link_gbps", d.link_gbps, 0.01, 100, "Gbit/s", "line rate of the server's port, each direction"),
      ParamSpec::Real("base_rtt_us", d.base_rtt_us, 0, 100000, "µs", "round trip on the wire (propagation and switching)"),
      ParamSpec::Int("key_bytes", d.key_bytes, 1, 1024, "bytes", "bytes of a key in a request (160-bit FAWN-KV keys)"),
      ParamSpec::Int("value_bytes", d.value_bytes, 1, 65536, "bytes", "value bytes in a reply (4 B in the paper)"),
      ParamSpec::Int("read_bytes", d.read_bytes, 64, 65536, "bytes", "bytes FAWN-DS reads from the device per key (512 B)"),
      ParamSpec::Real("nic_coalesce_us", d.nic_coalesce_us, 0, 10000, "µs",
                      "the NIC raises its interrupt this long after the first packet of a burst"),
      ParamSpec::Real("ack_delay_us", d.ack_delay_us, 0, 100000, "µs",
                      "a client ACKs the reply frames of a connection received within this window once"),
  };
}

const std::vector<std::string>& NetSession::LiveFields() {
  static const std::vector<std::string> live = {"multiget", "multiread", "pattern", "queue_timeout_us", "load_per_s"};
  return live;
}

SystemConfig NetSession::FromParams(const ParamValues& p) {
  SystemConfig c;
  c.multiget = static_cast<int>(p.Int("multiget"));
  c.multiread = static_cast<int>(p.Int("multiread"));
  c.pattern = p.Choice("pattern") == "queue" ? Pattern::kQueue : Pattern::kAuto;
  c.queue_timeout_us = p.Real("queue_timeout_us");
  c.load_per_s = p.Real("load_per_s");
  c.clients = static_cast<int>(p.Int("clients"));
  c.cores = static_cast<int>(p.Int("cores"));
  c.host = p.Choice("host");
  c.keys = static_cast<int>(p.Int("keys"));
  c.link_gbps = p.Real("link_gbps");
  c.base_rtt_us = p.Real("base_rtt_us");
  c.key_bytes = static_cast<int>(p.Int("key_bytes"));
  c.value_bytes = static_cast<int>(p.Int("value_bytes"));
  c.read_bytes = static_cast<int>(p.Int("read_bytes"));
  c.nic_coalesce_us = p.Real("nic_coalesce_us");
  c.ack_delay_us = p.Real("ack_delay_us");
  return c;
}

StatusOr<std::unique_ptr<LabSession>> NetSession::New(const ParamValues& config, uint64_t seed) {
  std::unique_ptr<NetSession> s(new NetSession());
  StatusOr<std::unique_ptr<VectorSystem>> sys = VectorSystem::Create(&s->sim_, FromParams(config), seed);
  if (!sys.ok()) return sys.status();
  s->system_ = std::move(sys).value();
  NetSession* self = s.get();
  s->system_->set_on_complete([self](sim::SimTime done, sim::SimDuration latency, int keys) {
    self->done_.push_back(Done{done, latency, keys});
  });
  s->channel_hits_.assign(static_cast<size_t>(s->system_->device().config().channels), 0);
  s->TakeSample();
  s->system_->Start();
  s->sim_.After(kSampleNs, s.get(), kSampleTag);
  return std::unique_ptr<LabSession>(std::move(s));
}

StatusOr<std::unique_ptr<NetSession>> NetSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<NetSession>("vector.net", config_json, seed);
}

NetSession::~NetSession() = default;

void NetSession::OnEvent(sim::Simulator& sim, uint64_t) {
  TakeSample();
  sim.After(kSampleNs, this, kSampleTag);
}

// The counters now, each channel's occupancy (a command on it now counts one hit), the old
// latencies and samples dropped, and every kTrailNs an operating point.
void NetSession::TakeSample() {
  std::vector<bool> busy(channel_hits_.size(), false);
  system_->ForEachInFlight([&busy](const RpcView& r) {
    if (r.stage == Stage::kDevice && r.channel >= 0 && static_cast<size_t>(r.channel) < busy.size()) busy[static_cast<size_t>(r.channel)] = true;
  });
  for (size_t c = 0; c < busy.size(); ++c) channel_hits_[c] += busy[c] ? 1 : 0;
  Sample s{sim_.now(), system_->counters(), {}, channel_hits_};
  s.core_busy.reserve(static_cast<size_t>(system_->cores()));
  for (int c = 0; c < system_->cores(); ++c) s.core_busy.push_back(system_->core_busy_ns(c));
  samples_.push_back(std::move(s));
  // Keep one sample at or before the window's start.
  while (samples_.size() > 2 && samples_[1].t <= sim_.now() - kWindowNs) samples_.pop_front();
  while (!done_.empty() && done_.front().t <= sim_.now() - kWindowNs) done_.pop_front();
  if (sim_.now() >= next_point_) {
    next_point_ = sim_.now() + kTrailNs;
    const Window w = WindowNow();
    const Latency l = LatencyNow();
    if (w.from && w.seconds > 0) {
      const Counters& c = system_->counters();
      trail_.push_back(Point{sim_.now(), static_cast<double>(c.offered_keys - w.from->counters.offered_keys) / w.seconds,
                             static_cast<double>(c.completed_keys - w.from->counters.completed_keys) / w.seconds, l.p50_us,
                             l.p99_us});
      if (trail_.size() > kTrailPoints) trail_.pop_front();
    }
  }
}

NetSession::Window NetSession::WindowNow() const {
  Window w;
  for (const Sample& s : samples_) {  // oldest first: the oldest within the window
    if (s.t >= sim_.now()) break;
    w.from = &s;
    if (s.t >= sim_.now() - kWindowNs) break;
  }
  if (w.from) w.seconds = sim::NsToSec(sim_.now() - w.from->t);
  return w;
}

NetSession::Latency NetSession::LatencyNow() const {
  Latency l;
  std::vector<sim::SimDuration> v;
  v.reserve(done_.size());
  double sum = 0;
  for (const Done& d : done_) {
    if (d.t <= sim_.now() - kWindowNs) continue;
    v.push_back(d.latency);
    sum += static_cast<double>(d.latency);
  }
  if (v.empty()) return l;
  std::sort(v.begin(), v.end());
  auto rank = [&v](double p) {
    size_t k = static_cast<size_t>(std::max(1.0, std::ceil(p * static_cast<double>(v.size()))));
    return static_cast<double>(v[std::min(k, v.size()) - 1]) / 1e3;
  };
  l.rpcs = v.size();
  l.p50_us = rank(0.5);
  l.p99_us = rank(0.99);
  l.mean_us = sum / static_cast<double>(v.size()) / 1e3;
  return l;
}

Status NetSession::Reconfigured(const ParamValues& config, const ParamValues&) {
  return system_->Reconfigure(FromParams(config));
}

StatusOr<std::string> NetSession::RunOp(const std::string& name, const ParamValues&, const JsonValue&) {
  if (name == "trace") return Trace();
  return Status::InvalidArgument("unknown operation '" + name + "'");
}

// Follows the first RPC issued after now, event by event, until it is answered.
StatusOr<std::string> NetSession::Trace() {
  uint64_t newest = 0;
  system_->ForEachInFlight([&newest](const RpcView& r) { newest = std::max(newest, r.id); });
  // The RPCs issued before now have ids up to `newest`; ids count up as the clients issue.
  struct Step {
    Stage stage;
    sim::SimTime at;
  };
  std::vector<Step> steps;
  uint64_t id = 0;
  int keys = 0, conn = -1;
  std::vector<int> channels;
  sim::SimTime issued = 0;
  const sim::SimTime deadline = sim_.now() + sim::kSec;
  uint64_t events = 0;
  while (events < kTraceBudget && sim_.now() <= deadline) {
    if (!sim_.Step()) break;
    ++events;
    bool seen = false;
    system_->ForEachInFlight([&](const RpcView& r) {
      if (id == 0 && r.id > newest) {
        id = r.id;
        keys = r.keys;
        conn = r.conn;
        issued = r.since;
      }
      if (r.id != id) return;
      seen = true;
      if (steps.empty() || steps.back().stage != r.stage) steps.push_back(Step{r.stage, r.since});
      if (r.channel >= 0 && (channels.empty() || channels.back() != r.channel)) channels.push_back(r.channel);
    });
    if (id != 0 && !seen) {
      JsonWriter w;
      w.BeginObject();
      w.Key("id");
      w.Int(static_cast<int64_t>(id));
      w.Key("keys");
      w.Int(keys);
      w.Key("conn");
      w.Int(conn);
      w.Key("latency_us");
      w.Number(std::round(static_cast<double>(sim_.now() - issued) / 10.0) / 100.0);
      w.Key("channels");
      w.BeginArray(true);
      for (int c : channels) w.Int(c);
      w.EndArray();
      w.Key("stages");
      w.BeginArray();
      for (const Step& s : steps) {
        w.BeginObject();
        w.Key("stage");
        w.String(StageName(s.stage));
        w.Key("at_us");
        w.Number(std::round(static_cast<double>(s.at - issued) / 10.0) / 100.0);
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
      return w.str();
    }
  }
  return Status::Unavailable(id == 0 ? "trace: no RPC was issued within a virtual second (is the load very low?)"
                                            : "trace: the traced RPC was not answered within a virtual second");
}

}  // namespace fawnlab::vecio
