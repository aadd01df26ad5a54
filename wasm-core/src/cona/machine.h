// Machine: the CONA thesis' test machine (§3.2 "Implementation": Intel Core i7-3610QM, 8 GB of
// DDR3, a Crucial M500 240 GB SATA SSD, ext4, the store in one mmapped file), scaled down by
// `scale` so a run fits a browser tab:
//   - the flash device: the crucial-m500 profile, 240 GB x scale (at least the store's file);
//   - a fault injector between the page cache and the flash, always present, disarmed;
//   - the page cache (the kernel's, over the mmapped file): (8 GB - 3 GB the OS and the
//     processes took) x scale, less the store's two buffers; write-back like Linux 3.x's
//     mmap (dirty_background_ratio 10%, dirty_ratio 20%, write-back in 512 KB requests,
//     balance_dirty_pages throttling the writes that dirty a clean page; optionally mmap's
//     write faults, `fault_on_write`);
//   - a Store (cona/store.h) in a file sized for `records` + `extra_entries` entries.
// The records themselves are not loaded here: cona/runner.h's load phase puts them.
//
// CrashNow() is a power failure: commands in flight are lost, writes since the last completed
// flush are undone, the page cache (dirty pages included) is dropped and the Store object is
// discarded (store() is null until Recover). Recover() restarts the device and reopens the
// store from its manifest (Store::Recover). Errors name the parameter or the problem.
#ifndef FAWNLAB_CONA_MACHINE_H_
#define FAWNLAB_CONA_MACHINE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"
#include "cona/store.h"
#include "device/fault_injector.h"
#include "device/flash_device.h"
#include "device/page_cache.h"
#include "sim/simulator.h"

namespace fawnlab::cona {

constexpr uint64_t kThesisRecords = 25'000'000;              // §3.2: 25M key-value pairs
constexpr uint64_t kThesisDramBytes = uint64_t{8} << 30;     // §3.2: 8 GB DDR SDRAM
constexpr uint64_t kThesisOsBytes = uint64_t{3} << 30;       // chosen: OS + processes (docs/cona/ycsb.md)
constexpr uint64_t kThesisFlashBytes = 240'000'000'000ULL;   // §3.2: M500 240 GB

struct MachineConfig {
  uint64_t records = kThesisRecords / 1000;  // the load phase's records (scaled like the machine)
  double scale = 1.0 / 1000;                 // of the thesis' DRAM and SSD
  StoreOptions store;                        // region_* are set by the machine
  // Entries (puts) the file must hold beyond the load: 0 = as many as `records` (enough for a
  // run of `records` operations of any core workload: A writes half of them).
  uint64_t extra_entries = 0;
  uint64_t os_bytes = kThesisOsBytes;        // DRAM the OS and processes keep (thesis scale)
  uint64_t cache_bytes = 0;                  // page cache override (bytes, at scale); 0: computed
  bool write_back = true;                    // mmap-like write-back (false: write-through)
  // Linux's balance_dirty_pages (device/page_cache.h): only writes that dirty a clean page
  // are throttled.
  bool linux_balance = true;
  // mmap's write faults (device/page_cache.h): a store to a page not in memory reads it from
  // the SSD first. Off by default: at the lab's scales the page cache is 1/1000 of the
  // thesis's but B is not scaled, so the upper levels' slots fall out of the cache between
  // induces and refault, which the thesis's 5 GB would not do (docs/decisions.md).
  bool fault_on_write = false;
};

// A size as the machines' Describe() lines print it: "%.1f MB" of 2^20 bytes.
std::string MbText(uint64_t bytes);

class Machine {
 public:
  static StatusOr<std::unique_ptr<Machine>> Create(MachineConfig c);
  ~Machine();

  sim::Simulator* sim() { return sim_.get(); }
  Store* store() { return store_.get(); }  // null between CrashNow and Recover
  device::PageCache* cache() { return cache_.get(); }
  device::FlashDevice* flash() { return flash_.get(); }
  device::FaultInjector* fault() { return fault_.get(); }
  const MachineConfig& config() const { return c_; }
  const StoreOptions& store_options() const { return o_; }
  uint64_t cache_bytes() const { return cache_bytes_; }
  uint64_t file_bytes() const { return o_.region_bytes; }
  // One line for a result's scale note: records, cache, file, device.
  std::string Describe() const;

  void CrashNow();
  Status Recover(RecoveryReport* report);
  // `sync; echo 3 > /proc/sys/vm/drop_caches`: waits for the store to finish its merges, syncs
  // it, writes back every dirty page, then empties the page cache (a cold start). Runs the
  // simulator; errors if the store or device fails meanwhile.
  Status DropCaches();

 private:
  Machine() = default;
  MachineConfig c_;
  StoreOptions o_;
  uint64_t cache_bytes_ = 0;
  std::unique_ptr<sim::Simulator> sim_;
  std::unique_ptr<device::FlashDevice> flash_;
  std::unique_ptr<device::FaultInjector> fault_;
  std::unique_ptr<device::PageCache> cache_;
  std::unique_ptr<Store> store_;
};

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_MACHINE_H_
