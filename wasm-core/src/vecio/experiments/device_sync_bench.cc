// See device_sync_bench.h.
#include "vecio/experiments/device_sync_bench.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "fawnds/record.h"
#include "sim/rng.h"
#include "vecio/host.h"

namespace fawnlab::vecio {
namespace {

constexpr uint64_t kRecordBytes = 512;  // one 512 B read per lookup (thesis §7.3.2)

// Word k of key i's value: a hash of (i, k) (SplitMix64's finaliser).
inline uint64_t ValueWord(uint64_t i, uint64_t k) {
  uint64_t z = i * 0x100000001B3ULL + k + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

constexpr size_t kValueBytes = kRecordBytes - fawnds::kRecordHeader;
constexpr size_t kWholeWords = kValueBytes / 8;

// Whether `v` is key i's value (compared a word at a time, without building it).
bool IsValueOf(uint64_t i, const std::string& v) {
  if (v.size() != kValueBytes) return false;
  for (size_t k = 0; k < kWholeWords; ++k) {
    uint64_t got;
    std::memcpy(&got, v.data() + 8 * k, 8);
    if (got != ValueWord(i, k)) return false;
  }
  const uint64_t last = ValueWord(i, kWholeWords);
  return std::memcmp(v.data() + 8 * kWholeWords, &last, kValueBytes % 8) == 0;
}

// One point's threads, on a fresh Host over the bench's store.
class Threads {
 public:
  Threads(sim::Simulator* sim, fawnds::DataStore* store, const std::vector<fawnds::Key>* keys, int threads, int width,
          int cores, const SyncCosts& costs, uint64_t warmup, uint64_t measure, uint64_t seed)
      : sim_(sim), store_(store), keys_(keys), host_(sim, cores, threads), width_(width), cores_(cores), costs_(costs),
        warmup_(warmup), measure_(measure),
        rng_(sim::Rng::ForStream(seed, static_cast<uint64_t>(threads) * 1024 + static_cast<uint64_t>(width))),
        t_(static_cast<size_t>(threads)) {}

  void Start() {
    for (int t = 0; t < static_cast<int>(t_.size()); ++t) Step(t, false);
  }

  SyncPoint Finish() {
    SyncPoint& p = out_;
    const double secs = sim::NsToSec(end_ - start_);
    if (secs > 0) {
      p.lookups_per_s = static_cast<double>(answered_end_ - answered_start_) / secs;
      p.cores_busy = static_cast<double>(busy_end_ - busy_start_) / static_cast<double>(end_ - start_);
    }
    if (p.switches > 0) p.mean_sched_us = sched_sum_ns_ / static_cast<double>(p.switches) / 1000.0;
    if (p.completions > 0) p.mean_cycle_us = cycle_sum_ns_ / static_cast<double>(p.completions) / 1000.0;
    p.events = host_.events();
    return p;
  }

 private:
  struct Thread {
    std::vector<uint32_t> ids;  // the keys of the command in flight
    std::vector<Status> status;
    std::vector<std::string> values;
    sim::SimTime submitted = 0;
    bool issue = false;  // this step issues a command (decided when it takes a core)
  };

  sim::SimDuration BusyNs() const {
    sim::SimDuration b = 0;
    for (int c = 0; c < cores_; ++c) b += host_.core_busy_ns(c);
    return b;
  }

  // One step of thread t on a core: the wake-up (after a read), then the next command's
  // lookups and submit unless the point has ended.
  void Step(int t, bool woken) {
    ++runnable_;
    host_.Run(
        t,
        [this, t, woken] {
          --runnable_;
          Charges ch;
          if (woken) {
            const double per_core = static_cast<double>(runnable_) / cores_;
            const auto sched = static_cast<sim::SimDuration>(
                std::max(0.0, per_core - costs_.sched_free) * static_cast<double>(costs_.sched_ns) + 0.5);
            ch.Add(CostKind::kWakeup, 1, costs_.wakeup_ns + sched);
            sched_sum_ns_ += static_cast<double>(sched);
            ++out_.switches;
          }
          Thread& th = t_[static_cast<size_t>(t)];
          th.issue = !stop_;
          if (th.issue) {
            ch.Add(CostKind::kLookup, static_cast<uint32_t>(width_), costs_.lookup_ns).Add(CostKind::kSubmit, 1, costs_.submit_ns);
            out_.issued_keys += static_cast<uint64_t>(width_);
          }
          return ch;
        },
        [this, t, woken] {
          if (woken) Check(t);
          if (t_[static_cast<size_t>(t)].issue) Issue(t);
        });
  }

  void Issue(int t) {
    Thread& th = t_[static_cast<size_t>(t)];
    th.ids.resize(static_cast<size_t>(width_));
    std::vector<fawnds::Key> keys(static_cast<size_t>(width_));
    for (size_t j = 0; j < keys.size(); ++j) {
      th.ids[j] = static_cast<uint32_t>(rng_.UniformU64(keys_->size()));
      keys[j] = (*keys_)[th.ids[j]];
    }
    th.submitted = sim_->now();
    ++out_.commands;
    // Stream t: DMA channel t mod 4. A preloaded store on a live device never refuses a read.
    Status s = store_->MultiGet(keys, t, [this, t](std::vector<Status> status, std::vector<std::string> values) {
      Thread& w = t_[static_cast<size_t>(t)];
      w.status = std::move(status);
      w.values = std::move(values);
      ++out_.completions;
      Charges irq;
      irq.Add(CostKind::kIoIrq, 1, costs_.irq_ns);
      host_.Interrupt(irq, [this, t] { Step(t, true); });
    });
    (void)s;
  }

  // The woken thread compares every value with the one stored, then counts the keys answered.
  void Check(int t) {
    Thread& th = t_[static_cast<size_t>(t)];
    cycle_sum_ns_ += static_cast<double>(sim_->now() - th.submitted);
    for (size_t j = 0; j < th.ids.size(); ++j) {
      if (!th.status[j].ok()) {
        ++out_.not_found;
        continue;
      }
      if (!IsValueOf(th.ids[j], th.values[j])) ++out_.mismatches;
    }
    out_.answered_keys += th.ids.size();
    if (!started_ && out_.answered_keys >= warmup_) {
      started_ = true;
      start_ = sim_->now();
      answered_start_ = out_.answered_keys;
      busy_start_ = BusyNs();
    }
    if (started_ && !stop_ && out_.answered_keys >= answered_start_ + measure_) {
      stop_ = true;
      end_ = sim_->now();
      answered_end_ = out_.answered_keys;
      busy_end_ = BusyNs();
    }
  }

  sim::Simulator* sim_;
  fawnds::DataStore* store_;
  const std::vector<fawnds::Key>* keys_;
  Host host_;
  int width_, cores_;
  SyncCosts costs_;
  uint64_t warmup_, measure_;
  sim::Rng rng_;
  std::vector<Thread> t_;
  int runnable_ = 0;  // threads woken (or started) and not yet on a core
  bool started_ = false, stop_ = false;
  sim::SimTime start_ = 0, end_ = 0;
  uint64_t answered_start_ = 0, answered_end_ = 0;
  sim::SimDuration busy_start_ = 0, busy_end_ = 0;
  double sched_sum_ns_ = 0, cycle_sum_ns_ = 0;
  SyncPoint out_;
};

int IndexBitsFor(int keys) {
  int bits = fawnds::HashIndex::kMinBits;
  for (; bits < fawnds::HashIndex::kMaxBits && (uint64_t{1} << bits) < 2 * static_cast<uint64_t>(keys);) ++bits;
  return bits;
}

}  // namespace

SyncBench::~SyncBench() = default;

void SyncBench::ValueOf(uint64_t i, std::string* out) {
  out->resize(kValueBytes);
  for (size_t k = 0; k <= kWholeWords; ++k) {
    const uint64_t w = ValueWord(i, k);
    std::memcpy(&(*out)[8 * k], &w, std::min<size_t>(8, kValueBytes - 8 * k));
  }
}

StatusOr<std::unique_ptr<SyncBench>> SyncBench::Create(int keys, const device::NvmConfig& nvm, uint64_t seed) {
  std::unique_ptr<SyncBench> b(new SyncBench());
  const int bits = IndexBitsFor(keys);
  const uint64_t file = fawnds::DataStore::FileBytes(bits, kRecordBytes * static_cast<uint64_t>(keys) + 4096);
  device::NvmConfig nc = nvm;
  nc.capacity_bytes = (file + 4095) / 4096 * 4096;
  b->device_ = std::make_unique<device::NvmDevice>(&b->sim_, "nvm-4ch", nc);
  fawnds::StoreOptions so;
  so.index_bits = bits;
  so.region_bytes = nc.capacity_bytes;
  auto store = fawnds::DataStore::Create(b->device_.get(), so);
  if (!store.ok()) return Status::Internal("sync lookups: the FAWN-DS store: " + store.status().message());
  b->store_ = std::move(store).value();
  uint64_t mix = seed ^ 0x73796e63ULL;
  std::string value;
  b->keys_.reserve(static_cast<size_t>(keys));
  for (int i = 0; i < keys; ++i) {
    b->keys_.push_back(fawnds::Key::FromU64(sim::SplitMix64(&mix)));
    ValueOf(static_cast<uint64_t>(i), &value);
    Status p = b->store_->Put(b->keys_.back(), value, nullptr);
    if (!p.ok()) return Status::Internal("sync lookups: preloading key " + std::to_string(i) + ": " + p.message());
  }
  b->sim_.Run(UINT64_MAX);  // the preload's appends complete
  return b;
}

StatusOr<SyncPoint> SyncBench::Run(int threads, int width, int cores, const SyncCosts& costs, uint64_t warmup,
                                   uint64_t measure, uint64_t seed) {
  Threads run(&sim_, store_.get(), &keys_, threads, width, cores, costs, warmup, measure, seed);
  run.Start();
  // Each command is a handful of events (the thread's step, the device, the interrupt).
  const uint64_t budget = 64 * (warmup + measure + static_cast<uint64_t>(threads) * static_cast<uint64_t>(width)) + 100000;
  sim_.Run(budget);
  if (sim_.pending() > 0) {
    return Status::Internal("sync lookups: " + std::to_string(threads) + " threads at width " + std::to_string(width) +
                            " did not finish within " + std::to_string(budget) + " events");
  }
  return run.Finish();
}

}  // namespace fawnlab::vecio
