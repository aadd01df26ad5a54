#include "device/fault_injector.h"

#include <algorithm>

namespace fawnlab::device {

FaultInjector::FaultInjector(Device* inner)
    : Device(inner->sim(), DeviceInfo{inner->info().profile, "fault-injector", inner->info().capacity_bytes,
                                      inner->info().unit_bytes}),
      inner_(inner) {}

Status FaultInjector::Arm(FaultPlan plan) {
  if (plan.tear_crashing_write && plan.torn_bytes >= info().unit_bytes) {
    return Status::InvalidArgument("fault plan: torn_bytes (" + std::to_string(plan.torn_bytes) +
                                   ") must be below the device's unit of " + std::to_string(info().unit_bytes) + " bytes");
  }
  plan_ = plan;
  armed_base_ = seen_;
  return Status::Ok();
}

void FaultInjector::Restart() {
  crashed_ = false;
  plan_ = FaultPlan{};
  undo_.clear();
}

uint64_t FaultInjector::unsynced_bytes() const {
  uint64_t n = 0;
  for (const Undo& u : undo_) n += u.write ? u.old.size() : 0;
  return n;
}

Status FaultInjector::Available() const {
  if (crashed_) return Status::Unavailable("device crashed (fault injection); restart it first");
  return inner_->Available();
}

Status FaultInjector::Admit(const IoCommand& cmd) {
  ++seen_;
  if (plan_.crash_at != 0 && seen_ - armed_base_ == plan_.crash_at) {
    Crash(cmd);
    return Status::Unavailable("device crashed at command " + std::to_string(plan_.crash_at) +
                               " after arming (fault injection)");
  }
  return Status::Ok();
}

void FaultInjector::Crash(const IoCommand& cmd) {
  crashed_ = true;
  ++generation_;
  AbandonAll();
  if (plan_.lose_unsynced) {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) inner_->Poke(it->offset, it->old.size(), it->old.data());
  }
  undo_.clear();
  if (plan_.tear_crashing_write) {
    const IoEntry* last = nullptr;
    for (const IoEntry& e : cmd.entries) {
      if (e.op == IoOp::kWrite) last = &e;
    }
    if (last != nullptr) {
      uint64_t unit = info().unit_bytes;
      uint64_t keep = last->length > unit ? last->length - unit : 0;
      uint64_t lands = keep + std::min<uint64_t>(plan_.torn_bytes, last->length - keep);
      if (lands > 0) inner_->Poke(last->offset, lands, last->write_buf);
    }
  }
}

void FaultInjector::Start(const IoCommand& cmd, uint64_t id) {
  bool has_flush = false;
  for (const IoEntry& e : cmd.entries) {
    if (e.op == IoOp::kWrite || e.op == IoOp::kTrim || e.op == IoOp::kErase) {
      Undo u{++seq_, e.offset, std::vector<uint8_t>(e.length), e.op == IoOp::kWrite};
      inner_->Peek(e.offset, e.length, u.old.data());
      undo_.push_back(std::move(u));
    } else if (e.op == IoOp::kFlush) {
      has_flush = true;
    }
  }
  const uint64_t flush_seq = seq_;
  const uint64_t gen = generation_;
  Status s = inner_->Submit(cmd, [this, id, gen, has_flush, flush_seq](const IoCompletion&) {
    if (gen != generation_) return;  // the host crashed meanwhile
    if (has_flush) {
      while (!undo_.empty() && undo_.front().seq <= flush_seq) undo_.pop_front();
    }
    Complete(id, sim_->now());
  });
  if (!s.ok()) Complete(id, sim_->now());  // the inner device refused; nothing was applied
  counters_.media_read_bytes = inner_->counters().media_read_bytes;
  counters_.media_write_bytes = inner_->counters().media_write_bytes;
}

}  // namespace fawnlab::device
