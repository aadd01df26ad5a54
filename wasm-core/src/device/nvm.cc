#include "device/nvm.h"

#include <algorithm>

namespace fawnlab::device {

NvmDevice::NvmDevice(sim::Simulator* sim, std::string profile, NvmConfig config)
    : Device(sim, DeviceInfo{std::move(profile), "nvm", config.capacity_bytes, config.entry_bytes}), config_(config) {
  channel_free_.assign(static_cast<size_t>(config_.channels), 0);
}

void NvmDevice::Start(const IoCommand& cmd, uint64_t id) {
  const sim::SimDuration setup = config_.command_ns / 2;
  size_t ch = static_cast<size_t>(cmd.stream % config_.channels);
  sim::SimTime t = std::max(sim_->now() + setup, channel_free_[ch]);
  if (config_.write_command_ns > 0 &&
      std::any_of(cmd.entries.begin(), cmd.entries.end(), [](const IoEntry& e) { return e.op == IoOp::kWrite; })) {
    t += config_.write_command_ns;
    busy_ns_ += config_.write_command_ns;
  }
  const sim::SimDuration write_entry_ns = config_.write_entry_ns > 0 ? config_.write_entry_ns : config_.entry_ns;
  for (const IoEntry& e : cmd.entries) {
    switch (e.op) {
      case IoOp::kRead: store_.Read(e.offset, e.length, e.read_buf); counters_.media_read_bytes += e.length; break;
      case IoOp::kWrite: store_.Write(e.offset, e.length, e.write_buf); counters_.media_write_bytes += e.length; break;
      case IoOp::kErase: store_.Zero(e.offset, e.length); counters_.media_write_bytes += e.length; break;
      case IoOp::kTrim: store_.Zero(e.offset, e.length); continue;
      case IoOp::kFlush: continue;  // DRAM-backed emulator: everything acknowledged is stored
    }
    uint64_t units = std::max<uint64_t>(1, (e.length + config_.entry_bytes - 1) / config_.entry_bytes);
    sim::SimDuration d = (e.op == IoOp::kWrite ? write_entry_ns : config_.entry_ns) * static_cast<sim::SimDuration>(units);
    t += d;
    busy_ns_ += d;
  }
  channel_free_[ch] = t;
  Complete(id, t + (config_.command_ns - setup));
}

double NvmDevice::Joules() const {
  double seconds = sim::NsToSec(sim_->now());
  double busy = std::min(sim::NsToSec(busy_ns_) / config_.channels, seconds);
  return config_.idle_w * seconds + (config_.active_w - config_.idle_w) * busy;
}

}  // namespace fawnlab::device
