// NvmDevice: the vector-I/O paper's PCIe NVM emulator — DRAM behind DMA channels.
//
// A command (one I/O, or a vector of up to 4096) from stream s goes to DMA channel
// s mod `channels`. It costs a fixed `command_ns` per command — half before its entries
// (doorbell, DMA setup), half after (completion signalling) — and each entry occupies the
// channel for `entry_ns` per `entry_bytes` started (so 32 B costs as much as 512 B). One
// completion is raised per command, after its last entry, whether it carries 1 I/O or 32:
// L(w) = command_ns + w × entry_ns (7.7 + 2.26w µs, vector thesis Fig 7.7 fit), and four
// channels give 4 / 2.26 µs ≈ 1.77M entries/s at saturation. Writes may cost the channel more
// (both 0 by default, as in every profile: a write costs what a read does): a command holding
// writes first occupies its channel for `write_command_ns` (once per command, so a vector
// pays it once), and each write entry takes `write_entry_ns` instead of `entry_ns`
// (Vector I/O lab, vector.device: fitted to thesis Fig 7.4). There is no technology
// modelled (no erase blocks, no wear), as in the paper. The host's own cost per completion
// belongs to the host model (experiments), not here.
#ifndef FAWNLAB_DEVICE_NVM_H_
#define FAWNLAB_DEVICE_NVM_H_

#include <vector>

#include "device/device.h"
#include "device/page_image.h"

namespace fawnlab::device {

struct NvmConfig {
  int channels = 4;
  sim::SimDuration command_ns = 7700;
  sim::SimDuration entry_ns = 2260;
  uint32_t entry_bytes = 512;
  sim::SimDuration write_command_ns = 0;  // channel time once per command that holds writes
  sim::SimDuration write_entry_ns = 0;    // channel time per write entry unit; 0: entry_ns
  uint64_t capacity_bytes = uint64_t{4} << 30;
  double idle_w = 4, active_w = 10;
};

class NvmDevice : public Device {
 public:
  NvmDevice(sim::Simulator* sim, std::string profile, NvmConfig config);

  void Peek(uint64_t offset, uint64_t length, uint8_t* out) const override { store_.Read(offset, length, out); }
  void Poke(uint64_t offset, uint64_t length, const uint8_t* data) override { store_.Write(offset, length, data); }
  double Joules() const override;
  const NvmConfig& config() const { return config_; }

 protected:
  void Start(const IoCommand& cmd, uint64_t id) override;

 private:
  NvmConfig config_;
  ByteStore store_;
  std::vector<sim::SimTime> channel_free_;
  sim::SimDuration busy_ns_ = 0;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_NVM_H_
