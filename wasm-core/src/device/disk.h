// DiskDevice: a magnetic disk — one actuator over `cylinders` tracks of a spinning platter.
//
// A request's service is seek + rotational wait + transfer, each from the mechanism: the
// seek time follows the distance the head moves (t_track + α√x + βx for a fraction x of the
// full stroke, with α, β fitted to the track-to-track, average and full-stroke seek
// times); the rotational wait is how far the platter must still turn, from its angle when
// the seek ends (angle(t) = t / revolution mod 1) to the sector's angle; the transfer is the
// bytes over the media rate. Byte offset b lies on cylinder b / bytes_per_track at angle
// (b mod bytes_per_track) / bytes_per_track, bytes_per_track = media rate × revolution.
//
// Requests queue; the scheduler serves them first-come-first-served or shortest-seek-first.
// Power states: active (serving), idle (spinning, empty queue), standby (spun down), and
// spinning-up. After `spin_down_s` idle the disk spins down; a request to a standby disk
// waits `spin_up_s` at spin-up power. Energy is integrated over the states (EnergyMeter).
// Without a write cache (the default) writes go to the media, so a flush completes when the
// queue has drained. Trim completes at once; erase writes zeros.
//
// Write-back cache (opt-in: `cache_mb` > 0; docs/devices.md): host commands are taken one at a
// time, in the scheduler's order. A write that fits in the cache (device/write_cache.h) is
// acknowledged after the controller overhead plus its transfer over the host link
// (`interface_mb_s`), without the head; a write that does not fit waits while the drive destages
// until it does. A read wholly in the cache is served from it the same way; any other read needs
// the head: it waits for the destage in progress, then pays overhead, seek, rotation and
// transfer. Whenever the head is free and no host read waits for it, the drive destages the next
// dirty segment in elevator order (C-LOOK from the head), through the same seek, rotation and
// transfer model (no controller overhead: no host command). The disk is active while it
// destages; it goes idle, and can spin down, only with a clean cache. A flush completes when the
// queue has drained and the cache is clean. Data: a command still takes effect at submission
// (the Device contract); the bytes move through the layers queue -> cache -> platter, and a
// read or Peek sees the newest layer.
#ifndef FAWNLAB_DEVICE_DISK_H_
#define FAWNLAB_DEVICE_DISK_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "device/device.h"
#include "device/page_image.h"
#include "device/write_cache.h"
#include "sim/energy.h"

namespace fawnlab::device {

struct DiskConfig {
  double rpm = 7200;
  uint64_t cylinders = 100000;
  double media_mb_s = 120;  // MB = 2^20 bytes
  double seek_track_ms = 0.8, seek_avg_ms = 8.5, seek_full_ms = 17;
  double overhead_ms = 0.1;  // controller time per request
  double active_w = 8.27, idle_w = 6.5, standby_w = 2.48, spinup_w = 24;
  double spinup_s = 6;
  double spin_down_s = 0;  // 0: never spin down
  bool sstf = false;
  double cache_mb = 0;        // write-back cache for dirty data, MB = 2^20 (0: none)
  double interface_mb_s = 0;  // the host link's rate, for transfers from/to the cache
};

class DiskDevice : public Device, private sim::EventHandler {
 public:
  enum class State { kIdle, kActive, kStandby, kSpinningUp };
  enum class Phase { kSeek, kRotate, kTransfer };
  struct Current {
    uint64_t cylinder;
    double sector_angle;
    sim::SimTime seek_start, seek_end, rotate_end, transfer_end;
    double from_cylinder;
  };
  struct Waiting {
    uint64_t cylinder;
    double sector_angle;
    sim::SimTime arrival;
  };
  struct Stats {  // the service breakdown sums over completed requests
    uint64_t completed = 0, spin_ups = 0;
    sim::SimDuration seek_ns = 0, rotate_ns = 0, transfer_ns = 0;
    // With a write cache: writes acknowledged from it, reads served from it, writes that waited
    // for space, destage operations and the head time they took.
    uint64_t cached_writes = 0, cache_read_hits = 0, cache_full_waits = 0, destages = 0;
    sim::SimDuration destage_ns = 0;
  };

