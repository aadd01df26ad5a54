// FawndsSession: configuration, the device stack, time, and the load generator. The
// operations are in session_ops.cc, the snapshot in session_snapshot.cc.
#include "fawnds/lab/session.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/params.h"
#include "device/profiles.h"
#include "fawnds/lab/ring.h"

namespace fawnlab::fawndslab {
namespace {

constexpr int kMaxOutstanding = 64;       // load ops in flight; arrivals beyond are shed
constexpr uint64_t kSyncEveryPuts = 65536;  // the load syncs after this many puts (bounds unsynced data)
constexpr sim::SimDuration kBinNs = 50 * sim::kMs;
constexpr int64_t kBins = 120;
constexpr size_t kLatencyWindow = 200;

}  // namespace

std::vector<ParamSpec> FawndsSession::Schema(const Config& c) {
  return {
      ParamSpec::Choice("profile", c.profile, device::ProfileNames(), "the device the node's files live on")
          .WithLabels(device::ProfileLabels(device::ProfileNames())),
      ParamSpec::Int("capacity_mb", c.capacity_mb, 16, 2048, "MB", "the device's capacity (shrunk from the product's)"),
      ParamSpec::Int("stores", c.stores, 1, 16, "stores", "stores (key ranges) the node starts with"),
      ParamSpec::Int("index_bits", c.index_bits, 4, 22, "bits", "each store's index has 2^index_bits 6-byte buckets"),
      ParamSpec::Int("file_mb", c.file_mb, 1, 1024, "MB", "each store's file: superblocks, two index images, the log"),
      ParamSpec::Real("lock_hold_us", c.lock_hold_us, 1, 100000, "µs",
                      "the lock at the end of split/merge/compact (SOSP'09: 20-30 ms; thesis: 5-50 µs)"),
      ParamSpec::Int("page_cache_mb", c.page_cache_mb, 0, 1024, "MB", "a write-through page cache in DRAM (0: none)"),
      ParamSpec::Int("value_bytes", c.value_bytes, 0, 4096, "bytes", "value size for the load and fill"),
      ParamSpec::Real("load_rate_per_s", c.load_rate_per_s, 0, 50000, "ops/s", "background load (Poisson; 0: off)"),
      ParamSpec::Real("load_put_fraction", c.load_put_fraction, 0, 1, "", "fraction of the load that are puts"),
      ParamSpec::Int("load_keys", c.load_keys, 1, 4000000, "keys", "the load's keys: k0 ... k<load_keys-1>"),
  };
}

FawndsSession::Config FawndsSession::FromParams(const ParamValues& pv) {
  Config c;
  c.profile = pv.Choice("profile");
  c.capacity_mb = static_cast<int>(pv.Int("capacity_mb"));
  c.stores = static_cast<int>(pv.Int("stores"));
  c.index_bits = static_cast<int>(pv.Int("index_bits"));
  c.file_mb = static_cast<int>(pv.Int("file_mb"));
  c.lock_hold_us = pv.Real("lock_hold_us");
  c.page_cache_mb = static_cast<int>(pv.Int("page_cache_mb"));
  c.value_bytes = static_cast<int>(pv.Int("value_bytes"));
  c.load_rate_per_s = pv.Real("load_rate_per_s");
  c.load_put_fraction = pv.Real("load_put_fraction");
  c.load_keys = static_cast<int>(pv.Int("load_keys"));
  return c;
}

StatusOr<std::unique_ptr<LabSession>> FawndsSession::New(const ParamValues& config, uint64_t seed) {
  std::unique_ptr<FawndsSession> session(new FawndsSession(FromParams(config), seed));
  if (Status s = session->Build(); !s.ok()) return s;
  return std::unique_ptr<LabSession>(std::move(session));
}

StatusOr<std::unique_ptr<FawndsSession>> FawndsSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<FawndsSession>("fawnds", config_json, seed);
}

FawndsSession::FawndsSession(Config c, uint64_t seed) : config_(std::move(c)), seed_(seed), rng_(sim::Rng::ForStream(seed, 11)) {
  watch_events_ = true;  // AfterEvent follows maintenance's phases event by event
}

FawndsSession::~FawndsSession() = default;

fawnds::NodeOptions FawndsSession::NodeOpts() const {
  fawnds::NodeOptions o;
  o.index_bits = config_.index_bits;
  o.file_bytes = uint64_t(config_.file_mb) << 20;
  o.lock_hold_ns = static_cast<sim::SimDuration>(std::llround(config_.lock_hold_us * 1000.0));
  return o;
}

