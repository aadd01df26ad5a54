#include "device/disk.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

#include "base/json_writer.h"

namespace fawnlab::device {
namespace {
constexpr uint64_t kDone = 1, kSpunUp = 2, kSpinDown = 3;
}

StatusOr<std::unique_ptr<DiskDevice>> DiskDevice::Create(sim::Simulator* sim, std::string profile, DiskConfig c) {
  if (!(c.rpm >= 1000 && c.rpm <= 20000)) return Status::InvalidArgument("disk: rpm must be in [1000, 20000]");
  if (c.cylinders < 2) return Status::InvalidArgument("disk: needs at least 2 cylinders");
  if (!(c.media_mb_s > 0)) return Status::InvalidArgument("disk: media rate must be positive");
  if (!(c.seek_track_ms > 0 && c.seek_track_ms <= c.seek_avg_ms && c.seek_avg_ms <= c.seek_full_ms)) {
    return Status::InvalidArgument("disk: seek times must satisfy 0 < track-to-track <= average <= full stroke");
  }
  double span = c.seek_full_ms - c.seek_track_ms;
  double alpha = ((c.seek_avg_ms - c.seek_track_ms) - span / 3.0) / (8.0 / 15.0 - 1.0 / 3.0);
  double beta = span - alpha;
  if (alpha < 0 || beta < 0) {
    return Status::InvalidArgument("disk: an average seek of " + FormatNumber(c.seek_avg_ms) +
                                   " ms cannot come from track-to-track " + FormatNumber(c.seek_track_ms) +
                                   " ms and full stroke " + FormatNumber(c.seek_full_ms) +
                                   " ms with a square-root-plus-linear seek curve");
  }
  if (c.spin_down_s < 0 || c.spinup_s < 0) return Status::InvalidArgument("disk: times must be non-negative");
  return std::unique_ptr<DiskDevice>(new DiskDevice(sim, std::move(profile), c, alpha, beta));
}

namespace {
sim::SimDuration RevolutionNs(const DiskConfig& c) { return static_cast<sim::SimDuration>(60e9 / c.rpm + 0.5); }
uint64_t BytesPerTrack(const DiskConfig& c) {
  auto b = static_cast<uint64_t>(c.media_mb_s * 1048576.0 * (static_cast<double>(RevolutionNs(c)) / 1e9));
  return b - b % 512;
}
}  // namespace

DiskDevice::DiskDevice(sim::Simulator* sim, std::string profile, DiskConfig config, double alpha, double beta)
    : Device(sim, DeviceInfo{std::move(profile), "disk", BytesPerTrack(config) * config.cylinders, 512}),
      config_(config),
      alpha_ms_(alpha),
      beta_ms_(beta),
      rev_ns_(RevolutionNs(config)),
      bytes_per_track_(BytesPerTrack(config)) {
  component_ = meter_.AddComponent(this->info().profile,
                                   {{"active", config_.active_w}, {"idle", config_.idle_w},
                                    {"standby", config_.standby_w}, {"spinning-up", config_.spinup_w}},
                                   1, sim->now());
  ArmSpinDown();
}

sim::SimDuration DiskDevice::SeekNs(uint64_t distance) const {
  if (distance == 0) return 0;
  double x = static_cast<double>(distance) / static_cast<double>(config_.cylinders - 1);
  double ms = config_.seek_track_ms + alpha_ms_ * std::sqrt(x) + beta_ms_ * x;
  return static_cast<sim::SimDuration>(ms * 1e6 + 0.5);
}

double DiskDevice::AngleAt(sim::SimTime t) const {
  return static_cast<double>(t % rev_ns_) / static_cast<double>(rev_ns_);
}

const char* DiskDevice::state_name() const {
  switch (state_) {
    case State::kIdle: return "idle";
    case State::kActive: return "active";
    case State::kStandby: return "standby";
    case State::kSpinningUp: return "spinning-up";
  }
  return "?";
}

void DiskDevice::SetState(State s) {
  state_ = s;
  int idx = s == State::kActive ? 0 : s == State::kIdle ? 1 : s == State::kStandby ? 2 : 3;
  meter_.SetState(component_, idx, sim_->now());
}

sim::SimDuration DiskDevice::TimeInState(State s) const {
  int idx = s == State::kActive ? 0 : s == State::kIdle ? 1 : s == State::kStandby ? 2 : 3;
  return meter_.TimeInState(component_, idx, sim_->now());
}

void DiskDevice::set_spin_down_s(double s) {
  config_.spin_down_s = s;
  if (!busy_ && queue_.empty() && state_ == State::kIdle) ArmSpinDown();
}

void DiskDevice::ArmSpinDown() {
  ++spin_down_generation_;
  if (config_.spin_down_s <= 0) return;
  sim_->At(sim_->now() + static_cast<sim::SimDuration>(config_.spin_down_s * 1e9), this,
           kSpinDown | (spin_down_generation_ << 2));
}

double DiskDevice::HeadAt(sim::SimTime t) const {
  if (!busy_ || t >= current_.seek_end) return busy_ ? static_cast<double>(current_.cylinder) : head_;
  const sim::SimTime start = current_.seek_start;
  if (t <= start || current_.seek_end == start) return current_.from_cylinder;
  double f = static_cast<double>(t - start) / static_cast<double>(current_.seek_end - start);
  return current_.from_cylinder + (static_cast<double>(current_.cylinder) - current_.from_cylinder) * f;
}

std::vector<DiskDevice::Waiting> DiskDevice::queue_snapshot(size_t max) const {
  std::vector<Waiting> out;
  for (const Request& r : queue_) {
    if (out.size() >= max) break;
    out.push_back(Waiting{r.offset / bytes_per_track_,
                          static_cast<double>(r.offset % bytes_per_track_) / static_cast<double>(bytes_per_track_),
                          r.arrival});
  }
  return out;
}

void DiskDevice::Start(const IoCommand& cmd, uint64_t id) {
  int media = 0;
  bool flush = false;
  for (const IoEntry& e : cmd.entries) {
    switch (e.op) {
      case IoOp::kRead: store_.Read(e.offset, e.length, e.read_buf); break;
      case IoOp::kWrite: store_.Write(e.offset, e.length, e.write_buf); break;
      case IoOp::kErase: store_.Zero(e.offset, e.length); break;
      case IoOp::kTrim: store_.Zero(e.offset, e.length); continue;
      case IoOp::kFlush: flush = true; continue;
    }
    ++media;
    queue_.push_back(Request{id, e.offset, e.length, sim_->now()});
    if (e.op == IoOp::kRead) {
      counters_.media_read_bytes += e.length;
    } else {
      counters_.media_write_bytes += e.length;
    }
  }
  bool pending_work = busy_ || !queue_.empty();
  if (flush && pending_work) {
    ++media;
    flushes_.push_back(id);
  }
  if (media == 0) {
    Complete(id, sim_->now());
    return;
  }
  remaining_[id] = media;
  if (queue_.empty()) return;
  if (state_ == State::kStandby) {
    SetState(State::kSpinningUp);
    ++stats_.spin_ups;
    sim_->At(sim_->now() + static_cast<sim::SimDuration>(config_.spinup_s * 1e9), this, kSpunUp);
  } else if (state_ == State::kIdle && !busy_) {
    ++spin_down_generation_;  // cancels a pending spin-down
    StartNext();
  }
}

void DiskDevice::StartNext() {
  assert(!busy_ && !queue_.empty());
  size_t pick = 0;
  if (config_.sstf) {
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < queue_.size(); ++i) {
      uint64_t cyl = queue_[i].offset / bytes_per_track_;
      uint64_t d = static_cast<uint64_t>(std::llabs(static_cast<long long>(cyl) - std::llround(head_)));
      if (d < best) {
        best = d;
        pick = i;
      }
    }
  }
  serving_ = queue_[pick];
  queue_.erase(queue_.begin() + static_cast<long>(pick));
  uint64_t cyl = serving_.offset / bytes_per_track_;
  double angle = static_cast<double>(serving_.offset % bytes_per_track_) / static_cast<double>(bytes_per_track_);
  sim::SimTime t = sim_->now() + static_cast<sim::SimDuration>(config_.overhead_ms * 1e6 + 0.5);
  uint64_t distance = static_cast<uint64_t>(std::llabs(static_cast<long long>(cyl) - std::llround(head_)));
  current_.from_cylinder = head_;
  current_.cylinder = cyl;
  current_.sector_angle = angle;
  current_.seek_end = t + SeekNs(distance);
  double wait = angle - AngleAt(current_.seek_end);
  if (wait < 0) wait += 1;
  current_.rotate_end = current_.seek_end + static_cast<sim::SimDuration>(wait * static_cast<double>(rev_ns_) + 0.5);
  double xfer_s = static_cast<double>(serving_.length) / (config_.media_mb_s * 1048576.0);
  current_.transfer_end = current_.rotate_end + static_cast<sim::SimDuration>(xfer_s * 1e9 + 0.5);
  current_.seek_start = t;
  busy_ = true;
  SetState(State::kActive);
  sim_->At(current_.transfer_end, this, kDone);
}