  // Errors when the seek figures admit no non-negative α, β (average outside the range a
  // square-root-plus-linear curve can reach) or a number is out of range.
  static StatusOr<std::unique_ptr<DiskDevice>> Create(sim::Simulator* sim, std::string profile, DiskConfig config);

  void Peek(uint64_t offset, uint64_t length, uint8_t* out) const override;
  void Poke(uint64_t offset, uint64_t length, const uint8_t* data) override;
  double Joules() const override { return meter_.TotalJoules(sim_->now()); }

  // Seek time for a move of `distance` cylinders (0 for none).
  sim::SimDuration SeekNs(uint64_t distance) const;
  // One head operation from `from_cylinder` on [offset, offset + length) whose seek starts at
  // t0: seek, rotational wait and transfer (the service model; srcmap::DiskServer uses it too).
  Current PlanHeadOp(double from_cylinder, uint64_t offset, uint64_t length, sim::SimTime t0) const;
  // The controller's time per host command.
  sim::SimDuration OverheadNs() const;
  // A command served from/to the write cache: overhead + transfer over the host link.
  sim::SimDuration CacheTransferNs(uint64_t bytes) const;
  sim::SimDuration revolution_ns() const { return rev_ns_; }
  uint64_t bytes_per_track() const { return bytes_per_track_; }
  double AngleAt(sim::SimTime t) const;

  // For the views and the session.
  State state() const { return state_; }
  const char* state_name() const;
  double watts() const { return meter_.watts(component_); }
  double HeadAt(sim::SimTime t) const;  // the head's cylinder, interpolated during a seek
  bool busy() const { return busy_; }  // the head is serving a request or destaging
  bool destaging() const { return busy_ && destaging_; }
  const WriteCache* write_cache() const { return cache_.get(); }  // null without one
  const Current& current() const { return current_; }
  std::vector<Waiting> queue_snapshot(size_t max) const;
  const Stats& stats() const { return stats_; }
  const DiskConfig& config() const { return config_; }
  void set_spin_down_s(double s);
  void set_sstf(bool sstf) { config_.sstf = sstf; }
  sim::SimDuration TimeInState(State s) const;

 protected:
  void Start(const IoCommand& cmd, uint64_t id) override;

 private:
  DiskDevice(sim::Simulator* sim, std::string profile, DiskConfig config, double alpha, double beta);
  struct Request {
    uint64_t command;
    uint64_t offset, length;
    sim::SimTime arrival;
    IoOp op = IoOp::kRead;
    std::vector<uint8_t> data;  // a write's bytes while it waits to enter the cache
  };
  // The host command in service: none, acknowledging from/to the cache, waiting for cache
  // space, waiting for the head (a destage in progress), or on the head.
  enum class Cmd { kNone, kAck, kWaitRoom, kWaitHead, kMech };
  void OnEvent(sim::Simulator& sim, uint64_t tag) override;
  void SetState(State s);
  void StartNext();
  void StartAck();
  void StartHead(uint64_t offset, uint64_t length, sim::SimTime t);
  void TryDestage();
  void Next();
  void HeadDone();
  void ArmSpinDown();
  void EntryDone(uint64_t command);
  // The bytes newer than the platter's (cache, the write waiting for space, queued writes),
  // copied over `out`; and those layers' copies of a range replaced (null: zeros).
  void OverlayNewer(uint64_t offset, uint64_t length, uint8_t* out) const;
  void PatchNewer(uint64_t offset, uint64_t length, const uint8_t* data);

  DiskConfig config_;
  double alpha_ms_, beta_ms_;
  sim::SimDuration rev_ns_;
  uint64_t bytes_per_track_;
  ByteStore store_;
  sim::EnergyMeter meter_;
  int component_ = 0;
  State state_ = State::kIdle;
  bool busy_ = false, destaging_ = false;
  Cmd cmd_ = Cmd::kNone;
  sim::SimTime cmd_start_ = 0;
  std::unique_ptr<WriteCache> cache_;
  double head_ = 0;
  Current current_{};
  Request serving_{};
  std::deque<Request> queue_;
  std::unordered_map<uint64_t, int> remaining_;  // command -> entries not yet done
  std::vector<uint64_t> flushes_;                // commands waiting for the queue to drain
  uint64_t spin_down_generation_ = 0;
  Stats stats_;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_DISK_H_
