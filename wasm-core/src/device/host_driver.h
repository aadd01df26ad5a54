// Host drivers: the benchmark programs of the lab's device experiments (like fio or iozone
// in the papers), issuing commands to a device in virtual time.
//
// RunClosedLoop keeps `depth` commands outstanding until `ops` have completed: command i
// comes from make(i) and is submitted when a slot frees; check(i), if given, runs right after
// command i's submission (its read buffers are filled then) and can reject the bytes. It
// returns the span of virtual time and the latency distribution. A submit error or a failed
// check stops the run with that error.
#ifndef FAWNLAB_DEVICE_HOST_DRIVER_H_
#define FAWNLAB_DEVICE_HOST_DRIVER_H_

#include <cstdint>
#include <functional>

#include "base/status.h"
#include "device/device.h"
#include "sim/histogram.h"

namespace fawnlab::device {

struct LoopResult {
  uint64_t ops = 0;
  sim::SimTime start = 0, end = 0;
  sim::LogHistogram latency_ns;
  double seconds() const { return sim::NsToSec(end - start); }
  double ops_per_sec() const { return end > start ? static_cast<double>(ops) / seconds() : 0; }
};

struct LoopSpec {
  int depth = 1;
  uint64_t ops = 0;
  std::function<IoCommand(uint64_t i)> make;
  std::function<Status(uint64_t i)> check;                              // may be null
  std::function<void(uint64_t i, const IoCompletion& c)> on_complete;  // may be null
  std::function<bool(double)> progress;                                 // may be null; false stops
};

StatusOr<LoopResult> RunClosedLoop(Device* device, const LoopSpec& spec);

// Deterministic 64-bit mix (SplitMix64 finaliser) for data patterns: the word stored at
// 4 KB-granule g of write pass `pass` is PatternWord(pass, g).
uint64_t PatternWord(uint64_t pass, uint64_t granule);
// Fills `out` (length a multiple of 8, offset 8-aligned) with the pattern of `pass` as it
// lies at device offset `offset`.
void FillPattern(uint8_t* out, uint64_t offset, uint64_t length, uint64_t pass);
// Checks that `data` holds the pattern of `pass`; returns the first bad offset or -1.
int64_t CheckPattern(const uint8_t* data, uint64_t offset, uint64_t length, uint64_t pass);

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_HOST_DRIVER_H_
