// FaultInjector: wraps any device and crashes it on purpose, so stores can be tested for
// what they lose and how they recover.
//
// It counts the commands submitted through it. With a plan armed, the `crash_at`-th command
// (1-based) is the crash: it is refused (kUnavailable), every later command is refused until
// Restart(), and completions still in flight are never delivered. At the crash:
//   - lose_unsynced: every write, trim or erase since the last completed flush is undone
//     (the bytes they replaced are restored, newest first) — a volatile write cache lost;
//   - tear_crashing_write: if the crashing command holds a write, that write is applied only
//     partly: all of it except the final `unit` bytes, of which the first `torn_bytes` land
//     (a page torn mid-program). unit is the device's natural I/O unit (a flash page).
// Otherwise the device keeps exactly what had been submitted before the crash.
// Restart() brings the device back with whatever it held and disarms the plan.
#ifndef FAWNLAB_DEVICE_FAULT_INJECTOR_H_
#define FAWNLAB_DEVICE_FAULT_INJECTOR_H_

#include <cstdint>
#include <deque>
#include <vector>

#include "device/device.h"

namespace fawnlab::device {

struct FaultPlan {
  uint64_t crash_at = 0;  // 0: never
  bool lose_unsynced = true;
  bool tear_crashing_write = false;
  uint32_t torn_bytes = 0;  // of the final unit; REQUIRES < unit
};

class FaultInjector : public Device {
 public:
  explicit FaultInjector(Device* inner);

  // Arms `plan`, counting from the commands submitted so far. Errors on a bad plan.
  Status Arm(FaultPlan plan);
  void Restart();
  bool crashed() const { return crashed_; }
  uint64_t commands_seen() const { return seen_; }
  // Bytes written since the last completed flush that a crash with lose_unsynced would undo.
  // Trims and erases are undone by a crash too, but lose no data, so they do not count (a
  // store file freed by a compaction is a 16 MB trim, not 16 MB of unsynced data).
  uint64_t unsynced_bytes() const;

  void Peek(uint64_t offset, uint64_t length, uint8_t* out) const override { inner_->Peek(offset, length, out); }
  void Poke(uint64_t offset, uint64_t length, const uint8_t* data) override { inner_->Poke(offset, length, data); }
  double Joules() const override { return inner_->Joules(); }
  Status Available() const override;

 protected:
  Status Admit(const IoCommand& cmd) override;

 public:

 protected:
  void Start(const IoCommand& cmd, uint64_t id) override;

 private:
  struct Undo {
    uint64_t seq;
    uint64_t offset;
    std::vector<uint8_t> old;
    bool write;  // a write (else a trim or an erase)
  };
  void Crash(const IoCommand& cmd);

  Device* inner_;
  FaultPlan plan_;
  uint64_t armed_base_ = 0;
  uint64_t seen_ = 0;
  uint64_t seq_ = 0;
  uint64_t generation_ = 0;
  bool crashed_ = false;
  std::deque<Undo> undo_;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_FAULT_INJECTOR_H_
