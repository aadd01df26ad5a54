// The asynchronous I/O benchmark of vector thesis §7.3.1 (SoCC'12 §4.1, Figs 7.3-7.5): T user
// threads each keep QD/T random 512 B reads (or writes) outstanding on the NVM device, as
// single I/Os (a command and a completion interrupt each; each completion lets one new I/O be
// issued) or as vectors of `width` (one command and one interrupt per vector; each completion
// lets one new vector be issued).
//
// The host is vecio::Host (8 cores by default): every event charges its own core time there,
// once per event: a command's submission (kSubmit: ring the doorbell), each entry's I/O
// structure (kQueue: prepare it, append it to the submission queue, reap its completion entry),
// a command's completion interrupt (kIoIrq, on any free core) and the wake-up of its thread
// (kWakeup, on the thread, which then submits the next command). The device is the shared
// device::NvmDevice: thread i's commands go to DMA channel i mod 4. Writes store real payloads
// (a tag per write); `read_back` reads every slot last written back through the device.
// Throughput, latency and cores busy are what those events queueing on cores and channels give.
//
// A run: all threads start at 0, measure over [warmup, warmup + measure), then issue nothing new
// and drain (every in-flight command completes and is handled), so every event is charged once.
// Deterministic given the seed.
#ifndef FAWNLAB_VECIO_ASYNC_DRIVER_H_
#define FAWNLAB_VECIO_ASYNC_DRIVER_H_

#include <array>
#include <cstdint>

#include "base/status.h"
#include "device/nvm.h"
#include "sim/time.h"
#include "vecio/costs.h"

namespace fawnlab::vecio {

// Host core time per event, ns (docs/vector/device.md: what each was fitted to).
struct AsyncCosts {
  sim::SimDuration submit_ns = 600;  // per command
  sim::SimDuration entry_ns = 1200;  // per I/O entry
  sim::SimDuration irq_ns = 1200;    // per completion interrupt (one per command)
  sim::SimDuration wakeup_ns = 500;  // per completion, the waiting thread
};

struct AsyncSetup {
  device::NvmConfig device;  // "nvm-4ch" by default; the experiment adds the write costs
  AsyncCosts costs;
  bool writes = false;
  int threads = 1;           // [1, 256]
  int qd = 16;               // I/Os outstanding per thread, [1, 4096]
  int width = 1;             // I/Os per command; must divide qd
  int cores = 8;             // [1, 64]
  uint64_t span_bytes = uint64_t{16} << 20;  // random 512 B slots in [0, span)
  sim::SimDuration warmup_ns = 1'000'000;
  sim::SimDuration measure_ns = 3'000'000;
  bool read_back = false;    // after the run, read every written slot back and compare
};

// The message names the field and its range.
Status ValidateAsync(const AsyncSetup& s);

struct AsyncOutcome {
  double iops = 0;           // entries completed by the device in the window, per second
  double cores_busy = 0;     // host core time charged in the window ÷ its length
  double iops_per_core = 0;  // iops ÷ cores_busy (the thesis's IOPS ÷ /proc/stat utilisation)
  double mean_latency_us = 0;  // device latency per command completed in the window
  // Whole run, drain included.
  uint64_t commands = 0, entries = 0, completions = 0;
  std::array<uint64_t, kCostKinds> events{};
  std::array<sim::SimDuration, kCostKinds> busy_ns{};
  device::DeviceCounters device;
  uint64_t verified = 0, mismatches = 0;  // read_back: slots read back, and those that differ
};

// REQUIRES: ValidateAsync(s).ok().
AsyncOutcome RunAsync(const AsyncSetup& s, uint64_t seed);

// The 512 B payload a write with `tag` stores (the test's expectation for read-back).
void AsyncPayload(uint64_t tag, uint8_t* out512);

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_ASYNC_DRIVER_H_
