// DayRun: the day driver (day.h) as a steppable object, for the live session and for the
// one-shot functions (RunDay = Setup + AdvanceTo(t1) + Finish, the same report byte for byte).
//
// Setup builds the testbed (disks, replica placement, the policy), runs the warm-up when the
// config asks for a warm start (the source's requests in [t0 − T, t0): one interval from a cold
// start, every disk spinning and the decision on each unit's long-term IOPS; then every count
// starts again at t0, the disks' states and the replicas' contents carried over) and takes the
// first decision at t0 (on the warm-up interval's load; cold: the long-term IOPS). AdvanceTo(src, t, max) runs the
// source's requests that arrive before t (at most `max` of them) through the replica manager
// and the disks' mechanism, closing each minute and interval that ends on the way (decisions at
// interval starts, the mid-interval re-trigger); the clock then stands at t (or at the last
// request run when `max` stopped it). At t1 the last interval closes and the run is done; the
// I/O already issued (sync, copy-ins) still runs. Finish settles the disks and builds the
// report (once).
//
// Live state for views: each disk's state at the clock, the decision in force (active set,
// serving disk per unit), the replica targets, the replica manager, the counters so far, the
// closed minutes' samples, the spin-up events and a log of structure events, the last whole
// minute's I/O per disk, per volume and per volume-disk edge. Redecide takes a decision at the
// clock (the current interval's prediction, the config's level now): a live level change.
// Each minute's power is integrated when it closes (every disk settled at the minute's end, so
// its timeline up to there is final; settling never changes what a later call records).
// Deterministic: the same history, config and requests give the same run.
#ifndef FAWNLAB_SRCMAP_DAY_RUN_H_
#define FAWNLAB_SRCMAP_DAY_RUN_H_

#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/status.h"
#include "device/disk.h"
#include "sim/simulator.h"
#include "srcmap/day.h"
#include "srcmap/disk_server.h"
#include "srcmap/replica_manager.h"

namespace fawnlab::srcmap {

// A structure event of the run, for the live view's list.
struct DayEvent {
  enum Kind { kSpinUp, kSpinDown, kRemap, kRetrigger, kInterval, kMiss };
  int64_t t_ns = 0;  // absolute (the run's clock)
  Kind kind = kInterval;
  int disk = -1, volume = -1;
  std::string detail;
};
const char* DayEventKindName(DayEvent::Kind k);  // "spin-up", "spin-down", "remap", ...

class DayRun {
 public:
  static constexpr int64_t kMinNs = int64_t{60} * 1000000000;
  static constexpr size_t kMaxEvents = 2000;  // the log keeps the newest

  // `origin`: 00:00 of the evaluated day (minutes and spin-ups count hours from it); the
  // window is [t0, t1). `hist` must outlive the run.
  DayRun(const std::vector<VolumeHistory>& hist, uint32_t extent_bytes, const DayConfig& c, int64_t origin_ns,
         int64_t t0_ns, int64_t t1_ns);
  ~DayRun();
  DayRun(const DayRun&) = delete;
  DayRun& operator=(const DayRun&) = delete;

  // `src`: the requests, from before t0 − T on (the warm-up reads those in [t0 − T, t0) and
  // holds the first one after for AdvanceTo; pass the same source there). Unused on a cold start.
  Status Setup(RequestSource* src);
  // Returns the requests run; an error for a request naming a volume the run has not.
  StatusOr<uint64_t> AdvanceTo(RequestSource* src, int64_t t_ns, uint64_t max_requests);
  // A decision now at `level` (0..4) on the current interval's prediction.
  Status Redecide(int level);
  // The report. REQUIRES: Setup succeeded; call once (the run is over after it).
  DayReport Finish();

  // The clock and the window.
  int64_t now() const { return now_; }
  int64_t origin() const { return origin_; }
  int64_t t0() const { return t0_; }
  int64_t t1() const { return t1_; }
  bool done() const { return !open_; }
  const DayConfig& config() const { return c_; }

