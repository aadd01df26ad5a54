#include "stores/page_io_recorder.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace fawnlab::stores {
namespace {

device::DeviceInfo InfoOf(const device::Device* real) {
  device::DeviceInfo i = real->info();
  i.kind = "recorder";
  return i;
}

}  // namespace

PageIoRecorder::PageIoRecorder(device::Device* real) : device::Device(&clock, InfoOf(real)), real_(real) {}

std::vector<RecordedIo> PageIoRecorder::Take() {
  std::vector<RecordedIo> out;
  out.swap(recorded_);
  return out;
}

void PageIoRecorder::Sent(const RecordedIo& w) {
  auto it = overlay_.find(w.offset);
  if (it != overlay_.end() && it->second.seq == w.seq) overlay_.erase(it);
}

void PageIoRecorder::Peek(uint64_t offset, uint64_t length, uint8_t* out) const {
  real_->Peek(offset, length, out);
  // Unsent writes overlapping [offset, offset + length), oldest first (a later write to the
  // same offset replaced its entry; writes at different offsets are applied in seq order).
  std::vector<const RecordedIo*> hits;
  const uint64_t end = offset + length;
  for (auto it = overlay_.begin(); it != overlay_.end() && it->first < end; ++it) {
    const RecordedIo& w = it->second;
    if (w.offset + w.length > offset) hits.push_back(&w);
  }
  std::sort(hits.begin(), hits.end(), [](const RecordedIo* a, const RecordedIo* b) { return a->seq < b->seq; });
  for (const RecordedIo* w : hits) {
    const uint64_t lo = std::max(offset, w->offset), hi = std::min(end, w->offset + w->length);
    std::memcpy(out + (lo - offset), w->data->data() + (lo - w->offset), hi - lo);
  }
}

void PageIoRecorder::Start(const device::IoCommand& cmd, uint64_t id) {
  for (const device::IoEntry& e : cmd.entries) {
    RecordedIo r;
    r.op = e.op;
    r.offset = e.offset;
    r.length = e.length;
    r.seq = ++seq_;
    if (e.op == device::IoOp::kRead) {
      Peek(e.offset, e.length, e.read_buf);
    } else if (e.op == device::IoOp::kWrite) {
      r.data = std::make_shared<std::vector<uint8_t>>(e.write_buf, e.write_buf + e.length);
      overlay_[e.offset] = r;
    }
    // Trim and erase: the B+tree issues none; they are recorded and replayed as they are.
    recorded_.push_back(std::move(r));
  }
  Complete(id, clock.now());
}

}  // namespace fawnlab::stores
