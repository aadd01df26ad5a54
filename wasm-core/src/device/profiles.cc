#include "device/profiles.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "device/ftl_block.h"
#include "device/ftl_page.h"

namespace fawnlab::device {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr int kGcLow = 2;  // page-mapped FTL: collect when a chip has this many free blocks

FlashProfile SandiskCf() {
  FlashProfile p;
  p.name = "sandisk-cf-4gb";
  p.label = "SanDisk CF card (FAWN prototype)";
  p.source =
      "Sandisk Extreme IV 4 GB CompactFlash, the FAWN prototype's storage (SOSP'09 §4, Table 1; thesis §4.1-4.2). "
      "One flash chip (thesis §4.2.1). Fitted: page read/program and the controller's read setup to Table 1's four "
      "numbers (docs/devices.md, Calibration); erase 2 ms and bulk erasure from thesis §4.2.1.";
  p.ftl = FtlKind::kBlockMapped;
  p.channels = 1;
  p.chips = 1;
  p.page_bytes = 2048;
  p.pages_per_block = 64;  // 128 KB erase blocks (SOSP'09 §3.2: 128-256 KB)
  p.timing.read_ns = 58500;             // fitted: with the transfer, 68.5 µs per 2 KB page -> 28.5 MB/s sequential reads
  p.timing.transfer_ns_per_kb = 5000;   // 10 µs per page on the card's internal bus (chosen)
  p.timing.program_ns = 32300;          // fitted: 42.3 µs per page program -> 110 random writes/s
  p.timing.erase_ns = 2000000;          // 2 ms per block (thesis §4.2.1)
  p.timing.copy_back = false;           // merges move pages through the controller (ECC)
  p.controller.command_ns = 4000;
  p.controller.bus_ns_per_kb = 21050;   // fitted: 4 + 21.05 µs per 1 KB command -> 24 MB/s sequential writes
  p.controller.read_setup_ns = 519100;  // fitted: 1424 random 1 KB reads/s through the file system, i.e. 4 KB page reads (access ≈ 500 µs, SOSP'09 §4.1)
  p.controller.write_buffer_pages = 4;
  p.controller.readahead_pages = 32;
  p.controller.idle_w = 0.1;  // [X] CF cards draw about 0.1 W idle, 0.5 W busy; flash < 1 W (SOSP'09 §3.2)
  p.controller.active_w = 0.5;
  p.update_blocks = 4;
  p.erase_batch = 64;  // 64 x 2 ms = 128 ms stalls: "hundreds of milliseconds" (thesis §4.2.1)
  p.spare_blocks = 0.03;
  p.capacity_bytes = 4 * kGiB;
  return p;
}

FlashProfile IntelX25(bool slc) {
  FlashProfile p;
  p.name = slc ? "intel-x25e" : "intel-x25m";
  p.label = slc ? "Intel X25-E (SLC SSD)" : "Intel X25-M (MLC SSD)";
  p.source = std::string(slc ? "Intel X25-E 32 GB SLC SSD" : "Intel X25-M 80 GB MLC SSD") +
             " (FAWN SOSP'09 Fig 9; vector-I/O thesis §6). Controller time 11 µs per command and 3.65 µs/KB over "
             "SATA: the fit to thesis Table 6.2. [X] 10 channels, 20 flash packages, NAND timings from typical " +
             (slc ? "SLC" : "MLC") + " datasheets of 2008 (not in the papers).";
  p.ftl = FtlKind::kPageMapped;
  p.channels = 10;
  p.chips = 20;
  p.page_bytes = 4096;
  p.pages_per_block = slc ? 64 : 128;
  p.timing.read_ns = slc ? 25000 : 50000;
  p.timing.transfer_ns_per_kb = 25000;  // 40 MB/s per channel
  p.timing.program_ns = slc ? 250000 : 1000000;
  p.timing.erase_ns = slc ? 1500000 : 2000000;
  p.controller.command_ns = 11000;
  p.controller.bus_ns_per_kb = 3650;
  p.controller.write_buffer_pages = 64;
  p.controller.readahead_pages = 0;
  p.controller.idle_w = 0.06;  // [X] datasheet idle and active power
  p.controller.active_w = slc ? 2.4 : 0.15;
  p.overprovision = slc ? 0.25 : 0.07;
  p.capacity_bytes = slc ? 32 * kGiB : 80 * kGiB;
  return p;
}

// The CONA thesis' SSD (§3.2 setup: "Crucial M500 240 GB SATA SSD"). [spec sheet]: the M500
// product flyer's figures for the 240 GB model, 500 MB/s sequential reads, 250 MB/s sequential
// writes, 72,000 / 60,000 random 4 KB read / write IOPS (at queue depth 32). The controller
// (Marvell 88SS9187, 8 NAND channels), the 16 dies of 128 Gbit 20 nm MLC and the DRAM holding
// "2-4 MB of user data" are from AnandTech's review (2013). Fitted: the link's time per KB to
// the sequential-read figure and the effective page program time to the sequential-write one
// (device/profile_m500_test.cc measures both). Not fitted: random IOPS. The flash model serves
// one command at a time (device/flash_device.cc), so depth 32 cannot overlap random reads the
// way the drive does; its random 4 KB read is the depth-1 latency of its mechanism (command +
// t_R + a 16 KB page over the channel + 4 KB over the link, about 190 µs), which is what the
// CONA store's one client thread sees, as the thesis' mmap page faults did.
FlashProfile CrucialM500() {
  FlashProfile p;
  p.name = "crucial-m500";
  p.label = "Crucial M500 240 GB (MLC SSD)";
  p.source =
      "Crucial M500 240 GB SATA SSD, the CONA thesis' drive (§3.2). [spec sheet] (M500 product flyer, 240 GB): "
      "500 MB/s sequential read, 250 MB/s sequential write, 72K/60K random 4 KB read/write IOPS at depth 32. "
      "Marvell 88SS9187 with 8 channels and 16 x 128 Gbit 20 nm MLC dies (AnandTech 2013). Fitted: 1.864 µs/KB "
      "over SATA (500 MB/s in 1 MB reads) and a 1.0 ms effective page program (250 MB/s writes). [X] 16 KB pages, 256 per "
      "block, 115 µs page read, 3.8 ms erase, 250 MB/s per channel, 10 µs per command: typical of 20 nm MLC SSDs. "
      "Random IOPS are not fitted: the model serves one command at a time (about 5K random 4 KB reads/s).";
  p.ftl = FtlKind::kPageMapped;
  p.channels = 8;     // Marvell 88SS9187: 8 NAND channels
  p.chips = 16;       // 240 GB: 16 dies of 128 Gbit (256 GiB raw)
  p.page_bytes = 16384;      // [X] 16 KB pages of Micron's 20 nm 128 Gbit MLC
  p.pages_per_block = 256;   // [X] 4 MB erase blocks
  p.timing.read_ns = 115000;            // [X] t_R
  p.timing.transfer_ns_per_kb = 4000;   // [X] 250 MB/s per channel
  p.timing.program_ns = 1000000;        // fitted: 16 dies x 16 KB per (transfer + t_PROG) -> 250 MB/s sequential writes
  p.timing.erase_ns = 3800000;          // [X] t_BERS
  p.timing.copy_back = true;
  p.controller.command_ns = 10000;      // [X] per command
  p.controller.bus_ns_per_kb = 1864;    // fitted: 1 MB sequential reads at 500 MB/s [spec sheet] (a 549 MB/s link: SATA 6 Gb/s)
  p.controller.write_buffer_pages = 128;  // 2 MB: "only 2-4 MB of user data ever ends up in this DRAM" (AnandTech)
  p.controller.readahead_pages = 0;
  p.controller.idle_w = 0.06;   // [X] like the X25-M's
  p.controller.active_w = 0.15;  // Crucial's claimed 150 mW average active power (The Tech Report, 2013)
  p.overprovision = 0.07;  // 256 GiB raw for 240 GB, less the RAIN parity (about 1/16 of the NAND)
  p.capacity_bytes = 240000000000ULL;
  return p;
}

DiskProfile Disk(std::string name, std::string label, double rpm, double track, double avg, double full, double mb_s,
                 double active, double idle, double standby, double spinup_w, double spinup_s, std::string source) {
  DiskProfile d;
  d.name = std::move(name);
  d.label = std::move(label);
  d.source = std::move(source);
  d.config.rpm = rpm;
  d.config.seek_track_ms = track;
  d.config.seek_avg_ms = avg;
  d.config.seek_full_ms = full;
  d.config.media_mb_s = mb_s;
  d.config.active_w = active;
  d.config.idle_w = idle;
  d.config.standby_w = standby;
  d.config.spinup_w = spinup_w;
  d.config.spinup_s = spinup_s;
  d.config.spin_down_s = 0;
  d.config.cylinders = 100000;
  return d;
}

}  // namespace

