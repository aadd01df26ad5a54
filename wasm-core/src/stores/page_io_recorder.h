// PageIoRecorder: lets a synchronous store (btree::BTree, whose buffer pool waits for each
// page I/O by running the simulator) run inside a shared simulator's event callbacks without
// running that simulator, and without changing the store.
//
// It is a Device on a private simulator of its own. A command submitted to it takes effect at
// once on the recorder's view of the real device's bytes (reads see the real device's bytes,
// through Peek, overlaid by the recorded writes not yet sent) and completes at once on the
// private clock, so the store's SubmitAndWait returns immediately. Every command is recorded
// (writes with a copy of their bytes); Take() hands the recorded commands of one operation to
// the caller, who replays them on the real device in order at queue depth 1, each waiting for
// the one before: the timing, the page cache's hits and misses and the flash's work are the
// real device's. Sent(rec) drops a replayed write from the overlay.
// Single-threaded; deterministic. Peek forwards (with the overlay); Poke forwards; Joules 0.
#ifndef FAWNLAB_STORES_PAGE_IO_RECORDER_H_
#define FAWNLAB_STORES_PAGE_IO_RECORDER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "device/device.h"
#include "sim/simulator.h"

namespace fawnlab::stores {

struct RecordedIo {
  device::IoOp op;
  uint64_t offset = 0, length = 0;
  std::shared_ptr<std::vector<uint8_t>> data;  // writes: the bytes
  uint64_t seq = 0;
};

namespace internal {
struct PrivateClock {
  sim::Simulator clock;
};
}  // namespace internal

class PageIoRecorder : private internal::PrivateClock, public device::Device {
 public:
  explicit PageIoRecorder(device::Device* real);

  // The commands recorded since the last Take, in submission order (one entry each).
  std::vector<RecordedIo> Take();
  // A recorded write was submitted to the real device: the overlay no longer needs it.
  void Sent(const RecordedIo& w);

  void Peek(uint64_t offset, uint64_t length, uint8_t* out) const override;
  void Poke(uint64_t offset, uint64_t length, const uint8_t* data) override { real_->Poke(offset, length, data); }
  double Joules() const override { return 0; }
  device::Device* real() const { return real_; }

 protected:
  void Start(const device::IoCommand& cmd, uint64_t id) override;

 private:
  device::Device* real_;
  uint64_t seq_ = 0;
  std::vector<RecordedIo> recorded_;
  std::map<uint64_t, RecordedIo> overlay_;  // by offset: the newest unsent write there
};

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_PAGE_IO_RECORDER_H_
