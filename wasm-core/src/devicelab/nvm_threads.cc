// See nvm_threads.h.
#include "devicelab/nvm_threads.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <vector>

#include "sim/rng.h"

namespace fawnlab::nvmlab {

using device::IoCommand;
using device::IoEntry;

// Runs `threads` synchronous issuers of width-`w` vectors until `ops` entries complete.
Point RunThreads(const device::NvmConfig& cfg, int threads, int w, int cores, double host_us, uint64_t ops,
                 uint64_t seed) {
  sim::Simulator sim;
  device::NvmDevice dev(&sim, "nvm-4ch", cfg);
  sim::Rng rng = sim::Rng::ForStream(seed, static_cast<uint64_t>(threads) * 64 + static_cast<uint64_t>(w));
  const uint64_t slots = cfg.capacity_bytes / 512;
  std::vector<uint8_t> buf(512 * static_cast<size_t>(w));
  std::vector<sim::SimTime> core_free(static_cast<size_t>(cores), 0);
  const sim::SimDuration host_ns = sim::UsToNs(host_us);
  uint64_t done = 0, issued = 0;
  double latency_sum = 0;
  uint64_t commands = 0;
  std::function<void(int)> issue = [&](int t) {
    if (issued >= ops) return;
    IoCommand c;
    c.stream = t;
    for (int i = 0; i < w; ++i) c.entries.push_back(IoEntry::Read(rng.UniformU64(slots) * 512, 512, buf.data() + 512 * i));
    issued += static_cast<uint64_t>(w);
    Status s = dev.Submit(c, [&, t](const device::IoCompletion& comp) {
      done += static_cast<uint64_t>(w);
      latency_sum += static_cast<double>(comp.latency());
      ++commands;
      // The completion is handled on the earliest free core.
      auto core = std::min_element(core_free.begin(), core_free.end());
      sim::SimTime end = std::max(sim.now(), *core) + host_ns;
      *core = end;
      sim.Schedule(end, [&, t]() { issue(t); });
    });
    assert(s.ok());
    (void)s;
  };
  for (int t = 0; t < threads; ++t) issue(t);
  sim.Run(UINT64_MAX);
  double secs = sim::NsToSec(sim.now());
  return Point{static_cast<double>(done) / secs, latency_sum / static_cast<double>(commands) / 1000.0};
}

}  // namespace fawnlab::nvmlab
