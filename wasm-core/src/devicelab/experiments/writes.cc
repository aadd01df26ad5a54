// devices.write-pattern and devices.fill-gc: what the FTL does to writes.
//
// write-pattern (FAWN SOSP'09 Fig 9): on each flash profile, written once beforehand
// (`precondition`, a used card), `write_mb` is written at queue depth 1 in `io_kb` writes.
// Fig 9 inserted 2 GB into each device, so each device is emulated at its real capacity
// scaled by write_mb / 2 GB: the data written is the same fraction of the device as in the
// paper (2.5% of the X25-M: less than its spare space, so its collector never has to run).
// Writes go sequentially,
// as k semi-random streams (stream j appends to its own 1/k of the device; each write goes
// to a stream chosen at random, as FAWN-DS files receive inserts by key hash), and at random
// offsets. Throughput counts until the data is flushed and the device idle.
//
// fill-gc: a page-mapped SSD written once sequentially (`precondition`, the usual SSD test
// preparation; without it, random writes leave part of the logical space unwritten for
// several passes and the drive looks emptier than it is) is overwritten at random in 4 KB
// writes for `passes` times its capacity; throughput and write amplification per window
// show the collector starting once the free blocks run out. Steady-state write amplification is then measured
// against over-provisioning and set beside the analytic FIFO-cleaning curve (greedy can
// only do better): u = exp(−(1 − u)/ρ) for victim utilisation u at utilisation ρ =
// logical/physical, WA = 1/(1 − u) (Desnoyers 2012; Hu et al. 2009).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "device/host_driver.h"
#include "device/profiles.h"
#include "registry/experiments.h"
#include "registry/sweep.h"
#include "sim/rng.h"