const std::vector<FlashProfile>& FlashProfiles() {
  static const std::vector<FlashProfile> all = {SandiskCf(), IntelX25(false), IntelX25(true)};
  return all;
}

const std::vector<DiskProfile>& DiskProfiles() {
  static const std::vector<DiskProfile> all = {
      Disk("disk-7200", "7,200 rpm desktop disk", 7200, 0.8, 8.5, 17, 120, 8.27, 6.5, 2.48, 24, 6,
           "3.5\" 7200 RPM SATA disk. Active 8.27 W and standby 2.48 W from SRCMap Table 3.3(b); spin-up 6 s "
           "(SRCMap's default, 4-10 s); [X] seek times, media rate, idle and spin-up power from typical datasheets."),
      Disk("disk-10k", "10,000 rpm server disk", 10000, 0.4, 4.2, 9, 150, 10, 7, 1.5, 28, 8,
           "10,000 RPM enterprise disk (FAWN's Traditional+Disk, thesis §2.5): 10 W at load (SOSP'09 §5.2); [X] "
           "seek times, media rate, idle, standby and spin-up from typical datasheets."),
      Disk("disk-5400-laptop", "5,400 rpm laptop disk", 5400, 1.5, 12, 22, 60, 2.5, 1.0, 0.2, 5, 3,
           "2.5\" 5400 RPM laptop disk, the most efficient class (FAWN thesis §2.4.4); [X] all mechanics and power "
           "from typical datasheets."),
  };
  return all;
}

