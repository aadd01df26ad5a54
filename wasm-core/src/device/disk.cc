#include "device/disk.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <utility>

#include "base/json_writer.h"

namespace fawnlab::device {
namespace {
constexpr uint64_t kDone = 1, kSpunUp = 2, kSpinDown = 3, kAcked = 4;
constexpr int kKindBits = 3;
constexpr uint64_t kKindMask = (uint64_t{1} << kKindBits) - 1;
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
  if (!(c.cache_mb >= 0 && c.cache_mb <= 4096)) return Status::InvalidArgument("disk: cache_mb must be in [0, 4096]");
  if (c.cache_mb > 0 && !(c.interface_mb_s > 0)) {
    return Status::InvalidArgument("disk: a write cache needs the host link's rate (interface_mb_s > 0)");
  }
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
  if (config_.cache_mb > 0) {
    cache_ = std::make_unique<WriteCache>(static_cast<uint64_t>(config_.cache_mb * 1048576.0), true);
  }
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
  if (state_ == State::kIdle && s == State::kActive) ++spin_down_generation_;  // cancels a pending spin-down
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
  if (state_ == State::kIdle) ArmSpinDown();  // idle: no command, no queue, a clean cache
}

void DiskDevice::ArmSpinDown() {
  ++spin_down_generation_;
  if (config_.spin_down_s <= 0) return;
  sim_->At(sim_->now() + static_cast<sim::SimDuration>(config_.spin_down_s * 1e9), this,
           kSpinDown | (spin_down_generation_ << kKindBits));
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

void DiskDevice::Peek(uint64_t offset, uint64_t length, uint8_t* out) const {
  store_.Read(offset, length, out);
  if (cache_) OverlayNewer(offset, length, out);
}

void DiskDevice::Poke(uint64_t offset, uint64_t length, const uint8_t* data) {
  store_.Write(offset, length, data);
  if (cache_) PatchNewer(offset, length, data);
}

void DiskDevice::OverlayNewer(uint64_t offset, uint64_t length, uint8_t* out) const {
  cache_->Overlay(offset, length, out);
  auto over = [&](const Request& r) {
    if (r.op != IoOp::kWrite || r.data.empty()) return;
    uint64_t lo = std::max(offset, r.offset), hi = std::min(offset + length, r.offset + r.length);
    if (lo < hi) std::memcpy(out + (lo - offset), r.data.data() + (lo - r.offset), hi - lo);
  };
  if (cmd_ == Cmd::kWaitRoom) over(serving_);  // older than anything still queued
  for (const Request& r : queue_) over(r);
}

void DiskDevice::PatchNewer(uint64_t offset, uint64_t length, const uint8_t* data) {
  cache_->Patch(offset, length, data);
  auto patch = [&](Request& r) {
    if (r.op != IoOp::kWrite || r.data.empty()) return;
    uint64_t lo = std::max(offset, r.offset), hi = std::min(offset + length, r.offset + r.length);
    if (lo >= hi) return;
    uint8_t* dst = r.data.data() + (lo - r.offset);
    if (data) {
      std::memcpy(dst, data + (lo - offset), hi - lo);
    } else {
      std::memset(dst, 0, hi - lo);
    }
  };
  if (cmd_ == Cmd::kWaitRoom) patch(serving_);
  for (Request& r : queue_) patch(r);
}

void DiskDevice::Start(const IoCommand& cmd, uint64_t id) {
  int media = 0;
  bool flush = false;
  for (const IoEntry& e : cmd.entries) {
    switch (e.op) {
      case IoOp::kRead:
        store_.Read(e.offset, e.length, e.read_buf);
        if (cache_) OverlayNewer(e.offset, e.length, e.read_buf);
        break;
      case IoOp::kWrite:
        if (!cache_) store_.Write(e.offset, e.length, e.write_buf);  // else the bytes travel with the request
        break;
      case IoOp::kErase:
        store_.Zero(e.offset, e.length);
        if (cache_) PatchNewer(e.offset, e.length, nullptr);
        break;
      case IoOp::kTrim:
        store_.Zero(e.offset, e.length);
        if (cache_) PatchNewer(e.offset, e.length, nullptr);
        continue;
      case IoOp::kFlush: flush = true; continue;
    }
    ++media;
    queue_.push_back(Request{id, e.offset, e.length, sim_->now(), e.op, {}});
    if (cache_ && e.op == IoOp::kWrite) queue_.back().data.assign(e.write_buf, e.write_buf + e.length);
    if (e.op == IoOp::kRead) {
      counters_.media_read_bytes += e.length;
    } else {
      counters_.media_write_bytes += e.length;
    }
  }
  bool pending_work = busy_ || cmd_ != Cmd::kNone || !queue_.empty() || (cache_ && !cache_->empty());
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
  } else if (state_ != State::kSpinningUp && cmd_ == Cmd::kNone) {
    StartNext();
  }
}

DiskDevice::Current DiskDevice::PlanHeadOp(double from_cylinder, uint64_t offset, uint64_t length,
                                           sim::SimTime t0) const {
  Current c;
  c.cylinder = offset / bytes_per_track_;
  c.sector_angle = static_cast<double>(offset % bytes_per_track_) / static_cast<double>(bytes_per_track_);
  uint64_t distance = static_cast<uint64_t>(std::llabs(static_cast<long long>(c.cylinder) - std::llround(from_cylinder)));
  c.from_cylinder = from_cylinder;
  c.seek_start = t0;
  c.seek_end = t0 + SeekNs(distance);
  double wait = c.sector_angle - AngleAt(c.seek_end);
  if (wait < 0) wait += 1;
  c.rotate_end = c.seek_end + static_cast<sim::SimDuration>(wait * static_cast<double>(rev_ns_) + 0.5);
  double xfer_s = static_cast<double>(length) / (config_.media_mb_s * 1048576.0);
  c.transfer_end = c.rotate_end + static_cast<sim::SimDuration>(xfer_s * 1e9 + 0.5);
  return c;
}

sim::SimDuration DiskDevice::OverheadNs() const {
  return static_cast<sim::SimDuration>(config_.overhead_ms * 1e6 + 0.5);
}

sim::SimDuration DiskDevice::CacheTransferNs(uint64_t bytes) const {
  double s = static_cast<double>(bytes) / (config_.interface_mb_s * 1048576.0);
  return OverheadNs() + static_cast<sim::SimDuration>(s * 1e9 + 0.5);
}

void DiskDevice::StartNext() {
  assert(cmd_ == Cmd::kNone && !queue_.empty());
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
  serving_ = std::move(queue_[pick]);
  queue_.erase(queue_.begin() + static_cast<long>(pick));
  cmd_start_ = sim_->now();
  SetState(State::kActive);
  if (cache_ && serving_.op == IoOp::kWrite) {
    if (serving_.length <= cache_->capacity()) {
      if (cache_->Fits(serving_.length)) {
        StartAck();
      } else {
        cmd_ = Cmd::kWaitRoom;
        ++stats_.cache_full_waits;
      }
      return;
    }
    // Larger than the whole cache: written through (on the head); newer than any cached copy.
    store_.Write(serving_.offset, serving_.length, serving_.data.data());
    cache_->Patch(serving_.offset, serving_.length, serving_.data.data());
    serving_.data.clear();
  }
  if (cache_ && serving_.op == IoOp::kRead && cache_->Covers(serving_.offset, serving_.length)) {
    ++stats_.cache_read_hits;
    StartAck();
    return;
  }
  if (busy_) {  // a destage holds the head
    cmd_ = Cmd::kWaitHead;
    return;
  }
  cmd_ = Cmd::kMech;
  StartHead(serving_.offset, serving_.length, sim_->now() + OverheadNs());
}

void DiskDevice::StartAck() {
  cmd_ = Cmd::kAck;
  sim::SimTime end = sim_->now() + CacheTransferNs(serving_.length);
  if (serving_.op == IoOp::kWrite) {
    cache_->Insert(serving_.offset, serving_.length, end, serving_.data.data());
    serving_.data.clear();
    ++stats_.cached_writes;
  }
  sim_->At(end, this, kAcked);
}

void DiskDevice::StartHead(uint64_t offset, uint64_t length, sim::SimTime t0) {
  current_ = PlanHeadOp(head_, offset, length, t0);
  busy_ = true;
  SetState(State::kActive);
  sim_->At(current_.transfer_end, this, kDone);
}

void DiskDevice::TryDestage() {
  if (!cache_ || busy_ || cmd_ == Cmd::kWaitHead || cmd_ == Cmd::kMech) return;
  if (state_ == State::kStandby || state_ == State::kSpinningUp) return;
  if (!cache_->TakeNext(static_cast<uint64_t>(std::llround(head_)) * bytes_per_track_, sim_->now())) return;
  destaging_ = true;
  StartHead(cache_->inflight().offset, cache_->inflight().length, sim_->now());
}

void DiskDevice::EntryDone(uint64_t command) {
  auto it = remaining_.find(command);
  assert(it != remaining_.end());
  if (--it->second == 0) {
    remaining_.erase(it);
    Complete(command, sim_->now());
  }
}

void DiskDevice::HeadDone() {
  busy_ = false;
  if (destaging_) {
    destaging_ = false;
    const WriteCache::Segment& s = cache_->inflight();
    store_.Write(s.offset, s.length, s.data.data());
    head_ = static_cast<double>((s.offset + s.length - 1) / bytes_per_track_);
    ++stats_.destages;
    stats_.destage_ns += current_.transfer_end - current_.seek_start;
    cache_->DoneInflight();
  } else {
    head_ = static_cast<double>((serving_.offset + serving_.length - 1) / bytes_per_track_);
    ++stats_.completed;
    stats_.seek_ns += current_.seek_end - current_.seek_start;
    stats_.rotate_ns += current_.rotate_end - current_.seek_end;
    stats_.transfer_ns += current_.transfer_end - current_.rotate_end;
    cmd_ = Cmd::kNone;
    EntryDone(serving_.command);
  }
  Next();
}

void DiskDevice::Next() {
  if (cmd_ == Cmd::kWaitHead && !busy_) {  // the host's read goes before the next destage
    cmd_ = Cmd::kMech;
    StartHead(serving_.offset, serving_.length, std::max(cmd_start_ + OverheadNs(), sim_->now()));
  }
  if (cmd_ == Cmd::kWaitRoom && cache_->Fits(serving_.length)) StartAck();
  if (cmd_ == Cmd::kNone && !queue_.empty()) StartNext();
  TryDestage();
  if (cmd_ != Cmd::kNone || busy_) return;
  assert(queue_.empty() && (!cache_ || cache_->empty()));
  SetState(State::kIdle);
  std::vector<uint64_t> flushes;
  flushes.swap(flushes_);
  for (uint64_t f : flushes) EntryDone(f);
  ArmSpinDown();
}

void DiskDevice::OnEvent(sim::Simulator& sim, uint64_t tag) {
  uint64_t kind = tag & kKindMask;
  if (kind == kDone) {
    HeadDone();
  } else if (kind == kAcked) {
    if (serving_.op == IoOp::kRead) ++stats_.completed;
    cmd_ = Cmd::kNone;
    EntryDone(serving_.command);
    Next();
  } else if (kind == kSpunUp) {
    SetState(State::kIdle);
    Next();
  } else if (kind == kSpinDown) {
    if ((tag >> kKindBits) == spin_down_generation_ && !busy_ && cmd_ == Cmd::kNone && queue_.empty() &&
        state_ == State::kIdle && (!cache_ || cache_->empty())) {
      SetState(State::kStandby);
    }
  }
}

}  // namespace fawnlab::device
