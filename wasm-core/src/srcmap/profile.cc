#include "srcmap/profile.h"

#include <algorithm>
#include <cassert>

namespace fawnlab::srcmap {
namespace {

// [X] Mechanics from the makers' datasheets (rounded); not stated in the thesis.
const DiskModelSpec kDiskModels[] = {
    {DiskModel::kWd5000aakb, "WD5000AAKB",
     "[X] WD Caviar SE16 500 GB datasheet: 7,200 rpm, 8.9 ms average seek, 2.0 ms track-to-track, 21 ms full "
     "stroke; ~100 MB/s sustained; 16 MB cache, Ultra ATA/100 (100 MB/s)",
     7200, 2.0, 8.9, 21, 95, 500, 16, 100e6 / 1048576},
    {DiskModel::kWd360gd, "WD360GD",
     "[X] WD Raptor 36 GB datasheet: 10,000 rpm, 4.5 ms average read seek, 0.6 ms track-to-track, 10.2 ms full "
     "stroke; ~72 MB/s sustained; 8 MB cache, SATA 1.5 Gb/s (150 MB/s)",
     10000, 0.6, 4.5, 10.2, 72, 36, 8, 150e6 / 1048576},
    {DiskModel::kWd2500aaks, "WD2500AAKS",
     "[X] WD Caviar SE16 250 GB datasheet: 7,200 rpm, 8.9 ms average seek, 2.0 ms track-to-track, 21 ms full "
     "stroke; ~90 MB/s sustained; 16 MB cache, SATA 3 Gb/s (300 MB/s)",
     7200, 2.0, 8.9, 21, 90, 250, 16, 300e6 / 1048576},
};

constexpr std::array<double, kNumLevels> kD0 = {33, 57, 74, 96, 125};     // Table 3.3(a), D0
constexpr std::array<double, kNumLevels> kD15 = {52, 89, 116, 150, 196};  // Table 3.3(a), D1-D5
constexpr std::array<double, kNumLevels> kD67 = {38, 66, 86, 112, 145};   // Table 3.3(a), D6, D7

}  // namespace

const DiskModelSpec& ModelSpec(DiskModel m) { return kDiskModels[static_cast<int>(m)]; }

const std::array<VolumeSpec, kNumDisks>& EvaluationVolumes() {
  // Table 3.2: volume, ID, disk model, size GB, average and maximum IOPS.
  static const std::array<VolumeSpec, kNumDisks> v = {{
      {"home-1", "D0", DiskModel::kWd5000aakb, 270, 8.17, 23, kD0},
      {"online", "D1", DiskModel::kWd360gd, 7.8, 22.62, 82, kD15},
      {"webmail", "D2", DiskModel::kWd360gd, 7.8, 25.35, 90, kD15},
      {"webresrc", "D3", DiskModel::kWd360gd, 10, 7.99, 59, kD15},
      {"webusers", "D4", DiskModel::kWd360gd, 10, 18.75, 37, kD15},
      {"svn-wiki", "D5", DiskModel::kWd360gd, 20, 1.12, 4, kD15},
      {"home-2", "D6", DiskModel::kWd2500aaks, 170, 0.86, 4, kD67},
      {"home-3", "D7", DiskModel::kWd2500aaks, 170, 1.37, 12, kD67},
  }};
  return v;
}

double CapacityIops(int disk, int level) {
  assert(disk >= 0 && disk < kNumDisks && level >= 0 && level < kNumLevels);
  return EvaluationVolumes()[disk].capacity_iops[level];
}

double SystemWatts(int spinning) {
  // Table 3.3(b): storage-system watts against the number of disks in active mode.
  static constexpr double kWatts[kNumDisks + 1] = {19.8, 27.2, 32.7, 39.1, 44.3, 49.3, 55.7, 59.7, 66.1};
  assert(spinning >= 0 && spinning <= kNumDisks);
  return kWatts[spinning];
}

DiskPower ThesisDiskPower() { return DiskPower{}; }

StatusOr<std::unique_ptr<device::DiskDevice>> MakeDisk(sim::Simulator* sim, int disk, uint64_t bytes,
                                                      const DiskPower& power, bool write_cache) {
  if (disk < 0 || disk >= kNumDisks) return Status::InvalidArgument("srcmap: no disk D" + std::to_string(disk));
  const DiskModelSpec& m = ModelSpec(EvaluationVolumes()[disk].model);
  device::DiskConfig c;
  c.rpm = m.rpm;
  c.seek_track_ms = m.seek_track_ms;
  c.seek_avg_ms = m.seek_avg_ms;
  c.seek_full_ms = m.seek_full_ms;
  c.media_mb_s = m.media_mb_s;
  c.active_w = power.spinning_w;
  c.idle_w = power.spinning_w;
  c.standby_w = power.standby_w;
  c.spinup_w = power.spinup_w;
  c.spinup_s = power.spinup_s;
  c.spin_down_s = 0;
  if (write_cache) {
    c.cache_mb = m.cache_mb;
    c.interface_mb_s = m.interface_mb_s;
  }
  c.cylinders = 2;
  // The track size follows from rpm and media rate; a probe disk gives it, then enough
  // cylinders for `bytes`.
  auto probe = device::DiskDevice::Create(sim, m.name, c);
  if (!probe.ok()) return probe.status();
  uint64_t track = probe.value()->bytes_per_track();
  bytes = std::max(bytes, static_cast<uint64_t>(m.capacity_gb * 1e9));
  c.cylinders = bytes / track + 2;
  return device::DiskDevice::Create(sim, m.name, c);
}

}  // namespace fawnlab::srcmap