const std::vector<NvmProfile>& NvmProfiles() {
  static const std::vector<NvmProfile> all = {
      NvmProfile{"nvm-4ch", "NVM, 4 channels (PCIe)",
                 "The vector-I/O thesis' PCIe NVM emulator (§7.3, Fig 7.7): 4 DMA channels; 7.7 µs per command + "
                 "2.26 µs per 512 B entry, fitted to 10 µs at width 1 and 80 µs at width 32; 1.8M IOPS peak. "
                 "[X] 4 W idle, 10 W busy (a PCIe flash card draws about 10 W, SOSP'09 §5.2).",
                 NvmConfig{}},
  };
  return all;
}

const FlashProfile& CrucialM500Profile() {
  static const FlashProfile p = CrucialM500();
  return p;
}

const FlashProfile* FindFlashProfile(const std::string& name) {
  for (const FlashProfile& p : FlashProfiles()) {
    if (p.name == name) return &p;
  }
  if (name == CrucialM500Profile().name) return &CrucialM500Profile();
  return nullptr;
}
uint64_t ScaledFlashBytes(const FlashProfile& profile, uint64_t full_bytes, double scale, uint64_t at_least) {
  const uint64_t block = uint64_t{profile.pages_per_block} * profile.page_bytes;
  uint64_t capacity = static_cast<uint64_t>(static_cast<double>(full_bytes) * scale);
  capacity = std::max(capacity, at_least);
  return (capacity + block - 1) / block * block;
}