  // The testbed.
  int num_volumes() const { return n_; }
  int num_disks() const { return static_cast<int>(disks_.size()); }  // primaries, then caches
  int num_units() const { return units_; }
  uint32_t extent_bytes() const { return eb_; }
  const VolumeHistory& history(int v) const { return hist_[static_cast<size_t>(v)]; }
  DiskServer::State StateNow(int disk) const;  // settled at the clock (without changing the run)
  const DiskServer& disk(int j) const { return disks_[static_cast<size_t>(j)]; }
  double capacity(int j) const { return cap_[static_cast<size_t>(j)]; }
  uint64_t disk_misses(int j) const { return disk_misses_[static_cast<size_t>(j)]; }
  const ReplicaManager& replicas() const { return *rm_; }
  const std::vector<std::vector<int>>& targets() const { return targets_; }  // per unit
  const std::vector<bool>& active() const { return current_.active; }      // per disk
  const std::vector<int>& serve() const { return current_.serve; }         // per unit
  double active_capacity() const;  // Table 3.3(a) x capacity_scale of the active set
  bool sync_pending() const { return sync_pending_ > 0; }  // a consolidation's sync I/O waits

  // Progress.
  const DayReport& totals() const { return rep_; }  // the counters and histograms so far
  const IntervalReport& interval() const { return cur_; }  // the open interval (load_iops unset)
  int interval_index() const { return static_cast<int>(intervals_.size()); }
  int64_t interval_start() const { return interval_end_ - interval_ns_; }
  uint64_t interval_requests() const { return cur_.requests; }
  const std::vector<MinuteSample>& minutes() const { return minutes_; }  // closed minutes
  // Per closed minute, Eq. 3.1's ideal watts (its load against the primaries' capacities at
  // the level then in force).
  const std::vector<double>& minute_ideal_watts() const { return minute_ideal_; }
  const std::vector<SpinUp>& spin_up_events() const { return spin_up_events_; }  // up to the last closed minute
  const std::vector<DayEvent>& events() const { return events_; }
  uint64_t events_dropped() const { return events_dropped_; }
  // The last whole minute's I/O: per disk (incl. sync and copy-ins), requests per volume, and
  // foreground I/Os per [volume][disk].
  const std::vector<uint64_t>& last_minute_disk_io() const { return last_disk_io_; }
  const std::vector<uint64_t>& last_minute_volume_requests() const { return last_vol_req_; }
  const std::vector<std::vector<uint64_t>>& last_minute_edges() const { return last_edge_; }

