// Kernel benchmarks, shared by the native bench binary and the Node (WASM) build so both
// measure the same code. These are the only functions in wasm-core that read a wall clock.
#ifndef FAWNLAB_BENCH_KERNEL_BENCH_H_
#define FAWNLAB_BENCH_KERNEL_BENCH_H_

#include <cstdint>
#include <string>
#include <utility>

namespace fawnlab::bench {

struct BenchFigure {
  BenchFigure(std::string n, double v, std::string u, double s, uint64_t c)
      : name(std::move(n)), value(v), unit(std::move(u)), seconds(s), checksum(c) {}
  std::string name;    // "kernel.hold_1000"
  double value;        // per second (or a count or a size: see `unit`)
  std::string unit;    // "events/s"
  double seconds;      // wall time measured
  uint64_t checksum;   // defeats dead-code elimination; equal across builds for equal inputs
  uint64_t failures = 0;  // soak runs: checks that failed
  std::string note;       // what the figure counts, the seed, or why it could not be measured
};

// One figure as a one-line JSON object (the line format fawnlab_bench prints).
std::string FigureJson(const BenchFigure& f);

// The hold model: `pending` events in the queue; each dispatched event schedules one more at
// now + a pseudo-random delay (a cheap integer hash, so the RNG is not what is measured).
// Runs `events` dispatches.
BenchFigure KernelHold(int pending, uint64_t events);

// An M/M/1 queue at rho = 0.9 through the FifoStation building blocks (RNG, histogram and
// all): simulated requests per wall second.
BenchFigure QueueMm1(uint64_t requests);

// Runs every benchmark at its default size and returns one JSON object per line.
std::string RunAllJsonLines(double scale);

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_KERNEL_BENCH_H_
