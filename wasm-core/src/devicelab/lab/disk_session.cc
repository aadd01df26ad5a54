#include "devicelab/lab/disk_session.h"

#include <algorithm>
#include <utility>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/params.h"
#include "device/profiles.h"

namespace fawnlab::devices {

DiskSession::Config DiskSession::FromParams(const ParamValues& p) {
  Config c;
  c.profile = p.Choice("profile");
  c.workload = p.Choice("workload");
  c.rate_per_s = p.Real("rate_per_s");
  c.scheduler = p.Choice("scheduler");
  c.spin_down_s = p.Real("spin_down_s");
  c.io_kb = static_cast<int>(p.Int("io_kb"));
  return c;
}

std::vector<ParamSpec> DiskSession::Schema(const Config& c) {
  std::vector<std::string> names;
  for (const auto& p : device::DiskProfiles()) names.push_back(p.name);
  return {
      ParamSpec::Choice("profile", c.profile, names, "the disk: its rotation, seeks and power states (docs/devices.md)")
          .WithLabels(device::ProfileLabels(names)),
      ParamSpec::Choice("workload", c.workload, {"random", "sequential"}, "read pattern: random sectors, or in order"),
      ParamSpec::Real("rate_per_s", c.rate_per_s, 0, 2000, "reads/s", "Poisson arrival rate (0: the disk idles)"),
      ParamSpec::Choice("scheduler", c.scheduler, {"fifo", "sstf"},
                        "the order queued reads are served: FIFO (arrival order) or SSTF (shortest seek first)"),
      ParamSpec::Real("spin_down_s", c.spin_down_s, 0, 600, "s", "idle time before standby (0: never)"),
      ParamSpec::Int("io_kb", c.io_kb, 1, 1024, "KB", "read size"),
  };
}

StatusOr<std::unique_ptr<DiskSession>> DiskSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<DiskSession>("devices.disk", config_json, seed);
}

StatusOr<std::unique_ptr<LabSession>> DiskSession::New(const ParamValues& config, uint64_t seed) {
  const Config c = FromParams(config);
  std::unique_ptr<DiskSession> session(new DiskSession(c, seed));
  device::DiskConfig dc = device::FindDiskProfile(c.profile)->config;
  dc.sstf = c.scheduler == "sstf";
  dc.spin_down_s = c.spin_down_s;
  auto d = device::DiskDevice::Create(&session->sim_, c.profile, dc);
  if (!d.ok()) return d.status();
  session->disk_ = std::move(d).value();
  session->ScheduleArrival();
  return std::unique_ptr<LabSession>(std::move(session));
}

DiskSession::DiskSession(Config c, uint64_t seed) : config_(std::move(c)), rng_(sim::Rng::ForStream(seed, 11)) {}

void DiskSession::ScheduleArrival() {
  ++arrival_generation_;
  if (config_.rate_per_s <= 0) return;
  sim::SimDuration gap = static_cast<sim::SimDuration>(rng_.Exponential(1e9 / config_.rate_per_s) + 0.5);
  sim_.At(sim_.now() + gap, this, arrival_generation_);
}

void DiskSession::OnEvent(sim::Simulator& sim, uint64_t tag) {
  if (tag != arrival_generation_) return;  // superseded by a new rate
  const uint64_t io = static_cast<uint64_t>(config_.io_kb) * 1024;
  const uint64_t slots = disk_->info().capacity_bytes / io;
  uint64_t off;
  if (config_.workload == "sequential") {
    off = (seq_next_ % slots) * io;
    ++seq_next_;
  } else {
    off = rng_.UniformU64(slots) * io;
  }
  buf_.resize(io);
  Status s = disk_->Submit(device::IoCommand::Single(device::IoEntry::Read(off, io, buf_.data())),
                           [this](const device::IoCompletion& c) { latency_.Record(static_cast<uint64_t>(c.latency())); });
  assert(s.ok());
  (void)s;
  ScheduleArrival();
}