// Files that fit before the device's last MB (where the node keeps its datastore list).
uint64_t FawndsSession::Slots() const {
  return (flash_->info().capacity_bytes - std::min<uint64_t>(flash_->info().capacity_bytes, 1 << 20)) / (uint64_t(config_.file_mb) << 20);
}

void FawndsSession::StackUp() {
  if (config_.page_cache_mb > 0) {
    cache_ = std::make_unique<device::PageCache>(injector_.get(), uint64_t(config_.page_cache_mb) << 20);
    top_ = cache_.get();
  } else {
    top_ = injector_.get();
  }
}

Status FawndsSession::Build() {
  const uint64_t file = uint64_t(config_.file_mb) << 20;
  const uint64_t images = 2 * ((uint64_t{fawnds::HashIndex::kBucketBytes} << config_.index_bits) + 4095) / 4096 * 4096;
  if (fawnds::DataStore::FileBytes(config_.index_bits, fawnds::DataStore::kSlot) > file) {
    return Status::InvalidArgument("FAWN-DS session: file_mb = " + std::to_string(config_.file_mb) + " cannot hold 2^" +
                                   std::to_string(config_.index_bits) + " buckets' two index images (" +
                                   std::to_string(images >> 10) + " KB) and a log; raise file_mb or lower index_bits");
  }
  auto dev = device::MakeDevice(&sim_, config_.profile, uint64_t(config_.capacity_mb) << 20);
  if (!dev.ok()) return dev.status();
  flash_ = std::move(dev).value();
  const uint64_t need = uint64_t(config_.stores) + 1;
  if (Slots() < need) {
    return Status::InvalidArgument("FAWN-DS session: capacity_mb = " + std::to_string(config_.capacity_mb) + " holds " +
                                   std::to_string(Slots()) + " files of " + std::to_string(config_.file_mb) +
                                   " MB; the node needs stores + 1 = " + std::to_string(need) +
                                   " (one spare for a compaction or split)");
  }
  injector_ = std::make_unique<device::FaultInjector>(flash_.get());
  StackUp();
  auto node = fawnds::Node::Create(top_, NodeOpts(), EvenRanges(config_.stores));
  if (!node.ok()) return node.status();
  node_ = std::move(node).value();
  baseline_write_bytes_ = flash_->counters().host_write_bytes;
  ScheduleArrival();
  return Status::Ok();
}

void FawndsSession::AfterEvent() {
  if (!node_) return;
  const bool running = node_->maintenance_running();
  const bool locked = running && node_->progress().locked;
  const sim::SimTime now = sim_.now();
  if (locked != saw_locked_) {
    if (locked) {
      lock_started_ = now;
    } else {
      locks_.push_back({lock_started_, now});
      if (locks_.size() > 32) locks_.pop_front();
    }
    saw_locked_ = locked;
  }
  if (running) ++version_;
  if (saw_running_ && !running) {
    maint_spans_.emplace_back(maint_started_, now, maint_kind_);
    if (maint_spans_.size() > 32) maint_spans_.pop_front();
    saw_running_ = false;
    ++version_;
  }
}

bool FawndsSession::RunUntilDone(const bool* flag, uint64_t max_events) {
  uint64_t n = 0;
  while (!*flag && n < max_events && sim_.Step()) {
    ++n;
    AfterEvent();
  }
  return *flag;
}

Status FawndsSession::Reconfigured(const ParamValues& config, const ParamValues&) {
  const Config next = FromParams(config);
  config_.value_bytes = next.value_bytes;
  config_.load_rate_per_s = next.load_rate_per_s;
  config_.load_put_fraction = next.load_put_fraction;
  config_.load_keys = next.load_keys;
  ++arrival_token_;  // the pending arrival belongs to the old rate
  ScheduleArrival();
  return Status::Ok();
}

void FawndsSession::ScheduleArrival() {
  if (config_.load_rate_per_s <= 0 || crashed_ || !node_) return;
  const double gap = rng_.Exponential(1e9 / config_.load_rate_per_s);
  const sim::SimTime at = sim_.now() + std::max<sim::SimDuration>(1, static_cast<sim::SimDuration>(std::llround(gap)));
  const uint64_t token = arrival_token_;
  sim_.Schedule(at, [this, token]() {
    if (token != arrival_token_ || crashed_) return;
    IssueLoadOp();
    ScheduleArrival();
  });
}

std::string FawndsSession::LoadValue(uint64_t i) {
  std::string v = "k" + std::to_string(i) + "#" + std::to_string(load_issued_) + ":";
  v.resize(static_cast<size_t>(config_.value_bytes), '.');
  for (size_t b = v.size() > 24 ? 24 : v.size(); b < v.size(); ++b) v[b] = static_cast<char>('a' + (i * 131 + b) % 26);
  return v;
}

