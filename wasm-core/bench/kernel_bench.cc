#include "bench/kernel_bench.h"

#include <chrono>

#include "base/json_writer.h"
#include "bench/device_bench.h"
#include "bench/cona_bench.h"
#include "bench/fawnds_bench.h"
#include "bench/fawnkv_bench.h"
#include "queues/models.h"
#include "sim/rng.h"
#include "sim/simulator.h"

namespace fawnlab::bench {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class HoldHandler : public sim::EventHandler {
 public:
  explicit HoldHandler(uint64_t budget) : budget_(budget) {}
  void OnEvent(sim::Simulator& sim, uint64_t tag) override {
    checksum_ += tag ^ static_cast<uint64_t>(sim.now());
    if (scheduled_ < budget_) {
      ++scheduled_;
      state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
      sim.After(static_cast<sim::SimDuration>(1 + ((state_ >> 33) & 0xffff)), this, state_ >> 48);
    }
  }
  uint64_t checksum() const { return checksum_; }
  uint64_t scheduled_ = 0;

 private:
  uint64_t budget_;
  uint64_t state_ = 42;
  uint64_t checksum_ = 0;
};

}  // namespace

BenchFigure KernelHold(int pending, uint64_t events) {
  sim::Simulator sim;
  HoldHandler h(events);
  for (int i = 0; i < pending; ++i) sim.At(static_cast<sim::SimTime>(i), &h, static_cast<uint64_t>(i));
  double t0 = Now();
  uint64_t ran = sim.Run(events);
  double dt = Now() - t0;
  return {"kernel.hold_" + std::to_string(pending), static_cast<double>(ran) / dt, "events/s", dt, h.checksum()};
}

BenchFigure QueueMm1(uint64_t requests) {
  queues::OpenQueueConfig c;
  c.arrival_rate_per_sec = 90000;
  c.service.mean_ns = 10000;
  c.warmup = 1000;
  c.measure = requests;
  double t0 = Now();
  auto m = queues::RunOpenQueue(c, sim::Rng(7), nullptr);
  double dt = Now() - t0;
  uint64_t checksum = m.ok() ? static_cast<uint64_t>(m.value().mean_response_ns) : 0;
  return {"queue.mm1_rho_0_9", static_cast<double>(requests) / dt, "requests/s", dt, checksum};
}

std::string FigureJson(const BenchFigure& f) {
  JsonWriter w;
  w.BeginObject();
  w.Key("name");
  w.String(f.name);
  w.Key("value");
  w.Number(f.value);
  w.Key("unit");
  w.String(f.unit);
  w.Key("seconds");
  w.Number(f.seconds);
  w.Key("checksum");
  w.Number(static_cast<double>(f.checksum & ((uint64_t{1} << 53) - 1)));
  if (f.failures != 0 || !f.note.empty()) {
    w.Key("failures");
    w.Number(static_cast<double>(f.failures));
    w.Key("note");
    w.String(f.note);
  }
  w.EndObject();
  std::string line = w.str();
  for (char& c : line) {
    if (c == '\n') c = ' ';
  }
  return line;
}

std::string RunAllJsonLines(double scale) {
  std::string out;
  auto emit = [&out](const BenchFigure& f) { out += FigureJson(f) + "\n"; };
  const uint64_t n = static_cast<uint64_t>(20e6 * scale);
  emit(KernelHold(1000, n));
  emit(KernelHold(100000, n / 2));
  emit(QueueMm1(static_cast<uint64_t>(2e6 * scale)));
  emit(FtlPageRandomWrites(static_cast<uint64_t>(1e6 * scale)));
  emit(FtlBlockMergePrograms(static_cast<uint64_t>(4e4 * scale)));
  emit(NvmVectorReads(static_cast<uint64_t>(4e6 * scale)));
  emit(FawndsInserts(static_cast<uint64_t>(1e6 * scale)));
  emit(FawndsLookups(static_cast<uint64_t>(1e6 * scale)));
  emit(FawndsIndexBytesPerEntry());
  emit(ConaInserts(static_cast<uint64_t>(2e5 * scale)));
  emit(ConaLookups(static_cast<uint64_t>(2e5 * scale)));
  emit(ConaDramBytesPerKey());
  emit(FawnkvClusterRequests(static_cast<uint64_t>(2e5 * scale)));
  emit(FawnkvCheckerOps(static_cast<uint64_t>(1e6 * scale)));
  return out;
}

}  // namespace fawnlab::bench