void DiskDevice::EntryDone(uint64_t command) {
  auto it = remaining_.find(command);
  assert(it != remaining_.end());
  if (--it->second == 0) {
    remaining_.erase(it);
    Complete(command, sim_->now());
  }
}

void DiskDevice::Finish() {
  busy_ = false;
  head_ = static_cast<double>((serving_.offset + serving_.length - 1) / bytes_per_track_);
  ++stats_.completed;
  stats_.seek_ns += current_.seek_end - current_.seek_start;
  stats_.rotate_ns += current_.rotate_end - current_.seek_end;
  stats_.transfer_ns += current_.transfer_end - current_.rotate_end;
  EntryDone(serving_.command);
  if (!queue_.empty()) {
    StartNext();
    return;
  }
  SetState(State::kIdle);
  std::vector<uint64_t> flushes;
  flushes.swap(flushes_);
  for (uint64_t f : flushes) EntryDone(f);
  ArmSpinDown();
}

void DiskDevice::OnEvent(sim::Simulator& sim, uint64_t tag) {
  uint64_t kind = tag & 3;
  if (kind == kDone) {
    Finish();
  } else if (kind == kSpunUp) {
    SetState(State::kIdle);
    if (!queue_.empty()) StartNext();
    else ArmSpinDown();
  } else if (kind == kSpinDown) {
    if ((tag >> 2) == spin_down_generation_ && !busy_ && queue_.empty() && state_ == State::kIdle) {
      SetState(State::kStandby);
    }
  }
}

}  // namespace fawnlab::device