void FawndsSession::Completed(sim::SimTime issued) {
  const sim::SimTime now = sim_.now();
  ++ops_completed_;
  recent_done_.emplace_back(now, now - issued);
  if (recent_done_.size() > kLatencyWindow) recent_done_.pop_front();
  done_times_.push_back(now);
  while (!done_times_.empty() && done_times_.front() <= now - sim::kSec) done_times_.pop_front();
  const int64_t bin = now / kBinNs;
  ++qps_bins_[bin];
  while (!qps_bins_.empty() && qps_bins_.begin()->first <= bin - kBins) qps_bins_.erase(qps_bins_.begin());
}

void FawndsSession::IssueLoadOp() {
  if (outstanding_ >= kMaxOutstanding) {
    ++load_shed_;
    return;
  }
  const uint64_t i = rng_.UniformU64(static_cast<uint64_t>(config_.load_keys));
  const bool put = rng_.Bernoulli(config_.load_put_fraction);
  const fawnds::Key key = fawnds::Key::Hash("k" + std::to_string(i));
  const sim::SimTime issued = sim_.now();
  const uint64_t gen = generation_;
  ++load_issued_;
  ++ops_issued_;
  Status s;
  uint64_t reads = 0, fps = 0, reads_after = 0, fps_after = 0;
  ReadDeltas(&reads, &fps);
  const size_t queued = node_->queued();
  if (put) {
    std::string value = LoadValue(i);
    const uint64_t bytes = fawnds::RecordSize(value.size());
    s = node_->Put(key, value, [this, gen, issued](const Status& st) {
      if (gen != generation_) return;
      --outstanding_;
      if (!st.ok()) {
        ++load_errors_;
        last_load_error_ = st.message();
      }
      Completed(issued);
    });
    if (s.ok()) {
      ++puts_;
      client_record_bytes_ += bytes;
      ++version_;
      if (++puts_since_sync_ >= kSyncEveryPuts) {
        puts_since_sync_ = 0;
        (void)node_->SyncAll(nullptr);
      }
    }
  } else {
    s = node_->Get(key, [this, gen, issued](const Status& st, std::string) {
      if (gen != generation_) return;
      --outstanding_;
      if (st.ok()) ++hits_;
      else if (st.code() == StatusCode::kNotFound) ++misses_;
      else {
        ++load_errors_;
        last_load_error_ = st.message();
      }
      Completed(issued);
    });
    if (s.ok()) {
      ++gets_;
      ReadDeltas(&reads_after, &fps_after);
      if (node_->queued() == queued) {
        ++measured_gets_;
        get_reads_ += reads_after - reads;
      }
    }
  }
  if (!s.ok()) {
    ++load_errors_;
    last_load_error_ = s.message();
    return;
  }
  ReadDeltas(&reads_after, &fps_after);
  false_positives_ += fps_after - fps;
  ++outstanding_;
}

void FawndsSession::ReadDeltas(uint64_t* reads, uint64_t* fps) const {
  *reads = 0;
  *fps = 0;
  for (size_t i = 0; i < node_->num_stores(); ++i) {
    *reads += node_->store(i).stats().record_reads;
    *fps += node_->store(i).stats().false_positives;
  }
}

int FawndsSession::Busy() const {
  if (crashed_ || !node_ || !node_->maintenance_running()) return 0;
  return node_->progress().locked ? 2 : 1;
}

size_t FawndsSession::num_stores() const {
  if (crashed_) return frozen_.size();
  return node_ ? node_->num_stores() : 0;
}

LogTable& FawndsSession::TableFor(const fawnds::DataStore* s) {
  for (Table& t : tables_) {
    if (t.store == s && t.nonce == s->options().nonce && t.region == s->options().region_offset) return t.table;
  }
  tables_.push_back(Table{s, s->options().nonce, s->options().region_offset, LogTable()});
  return tables_.back().table;
}

void FawndsSession::PruneTables() {
  if (!node_) return;
  auto alive = [this](const Table& t) {
    for (size_t i = 0; i < node_->num_stores(); ++i) {
      const fawnds::DataStore* s = &node_->store(i);
      if (s == t.store && s->options().nonce == t.nonce && s->options().region_offset == t.region) return true;
    }
    const fawnds::DataStore* d = node_->maintenance_destination();
    return d == t.store && d->options().nonce == t.nonce && d->options().region_offset == t.region;
  };
  tables_.erase(std::remove_if(tables_.begin(), tables_.end(), [&](const Table& t) { return !alive(t); }), tables_.end());
}

}  // namespace fawnlab::fawndslab