 private:
  struct Deferred {
    int64_t t;
    uint64_t seq;
    Io io;
    bool sync;
    bool operator>(const Deferred& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  struct Decision {
    std::vector<bool> active;  // per disk (primaries, then caches)
    std::vector<int> serve;    // per unit: the serving disk
  };

  Decision Decide(const std::vector<double>& load) const;
  // The warm-up interval [t0 − T, t0) (clamped at time 0); `load` in: the cold prediction, out:
  // the interval's. Every count restarts at t0 after it.
  Status WarmUp(RequestSource* src, std::vector<double>* load);
  void RestartCounts();
  // Each unit's prediction from the closing interval's counts over `secs`.
  std::vector<double> Predict(double secs) const;
  void Apply(int64_t t, const Decision& d, IntervalReport* rep);
  void Serve(const Deferred& d);
  void Drain(int64_t t);
  // Closes every minute and interval that ends at or before t, in time order, and drains the
  // deferred I/O up to t; false once the window's last interval has closed.
  bool CloseUpTo(int64_t t);
  void CloseMinute(int64_t minute_end);
  void MinutePower(int64_t a, int64_t b, double load_iops, double capacity_iops);
  void EndInterval(int64_t t);
  void Request(const srcmap::Request& r);
  void CountIo(int disk, int64_t t);
  void Log(int64_t t, DayEvent::Kind k, int disk, int volume, std::string detail);
  void FinishExtras();
  std::string DiskName(int j) const;  // "D3", "C0"
  SpinUpCause CauseOf(int64_t t, int disk) const;  // of the spin-up disk `disk` began at `t`
  int ncache() const { return c_.policy == Policy::kCaching1 ? 1 : c_.policy == Policy::kCaching2 ? 2 : 0; }
  int ndisks() const { return n_ + ncache(); }

  const std::vector<VolumeHistory>& hist_;
  uint32_t eb_;
  DayConfig c_;
  int64_t origin_, t0_, t1_;
  int n_;
  int units_ = 0;
  sim::Simulator sim_;  // owns nothing that runs: the disks' mechanisms only
  std::vector<std::unique_ptr<device::DiskDevice>> mech_;
  std::vector<DiskServer> disks_;
  std::vector<double> cap_;
  std::unique_ptr<ReplicaManager> rm_;
  std::vector<double> p_;
  std::vector<std::vector<int>> targets_;  // per unit: disks with its replica
  std::vector<std::pair<int, int>> pairs_;
  Decision current_;
  std::vector<double> last_load_;  // the prediction of the decision in force
  std::priority_queue<Deferred, std::vector<Deferred>, std::greater<Deferred>> deferred_;
  uint64_t seq_ = 0;
  int64_t next_sync_ = 0;
  uint64_t sync_pending_ = 0;
  // Stepping.
  int64_t now_ = 0;
  bool open_ = true, finished_ = false;
  bool has_pending_ = false;
  srcmap::Request pending_;
  // Load monitor.
  std::vector<uint64_t> unit_count_, unit_minute_, unit_peak_;
  std::vector<std::vector<uint64_t>> ring_;  // last retrigger_min minutes, per unit
  int64_t minute_ = 0;                       // the open minute (index from t0)
  int over_ = 0;
  int64_t interval_ns_ = 0, interval_end_ = 0;
  std::vector<IntervalReport> intervals_;
  IntervalReport cur_;
  std::vector<std::unordered_map<uint64_t, uint32_t>> ref_;
  std::vector<uint64_t> disk_misses_;
  DayReport rep_;
  // The report's additions: per interval bin, requests per volume and I/Os per disk; per
  // closed interval, its last decision's set; planned spin-ups (t, disk); disk joules per
  // interval (from Finish).
  std::vector<std::vector<uint64_t>> bin_vol_, bin_disk_;
  std::vector<std::vector<bool>> int_active_;
  std::vector<std::pair<int64_t, int>> planned_ups_;
  std::vector<std::pair<int64_t, int>> miss_ups_;  // spin-ups a read miss started (t, disk)
  std::vector<std::vector<double>> disk_joules_;
  // Minutes, integrated as they close: per disk, the changes consumed and its state then.
  std::vector<MinuteSample> minutes_;
  std::vector<double> minute_ideal_;
  std::vector<SpinUp> spin_up_events_;
  std::vector<size_t> change_seen_;
  std::vector<DiskServer::State> state_seen_;
  // The open and the last whole minute's I/O.
  std::vector<uint64_t> disk_io_, last_disk_io_, vol_req_, last_vol_req_;
  std::vector<std::vector<uint64_t>> edge_, last_edge_;
  std::vector<DayEvent> events_;
  uint64_t events_dropped_ = 0;
  uint64_t dropped_base_ = 0;  // the replica manager's drops before t0 (the warm-up's)
};

// The imported trace's history (requests before `history_ns`), as RunImportedTrace builds it
// (64 KB extents).
StatusOr<std::vector<VolumeHistory>> ImportedHistory(const ImportedTrace& t, int64_t history_ns);
constexpr uint32_t kImportExtentBytes = 65536;

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_DAY_RUN_H_
