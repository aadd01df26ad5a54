// The SRCMap testbed (thesis Ch. 3, §3.7): eight volumes D0-D7 each on its own disk
// (Table 3.2), their IOPS capacity levels L0-L4 (Table 3.3(a)), the eight-disk system's power
// against the number of spinning disks (Table 3.3(b)), and each disk as a device::DiskDevice
// (its mechanism: seek curve, rotation, media rate, power states).
//
// Power has two readings, both from the thesis's measurements:
//  - SystemWatts(n): Table 3.3(b), the measured total with n disks spinning. The thesis warns
//    that per-disk power does not sum to it (§3.7.2), so the day driver reports this lookup.
//  - the per-disk profile (ThesisDiskPower): standby 19.8/8 W and spinning 66.1/8 W from the
//    table's ends ("all disks consumed approximately the same power when active", standby "the
//    same across all disks"); spin-up 6 s at 24 W is a choice (docs/decisions.md, SRCMap: disks).
// The disks' mechanics (seek times, rpm, media rate) are [X] datasheet values of the named
// models, marked in kDiskModels.
#ifndef FAWNLAB_SRCMAP_PROFILE_H_
#define FAWNLAB_SRCMAP_PROFILE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"
#include "device/disk.h"
#include "sim/simulator.h"

namespace fawnlab::srcmap {

constexpr int kNumDisks = 8;     // Table 3.2: D0-D7
constexpr int kNumLevels = 5;    // Table 3.3(a): L0-L4
constexpr uint64_t kGB = 1000000000ull;  // the thesis's sizes are decimal gigabytes

enum class DiskModel { kWd5000aakb, kWd360gd, kWd2500aaks };

struct DiskModelSpec {
  DiskModel model;
  const char* name;    // "WD360GD"
  const char* source;  // where the mechanics come from
  double rpm, seek_track_ms, seek_avg_ms, seek_full_ms, media_mb_s;
  double capacity_gb;  // the drive's size: the volume and its replica space sit at its start
  // [X] The drive's buffer (its datasheet "cache", held as the write-back cache's capacity,
  // MB = 2^20) and its host interface's rate (MB = 2^20 per s); the thesis names neither, only
  // "writes absorbed by the disk buffer" (§3.7.1).
  double cache_mb, interface_mb_s;
};
const DiskModelSpec& ModelSpec(DiskModel m);

// One row of Table 3.2.
struct VolumeSpec {
  const char* name;  // "home-1"
  const char* id;    // "D0"
  DiskModel model;
  double size_gb;
  double avg_iops, max_iops;
  std::array<double, kNumLevels> capacity_iops;  // Table 3.3(a): L0..L4
};
const std::array<VolumeSpec, kNumDisks>& EvaluationVolumes();

// Table 3.3(a): disk `disk`'s estimated IOPS capacity at `level`. REQUIRES: in range.
double CapacityIops(int disk, int level);
// Table 3.3(b): the eight-disk system's watts with `spinning` disks not in standby (0..8).
double SystemWatts(int spinning);

// The per-disk power and spin behaviour (docs/decisions.md, SRCMap: disks).
struct DiskPower {
  double standby_w = 19.8 / 8;   // Table 3.3(b) with 0 disks active, per disk
  double spinning_w = 66.1 / 8;  // Table 3.3(b) with 8 active, per disk; idle = active (§3.7)
  double spinup_w = 24;          // chosen: [X] a 3.5" disk's 12 V spin-up surge (~2 A)
  double spinup_s = 6;           // chosen: "> 4 s" seen (§3.7.1), "up to 10 s" (Ch. 1)
  double spin_down_s = 120;      // §3.7: two-minute timeout for disks not in the active set
};
DiskPower ThesisDiskPower();

// A DiskDevice for volume `disk` holding at least `bytes` (the volume plus its replica space;
// the drive's own size when that is larger, so seeks span what they span on the real drive): the
// model's mechanics, first-come-first-served, the per-disk power, the spin-down timeout off
// (the day driver decides when disks spin down); with the drive's write-back cache unless
// `write_cache` is false.
StatusOr<std::unique_ptr<device::DiskDevice>> MakeDisk(sim::Simulator* sim, int disk, uint64_t bytes,
                                                      const DiskPower& power, bool write_cache = true);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_PROFILE_H_