Status DiskSession::Reconfigured(const ParamValues& config, const ParamValues&) {
  const Config next = FromParams(config);
  bool rate_changed = next.rate_per_s != config_.rate_per_s;
  config_ = next;
  disk_->set_sstf(config_.scheduler == "sstf");
  disk_->set_spin_down_s(config_.spin_down_s);
  if (rate_changed) ScheduleArrival();
  latency_.Clear();
  base_ = disk_->stats();
  window_start_ = sim_.now();
  return Status::Ok();
}

std::string DiskSession::SnapshotJson() {
  const sim::SimTime now = sim_.now();
  const device::DiskDevice& d = *disk_;
  JsonWriter w;
  w.BeginObject();
  w.Key("time_ns");
  w.Number(static_cast<double>(now));
  w.Key("profile");
  w.String(config_.profile);
  w.Key("rpm");
  w.Number(d.config().rpm);
  w.Key("cylinders");
  w.Number(static_cast<double>(d.config().cylinders));
  w.Key("head");
  w.Number(d.HeadAt(now));
  w.Key("angle");
  w.Number(d.AngleAt(now));
  w.Key("state");
  w.String(d.state_name());
  w.Key("watts");
  w.Number(d.watts());
  w.Key("current");
  if (d.busy()) {
    const auto& c = d.current();
    const char* phase = now < c.seek_end ? "seek" : now < c.rotate_end ? "rotate" : "transfer";
    sim::SimTime end = now < c.seek_end ? c.seek_end : now < c.rotate_end ? c.rotate_end : c.transfer_end;
    w.BeginObject();
    w.Key("cylinder");
    w.Number(static_cast<double>(c.cylinder));
    w.Key("sector_angle");
    w.Number(c.sector_angle);
    w.Key("phase");
    w.String(phase);
    w.Key("phase_end_ns");
    w.Number(static_cast<double>(end));
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("queue");
  w.BeginArray();
  for (const auto& q : d.queue_snapshot(64)) {
    w.BeginObject();
    w.Key("cylinder");
    w.Number(static_cast<double>(q.cylinder));
    w.Key("sector_angle");
    w.Number(q.sector_angle);
    w.Key("arrival_ns");
    w.Number(static_cast<double>(q.arrival));
    w.EndObject();
  }
  w.EndArray();
  const auto& all = d.stats();
  device::DiskDevice::Stats st;
  st.completed = all.completed - base_.completed;
  st.seek_ns = all.seek_ns - base_.seek_ns;
  st.rotate_ns = all.rotate_ns - base_.rotate_ns;
  st.transfer_ns = all.transfer_ns - base_.transfer_ns;
  st.spin_ups = all.spin_ups;
  const double n = st.completed ? static_cast<double>(st.completed) : 1;
  const double joules = d.Joules();
  w.Key("counters");
  w.BeginObject();
  w.Key("window_start_ns");
  w.Number(static_cast<double>(window_start_));
  w.Key("completed");
  w.Number(static_cast<double>(st.completed));
  w.Key("mean_ms");
  w.Number(latency_.mean() / 1e6);
  w.Key("p99_ms");
  w.Number(latency_.Quantile(0.99) / 1e6);
  w.Key("mean_seek_ms");
  w.Number(static_cast<double>(st.seek_ns) / n / 1e6);
  w.Key("mean_rotate_ms");
  w.Number(static_cast<double>(st.rotate_ns) / n / 1e6);
  w.Key("mean_transfer_ms");
  w.Number(static_cast<double>(st.transfer_ns) / n / 1e6);
  w.Key("spin_ups");
  w.Number(static_cast<double>(st.spin_ups));
  w.Key("joules");
  w.Number(joules);
  w.Key("avg_watts");
  w.Number(now > 0 ? joules / sim::NsToSec(now) : d.watts());
  w.Key("standby_s");
  w.Number(sim::NsToSec(d.TimeInState(device::DiskDevice::State::kStandby)));
  w.EndObject();
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::devices
