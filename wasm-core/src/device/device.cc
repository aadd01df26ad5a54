#include "device/device.h"

#include <cassert>
#include <memory>
#include <utility>

namespace fawnlab::device {

const char* IoOpName(IoOp op) {
  switch (op) {
    case IoOp::kRead: return "read";
    case IoOp::kWrite: return "write";
    case IoOp::kTrim: return "trim";
    case IoOp::kErase: return "erase";
    case IoOp::kFlush: return "flush";
  }
  return "?";
}

Device::Device(sim::Simulator* sim, DeviceInfo info) : sim_(sim), info_(std::move(info)) {}
Device::~Device() = default;

Status Device::Validate(const IoCommand& cmd) const {
  if (cmd.entries.empty()) return Status::InvalidArgument("I/O command has no entries");
  if (cmd.entries.size() > kMaxVectorEntries) {
    return Status::InvalidArgument("I/O command has " + std::to_string(cmd.entries.size()) +
                                   " entries; at most " + std::to_string(kMaxVectorEntries) + " are allowed");
  }
  if (cmd.stream < 0) return Status::InvalidArgument("I/O command stream must be >= 0");
  for (size_t i = 0; i < cmd.entries.size(); ++i) {
    const IoEntry& e = cmd.entries[i];
    std::string where = "entry " + std::to_string(i) + " (" + IoOpName(e.op) + ")";
    if (e.op == IoOp::kFlush) {
      if (e.offset != 0 || e.length != 0) return Status::InvalidArgument(where + ": a flush takes no range");
      continue;
    }
    if (e.length == 0) return Status::InvalidArgument(where + ": length is 0");
    if (e.offset > info_.capacity_bytes || e.length > info_.capacity_bytes - e.offset) {
      return Status::InvalidArgument(where + ": range [" + std::to_string(e.offset) + ", +" + std::to_string(e.length) +
                                     ") is beyond the device's capacity of " + std::to_string(info_.capacity_bytes) +
                                     " bytes");
    }
    if (e.op == IoOp::kRead && e.read_buf == nullptr) return Status::InvalidArgument(where + ": no buffer to read into");
    if (e.op == IoOp::kWrite && e.write_buf == nullptr) return Status::InvalidArgument(where + ": no data to write");
  }
  return Status::Ok();
}

Status Device::Submit(const IoCommand& cmd, CompletionFn done) {
  Status s = Available();
  if (!s.ok()) return s;
  s = Validate(cmd);
  if (!s.ok()) return s;
  s = Admit(cmd);
  if (!s.ok()) return s;
  uint64_t id = next_id_++;
  ++counters_.commands;
  for (const IoEntry& e : cmd.entries) {
    switch (e.op) {
      case IoOp::kRead: ++counters_.reads; counters_.host_read_bytes += e.length; break;
      case IoOp::kWrite: ++counters_.writes; counters_.host_write_bytes += e.length; break;
      case IoOp::kTrim: ++counters_.trims; break;
      case IoOp::kErase: ++counters_.erases_requested; break;
      case IoOp::kFlush: ++counters_.flushes; break;
    }
  }
  pending_.emplace(id, Pending{std::move(done), sim_->now()});
  ++counters_.queue_depth;
  if (counters_.queue_depth > counters_.max_queue_depth) counters_.max_queue_depth = counters_.queue_depth;
  Start(cmd, id);
  return Status::Ok();
}

void Device::Complete(uint64_t id, sim::SimTime time) {
  assert(time >= sim_->now());
  sim_->Schedule(time, [this, id]() {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;  // abandoned
    Pending p = std::move(it->second);
    pending_.erase(it);
    --counters_.queue_depth;
    if (p.done) p.done(IoCompletion{id, p.submitted, sim_->now()});
  });
}

void Device::AbandonAll() {
  pending_.clear();
  counters_.queue_depth = 0;
}

StatusOr<IoCompletion> SubmitAndWait(Device* device, const IoCommand& cmd, uint64_t max_events) {
  auto result = std::make_shared<IoCompletion>();
  auto finished = std::make_shared<bool>(false);
  Status s = device->Submit(cmd, [result, finished](const IoCompletion& c) {
    *result = c;
    *finished = true;
  });
  if (!s.ok()) return s;
  sim::Simulator* sim = device->sim();
  uint64_t budget = max_events;
  while (!*finished && budget-- > 0 && sim->Step()) {
  }
  if (!*finished) return Status::Internal("I/O did not complete within the event budget");
  return *result;
}

}  // namespace fawnlab::device
