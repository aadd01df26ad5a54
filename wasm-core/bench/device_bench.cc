#include "bench/device_bench.h"

#include <chrono>
#include <vector>

#include "device/host_driver.h"
#include "device/nvm.h"
#include "device/profiles.h"
#include "sim/rng.h"

namespace fawnlab::bench {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Random writes of `io` bytes to `profile` at `capacity`, written once first.
BenchFigure RandomWrites(const char* name, const char* profile, uint64_t capacity, uint64_t io, uint64_t writes,
                         bool count_programs) {
  sim::Simulator sim;
  auto dev = device::MakeFlash(&sim, *device::FindFlashProfile(profile), capacity).value();
  const uint32_t page = dev->page_bytes();
  dev->FillSequential([page](uint64_t lpn) { return device::PatternWord(0, lpn * page / 4096); });
  sim::Rng rng(11);
  std::vector<uint8_t> buf(io);
  const uint64_t slots = dev->info().capacity_bytes / io;
  device::LoopSpec spec;
  spec.ops = writes;
  spec.make = [&](uint64_t i) {
    uint64_t off = rng.UniformU64(slots) * io;
    device::FillPattern(buf.data(), off, io, 1 + i);
    return device::IoCommand::Single(device::IoEntry::Write(off, io, buf.data()));
  };
  double t0 = Now();
  auto r = device::RunClosedLoop(dev.get(), spec);
  double dt = Now() - t0;
  const auto& c = dev->counters();
  double count = count_programs ? static_cast<double>(c.media_write_bytes / page) : static_cast<double>(writes);
  return {name, count / dt, count_programs ? "page programs/s" : "page writes/s", dt,
          r.ok() ? c.media_write_bytes ^ static_cast<uint64_t>(sim.now()) : 0};
}

}  // namespace

BenchFigure FtlPageRandomWrites(uint64_t writes) {
  return RandomWrites("device.ftl_page_random_4k_writes", "intel-x25m", uint64_t{1} << 30, 4096, writes, false);
}

BenchFigure FtlBlockMergePrograms(uint64_t writes) {
  return RandomWrites("device.ftl_block_merge_programs", "sandisk-cf-4gb", uint64_t{256} << 20, 1024, writes, true);
}

BenchFigure NvmVectorReads(uint64_t ios) {
  sim::Simulator sim;
  device::NvmDevice dev(&sim, "nvm-4ch", device::FindNvmProfile("nvm-4ch")->config);
  sim::Rng rng(5);
  std::vector<uint8_t> buf(512 * 32);
  const uint64_t slots = dev.info().capacity_bytes / 512;
  device::LoopSpec spec;
  spec.depth = 8;
  spec.ops = ios / 32;
  spec.make = [&](uint64_t i) {
    device::IoCommand c;
    c.stream = static_cast<int>(i % 8);
    for (int k = 0; k < 32; ++k) c.entries.push_back(device::IoEntry::Read(rng.UniformU64(slots) * 512, 512, buf.data() + 512 * k));
    return c;
  };
  double t0 = Now();
  auto r = device::RunClosedLoop(&dev, spec);
  double dt = Now() - t0;
  return {"device.nvm_vector_reads", static_cast<double>(spec.ops * 32) / dt, "I/Os/s", dt,
          r.ok() ? static_cast<uint64_t>(sim.now()) : 0};
}

}  // namespace fawnlab::bench
