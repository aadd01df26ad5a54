// See async_driver.h.
#include "vecio/async_driver.h"

#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/rng.h"
#include "sim/simulator.h"
#include "vecio/host.h"

namespace fawnlab::vecio {
namespace {

constexpr uint64_t kIo = 512;  // bytes per I/O (Figs 7.3-7.5 use 512 B)

Status OutOfRange(const std::string& field, const std::string& range, long long v) {
  return Status::InvalidArgument(field + " must be " + range + " (got " + std::to_string(v) + ")");
}

}  // namespace

void AsyncPayload(uint64_t tag, uint8_t* out512) {
  uint64_t state = tag;
  for (size_t i = 0; i < kIo; i += 8) {
    const uint64_t v = sim::SplitMix64(&state);
    std::memcpy(out512 + i, &v, 8);
  }
}

Status ValidateAsync(const AsyncSetup& s) {
  if (s.threads < 1 || s.threads > 256) return OutOfRange("threads", "in [1, 256]", s.threads);
  if (s.qd < 1 || s.qd > 4096) return OutOfRange("qd", "in [1, 4096]", s.qd);
  if (s.width < 1 || s.width > s.qd || s.qd % s.width != 0) {
    return OutOfRange("width", "in [1, qd = " + std::to_string(s.qd) + "] and divide qd", s.width);
  }
  if (s.cores < 1 || s.cores > 64) return OutOfRange("cores", "in [1, 64]", s.cores);
  if (s.span_bytes < kIo || s.span_bytes > s.device.capacity_bytes) {
    return OutOfRange("span_bytes", "in [512, the device capacity]", static_cast<long long>(s.span_bytes));
  }
  if (s.warmup_ns < 0) return OutOfRange("warmup_ns", ">= 0", s.warmup_ns);
  if (s.measure_ns <= 0) return OutOfRange("measure_ns", "> 0", s.measure_ns);
  return Status::Ok();
}

AsyncOutcome RunAsync(const AsyncSetup& s, uint64_t seed) {
  sim::Simulator sim;
  device::NvmDevice dev(&sim, "nvm-4ch", s.device);
  Host host(&sim, s.cores, s.threads);
  const uint64_t stream =
      ((static_cast<uint64_t>(s.writes) * 256 + static_cast<uint64_t>(s.threads)) * 8192 + static_cast<uint64_t>(s.qd)) *
          8192 +
      static_cast<uint64_t>(s.width);
  sim::Rng rng = sim::Rng::ForStream(seed, stream);
  const uint64_t slots = s.span_bytes / kIo;
  const int w = s.width;
  const sim::SimTime start = s.warmup_ns, stop = s.warmup_ns + s.measure_ns;

  // One submission: the doorbell once, the I/O structure per entry.
  Charges submit;
  submit.Add(CostKind::kSubmit, 1, s.costs.submit_ns).Add(CostKind::kQueue, static_cast<uint32_t>(w), s.costs.entry_ns);
  Charges irq;
  irq.Add(CostKind::kIoIrq, 1, s.costs.irq_ns);
  Charges wake;
  wake.Add(CostKind::kWakeup, 1, s.costs.wakeup_ns);
  Charges wake_submit = wake;
  wake_submit.Add(CostKind::kSubmit, 1, s.costs.submit_ns).Add(CostKind::kQueue, static_cast<uint32_t>(w), s.costs.entry_ns);

  AsyncOutcome out;
  std::vector<uint8_t> buf(kIo * static_cast<size_t>(w));
  std::unordered_map<uint64_t, uint64_t> last_tag;  // offset -> tag of its last write (read_back)
  uint64_t next_tag = 1, window_entries = 0, window_commands = 0;
  double window_latency_ns = 0;

  std::function<void(int)> submit_cmd = [&](int t) {
    device::IoCommand c;
    c.stream = t;
    c.entries.reserve(static_cast<size_t>(w));
    for (int i = 0; i < w; ++i) {
      const uint64_t off = rng.UniformU64(slots) * kIo;
      uint8_t* b = buf.data() + kIo * static_cast<size_t>(i);
      if (s.writes) {
        const uint64_t tag = next_tag++;
        AsyncPayload(tag, b);
        if (s.read_back) last_tag[off] = tag;
        c.entries.push_back(device::IoEntry::Write(off, kIo, b));
      } else {
        c.entries.push_back(device::IoEntry::Read(off, kIo, b));
      }
    }
    ++out.commands;
    out.entries += static_cast<uint64_t>(w);
    Status st = dev.Submit(c, [&, t](const device::IoCompletion& done) {
      ++out.completions;
      if (done.completed >= start && done.completed < stop) {
        window_entries += static_cast<uint64_t>(w);
        ++window_commands;
        window_latency_ns += static_cast<double>(done.latency());
      }
      host.Interrupt(irq, [&, t]() {
        // Each completion lets the thread issue one new command, until the window closes.
        if (sim.now() < stop) {
          host.Run(t, wake_submit, [&submit_cmd, t]() { submit_cmd(t); });
        } else {
          host.Run(t, wake, nullptr);
        }
      });
    });
    (void)st;  // valid by construction: offsets within span, buffers present
  };

  for (int t = 0; t < s.threads; ++t) {
    for (int k = 0; k < s.qd / w; ++k) host.Run(t, submit, [&submit_cmd, t]() { submit_cmd(t); });
  }
  auto busy_now = [&]() {
    sim::SimDuration b = 0;
    for (int c = 0; c < host.cores(); ++c) b += host.core_busy_ns(c);
    return b;
  };
  sim.RunUntil(start);
  const sim::SimDuration busy0 = busy_now();
  sim.RunUntil(stop);
  const sim::SimDuration busy1 = busy_now();
  sim.Run(UINT64_MAX);  // drain: bounded, nothing new is issued after `stop`

  const double secs = sim::NsToSec(stop - start);
  out.iops = static_cast<double>(window_entries) / secs;
  out.cores_busy = sim::NsToSec(busy1 - busy0) / secs;
  out.iops_per_core = out.cores_busy > 0 ? out.iops / out.cores_busy : 0;
  out.mean_latency_us = window_commands ? window_latency_ns / static_cast<double>(window_commands) / 1000.0 : 0;
  out.events = host.events();
  out.busy_ns = host.busy_ns();
  out.device = dev.counters();

  if (s.read_back) {
    std::vector<uint8_t> got(kIo), want(kIo);
    for (const auto& [off, tag] : last_tag) {
      Status st = dev.Submit(device::IoCommand::Single(device::IoEntry::Read(off, kIo, got.data())), nullptr);
      AsyncPayload(tag, want.data());
      ++out.verified;
      if (!st.ok() || got != want) ++out.mismatches;
    }
    sim.Run(UINT64_MAX);
  }
  return out;
}

}  // namespace fawnlab::vecio
