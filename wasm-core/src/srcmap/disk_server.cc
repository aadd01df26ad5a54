#include "srcmap/disk_server.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace fawnlab::srcmap {

DiskServer::DiskServer(const device::DiskDevice* mech, const DiskPower& power, int64_t t0_ns)
    : mech_(mech),
      power_(power),
      spinup_ns_(static_cast<int64_t>(power.spinup_s * 1e9)),
      timeout_ns_(static_cast<int64_t>(power.spin_down_s * 1e9)),
      free_at_(t0_ns),
      idle_since_(t0_ns) {}

void DiskServer::To(State s, int64_t t) {
  if (s == state_) return;
  state_ = s;
  changes_.push_back(Change{t, s});
}

void DiskServer::Settle(int64_t t) {
  if (state_ == kSpinningUp && t >= ready_at_) To(kSpinning, ready_at_);
  if (state_ == kSpinning && !in_set_ && timeout_ns_ > 0) {
    int64_t idle = std::max(idle_since_, free_at_);
    if (idle + timeout_ns_ <= t) To(kStandby, idle + timeout_ns_);
  }
}

void DiskServer::SpinUp(int64_t t) {
  To(kSpinningUp, t);
  ++spin_ups_;
  ready_at_ = t + spinup_ns_;
  free_at_ = std::max(free_at_, ready_at_);
}

void DiskServer::SetActive(bool active, int64_t t) {
  Settle(t);
  if (active && !in_set_ && state_ == kStandby) {
    SpinUp(t);
    ++planned_spin_ups_;
  }
  if (!active && in_set_) idle_since_ = std::max(t, free_at_);
  in_set_ = active;
}

DiskServer::Served DiskServer::Serve(int64_t t, uint64_t offset, uint64_t bytes) {
  Settle(t);
  Served out{};
  if (state_ == kStandby) SpinUp(t);
  out.waited_spinup = state_ == kSpinningUp;
  // DiskDevice::StartNext, inline.
  const device::DiskConfig& c = mech_->config();
  const uint64_t track = mech_->bytes_per_track();
  int64_t start = std::max(t, free_at_);
  uint64_t cyl = offset / track;
  double angle = static_cast<double>(offset % track) / static_cast<double>(track);
  int64_t t0 = start + static_cast<int64_t>(c.overhead_ms * 1e6 + 0.5);
  uint64_t distance = static_cast<uint64_t>(std::llabs(static_cast<long long>(cyl) - std::llround(head_)));
  int64_t seek_end = t0 + mech_->SeekNs(distance);
  double wait = angle - mech_->AngleAt(seek_end);
  if (wait < 0) wait += 1;
  int64_t rotate_end = seek_end + static_cast<int64_t>(wait * static_cast<double>(mech_->revolution_ns()) + 0.5);
  double xfer_s = static_cast<double>(bytes) / (c.media_mb_s * 1048576.0);
  int64_t done = rotate_end + static_cast<int64_t>(xfer_s * 1e9 + 0.5);
  head_ = static_cast<double>((offset + bytes - 1) / track);
  free_at_ = done;
  ++served_;
  out.start_ns = start;
  out.done_ns = done;
  return out;
}

}  // namespace fawnlab::srcmap
