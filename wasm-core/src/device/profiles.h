// Device profiles: the named devices of the lab, each citing its source and saying which
// numbers were fitted (docs/devices.md has the derivations).
//
// Flash: sandisk-cf-4gb, intel-x25m, intel-x25e, and crucial-m500 (the CONA thesis' SSD: found
// by name, built by MakeDevice, but not in FlashProfiles(), whose list the FAWN-era
// experiments sweep and their recorded results depend on). NVM: nvm-4ch. Disk: disk-7200, disk-10k,
// disk-5400-laptop. Every factory takes a capacity: experiments build devices smaller than
// the real product (the mechanism per chip is the same; only the number of blocks shrinks),
// and say so in their scale note.
#ifndef FAWNLAB_DEVICE_PROFILES_H_
#define FAWNLAB_DEVICE_PROFILES_H_

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/disk.h"
#include "device/flash_device.h"
#include "device/nvm.h"

namespace fawnlab::device {

enum class FtlKind { kPageMapped, kBlockMapped };

struct FlashProfile {
  std::string name;
  std::string label;  // its display name: "Intel X25-M (MLC SSD)"
  std::string source;
  FtlKind ftl = FtlKind::kPageMapped;
  int channels = 1, chips = 1;
  uint32_t pages_per_block = 64, page_bytes = 2048;
  NandTiming timing;
  FlashControllerConfig controller;
  double overprovision = 0.07;  // page-mapped: spare fraction of physical pages
  int update_blocks = 4;        // block-mapped
  int erase_batch = 1;          // block-mapped
  double spare_blocks = 0.03;   // block-mapped: spare fraction of blocks
  uint64_t capacity_bytes = 0;  // the real product's
};

struct DiskProfile {
  std::string name;
  std::string label;
  std::string source;
  DiskConfig config;
};

struct NvmProfile {
  std::string name;
  std::string label;
  std::string source;
  NvmConfig config;
};

const std::vector<FlashProfile>& FlashProfiles();
const FlashProfile& CrucialM500Profile();  // "crucial-m500"
const std::vector<DiskProfile>& DiskProfiles();
const std::vector<NvmProfile>& NvmProfiles();
const FlashProfile* FindFlashProfile(const std::string& name);
const DiskProfile* FindDiskProfile(const std::string& name);
const NvmProfile* FindNvmProfile(const std::string& name);
std::vector<std::string> ProfileNames();
// The display names of `names` (a live session's profile choice shows them), one per name; a
// name that is no profile's stays itself.
std::vector<std::string> ProfileLabels(const std::vector<std::string>& names);

// A flash device with `profile`'s mechanism and `capacity_bytes` of logical space (rounded
// down to whole pages, or blocks for a block-mapped FTL). overprovision < 0 keeps the
// profile's. Errors name the problem (too small to leave spare blocks per chip, ...).
StatusOr<std::unique_ptr<FlashDevice>> MakeFlash(sim::Simulator* sim, const FlashProfile& profile,
                                                 uint64_t capacity_bytes, double overprovision = -1);
// A scaled-down machine's flash capacity: `full_bytes` x `scale`, at least `at_least` (the
// file it must hold), rounded up to whole erase blocks of `profile`.
uint64_t ScaledFlashBytes(const FlashProfile& profile, uint64_t full_bytes, double scale, uint64_t at_least);
// Any profile by name; capacity 0 = the profile's own (flash: the real product's).
StatusOr<std::unique_ptr<Device>> MakeDevice(sim::Simulator* sim, const std::string& name, uint64_t capacity_bytes = 0);

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_PROFILES_H_
