// FlashSession: a small flash device running a host write workload, for the Devices lab's
// flash view (contract: docs/devices.md, "FlashSession").
//
// The device has a profile's mechanism — FTL kind, NAND and controller timings — shrunk to
// `blocks` erase blocks of `pages_per_block` pages so that every page can be drawn. The host
// keeps `queue_depth` one-page writes outstanding: sequential, uniformly random, or
// semi-random (k streams, each appending to its own 1/k of the logical space; each write
// picks a stream at random). The page runs it with Advance(dt)/Step() and draws
// SnapshotJson(): every block's pages (erased / valid / invalid), its role and erase count,
// what was programmed, copied by the collector and erased since the previous snapshot, and
// the counters (write amplification, erases, stalls, throughput).
// Deterministic: the same config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_DEVICELAB_LAB_FLASH_SESSION_H_
#define FAWNLAB_DEVICELAB_LAB_FLASH_SESSION_H_

#include <cstdint>
#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "registry/sessions.h"
#include "device/flash_device.h"
#include "sim/rng.h"
#include "sim/simulator.h"

namespace fawnlab::devices {

class FlashSession : public LabSession, public device::NandObserver {
 public:
  struct Config {
    std::string profile = "intel-x25m";
    int blocks = 32;
    int pages_per_block = 16;
    double overprovision = 0.25;
    std::string workload = "random";
    int streams = 4;
    int queue_depth = 1;
    bool prefill = false;
  };
  // The config's schema, `c` giving the defaults (the session registry's: Config{}).
  static std::vector<ParamSpec> Schema(const Config& c);
  // The registry's factory ("devices.flash"): `config` has every field of Schema().
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  // CreateSession("devices.flash", ...) as a FlashSession.
  static StatusOr<std::unique_ptr<FlashSession>> Create(const std::string& config_json, uint64_t seed);
  ~FlashSession() override;

  // Reconfigure accepts workload, streams, queue_depth (the live fields).
  // The snapshot; clears the "recent" lists.
  std::string SnapshotJson() override;

  void OnProgram(uint64_t ppn, bool by_collector) override;
  void OnCopy(uint64_t from_ppn, uint64_t to_ppn) override;
  void OnErase(uint32_t block) override;

  const device::FlashDevice& device() const { return *dev_; }
  sim::SimTime now() const { return sim_.now(); }

 protected:
  sim::Simulator* simulator() override { return &sim_; }
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;

 private:
  FlashSession(Config c, uint64_t seed);
  static Config FromParams(const ParamValues& p);
  Status Build();
  void Issue();
  uint64_t NextPage();

  Config config_;
  sim::Simulator sim_;
  std::unique_ptr<device::FlashDevice> dev_;
  sim::Rng rng_;
  uint64_t logical_pages_ = 0;
  uint64_t seq_next_ = 0;
  std::vector<uint64_t> stream_next_;
  int outstanding_ = 0;
  uint64_t writes_issued_ = 0;
  std::vector<uint8_t> buf_;
  std::deque<std::pair<sim::SimTime, sim::SimDuration>> recent_done_;  // completion time, latency
  std::vector<std::pair<uint32_t, uint32_t>> recent_writes_;
  std::vector<std::array<uint32_t, 4>> recent_moves_;
  std::vector<uint32_t> recent_erased_;
};

}  // namespace fawnlab::devices

#endif  // FAWNLAB_DEVICELAB_LAB_FLASH_SESSION_H_
