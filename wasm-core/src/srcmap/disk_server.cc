#include "srcmap/disk_server.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>

namespace fawnlab::srcmap {

DiskServer::DiskServer(const device::DiskDevice* mech, const DiskPower& power, int64_t t0_ns)
    : mech_(mech),
      power_(power),
      spinup_ns_(static_cast<int64_t>(power.spinup_s * 1e9)),
      timeout_ns_(static_cast<int64_t>(power.spin_down_s * 1e9)),
      free_at_(t0_ns),
      idle_since_(t0_ns),
      head_free_(t0_ns) {
  if (mech->write_cache()) cache_.emplace(mech->write_cache()->capacity(), false);
}

void DiskServer::To(State s, int64_t t) {
  if (s == state_) return;
  state_ = s;
  changes_.push_back(Change{t, s});
}

void DiskServer::Settle(int64_t t) {
  if (state_ == kSpinningUp && t >= ready_at_) To(kSpinning, ready_at_);
  if (state_ == kSpinning && cache_) DestageBefore(t);
  if (state_ == kSpinning && !in_set_ && timeout_ns_ > 0 && (!cache_ || cache_->empty())) {
    int64_t idle = std::max({idle_since_, free_at_, head_free_});
    if (idle + timeout_ns_ <= t) To(kStandby, idle + timeout_ns_);
  }
}

void DiskServer::SpinUp(int64_t t) {
  To(kSpinningUp, t);
  ++spin_ups_;
  ready_at_ = t + spinup_ns_;
  free_at_ = std::max(free_at_, ready_at_);
  head_free_ = std::max(head_free_, ready_at_);
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

int64_t DiskServer::HeadOp(uint64_t offset, uint64_t bytes, int64_t t0) {
  device::DiskDevice::Current c = mech_->PlanHeadOp(head_, offset, bytes, t0);
  head_ = static_cast<double>((offset + bytes - 1) / mech_->bytes_per_track());
  head_free_ = c.transfer_end;
  return c.transfer_end;
}

void DiskServer::DestageOne(int64_t t) {
  const bool took = cache_->TakeNext(static_cast<uint64_t>(std::llround(head_)) * mech_->bytes_per_track(), t);
  assert(took);
  (void)took;
  const device::WriteCache::Segment& s = cache_->inflight();
  int64_t end = HeadOp(s.offset, s.length, t);
  ++cache_stats_.destages;
  cache_stats_.destage_ns += end - t;
}

void DiskServer::DestageBefore(int64_t limit) {
  while (true) {
    if (cache_->has_inflight()) {
      if (head_free_ > limit) return;
      cache_->DoneInflight();
    }
    if (!cache_->has_dirty()) return;
    int64_t t = std::max(head_free_, cache_->EarliestReady());
    if (t >= limit) return;  // a host command starting at `limit` goes first
    DestageOne(t);
  }
}

void DiskServer::Restart(int64_t t) {
  Settle(t);
  initial_ = state_;
  changes_.clear();
  spin_ups_ = planned_spin_ups_ = served_ = 0;
  cache_stats_ = CacheStats{};
}

DiskServer::Served DiskServer::Serve(int64_t t, uint64_t offset, uint64_t bytes, bool write) {
  Settle(t);
  Served out{};
  if (state_ == kStandby) SpinUp(t);
  out.waited_spinup = state_ == kSpinningUp;
  ++served_;
  const int64_t start = std::max(t, free_at_);
  out.start_ns = start;
  if (cache_) {
    DestageBefore(start);
    const bool cached_write = write && bytes <= cache_->capacity();
    if (cached_write || (!write && cache_->Covers(offset, bytes))) {
      int64_t accept = start;
      if (cached_write && !cache_->Fits(bytes)) {  // the head destages until the write fits
        ++cache_stats_.full_waits;
        while (!cache_->Fits(bytes)) {
          if (cache_->has_inflight()) {
            accept = std::max(accept, head_free_);
            cache_->DoneInflight();
          } else {
            DestageOne(std::max(head_free_, start));
          }
        }
      }
      out.done_ns = accept + mech_->CacheTransferNs(bytes);
      if (write) {
        cache_->Insert(offset, bytes, out.done_ns, nullptr);
        ++cache_stats_.cached_writes;
      } else {
        ++cache_stats_.read_hits;
      }
      out.cached = true;
      free_at_ = out.done_ns;
      return out;
    }
    if (cache_->has_inflight()) cache_->DoneInflight();  // it ends before the head turns to this request
  }
  // DiskDevice::StartNext: on the head, once it is free.
  out.done_ns = HeadOp(offset, bytes, std::max(start + mech_->OverheadNs(), head_free_));
  free_at_ = out.done_ns;
  return out;
}

}  // namespace fawnlab::srcmap
