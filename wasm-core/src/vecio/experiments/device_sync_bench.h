// SyncBench: synchronous FAWN-DS lookups on the NVM device (vector thesis §7.3.2, Fig 7.6;
// SoCC'12 §4.2, Fig 7). A FAWN-DS store of `keys` 512 B records is preloaded on an NVM device
// (real records, each value a pattern of its key's number). Then T threads each loop:
//   1. on a core (vecio::Host thread work): the wake-up from the previous read (kWakeup, plus
//      the scheduler's switch cost below), the index lookup of each of its R keys (kLookup) and
//      one device submit (kSubmit);
//   2. DataStore::MultiGet of the R random keys on device stream t (DMA channel t mod 4): the
//      real index probe and full-key check, one vector command (R = 1: a single I/O);
//   3. the device's one completion: a storage interrupt on the first free core (kIoIrq), which
//      wakes the thread; the thread checks every value read against the one stored.
// The thread waits for its own read (synchronous), so T threads keep at most T × R reads at the
// device. Every cost is charged per event on `cores` cores (host.h); nothing is a formula.
//
// Scheduler cost per switch [fitted, Fig 7.6's drop beyond 64 threads]: a wake-up that takes a
// core while n other threads are runnable (woken, waiting for a core) costs `sched_ns` more per
// runnable thread per core beyond `sched_free`: max(0, n / cores − sched_free) × sched_ns. With
// few threads per core the run queue and the threads' working sets stay cheap; with hundreds
// of synchronous threads every switch pays for the long run queue and cold caches.
#ifndef FAWNLAB_VECIO_EXPERIMENTS_DEVICE_SYNC_BENCH_H_
#define FAWNLAB_VECIO_EXPERIMENTS_DEVICE_SYNC_BENCH_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/nvm.h"
#include "fawnds/store.h"
#include "sim/simulator.h"
#include "vecio/costs.h"

namespace fawnlab::vecio {

// Host core time per event, ns (the local FAWN-DS benchmark's, not the networked server's).
struct SyncCosts {
  sim::SimDuration lookup_ns = 0;  // per key: hash, index probe
  sim::SimDuration submit_ns = 0;  // per command: build it, ring the doorbell
  sim::SimDuration irq_ns = 0;     // per completion: the storage interrupt
  sim::SimDuration wakeup_ns = 0;  // per completion: wake the waiting thread, switch to it
  sim::SimDuration sched_ns = 0;   // per switch, per runnable thread per core beyond sched_free
  double sched_free = 0;
};

struct SyncPoint {
  double lookups_per_s = 0;  // in the measured window
  double cores_busy = 0;     // mean busy cores in the measured window
  double mean_sched_us = 0;  // mean scheduler cost per switch (over all wake-ups)
  double mean_cycle_us = 0;  // mean time from a command's submit to its thread's wake-up done
  // Over the whole point (warm-up, window and drain):
  uint64_t issued_keys = 0, answered_keys = 0, mismatches = 0, not_found = 0;
  uint64_t commands = 0, completions = 0, switches = 0;
  std::array<uint64_t, kCostKinds> events{};  // cost events charged, per kind
};

class SyncBench {
 public:
  // Preloads `keys` records (REQUIRES: keys >= 1).
  static StatusOr<std::unique_ptr<SyncBench>> Create(int keys, const device::NvmConfig& nvm, uint64_t seed);
  ~SyncBench();

  // T threads of width-R lookups until `warmup` then `measure` more keys have been answered;
  // the threads then stop issuing and the reads in flight drain. Deterministic given the seed.
  // An error (an exhausted event budget) leaves the bench unusable.
  StatusOr<SyncPoint> Run(int threads, int width, int cores, const SyncCosts& costs, uint64_t warmup, uint64_t measure,
                uint64_t seed);

  const fawnds::DataStore& store() const { return *store_; }
  device::NvmDevice* device() { return device_.get(); }
  // The value stored for key number i (512 B record minus the header).
  static void ValueOf(uint64_t i, std::string* out);

 private:
  SyncBench() = default;
  sim::Simulator sim_;
  std::unique_ptr<device::NvmDevice> device_;
  std::unique_ptr<fawnds::DataStore> store_;
  std::vector<fawnds::Key> keys_;
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_EXPERIMENTS_DEVICE_SYNC_BENCH_H_
