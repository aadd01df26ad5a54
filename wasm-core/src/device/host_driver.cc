#include "device/host_driver.h"

#include <cstring>
#include <memory>

namespace fawnlab::device {

uint64_t PatternWord(uint64_t pass, uint64_t granule) {
  uint64_t z = pass * 0x9E3779B97F4A7C15ull + granule + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void FillPattern(uint8_t* out, uint64_t offset, uint64_t length, uint64_t pass) {
  for (uint64_t i = 0; i + 8 <= length; i += 8) {
    uint64_t w = PatternWord(pass, (offset + i) / 4096);
    std::memcpy(out + i, &w, 8);
  }
}

int64_t CheckPattern(const uint8_t* data, uint64_t offset, uint64_t length, uint64_t pass) {
  for (uint64_t i = 0; i + 8 <= length; i += 8) {
    uint64_t w;
    std::memcpy(&w, data + i, 8);
    if (w != PatternWord(pass, (offset + i) / 4096)) return static_cast<int64_t>(offset + i);
  }
  return -1;
}

StatusOr<LoopResult> RunClosedLoop(Device* device, const LoopSpec& spec) {
  // Completions may outlive this call (after an error), so what they touch is shared.
  struct State {
    uint64_t completed = 0;
    LoopResult result;
    std::function<void(uint64_t, const IoCompletion&)> on_complete;
  };
  auto st = std::make_shared<State>();
  st->on_complete = spec.on_complete;
  sim::Simulator* sim = device->sim();
  st->result.start = sim->now();
  uint64_t issued = 0;
  Status failure;
  auto issue = [&]() {
    while (failure.ok() && issued < spec.ops && issued - st->completed < static_cast<uint64_t>(spec.depth)) {
      uint64_t i = issued++;
      Status s = device->Submit(spec.make(i), [st, i](const IoCompletion& c) {
        ++st->completed;
        st->result.latency_ns.Record(static_cast<uint64_t>(c.latency()));
        if (st->on_complete) st->on_complete(i, c);
      });
      if (!s.ok()) {
        failure = s;
        return;
      }
      if (spec.check) {
        s = spec.check(i);
        if (!s.ok()) {
          failure = s;
          return;
        }
      }
    }
  };
  issue();
  uint64_t last_report = 0;
  while (failure.ok() && st->completed < spec.ops) {
    if (!sim->Step()) return Status::Internal("the device stopped completing commands");
    issue();
    if (spec.progress && st->completed - last_report >= 4096) {
      last_report = st->completed;
      if (!spec.progress(static_cast<double>(st->completed) / static_cast<double>(spec.ops))) {
        return Status::Cancelled("cancelled");
      }
    }
  }
  if (!failure.ok()) return failure;
  st->result.ops = st->completed;
  st->result.end = sim->now();
  st->on_complete = nullptr;
  return std::move(st->result);
}

}  // namespace fawnlab::device
