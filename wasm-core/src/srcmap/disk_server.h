// DiskServer: one mdisk of the day driver. It takes the disk's mechanism from a
// device::DiskDevice (seek curve, rotation, media rate, controller overhead) and serves
// requests first-come-first-served by computing, per request, exactly what DiskDevice's event
// loop computes (overhead + seek from the head's cylinder + rotational wait from the platter's
// angle when the seek ends + transfer), without scheduling events: requests arrive in time
// order, so a cursor (when the disk is next free) and the head position are all the state.
// Tested equal, completion for completion, to DiskDevice under FCFS with and without spin-down,
// with and without a write cache.
//
// Write cache (when the mechanism has one, DiskConfig::cache_mb): DiskDevice's policy, computed
// lazily. Host commands are taken one at a time (`free_at`, the command cursor); the head has its
// own cursor. Before a command starts at s, the head destages, in elevator order, every dirty
// segment it can start before s (each no earlier than its data arrived; a read then waits for the
// destage in progress). A write that fits is acknowledged after the controller overhead and its
// transfer over the host link; one that does not waits while the head destages until it fits. A
// read wholly in the cache is served from it; any other read goes to the head.
//
// Power states as DiskDevice's: spinning (active or idle: one draw, §3.7), standby, spinning
// up. A disk in its interval's active set never spins down (§3.7: "continuously active"); any
// other disk spins down `spin_down_s` after it was last busy (or left the active set); busy
// includes destaging, so a disk spins down only with a clean cache (its flush done). A request
// to a standby disk spins it up and waits `spinup_s`. State changes are recorded as a timeline
// for the power report.
#ifndef FAWNLAB_SRCMAP_DISK_SERVER_H_
#define FAWNLAB_SRCMAP_DISK_SERVER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "device/disk.h"
#include "device/write_cache.h"
#include "srcmap/profile.h"

namespace fawnlab::srcmap {

class DiskServer {
 public:
  enum State : uint8_t { kSpinning = 0, kStandby = 1, kSpinningUp = 2 };
  struct Change {
    int64_t t_ns;
    State to;
  };
  struct Served {
    int64_t start_ns, done_ns;
    bool waited_spinup;  // the request found the disk in standby or spinning up
    bool cached;         // served from/to the write cache (no head time)
  };
  struct CacheStats {  // the write cache's work (all zero without one)
    uint64_t cached_writes = 0, read_hits = 0, full_waits = 0, destages = 0;
    int64_t destage_ns = 0;  // head time spent destaging
  };

  // `mech`: the device whose mechanism this server uses (not submitted to). Starts spinning
  // and idle at `t0_ns`, outside any active set.
  DiskServer(const device::DiskDevice* mech, const DiskPower& power, int64_t t0_ns = 0);

  // Serves one request arriving at `t_ns` (non-decreasing across calls, up to the small
  // reordering of deferred I/Os, which simply queue behind the cursor).
  Served Serve(int64_t t_ns, uint64_t offset, uint64_t bytes, bool write);

  // Applies the spin-down timeout up to `t_ns` (destaging what starts before it first).
  void Settle(int64_t t_ns);
  // Joins (true) or leaves the active set at `t_ns`; joining spins a standby disk up
  // (a planned spin-up).
  void SetActive(bool active, int64_t t_ns);
  // Starts a new record at `t_ns` (a warm start's window opening): the state settled at t_ns
  // becomes the record's initial state; the counters (the write cache's too) and the change list
  // start empty. The mechanism (head, cursor, timeout clock, a spin-up under way, the write
  // cache's dirty data) carries on.
  void Restart(int64_t t_ns);

  State state() const { return state_; }
  State initial_state() const { return initial_; }  // at the start of changes() (construction: spinning)
  bool in_active_set() const { return in_set_; }
  uint64_t spin_ups() const { return spin_ups_; }
  uint64_t planned_spin_ups() const { return planned_spin_ups_; }
  uint64_t served() const { return served_; }
  int64_t free_at() const { return free_at_; }  // the last host command's end
  int64_t head_free_at() const { return head_free_; }  // the head's last operation's end
  const device::WriteCache* write_cache() const { return cache_ ? &*cache_ : nullptr; }
  const CacheStats& cache_stats() const { return cache_stats_; }
  const std::vector<Change>& changes() const { return changes_; }
  const DiskPower& power() const { return power_; }

 private:
  void SpinUp(int64_t t_ns);
  void To(State s, int64_t t_ns);
  // Destages what the head starts before `limit`; frees the in-flight segment's space once it
  // has reached the platter by `limit`.
  void DestageBefore(int64_t limit);
  // One destage of the next segment (C-LOOK from the head) starting at `t`.
  void DestageOne(int64_t t);
  int64_t HeadOp(uint64_t offset, uint64_t bytes, int64_t t0);  // returns its end

  const device::DiskDevice* mech_;
  DiskPower power_;
  int64_t spinup_ns_, timeout_ns_;
  State state_ = kSpinning, initial_ = kSpinning;
  bool in_set_ = false;
  int64_t free_at_ = 0, idle_since_ = 0, ready_at_ = 0, head_free_ = 0;
  double head_ = 0;
  std::optional<device::WriteCache> cache_;
  CacheStats cache_stats_;
  uint64_t spin_ups_ = 0, planned_spin_ups_ = 0, served_ = 0;
  std::vector<Change> changes_;
};

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_DISK_SERVER_H_
