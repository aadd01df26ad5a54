// The day driver: runs a trace (generated or imported) through a policy over the testbed's
// disks in virtual time and reports what the thesis's Figs 3.8-3.13 plot.
//
// Setup ("Flow A", §3.5): each volume's working set = the extents its history touched (21 days
// for a generated workload, §3.7's three weeks; the part of an imported trace before
// `history_ns`); Eq. 3.2's inputs (working set, PPR, long-term IOPS, the last history day's read
// misses against the earlier days); the replica placement in R% of each disk's size.
// Each interval ("Flow B", T = 2 h, §3.7): the predicted load of each unit (its previous
// interval's mean IOPS, or its busiest minute), the policy's active disks and serving copies,
// the remaps with their sync I/O issued one per 10 ms (§3.7.1), the active disks spun up and
// kept spinning, the others left to their 2-minute timeout (§3.7). The window opens warm
// (DayConfig::warm_start): the interval before it runs first, uncounted, so the first decision
// predicts from that interval and starts from the state it left. Each request ("Flow C") goes through the replica manager and is served by the
// disks' mechanism (DiskServer, equal to DiskDevice); a replica miss reads the primary (spinning
// it up if it is down) and copies the extent into the replica after. Mid-interval re-trigger
// (§3.6.2): when the last minutes' load exceeded the active disks' capacity in each of
// `retrigger_min` consecutive minutes, identification reruns on that load.
//
// Every request is simulated; nothing is aggregated (docs/decisions.md, SRCMap: the day driver).
// Power: Table 3.3(b)'s lookup on the primary disks not in standby, integrated over time, plus
// each spin-up's surcharge; cache disks (Caching-1/2) add their per-disk watts.
#ifndef FAWNLAB_SRCMAP_DAY_H_
#define FAWNLAB_SRCMAP_DAY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/histogram.h"
#include "srcmap/placement.h"
#include "srcmap/profile.h"
#include "srcmap/trace_import.h"
#include "srcmap/workload.h"

