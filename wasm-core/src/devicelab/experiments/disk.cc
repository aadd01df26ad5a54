// devices.disk-seek: where a disk's time goes — seek against distance, rotation, transfer —
// and the random-read rate and queries per joule that follow, per disk profile.
//
// Distance sweep: the head is put on a random cylinder, then a read is issued `d` cylinders
// away; each point averages `samples` / 10 such reads (the rotational wait differs each time,
// from the platter's angle when the seek ends). Random reads: QD1 over the whole disk, then
// at `queue_depth` with FIFO and with shortest-seek-first scheduling. Theory: average seek +
// half a revolution + transfer + controller overhead.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "device/disk.h"
#include "device/host_driver.h"
#include "device/profiles.h"
#include "registry/experiments.h"
#include "registry/sweep.h"
#include "sim/rng.h"

namespace fawnlab {
namespace {

using device::IoCommand;
using device::IoEntry;

std::string Short(const std::string& name) {
  if (name == "disk-7200") return "7200";
  if (name == "disk-10k") return "10k";
  return "5400";
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const uint64_t samples = static_cast<uint64_t>(p.Int("samples"));
  const uint64_t io = static_cast<uint64_t>(p.Int("io_kb")) * 1024;
  const int qd = static_cast<int>(p.Int("queue_depth"));
  const auto& profiles = device::DiskProfiles();
  SweepProgress sweep(&ctx, static_cast<double>(profiles.size() * 4));
  Result r;
  r.scale_note = "no scaling; one surface of 100,000 cylinders per disk";
  std::vector<Series> curves, seeks, qps_fifo, qps_sstf;
  std::vector<uint8_t> buf(io);
  for (size_t pi = 0; pi < profiles.size(); ++pi) {
    const device::DiskProfile& prof = profiles[pi];
    const std::string tag = Short(prof.name);
    sim::Rng rng = sim::Rng::ForStream(ctx.seed(), pi);
    // Distance sweep.
    {
      sim::Simulator sim;
      auto d = device::DiskDevice::Create(&sim, prof.name, prof.config).value();
      const uint64_t track = d->bytes_per_track(), cyl = prof.config.cylinders;
      Series s{prof.name + ": read latency", "measured", "seek distance (fraction of full stroke)", "latency (ms)", {}};
      Series th{prof.name + ": seek time (model)", "theory", "seek distance (fraction of full stroke)", "latency (ms)", {}};
      const std::vector<double> fractions = {0, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
      const uint64_t per_point = std::max<uint64_t>(10, samples / 10);
      for (double f : fractions) {
        uint64_t dist = static_cast<uint64_t>(std::llround(f * static_cast<double>(cyl - 1)));
        double sum = 0;
        for (uint64_t i = 0; i < per_point; ++i) {
          uint64_t from = rng.UniformU64(cyl - dist);
          uint64_t to = from + dist;
          if (rng.Bernoulli(0.5) && dist > 0) std::swap(from, to);
          auto a = device::SubmitAndWait(d.get(), IoCommand::Single(IoEntry::Read(from * track, io, buf.data())));
          if (!a.ok()) return a.status();
          // A random think time puts the platter at a random angle.
          sim.RunUntil(sim.now() + static_cast<sim::SimDuration>(rng.UniformU64(static_cast<uint64_t>(d->revolution_ns()))));
          uint64_t angle = rng.UniformU64(track / 512) * 512;
          auto b = device::SubmitAndWait(d.get(), IoCommand::Single(IoEntry::Read(to * track + std::min(angle, track - io), io, buf.data())));
          if (!b.ok()) return b.status();
          sum += static_cast<double>(b.value().latency()) / 1e6;
        }
        s.points.emplace_back(f, sum / static_cast<double>(per_point));
        th.points.emplace_back(f, static_cast<double>(d->SeekNs(dist)) / 1e6);
      }
      curves.push_back(s);
      seeks.push_back(th);
    }
    sweep.Step(1)(1.0);
    sweep.Done();
    // Random reads at QD1, then at queue depths with FIFO and SSTF.
    auto random_reads = [&](int depth, bool sstf, device::DiskDevice::Stats* stats, double* joules) -> StatusOr<double> {
      sim::Simulator sim;
      device::DiskConfig c = prof.config;
      c.sstf = sstf;
      auto d = device::DiskDevice::Create(&sim, prof.name, c).value();
      const uint64_t slots = d->info().capacity_bytes / io;
      device::LoopSpec spec;
      spec.depth = depth;
      spec.ops = samples;
      spec.make = [&](uint64_t) { return IoCommand::Single(IoEntry::Read(rng.UniformU64(slots) * io, io, buf.data())); };
      auto res = device::RunClosedLoop(d.get(), spec);
      if (!res.ok()) return res.status();
      if (stats) *stats = d->stats();
      if (joules) *joules = d->Joules();
      return res.value().ops_per_sec();
    };
    device::DiskDevice::Stats st;
    double joules = 0;
    auto q1 = random_reads(1, false, &st, &joules);
    if (!q1.ok()) return q1.status();
    sweep.Step(1)(1.0);
    sweep.Done();
    const double n = static_cast<double>(st.completed);
    const double rev_ms = 60000.0 / prof.config.rpm;
    const double xfer_ms = static_cast<double>(io) / (prof.config.media_mb_s * 1048576.0) * 1000.0;
    r.AddMetric("rand_read_qps_" + tag, q1.value());
    r.AddMetric("avg_seek_ms_" + tag, static_cast<double>(st.seek_ns) / n / 1e6);
    r.AddMetric("avg_rotation_ms_" + tag, static_cast<double>(st.rotate_ns) / n / 1e6);
    r.AddMetric("reads_per_joule_" + tag, n / joules);
    r.AddAnchor("rand_read_qps_" + tag, 1000.0 / (prof.config.overhead_ms + prof.config.seek_avg_ms + rev_ms / 2 + xfer_ms),
                {true, 0.05},
                Emergent("disk mechanics: 1 / (overhead + average seek + half a revolution + transfer)",
                         "each read's seek comes from the seek curve and the head's position, its rotation from the platter's angle "
                         "when the seek ends; the seek curve's α, β were fitted to the datasheet's seek figures, not to this rate"));
    r.AddAnchor("avg_rotation_ms_" + tag, rev_ms / 2, {true, 0.05},
                Emergent("half a revolution at the disk's RPM", "the platter's simulated angle when each seek ends"));
    Series sf{prof.name + ": FIFO", "measured", "queue depth", "random reads per second", {}};
    Series ss{prof.name + ": shortest seek first", "measured", "queue depth", "random reads per second", {}};
    for (int depth : PowersOfTwo(qd)) {
      auto a = random_reads(depth, false, nullptr, nullptr);
      auto b = random_reads(depth, true, nullptr, nullptr);
      if (!a.ok()) return a.status();
      if (!b.ok()) return b.status();
      sf.points.emplace_back(depth, a.value());
      ss.points.emplace_back(depth, b.value());
      if (depth == qd) r.AddMetric("qps_qd" + std::to_string(qd) + "_sstf_" + tag, b.value());
    }
    qps_fifo.push_back(sf);
    qps_sstf.push_back(ss);
    sweep.Step(2)(1.0);
    sweep.Done();
  }
  for (auto& s : curves) r.series.push_back(s);
  for (auto& s : seeks) r.series.push_back(s);
  for (size_t i = 0; i < qps_fifo.size(); ++i) {
    r.series.push_back(qps_fifo[i]);
    r.series.push_back(qps_sstf[i]);
  }
  for (const auto& prof : profiles) r.notes.push_back(prof.name + ": " + prof.source);
  r.notes.push_back("Random reads of " + std::to_string(io / 1024) + " KB over the whole disk; " + std::to_string(samples) +
                    " per measurement. FAWN's comparison: flash random reads are up to 175× faster (SOSP'09 §3.2); "
                    "a disk at 10 W gives about 17 queries per joule (§5).");
  return r;
}

}  // namespace

Experiment MakeDevicesDiskSeek() {
  Experiment e;
  e.info.id = "devices.disk-seek";
  e.info.lab = "devices";
  e.info.title = "Disk: seek, rotation and the random-read rate";
  e.info.summary =
      "A read's latency against how far the head must move, for a 7200 RPM desktop disk, a 10K RPM server disk and a "
      "5400 RPM laptop disk: seek grows with distance, rotation adds half a revolution on average. Random reads per "
      "second follow, and deeper queues with shortest-seek-first scheduling buy a little more.";
  e.info.reference = "Disk mechanics (Ruemmler & Wilkes 1994); FAWN SOSP'09 §3.2, §5; SRCMap Table 3.3";
  e.info.params = {
      ParamSpec::Int("samples", 2000, 100, 100000, "reads", "Reads per random-read measurement (the distance sweep uses a tenth per point)."),
      ParamSpec::Int("io_kb", 4, 1, 1024, "KB", "Read size."),
      ParamSpec::Int("queue_depth", 32, 1, 64, "requests", "Largest queue depth for the scheduler comparison."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
