// DiskSession: one emulated disk serving Poisson-arriving reads, for the Devices lab's disk
// view (contract: docs/devices.md, "DiskSession").
//
// Reads of `io_kb` arrive at `rate_per_s` (0: none; the disk idles and, after `spin_down_s`,
// spins down), at random offsets or sequentially. The snapshot gives the head's cylinder
// (moving during a seek), the platter's angle, the request in service and its phase (seek,
// rotate, transfer), the waiting requests, the power state and the counters (latency and
// the service breakdown since the session started or was last reconfigured; energy and
// spin-ups over the whole run).
// Deterministic: the same config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_DEVICELAB_LAB_DISK_SESSION_H_
#define FAWNLAB_DEVICELAB_LAB_DISK_SESSION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "registry/sessions.h"
#include "device/disk.h"
#include "sim/histogram.h"
#include "sim/rng.h"
#include "sim/simulator.h"

namespace fawnlab::devices {

class DiskSession : public LabSession, private sim::EventHandler {
 public:
  struct Config {
    std::string profile = "disk-7200";
    std::string workload = "random";
    double rate_per_s = 60;
    std::string scheduler = "fifo";
    double spin_down_s = 10;
    int io_kb = 4;
  };
  // The config's schema, `c` giving the defaults (the session registry's: Config{}).
  static std::vector<ParamSpec> Schema(const Config& c);
  // The registry's factory ("devices.disk"): `config` has every field of Schema().
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  // CreateSession("devices.disk", ...) as a DiskSession.
  static StatusOr<std::unique_ptr<DiskSession>> Create(const std::string& config_json, uint64_t seed);

  // Reconfigure accepts every field but profile (the live fields).
  std::string SnapshotJson() override;
  const device::DiskDevice& disk() const { return *disk_; }

 private:
  DiskSession(Config c, uint64_t seed);
  static Config FromParams(const ParamValues& p);
  sim::Simulator* simulator() override { return &sim_; }
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;
  void OnEvent(sim::Simulator& sim, uint64_t tag) override;
  void ScheduleArrival();

  Config config_;
  sim::Simulator sim_;
  std::unique_ptr<device::DiskDevice> disk_;
  sim::Rng rng_;
  uint64_t arrival_generation_ = 0;
  uint64_t seq_next_ = 0;
  std::vector<uint8_t> buf_;
  sim::LogHistogram latency_;
  device::DiskDevice::Stats base_;  // the disk's counters when the window started
  sim::SimTime window_start_ = 0;
};

}  // namespace fawnlab::devices

#endif  // FAWNLAB_DEVICELAB_LAB_DISK_SESSION_H_
