// X25: the Intel X25 SATA SSD of vector I/O thesis Ch. 6 as a small queueing model.
//
// Contract: at most 31 commands outstanding (NCQ); Submit REQUIRES outstanding() < 31. A
// command holds the controller (one server, FIFO) for kFixedUs + kPerKbUs x size, then waits
// a flash latency of kMediaUs ± 50% (uniform; in parallel with other commands: the drive's
// internal parallelism, so completions may come back out of order), then posts its
// completion through `on_done`. The NCQ tag stays held until the host collects
// the completion (Collect, done in the interrupt handler). The two controller constants are the
// straight line through Fig 6.2's 87K IOPS at 512 B and Table 6.2's 14.6K at 16 KB; the flash
// latency and its spread are assumed (docs/vector/block.md). The project's device/ models (NVM channels, FTL flash) do
// not have NCQ or this service law, so this one stands alone.
#ifndef FAWNLAB_VECIO_BLOCK_X25_H_
#define FAWNLAB_VECIO_BLOCK_X25_H_

#include <cstdint>
#include <deque>
#include <functional>

#include "sim/rng.h"
#include "sim/simulator.h"

namespace fawnlab::vecio::block {

class X25 {
 public:
  static constexpr int kNcqDepth = 31;
  static constexpr double kFixedUs = 9.66;
  static constexpr double kPerKbUs = 3.68;
  static constexpr double kMediaUs = 40.0;      // the flash latency's mean
  static constexpr double kMediaSpread = 0.5;  // uniform in kMediaUs x [1 - s, 1 + s]

  // `seed` drives the flash latency's spread (its own RNG stream).
  X25(sim::Simulator* sim, uint64_t seed, std::function<void(uint32_t io)> on_done)
      : sim_(sim), rng_(sim::Rng::ForStream(seed, 0x25)), on_done_(std::move(on_done)) {}
  void Submit(uint32_t io, int bytes);
  // The host collected one posted completion: its NCQ tag is free again.
  void Collect();
  int outstanding() const { return outstanding_; }
  int max_outstanding() const { return max_outstanding_; }
  static double ServiceUs(int bytes) { return kFixedUs + kPerKbUs * bytes / 1024.0; }

 private:
  sim::Simulator* sim_;
  sim::Rng rng_;
  std::function<void(uint32_t)> on_done_;
  sim::SimTime controller_free_ = 0;
  int outstanding_ = 0;
  int max_outstanding_ = 0;
};

}  // namespace fawnlab::vecio::block

#endif  // FAWNLAB_VECIO_BLOCK_X25_H_
