// FawnNodeRig: one FAWN back-end for the FAWN-DS experiments — a flash device, the operating
// system's page cache in the DRAM the index leaves free, a FAWN-DS Node of `files` stores
// (one per equal key range) and the CPU — with closed-loop and open-loop clients.
//
// Memory (SOSP'09 §4: 256 MB of DRAM on the Alix 3c2): page cache = DRAM − the OS's own use
// − the stores' hash indexes (6 bytes per bucket). The OS's share is fitted to FAWN Table 2
// (docs/decisions.md). Writes go through the page cache in write-back mode, as the
// prototype's datastore files did. `scale` multiplies DRAM, the OS's share and the device's
// capacity, so an experiment may shrink its data sizes by the same factor and keep every
// ratio that matters (cache / data, data / device).
// Keys are 160-bit pseudo-random values from their index (KeyOf), uniform over the ring.
#ifndef FAWNLAB_FAWNDS_EXPERIMENTS_RIG_H_
#define FAWNLAB_FAWNDS_EXPERIMENTS_RIG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"
#include "device/flash_device.h"
#include "device/page_cache.h"
#include "fawnds/host_cpu.h"
#include "fawnds/node.h"
#include "sim/simulator.h"

namespace fawnlab {

struct RigOptions {
  std::string profile = "sandisk-cf-4gb";
  double scale = 1;
  double device_scale = -1;     // the card's capacity factor; < 0: `scale`
  uint64_t dram_bytes = uint64_t{256} << 20;  // SOSP'09 §4: 256 MB DDR SDRAM
  uint64_t os_bytes = uint64_t{32} << 20;     // fitted to Table 2's 250 MB rows (docs/decisions.md)
  int files = 1;
  uint64_t value_bytes = 1024;
  uint64_t keys = 1000;          // the keys the node will hold: sizes indexes and files
  double file_room = 1.5;        // each file holds this many times its share of the records
  double index_load = 0.75;      // buckets = the next power of two ≥ keys per store / index_load
  bool prefill = true;           // the card has been written before
  sim::SimDuration lock_hold_ns = 25 * sim::kMs;
};

class FawnNodeRig {
 public:
  static StatusOr<std::unique_ptr<FawnNodeRig>> Create(const RigOptions& o);

  static fawnds::Key KeyOf(uint64_t i);
  // Bytes of data + index: the working set the CPU model sees.
  uint64_t WorkingSetBytes() const;
  uint64_t IndexBytes() const;
  uint64_t CacheBytes() const { return cache_bytes_; }

  // Inserts keys [first, first + n) with `value_bytes` values at queue depth 1, then syncs.
  Status Load(uint64_t first, uint64_t n, const std::function<bool(double)>& progress);

  // One request through the CPU and the node: a get of key i, or a put of it.
  void Get(uint64_t i, std::function<void(bool found)> done);
  void Put(uint64_t i, std::function<void()> done);

  // Runs the simulator until `pred` holds or nothing is left; false when cancelled.
  bool RunUntil(const std::function<bool()>& pred, const std::function<bool(double)>& progress = nullptr,
                const std::function<double()>& fraction = nullptr);

  sim::Simulator sim;
  std::unique_ptr<device::FlashDevice> flash;
  std::unique_ptr<device::PageCache> cache;
  std::unique_ptr<fawnds::Node> node;
  std::unique_ptr<fawnds::HostCpu> cpu;
  Status failure;  // the first error a request met

 private:
  RigOptions o_;
  uint64_t cache_bytes_ = 0;
  std::string value_;
};

}  // namespace fawnlab

#endif  // FAWNLAB_FAWNDS_EXPERIMENTS_RIG_H_