namespace fawnlab::srcmap {

enum class Policy { kSrcmap, kBaselineOn, kCaching1, kCaching2, kReplication };
const char* PolicyName(Policy p);

struct DayConfig {
  Policy policy = Policy::kSrcmap;
  int level = 0;                // Table 3.3(a) L0..L4
  double replica_pct = 10;      // replica space, % of each disk's size (Fig 3.12)
  double interval_h = 2;        // T (§3.7)
  int n_sv = 1;                 // sub-volumes per vdisk (§3.6.3)
  bool peak_predictor = false;  // predict by the busiest minute instead of the mean
  PlacementWeights weights;
  double scratch_frac = 0.25;   // write scratch per replica, × its working set (choice)
  double sync_gap_ms = 10;      // one sync I/O per 10 ms (§3.7.1)
  bool retrigger = true;
  int retrigger_min = 5;        // "e.g., 5 mins" (§3.6.2)
  DiskPower power;
  bool write_cache = true;      // the drives' write-back caches (profile.h)
  int history_days = 21;        // generated: days of history before the evaluated day
  double from_h = 0, to_h = 24; // the evaluated window within the day
  bool check = false;           // check every read against a reference and the map at each remap
  double capacity_scale = 1.0;  // multiplies Table 3.3(a)'s capacities (runs at a reduced rate)
  // The window opens in the state a continuously running system is in: the interval before it
  // (T long) runs first, uncounted, from a cold start (every disk spinning, the decision on the
  // long-term averages), so at the window's start the disks outside that interval's active
  // set have timed out to standby, the replicas hold what its misses taught them, and the
  // first decision predicts from that interval's load (docs/decisions.md, SRCMap: the warm
  // start). false: the window itself starts cold.
  bool warm_start = true;
};

struct MinuteSample {            // one per minute of the window, in order
  double t_h = 0;                // the minute's start, hours into the evaluated day
  double watts = 0;              // Table 3.3(b) on the primaries not in standby, time-averaged
                                 // over the minute, + spin-up surcharges; + cache disks' watts
  double spinning = 0;           // primaries not in standby, time-averaged
  double load_iops = 0;          // requests that arrived in the minute / 60
  double capacity_iops = 0;      // Table 3.3(a) x capacity_scale of the disks then active
};

// Why a disk spun up: a decision put it in the active set (interval start, level change,
// re-trigger), a read its volume's live replica did not hold found it in standby, or any other
// I/O did (a write overflow, sync or copy-in I/O, a baseline's request after the timeout).
enum class SpinUpCause : uint8_t { kPlanned = 0, kReadMiss = 1, kOtherIo = 2 };
const char* SpinUpCauseName(SpinUpCause c);  // "planned", "read miss", "other I/O"

struct SpinUp {
  double t_h = 0;        // hours into the evaluated day
  int disk = 0;          // primaries 0..7, then cache disks
  bool planned = false;  // by a decision (the disk joined the active set in standby)
  SpinUpCause cause = SpinUpCause::kOtherIo;
};

struct IntervalReport {
  double start_h = 0;
  double watts = 0;             // Table 3.3(b) lookup, time-averaged, + spin-up surcharges
  double avg_spinning = 0;      // primary disks not in standby, time-averaged
  int planned_active = 0;       // disks the policy chose (last decision of the interval)
  double load_iops = 0, predicted_iops = 0, capacity_iops = 0;
  int remaps = 0;               // vdisks whose serving copy changed at its start (and re-triggers)
  uint64_t requests = 0, misses = 0, sync_ios = 0, spin_ups = 0, retriggers = 0;
};

struct DiskReport {
  uint64_t spin_ups = 0, planned_spin_ups = 0, served = 0;
  uint64_t misses = 0;  // replica misses this disk served as the primary
  double spinning_h = 0, joules = 0;  // per-disk profile
};

struct DayReport {
  std::string policy;
  double hours = 0;
  std::vector<IntervalReport> intervals;
  std::vector<DiskReport> disks;  // primaries, then cache disks
  sim::LogHistogram response_ns;  // foreground requests
  sim::LogHistogram sync_ns;      // sync I/Os alone
  sim::LogHistogram read_ns;      // the foreground reads among response_ns
  uint64_t requests = 0, reads = 0, writes = 0, misses = 0, copy_ins = 0, overflows = 0, dropped = 0;
  uint64_t spinup_waits = 0;      // requests that waited for a spin-up
  uint64_t miss_spinup_waits = 0; // of which on a disk outside the active set (read misses, overflows)
  uint64_t sync_ios = 0, remaps = 0, retriggers = 0;
  // The drives' write caches up to the window's end (all disks): writes acknowledged from them,
  // reads served from them, writes that waited for space, destages and their head time.
  uint64_t cached_writes = 0, cache_read_hits = 0, cache_full_waits = 0, destages = 0;
  double destage_s = 0;
  uint64_t check_errors = 0;
  std::string first_check_error;
  double avg_watts = 0, all_on_watts = 0, standby_watts = 0;
  double per_disk_sum_watts = 0;  // Σ per-disk profile power (not the thesis's total)
  double avg_spinning = 0;
  std::vector<double> p;          // Eq. 3.2 per vdisk
  std::vector<std::vector<int>> replica_targets;  // per unit
  std::vector<uint64_t> ws_extents;               // per vdisk
  std::vector<MinuteSample> minutes;
  std::vector<SpinUp> spin_up_events;             // in time order (every disk's spin_ups)
  // Per interval (index as `intervals`), per volume and per disk (Fig 3.11):
  std::vector<std::vector<double>> volume_iops;  // [interval][volume]: requests the volume got / s
  std::vector<std::vector<double>> disk_iops;    // [interval][disk]: I/Os the disk served / s (incl. sync, copy-ins)
  std::vector<std::vector<double>> disk_watts;   // [interval][disk]: the per-disk profile's mean watts
  std::vector<std::vector<bool>> disk_active;    // [interval][disk]: in the policy's chosen set (last decision)
  // Per disk: in the chosen set when the window opened, before its first decision (the warm-up
  // interval's last decision; all true on a cold start).
  std::vector<bool> start_active;
  double ideal_watts = 0;  // Eq. 3.1 averaged over the minutes: 66.1 W x load / sum of capacity at the level
};

// Eq. 3.1: the ideal proportional system's watts at `load_iops` when the primaries together
// serve `capacity_iops`: Table 3.3(b)'s all-on 66.1 W x load / capacity, at most 66.1 W.
double IdealWatts(double load_iops, double capacity_iops);

// The fraction of `h`'s samples above `ns` (to the histogram's bucket resolution, < 0.4%).
double FractionAbove(const sim::LogHistogram& h, double ns);

// One volume's history summary.
struct VolumeHistory {
  uint64_t bytes = 0;
  std::vector<uint64_t> ws;  // working-set extents, sorted
  double misses = 0;         // read misses of the last history day against the earlier days
  double rho = 0;            // long-term IOPS
};

// The evaluated day of a generated workload (day `history_days`).
StatusOr<DayReport> RunGeneratedDay(const Generator& g, const DayConfig& c);
// The generated workload's history for the evaluated day `history_days` (what RunGeneratedDay
// builds first), so that several runs of one experiment share it.
StatusOr<std::vector<VolumeHistory>> GeneratedHistory(const Generator& g, int history_days);
// RunGeneratedDay on a history GeneratedHistory(g, c.history_days) gave (the same report byte
// for byte).
StatusOr<DayReport> RunGeneratedDayWith(const Generator& g, const std::vector<VolumeHistory>& hist, const DayConfig& c);
// An imported trace: requests before `history_ns` are the history, the rest is evaluated.
StatusOr<DayReport> RunImportedTrace(const ImportedTrace& t, int64_t history_ns, const DayConfig& c);
// The driver itself, on prepared histories and a request source (times from `t0_ns`).
StatusOr<DayReport> RunDay(const std::vector<VolumeHistory>& hist, uint32_t extent_bytes, RequestSource* src,
                           int64_t t0_ns, int64_t t1_ns, const DayConfig& c);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_DAY_H_