namespace fawnlab {
namespace {

using device::IoCommand;
using device::IoEntry;
constexpr double kMiB = 1048576.0;

std::string Short(const std::string& name) {
  if (name == "sandisk-cf-4gb") return "cf";
  if (name == "intel-x25m") return "x25m";
  return "x25e";
}

struct WriteRun {
  double mb_s;
  double wa;
};

// kind: 0 sequential, 1 semi-random with `streams`, 2 random.
StatusOr<WriteRun> WriteWorkload(const device::FlashProfile& prof, uint64_t capacity, bool precondition, int kind,
                                 int streams, uint64_t io, uint64_t total, uint64_t seed) {
  sim::Simulator sim;
  auto made = device::MakeFlash(&sim, prof, capacity);
  if (!made.ok()) return made.status();
  auto dev = std::move(made).value();
  const uint32_t page = dev->page_bytes();
  if (precondition) dev->FillSequential([page](uint64_t lpn) { return device::PatternWord(0, lpn * page / 4096); });
  const uint64_t cap = dev->info().capacity_bytes;
  const uint64_t ops = total / io;
  sim::Rng rng = sim::Rng::ForStream(seed, static_cast<uint64_t>(kind * 1000 + streams));
  const uint64_t region = cap / static_cast<uint64_t>(streams) / io * io;
  if (kind == 1 && region < io) return Status::InvalidArgument("too many streams for the device's capacity");
  std::vector<uint64_t> next(static_cast<size_t>(streams), 0);
  std::vector<uint8_t> buf(io);
  device::LoopSpec spec;
  spec.ops = ops;
  spec.make = [&](uint64_t i) {
    uint64_t off;
    if (kind == 0) {
      off = (i * io) % (cap / io * io);
    } else if (kind == 1) {
      size_t s = static_cast<size_t>(rng.UniformU64(static_cast<uint64_t>(streams)));
      off = s * region + next[s];
      next[s] = (next[s] + io) % region;
    } else {
      off = rng.UniformU64(cap / io) * io;
    }
    device::FillPattern(buf.data(), off, io, 1);
    return IoCommand::Single(IoEntry::Write(off, io, buf.data()));
  };
  auto res = device::RunClosedLoop(dev.get(), spec);
  if (!res.ok()) return res.status();
  auto f = device::SubmitAndWait(dev.get(), IoCommand::Single(IoEntry::Flush()));
  if (!f.ok()) return f.status();
  sim.RunUntil(std::max(sim.now(), dev->BusyUntil()));
  double secs = sim::NsToSec(sim.now());
  return WriteRun{static_cast<double>(ops * io) / kMiB / secs, dev->counters().write_amplification()};
}

StatusOr<Result> RunPattern(const ParamValues& p, RunContext& ctx) {
  const uint64_t total = static_cast<uint64_t>(p.Int("write_mb")) << 20;
  const uint64_t io = static_cast<uint64_t>(p.Int("io_kb")) * 1024;
  const int streams_max = static_cast<int>(p.Int("streams_max"));
  const double scale = static_cast<double>(total) / static_cast<double>(uint64_t{2} << 30);
  const bool precondition = p.Bool("precondition");
  if (io > total) return Status::InvalidArgument("parameter 'io_kb' must not exceed 'write_mb'");
  const std::vector<int> ks = PowersOfTwo(streams_max);
  const auto& profiles = device::FlashProfiles();
  SweepProgress sweep(&ctx, static_cast<double>(profiles.size() * (ks.size() + 1)));
  Result r;
  r.scale_note = "each device emulated at " + FormatNumber(scale) +
                 " of its capacity (write_mb / the paper's 2 GB); MB = 2^20 bytes";
  std::vector<Series> mb, wa;
  for (const auto& prof : profiles) {
    const std::string tag = Short(prof.name);
    const uint64_t capacity = static_cast<uint64_t>(static_cast<double>(prof.capacity_bytes) * scale);
    Series s{prof.name, "measured", "append streams k (files written at once)", "write throughput (MB/s)", {}};
    Series w{prof.name, "measured", "append streams k (files written at once)", "write amplification", {}};
    double k1 = 0;
    for (int k : ks) {
      auto run = WriteWorkload(prof, capacity, precondition, k == 1 ? 0 : 1, k, io, total, ctx.seed());
      if (!run.ok()) return Status::InvalidArgument(prof.name + ": " + run.status().message());
      s.points.emplace_back(k, run.value().mb_s);
      w.points.emplace_back(k, run.value().wa);
      if (k == 1) {
        k1 = run.value().mb_s;
        r.AddMetric("mb_s_" + tag + "_seq", k1);
      }
      if (k == 8) r.AddMetric("mb_s_" + tag + "_k8", run.value().mb_s);
      if (k == streams_max) {
        r.AddMetric("mb_s_" + tag + "_k" + std::to_string(k), run.value().mb_s);
        r.AddMetric("flatness_" + tag, k1 > 0 ? run.value().mb_s / k1 : 0);
      }
      if (!sweep.Step(1)(1.0)) return Status::Cancelled("cancelled");
      sweep.Done();
    }
    auto rnd = WriteWorkload(prof, capacity, precondition, 2, 1, io, total, ctx.seed());
    if (!rnd.ok()) return Status::InvalidArgument(prof.name + ": " + rnd.status().message());
    r.AddMetric("mb_s_" + tag + "_random", rnd.value().mb_s);
    r.AddMetric("wa_" + tag + "_random", rnd.value().wa);
    if (!sweep.Step(1)(1.0)) return Status::Cancelled("cancelled");
    sweep.Done();
    mb.push_back(s);
    wa.push_back(w);
  }
  for (auto& s : mb) r.series.push_back(s);
  for (auto& s : wa) r.series.push_back(s);
  for (const auto& prof : profiles) r.notes.push_back(prof.name + ": " + prof.source);
  r.notes.push_back("FAWN Fig 9 (qualitative): the CF card slows as the number of files grows; the X25-M and X25-E "
                    "stay high up to 256 files. The CF's block-mapped FTL has 4 update blocks: beyond 4 streams most "
                    "appends evict another stream's update block, which costs a merge. The page-mapped SSDs place "
                    "any page anywhere, so the number of streams does not matter while free blocks last; "
                    "devices.fill-gc shows what happens when they run out.");
  return r;
}

// Steady-state write amplification of FIFO cleaning under uniform random writes.
double FifoWa(double overprovision) {
  double rho = 1.0 / (1.0 + overprovision);
  double u = 0.5;
  for (int i = 0; i < 200; ++i) u = std::exp(-(1.0 - u) / rho);
  return 1.0 / (1.0 - u);
}

struct FillTrace {
  std::vector<std::pair<double, double>> mb_s, wa;
  double wa_last_pass = 0, mb_s_last_pass = 0, mb_s_first = 0;
  double effective_op = 0;  // spare the collector can use, over logical pages
};

StatusOr<FillTrace> Fill(const device::FlashProfile& prof, uint64_t capacity, double op, int passes, bool precondition,
                         uint64_t seed, std::function<bool(double)> progress) {
  sim::Simulator sim;
  auto made = device::MakeFlash(&sim, prof, capacity, op);
  if (!made.ok()) return made.status();
  auto dev = std::move(made).value();
  if (precondition) dev->FillSequential([](uint64_t lpn) { return device::PatternWord(0, lpn); });
  const uint64_t io = 4096, slots = dev->info().capacity_bytes / io;
  const uint64_t ops = slots * static_cast<uint64_t>(passes);
  const uint64_t window = std::max<uint64_t>(1, slots / 20);
  sim::Rng rng = sim::Rng::ForStream(seed, static_cast<uint64_t>(std::llround(op * 1e6)));
  std::vector<uint8_t> buf(io);
  FillTrace tr;
  {
    const device::NandGeometry& g = dev->nand().geometry();
    const double usable = static_cast<double>((g.blocks - static_cast<uint32_t>(g.chips) * 4) * uint64_t{g.pages_per_block});
    tr.effective_op = usable / static_cast<double>(slots * io / g.page_bytes) - 1;
  }
  uint64_t w_media = 0, w_host = 0, last_media = 0, last_host = 0, pass_start_media = 0, pass_start_host = 0;
  sim::SimTime w_start = 0, pass_start = 0;
  device::LoopSpec spec;
  spec.ops = ops;
  spec.make = [&](uint64_t i) {
    uint64_t off = rng.UniformU64(slots) * io;
    device::FillPattern(buf.data(), off, io, 1 + i / slots);
    return IoCommand::Single(IoEntry::Write(off, io, buf.data()));
  };
  spec.on_complete = [&](uint64_t i, const device::IoCompletion&) {
    const auto& c = dev->counters();
    if (i + 1 == slots * static_cast<uint64_t>(passes - 1)) {  // the last pass starts
      pass_start = sim.now();
      pass_start_media = c.media_write_bytes;
      pass_start_host = c.host_write_bytes;
    }
    if ((i + 1) % window != 0) return;
    w_media = c.media_write_bytes - last_media;
    w_host = c.host_write_bytes - last_host;
    last_media = c.media_write_bytes;
    last_host = c.host_write_bytes;
    double x = static_cast<double>(i + 1) / static_cast<double>(slots);
    double secs = sim::NsToSec(sim.now() - w_start);
    w_start = sim.now();
    double rate = static_cast<double>(window * io) / kMiB / secs;
    tr.mb_s.emplace_back(x, rate);
    tr.wa.emplace_back(x, w_host ? static_cast<double>(w_media) / static_cast<double>(w_host) : 0);
    if (tr.mb_s.size() == 1) tr.mb_s_first = rate;
  };
  spec.progress = progress;
  auto res = device::RunClosedLoop(dev.get(), spec);
  if (!res.ok()) return res.status();
  const auto& c = dev->counters();
  tr.wa_last_pass = static_cast<double>(c.media_write_bytes - pass_start_media) /
                    static_cast<double>(c.host_write_bytes - pass_start_host);
  tr.mb_s_last_pass = static_cast<double>(c.host_write_bytes - pass_start_host) / kMiB / sim::NsToSec(sim.now() - pass_start);
  return tr;
}

StatusOr<Result> RunFill(const ParamValues& p, RunContext& ctx) {
  const device::FlashProfile* prof = device::FindFlashProfile(p.Choice("profile"));
  const uint64_t capacity = static_cast<uint64_t>(p.Int("capacity_mb")) << 20;
  const double op = p.Real("overprovision");
  const int passes = static_cast<int>(p.Int("passes"));
  const bool precondition = p.Bool("precondition");
  std::vector<double> ops = {0.07, 0.15, 0.28, 0.5};
  if (!p.Bool("sweep")) ops.clear();
  ops = UnionSorted(ops, {op});
  SweepProgress sweep(&ctx, static_cast<double>(ops.size() + 1) * passes);
  auto main = Fill(*prof, capacity, op, passes, precondition, ctx.seed(), sweep.Step(passes));
  if (!main.ok()) return main.status();
  sweep.Done();
  Result r;
  r.scale_note = prof->name + " emulated at " + std::to_string(capacity >> 20) + " MB with its own chips and blocks; MB = 2^20 bytes";
  Series mb{"write throughput (greedy GC)", "measured", "data written (× capacity)", "throughput (MB/s)", main.value().mb_s};
  Series wa{"write amplification (greedy GC)", "measured", "data written (× capacity)", "write amplification", main.value().wa};
  r.AddMetric("mb_s_fresh", main.value().mb_s_first);
  r.AddMetric("mb_s_steady", main.value().mb_s_last_pass);
  r.AddMetric("wa_steady", main.value().wa_last_pass);
  r.AddMetric("overprovision_effective", main.value().effective_op);
  r.AddMetric("wa_fifo_theory", FifoWa(main.value().effective_op));
  Series sweep_wa{"steady write amplification (greedy GC)", "measured", "over-provisioning (spare / logical)", "write amplification", {}};
  Series fifo{"FIFO cleaning (theory)", "theory", "over-provisioning (spare / logical)", "write amplification", {}};
  for (double o : ops) {
    double w;
    if (o == op) {
      w = main.value().wa_last_pass;
    } else {
      auto t = Fill(*prof, capacity, o, passes, precondition, ctx.seed(), sweep.Step(passes));
      if (!t.ok()) return t.status();
      w = t.value().wa_last_pass;
    }
    sweep.Done();
    sweep_wa.points.emplace_back(o, w);
    r.AddMetric("wa_steady_op_" + MetricSuffix(o), w);
  }
  for (double o = 0.05; o <= 0.5001; o += 0.01) fifo.points.emplace_back(Round6(o), FifoWa(o));
  r.series = {mb, wa, sweep_wa, fifo};
  r.notes.push_back(prof->source);
  r.notes.push_back("Uniformly random 4 KB overwrites at queue depth 1 (after one sequential fill unless "
                    "precondition is off); windows of 5% of capacity. Steady-state values are over the last pass. The "
                    "theory uses the spare the collector can actually use (blocks are whole, per chip), reported as "
                    "overprovision_effective.");
  return r;
}

}  // namespace

Experiment MakeDevicesWritePattern() {
  Experiment e;
  e.info.id = "devices.write-pattern";
  e.info.lab = "devices";
  e.info.title = "Sequential, semi-random and random writes (FAWN Fig 9)";
  e.info.summary =
      "Write throughput and write amplification on each flash device as the number of files appended at once grows, "
      "and for random writes. The CompactFlash card's few update blocks make it degrade past a handful of streams; "
      "the page-mapped X25 SSDs stay flat to 256.";
  e.info.reference = "FAWN SOSP'09 §4.1.1, Fig 9 (thesis Fig 4.4)";
  e.info.params = {
      ParamSpec::Int("write_mb", 64, 16, 256, "MB", "Data written per point; each device is scaled so this is the fraction of it that Fig 9's 2 GB was."),
      ParamSpec::Int("io_kb", 64, 4, 1024, "KB", "Write size (the kernel writes a file's dirty pages back in runs of this size)."),
      ParamSpec::Int("streams_max", 256, 1, 256, "streams", "Largest number of append streams (powers of two up to it)."),
      ParamSpec::Bool("precondition", true, "Write each device once before measuring (as a used card)."),
  };
  e.run = RunPattern;
  return e;
}

Experiment MakeDevicesFillGc() {
  Experiment e;
  e.info.id = "devices.fill-gc";
  e.info.lab = "devices";
  e.info.title = "Filling an SSD: when garbage collection starts";
  e.info.summary =
      "Random 4 KB overwrites of a fresh page-mapped SSD. Throughput falls and write amplification rises once the "
      "free blocks are used up and the greedy collector must copy valid pages; more over-provisioning means emptier "
      "victims and less copying.";
  e.info.reference = "FTL garbage collection (Desnoyers 2012; Hu et al. 2009); FAWN SOSP'09 §3.2";
  std::vector<std::string> choices;
  for (const auto& p : device::FlashProfiles()) {
    if (p.ftl == device::FtlKind::kPageMapped) choices.push_back(p.name);
  }
  e.info.params = {
      ParamSpec::Choice("profile", "intel-x25m", choices, "A page-mapped SSD."),
      ParamSpec::Int("capacity_mb", 1024, 256, 8192, "MB", "Emulated logical capacity."),
      ParamSpec::Real("overprovision", 0.07, 0.02, 0.5, "", "Spare physical space as a fraction of the logical (X25-M: about 0.07)."),
      ParamSpec::Int("passes", 3, 2, 10, "× capacity", "Data written, in device capacities."),
      ParamSpec::Bool("precondition", true, "Write the drive once sequentially before the random overwrites."),
      ParamSpec::Bool("sweep", true, "Also measure steady write amplification at over-provisioning 0.07, 0.15, 0.28 and 0.5."),
  };
  e.run = RunFill;
  return e;
}

}  // namespace fawnlab
