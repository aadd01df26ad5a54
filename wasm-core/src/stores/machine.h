// Machine: one store on one machine (the CONA thesis ran one store at a time on the same
// machine), scaled down by `scale` like cona::Machine so a run fits a browser tab:
//   - the flash device: any device::FindFlashProfile name (crucial-m500 found by name), its
//     real capacity x scale, at least the store's file;
//   - the page cache (the kernel's, over the store's file): (host DRAM - OS) x scale less the
//     store's own DRAM at the end of the load (DramEstimateFor(kind, params, records)), at
//     least 64 pages; write-back like Linux 3.x (dirty_background 10%, dirty 20%, 512 KB
//     requests), as cona::Machine; a hit copies at the host's copy_ns_per_kb;
//   - the store (stores/factory.h) in one file of FileBytesFor(kind, params, 2 x records)
//     bytes (the file holds twice the load's entries: a run's updates and inserts), its CPU
//     costs x the host's cpu_scale.
// The records are not loaded here: stores/runner.h's load phase puts them.
//
// Energy (Joules): the host's idle watts x the time since the machine was made, plus
// core_busy_watts x (the store's foreground CPU + its background actors' busy time), plus the
// flash device's own Joules(). `shared`: the machine runs on that simulator (a live session
// drives several machines on one clock); null: it owns its own. Errors name the parameter.
#ifndef FAWNLAB_STORES_MACHINE_H_
#define FAWNLAB_STORES_MACHINE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"
#include "cona/machine.h"
#include "device/flash_device.h"
#include "device/page_cache.h"
#include "kv/kv_store.h"
#include "sim/simulator.h"
#include "stores/factory.h"
#include "stores/host.h"

namespace fawnlab::stores {

struct MachineConfig {
  std::string store = "cona";            // a StoreKinds() id
  StoreParams params;                    // cpu_scale is set from the host
  std::string host = "laptop";
  std::string device = "crucial-m500";   // any device::FindFlashProfile name
  double scale = 1.0 / 1000;             // of the host's DRAM and the device (cona::Machine's idea)
  uint64_t records = 25'000;             // sizing: the load's records; the file holds 2x as many entries
  // DRAM the OS keeps, at full scale. 0: the host's own (Host::os_bytes; the laptop's is
  // cona::kThesisOsBytes, as cona::Machine).
  uint64_t os_bytes = 0;
  uint64_t cache_bytes = 0;              // page cache override (bytes, at scale); 0: computed
};

class Machine {
 public:
  static StatusOr<std::unique_ptr<Machine>> Create(MachineConfig c, sim::Simulator* shared = nullptr);
  ~Machine();

  sim::Simulator* sim() { return sim_; }
  kv::KvStore* store() { return store_.get(); }
  device::PageCache* cache() { return cache_.get(); }
  device::FlashDevice* flash() { return flash_.get(); }
  const Host& host() const { return host_; }
  const MachineConfig& config() const { return c_; }
  uint64_t cache_bytes() const { return cache_bytes_; }
  uint64_t file_bytes() const { return file_bytes_; }
  // The host's scaled DRAM left less than the 64-page floor, which the cache got instead.
  bool cache_floored() const { return cache_floored_; }

  double Joules() const;
  // One line for a result's note: store, host, records, cache, file, device.
  std::string Describe() const;
  // Waits for the store's background work, syncs it, writes back every dirty page and empties
  // the page cache (a cold start). Runs the simulator.
  Status DropCaches();

 private:
  Machine() = default;
  MachineConfig c_;
  Host host_;
  uint64_t cache_bytes_ = 0, file_bytes_ = 0;
  bool cache_floored_ = false;
  sim::SimTime created_at_ = 0;
  std::unique_ptr<sim::Simulator> own_sim_;
  sim::Simulator* sim_ = nullptr;
  std::unique_ptr<device::FlashDevice> flash_;
  std::unique_ptr<device::PageCache> cache_;
  std::unique_ptr<kv::KvStore> store_;
};

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_MACHINE_H_