const DiskProfile* FindDiskProfile(const std::string& name) {
  for (const DiskProfile& p : DiskProfiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}
const NvmProfile* FindNvmProfile(const std::string& name) {
  for (const NvmProfile& p : NvmProfiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> ProfileNames() {
  std::vector<std::string> out;
  for (const auto& p : FlashProfiles()) out.push_back(p.name);
  for (const auto& p : NvmProfiles()) out.push_back(p.name);
  for (const auto& p : DiskProfiles()) out.push_back(p.name);
  return out;
}

std::vector<std::string> ProfileLabels(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& n : names) {
    if (const FlashProfile* f = FindFlashProfile(n)) {
      out.push_back(f->label);
    } else if (const NvmProfile* v = FindNvmProfile(n)) {
      out.push_back(v->label);
    } else if (const DiskProfile* d = FindDiskProfile(n)) {
      out.push_back(d->label);
    } else {
      out.push_back(n);
    }
  }
  return out;
}

StatusOr<std::unique_ptr<FlashDevice>> MakeFlash(sim::Simulator* sim, const FlashProfile& p, uint64_t capacity_bytes,
                                                 double overprovision) {
  const uint64_t block_bytes = uint64_t{p.pages_per_block} * p.page_bytes;
  NandGeometry g;
  g.channels = p.channels;
  g.chips = p.chips;
  g.pages_per_block = p.pages_per_block;
  g.page_bytes = p.page_bytes;
  uint64_t logical_pages;
  if (p.ftl == FtlKind::kPageMapped) {
    double op = overprovision < 0 ? p.overprovision : overprovision;
    if (!(op > 0 && op <= 4)) return Status::InvalidArgument("over-provisioning must be in (0, 4]");
    logical_pages = capacity_bytes / p.page_bytes;
    uint64_t physical = static_cast<uint64_t>(std::ceil(static_cast<double>(logical_pages) * (1 + op)));
    uint64_t blocks = (physical + p.pages_per_block - 1) / p.pages_per_block;
    blocks = (blocks + static_cast<uint64_t>(p.chips) - 1) / static_cast<uint64_t>(p.chips) * static_cast<uint64_t>(p.chips);
    // Each chip also keeps its two open blocks and the collector's low-water mark of free
    // blocks outside the over-provisioned space, so that a scaled-down device (a few hundred
    // blocks per chip) has the same effective spare space as the real one.
    blocks += static_cast<uint64_t>(p.chips) * (kGcLow + 2);
    g.blocks = static_cast<uint32_t>(blocks);
  } else {
    uint64_t logical_blocks = capacity_bytes / block_bytes;
    logical_pages = logical_blocks * p.pages_per_block;
    uint64_t spare = std::max<uint64_t>(static_cast<uint64_t>(p.update_blocks + p.erase_batch + 2),
                                        static_cast<uint64_t>(std::ceil(static_cast<double>(logical_blocks) * p.spare_blocks)));
    uint64_t blocks = logical_blocks + spare;
    blocks = (blocks + static_cast<uint64_t>(p.chips) - 1) / static_cast<uint64_t>(p.chips) * static_cast<uint64_t>(p.chips);
    g.blocks = static_cast<uint32_t>(blocks);
  }
  if (logical_pages == 0) {
    return Status::InvalidArgument("capacity of " + std::to_string(capacity_bytes) + " bytes is below one " +
                                   (p.ftl == FtlKind::kPageMapped ? "page" : "erase block") + " of " + p.name);
  }
  if (g.blocks < static_cast<uint32_t>(p.chips)) g.blocks = static_cast<uint32_t>(p.chips);
  auto nand = std::make_unique<Nand>(g, p.timing);
  std::unique_ptr<Ftl> ftl;
  if (p.ftl == FtlKind::kPageMapped) {
    auto f = PageMappedFtl::Create(nand.get(), logical_pages, kGcLow);
    if (!f.ok()) return f.status();
    ftl = std::move(f).value();
  } else {
    auto f = BlockMappedFtl::Create(nand.get(), logical_pages, p.update_blocks, p.erase_batch);
    if (!f.ok()) return f.status();
    ftl = std::move(f).value();
  }
  DeviceInfo info{p.name, "flash", logical_pages * p.page_bytes, p.page_bytes};
  return std::make_unique<FlashDevice>(sim, info, std::move(nand), std::move(ftl), p.controller);
}

StatusOr<std::unique_ptr<Device>> MakeDevice(sim::Simulator* sim, const std::string& name, uint64_t capacity_bytes) {
  if (const FlashProfile* f = FindFlashProfile(name)) {  // crucial-m500 too
    auto d = MakeFlash(sim, *f, capacity_bytes ? capacity_bytes : f->capacity_bytes);
    if (!d.ok()) return d.status();
    return std::unique_ptr<Device>(std::move(d).value());
  }
  if (const NvmProfile* n = FindNvmProfile(name)) {
    NvmConfig c = n->config;
    if (capacity_bytes) c.capacity_bytes = capacity_bytes;
    return std::unique_ptr<Device>(std::make_unique<NvmDevice>(sim, n->name, c));
  }
  if (const DiskProfile* d = FindDiskProfile(name)) {
    auto disk = DiskDevice::Create(sim, d->name, d->config);
    if (!disk.ok()) return disk.status();
    return std::unique_ptr<Device>(std::move(disk).value());
  }
  std::string known;
  for (const std::string& n : ProfileNames()) known += (known.empty() ? "" : ", ") + n;
  known += ", " + CrucialM500Profile().name;
  return Status::NotFound("unknown device profile '" + name + "'; known: " + known);
}

}  // namespace fawnlab::device
