// devices.table1: FAWN's device table (SOSP'09 Table 1) measured on an emulated flash card.
//
// Like iozone on the prototype: a test file (`region_mb`) on a card that has been written
// once, then, at queue depth 1 with `io_kb` I/Os: sequential write (ended by a flush, so
// buffered data counts), sequential read, random reads, and random writes (ended by a
// flush). Every read is checked against the bytes written. A fifth phase shows why the
// 99.9th percentile suffers: random reads run beside a bulk sequential writer on the same
// single-chip card, and each read's latency is recorded over time (thesis §4.2.1).
// MB = 2^20 bytes.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "device/host_driver.h"
#include "device/page_cache.h"
#include "device/profiles.h"
#include "registry/experiments.h"
#include "registry/sweep.h"
#include "sim/rng.h"

namespace fawnlab {
namespace {

using device::IoCommand;
using device::IoEntry;

constexpr double kMiB = 1048576.0;

std::vector<std::string> FlashChoices() {
  std::vector<std::string> out;
  for (const auto& p : device::FlashProfiles()) out.push_back(p.name);
  return out;
}

Status BadBytes(const char* phase, int64_t at) {
  return Status::Internal(std::string("device returned wrong bytes in the ") + phase + " phase at offset " +
                          std::to_string(at));
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const device::FlashProfile* prof = device::FindFlashProfile(p.Choice("profile"));
  const uint64_t io = static_cast<uint64_t>(p.Int("io_kb")) * 1024;
  const uint64_t region = static_cast<uint64_t>(p.Int("region_mb")) << 20;
  const uint64_t random_ops = static_cast<uint64_t>(p.Int("random_ops"));
  const uint64_t cache_bytes = static_cast<uint64_t>(p.Int("page_cache_mb")) << 20;
  if (io > region) return Status::InvalidArgument("parameter 'io_kb' must not exceed 'region_mb'");

  sim::Simulator sim;
  const uint64_t capacity = std::max<uint64_t>(2 * region, uint64_t{256} << 20);
  auto made = device::MakeFlash(&sim, *prof, capacity);
  if (!made.ok()) return made.status();
  std::unique_ptr<device::FlashDevice> flash = std::move(made).value();
  const uint32_t page = flash->page_bytes();
  flash->FillSequential([page](uint64_t lpn) { return device::PatternWord(0, lpn * page / 4096); });
  // Table 1 was measured through the file system: reads fetch whole 4 KB pages into the page
  // cache (at least 64 pages, too few to hold the test file); writes pass through.
  auto cache = std::make_unique<device::PageCache>(flash.get(), std::max<uint64_t>(cache_bytes, 64 * device::PageCache::kPage));
  device::Device* dev = cache.get();
  const uint64_t seq_ops = region / io;
  const uint64_t slots = region / io;
  sim::Rng rng = sim::Rng::ForStream(ctx.seed(), 1);
  std::vector<uint8_t> buf(io);
  SweepProgress sweep(&ctx, static_cast<double>(2 * seq_ops + 2 * random_ops));
  Result r;

  // A phase ends when its data is flushed and the card has finished the work it started
  // (programs, merges, erasures), so no phase pays for the one before.
  auto flush = [&]() -> Status {
    auto c = device::SubmitAndWait(dev, IoCommand::Single(IoEntry::Flush()));
    if (!c.ok()) return c.status();
    sim.RunUntil(std::max(sim.now(), flash->BusyUntil()));
    return Status::Ok();
  };

  // 1. Sequential write (pass 1), then flush.
  device::LoopSpec w;
  w.ops = seq_ops;
  w.make = [&](uint64_t i) {
    device::FillPattern(buf.data(), i * io, io, 1);
    return IoCommand::Single(IoEntry::Write(i * io, io, buf.data()));
  };
  w.progress = sweep.Step(static_cast<double>(seq_ops));
  sim::SimTime t0 = sim.now();
  auto sw = device::RunClosedLoop(dev, w);
  if (!sw.ok()) return sw.status();
  sweep.Done();
  if (Status s = flush(); !s.ok()) return s;
  const double seq_write = static_cast<double>(region) / kMiB / sim::NsToSec(sim.now() - t0);
  const uint64_t erases_seq = flash->counters().erases;

  // 2. Sequential read, checked.
  device::LoopSpec rd;
  rd.ops = seq_ops;
  rd.make = [&](uint64_t i) { return IoCommand::Single(IoEntry::Read(i * io, io, buf.data())); };
  rd.check = [&](uint64_t i) {
    int64_t bad = device::CheckPattern(buf.data(), i * io, io, 1);
    return bad < 0 ? Status::Ok() : BadBytes("sequential read", bad);
  };
  rd.progress = sweep.Step(static_cast<double>(seq_ops));
  auto sr = device::RunClosedLoop(dev, rd);
  if (!sr.ok()) return sr.status();
  sweep.Done();
  sim.RunUntil(std::max(sim.now(), flash->BusyUntil()));
  const double seq_read = static_cast<double>(region) / kMiB / sr.value().seconds();

  // 3. Random reads, checked.
  std::vector<uint64_t> offsets(random_ops);
  for (auto& o : offsets) o = rng.UniformU64(slots) * io;
  device::LoopSpec rr;
  rr.ops = random_ops;
  rr.make = [&](uint64_t i) { return IoCommand::Single(IoEntry::Read(offsets[i], io, buf.data())); };
  rr.check = [&](uint64_t i) {
    int64_t bad = device::CheckPattern(buf.data(), offsets[i], io, 1);
    return bad < 0 ? Status::Ok() : BadBytes("random read", bad);
  };
  rr.progress = sweep.Step(static_cast<double>(random_ops));
  auto rres = device::RunClosedLoop(dev, rr);
  if (!rres.ok()) return rres.status();
  sweep.Done();
  sim.RunUntil(std::max(sim.now(), flash->BusyUntil()));
  const double rand_read = rres.value().ops_per_sec();

  // 4. Random writes (pass 2), then flush; then spot-check what they wrote.
  for (auto& o : offsets) o = rng.UniformU64(slots) * io;
  const uint64_t media0 = flash->counters().media_write_bytes, host0 = flash->counters().host_write_bytes;
  const uint64_t erases0 = flash->counters().erases;
  device::LoopSpec rw;
  rw.ops = random_ops;
  rw.make = [&](uint64_t i) {
    device::FillPattern(buf.data(), offsets[i], io, 2);
    return IoCommand::Single(IoEntry::Write(offsets[i], io, buf.data()));
  };
  rw.progress = sweep.Step(static_cast<double>(random_ops));
  t0 = sim.now();
  auto rwres = device::RunClosedLoop(dev, rw);
  if (!rwres.ok()) return rwres.status();
  sweep.Done();
  if (Status s = flush(); !s.ok()) return s;
  const double rand_write = static_cast<double>(random_ops) / sim::NsToSec(sim.now() - t0);
  const double wa_random = static_cast<double>(flash->counters().media_write_bytes - media0) /
                           static_cast<double>(flash->counters().host_write_bytes - host0);
  const uint64_t erases_random = flash->counters().erases - erases0;
  for (uint64_t i = 0; i < std::min<uint64_t>(random_ops, 64); ++i) {
    dev->Peek(offsets[random_ops - 1 - i], io, buf.data());
    // The last write to an offset wins; an earlier duplicate of the same offset also holds pass 2.
    if (int64_t bad = device::CheckPattern(buf.data(), offsets[random_ops - 1 - i], io, 2); bad >= 0) {
      return BadBytes("random write", bad);
    }
  }

  // 5. Reads beside a bulk writer: one thread reads at random, another appends 128 KB writes.
  const uint64_t chunk = std::min<uint64_t>(128 * 1024, region);
  std::vector<uint8_t> wbuf(chunk);
  // Each read is drawn as a level segment from its issue to its completion, at its latency:
  // a stall shows as a plateau as long as it is high.
  Series lat{"random-read latency beside a sequential writer (each read from issue to completion)", "measured",
             "time (s)", "read latency (ms)", {}};
  sim::LogHistogram mixed;
  const sim::SimTime mixed_start = sim.now();
  const uint64_t writes = std::min<uint64_t>(region / chunk, 512);
  uint64_t writes_done = 0;
  bool writer_done = false;
  std::function<void(uint64_t)> write_next = [&](uint64_t k) {
    if (k >= writes) {
      writer_done = true;
      return;
    }
    device::FillPattern(wbuf.data(), k * chunk, chunk, 3);
    Status s = dev->Submit(IoCommand::Single(IoEntry::Write(k * chunk, chunk, wbuf.data()), 1),
                           [&, k](const device::IoCompletion&) {
                             ++writes_done;
                             write_next(k + 1);
                           });
    if (!s.ok()) writer_done = true;
  };
  std::vector<uint8_t> rbuf(io);
  std::function<void()> read_next = [&]() {
    if (writer_done) return;
    uint64_t off = rng.UniformU64(slots) * io;
    dev->Submit(IoCommand::Single(IoEntry::Read(off, io, rbuf.data())), [&](const device::IoCompletion& c) {
      mixed.Record(static_cast<uint64_t>(c.latency()));
      if (lat.points.size() < 4000) {
        lat.points.emplace_back(sim::NsToSec(c.submitted - mixed_start), c.latency() / 1e6);
        lat.points.emplace_back(sim::NsToSec(c.completed - mixed_start), c.latency() / 1e6);
      }
      read_next();
    });
  };
  const uint64_t stalls0 = flash->counters().gc_stalls;
  write_next(0);
  read_next();
  while (!writer_done && sim.Step()) {
  }
  sim.Run(10000000);

  r.scale_note = "the card is emulated at " + std::to_string(capacity >> 20) + " MB (the mechanism does not depend on capacity); " +
                 "MB = 2^20 bytes";
  r.AddMetric("seq_read_mb_s", seq_read);
  r.AddMetric("rand_read_qps", rand_read);
  r.AddMetric("seq_write_mb_s", seq_write);
  r.AddMetric("rand_write_qps", rand_write);
  r.AddMetric("rand_read_p50_ms", rres.value().latency_ns.Quantile(0.5) / 1e6);
  r.AddMetric("rand_write_p99_ms", rwres.value().latency_ns.Quantile(0.99) / 1e6);
  r.AddMetric("write_amplification_random", wa_random);
  r.AddMetric("erases_per_mb_sequential", static_cast<double>(erases_seq) / (static_cast<double>(region) / kMiB));
  r.AddMetric("erases_random", static_cast<double>(erases_random));
  r.AddMetric("read_p50_ms_beside_writer", mixed.Quantile(0.5) / 1e6);
  r.AddMetric("read_p999_ms_beside_writer", mixed.Quantile(0.999) / 1e6);
  r.AddMetric("read_max_ms_beside_writer", static_cast<double>(mixed.max()) / 1e6);
  r.AddMetric("gc_stalls_beside_writer", static_cast<double>(flash->counters().gc_stalls - stalls0));
  if (prof->name == "sandisk-cf-4gb" && io == 1024 && cache_bytes == 0) {
    // FAWN SOSP'09 Table 1 (= thesis Table 4.1): iozone/fio through ext2, 1 KB records.
    const std::string t1 = "FAWN SOSP'09 Table 1";
    r.AddAnchor("seq_read_mb_s", 28.5, {true, 0.10},
                Fitted(t1, "the CF card's page read time (58.5 + 10 µs) was fitted so that chip-bound sequential reads give 28.5 MB/s"));
    r.AddAnchor("rand_read_qps", 1424, {true, 0.10},
                Fitted(t1, "the card's read setup (519.1 µs) was fitted so that 1 KB reads through 4 KB page-cache misses give 1424/s"));
    r.AddAnchor("seq_write_mb_s", 24, {true, 0.10},
                Fitted(t1, "the host time per 1 KB command (4 + 21.05 µs) was fitted so that host-bound writes plus erases give 24 MB/s"));
    r.AddAnchor("rand_write_qps", 110, {true, 0.10},
                Fitted(t1, "the page program time (32.3 + 10 µs) was fitted so that one 64-page merge + erase per write gives 110/s"));
  }
  Series cdf_r{"random read latency CDF", "measured", "latency (ms)", "fraction of reads ≤ x", {}};
  for (const auto& pt : rres.value().latency_ns.Cdf(80)) cdf_r.points.emplace_back(pt.first / 1e6, pt.second);
  Series cdf_w{"random write latency CDF", "measured", "latency (ms)", "fraction of writes ≤ x", {}};
  for (const auto& pt : rwres.value().latency_ns.Cdf(80)) cdf_w.points.emplace_back(pt.first / 1e6, pt.second);
  r.series = {lat, cdf_r, cdf_w};
  r.notes.push_back(prof->source);
  r.notes.push_back("Order as in iozone: sequential write (ended by a flush), sequential read, random read, random write "
                    "(ended by a flush), all at queue depth 1 over a " + std::to_string(region >> 20) +
                    " MB test file on a card written once before.");
  r.notes.push_back("Beside a writer: one thread reads at random while another writes 128 KB sequentially; on a "
                    "single-chip card every read waits behind programs, merges and bulk erasures (thesis §4.2.1).");
  return r;
}

}  // namespace

Experiment MakeDevicesTable1() {
  Experiment e;
  e.info.id = "devices.table1";
  e.info.lab = "devices";
  e.info.title = "FAWN Table 1: the CompactFlash card's four numbers";
  e.info.summary =
      "Sequential and random reads and writes of 1 KB on the emulated Sandisk CF card, through its block-mapped FTL. "
      "Random writes are slow because each one forces a read-modify-write merge of a 128 KB erase block; reads beside "
      "a writer stall behind programs and bulk erasures.";
  e.info.reference = "FAWN SOSP'09 Table 1 (thesis Table 4.1): 28.5 MB/s, 1424 QPS, 24 MB/s, 110 QPS; thesis §4.2.1";
  e.info.params = {
      ParamSpec::Choice("profile", "sandisk-cf-4gb", FlashChoices(), "The flash device (the paper's values apply to the CF card)."),
      ParamSpec::Int("io_kb", 1, 1, 256, "KB", "I/O size (Table 1 used 1 KB records)."),
      ParamSpec::Int("region_mb", 128, 4, 1024, "MB", "Size of the test file."),
      ParamSpec::Int("random_ops", 2000, 100, 100000, "I/Os", "Random reads, and random writes, measured."),
      ParamSpec::Int("page_cache_mb", 0, 0, 1024, "MB", "The file system's LRU page cache in front of the card (at least 256 KB: Table 1's reads were 4 KB page reads)."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
