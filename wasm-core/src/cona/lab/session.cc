// ConaSession: the config, the machine, the workload's arrivals, samples and the structure
// events. The operations: session_ops.cc; the snapshot and views: snapshot.cc.
#include "cona/lab/session.h"

#include <algorithm>
#include <cmath>
#include <utility>


namespace fawnlab::cona {
namespace {

constexpr uint64_t kTagSample = 0, kTagArrival = 1;

// The workloads the session offers: the load phase, then YCSB's core workloads without
// scans (E: the store's keys are hashes, so scans mean nothing; digest §4.12).
std::vector<std::string> WorkloadIds() {
  std::vector<std::string> ids = {"insert"};
  for (const ycsb::Workload& w : ycsb::CoreWorkloads()) {
    if (w.scan == 0) ids.push_back(w.id);
  }
  return ids;
}

std::vector<std::string> WorkloadLabels() {
  std::vector<std::string> labels = {"insert (load: new records only)"};
  for (const ycsb::Workload& w : ycsb::CoreWorkloads()) {
    if (w.scan == 0) labels.push_back(w.label);
  }
  return labels;
}

TrieMix MixOf(const std::string& s) {
  if (s == "4") return TrieMix::k4;
  if (s == "16") return TrieMix::k16;
  if (s == "64") return TrieMix::k64;
  return TrieMix::kThesis;
}

}  // namespace

std::vector<ParamSpec> ConaSession::Schema() {
  const Config c;
  return {
      ParamSpec::Int("buffer_kb", c.buffer_kb, 8, 1024, "KB",
                     "B: each of the two insertion buffers (Fig 3.4: 8 KB to 1 MB; 64 KB is the thesis's choice)"),
      ParamSpec::Choice("trie", c.trie, {"mix", "4", "16", "64"}, "the tries' block size per level (§3.2.1)")
          .WithLabels({"the thesis's mix (4, then 16 for N-3..N-1, 64 at the last level)", "block 4 everywhere",
                       "block 16 everywhere", "block 64 everywhere"}),
      ParamSpec::Choice("fragments", c.fragments, {"16", "off"}, "a 16-bit key fragment per entry above the last level (§3.1.2)")
          .WithLabels({"16-bit fragments", "no fragments"}),
      ParamSpec::Choice("last_filter", c.last_filter, {"none", "8"}, "the last level's fragments (§3.1.2: none by default)")
          .WithLabels({"none", "8-bit (the full filter)"}),
      ParamSpec::Bool("merge_thread", c.merge_thread, "merges run on a background thread (off: inline, the single-thread variant)"),
      ParamSpec::Choice("workload", c.workload, WorkloadIds(), "what the clients send: new records only, or a YCSB core workload")
          .WithLabels(WorkloadLabels()),
      ParamSpec::Real("rate_ops_per_s", c.rate_ops_per_s, 0, 500000, "ops/s", "the clients' offered load (Poisson arrivals; 0: none)"),
      ParamSpec::Int("records", c.records, 0, 1000000, "records", "records loaded in order before the session starts"),
      ParamSpec::Int("max_writes", c.max_writes, 1000, 4000000, "writes",
                     "the store's file is sized for this many puts and deletes (updates included); more are refused"),
      // At most 1/10: the whole machine (240 GB of flash) costs half a GB of tables to emulate.
      ParamSpec::Real("scale", c.scale, 1e-5, 0.1, "", "the machine's scale: its page cache is the thesis's 8 GB times this"),
  };
}

std::vector<std::string> ConaSession::LiveFields() { return {"workload", "rate_ops_per_s"}; }

ConaSession::Config ConaSession::FromParams(const ParamValues& p) {
  Config c;
  c.buffer_kb = static_cast<int>(p.Int("buffer_kb"));
  c.trie = p.Choice("trie");
  c.fragments = p.Choice("fragments");
  c.last_filter = p.Choice("last_filter");
  c.merge_thread = p.Bool("merge_thread");
  c.workload = p.Choice("workload");
  c.rate_ops_per_s = p.Real("rate_ops_per_s");
  c.records = p.Int("records");
  c.max_writes = p.Int("max_writes");
  c.scale = p.Real("scale");
  return c;
}

StatusOr<std::unique_ptr<LabSession>> ConaSession::New(const ParamValues& config, uint64_t seed) {
  Config c = FromParams(config);
  if (c.records > c.max_writes) {
    return Status::InvalidArgument("records = " + std::to_string(c.records) + " is more than max_writes = " +
                                   std::to_string(c.max_writes) + " (the puts and deletes the store's file is sized for)");
  }
  std::unique_ptr<ConaSession> s(new ConaSession(std::move(c), seed));
  if (Status st = s->Build(); !st.ok()) return st;
  return std::unique_ptr<LabSession>(std::move(s));
}

StatusOr<std::unique_ptr<ConaSession>> ConaSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<ConaSession>("cona", config_json, seed);
}

ConaSession::ConaSession(Config c, uint64_t seed)
    : config_(std::move(c)), seed_(seed), stream_(seed, "insert", config_.workload, config_.rate_ops_per_s) {
  watch_events_ = true;  // AfterEvent finds the structure's events
}

ConaSession::~ConaSession() = default;

Status ConaSession::Build() {
  MachineConfig mc;
  // The file holds the preload and the rest of max_writes (extra_entries 0 would mean "as many
  // again as records").
  mc.records = std::max<uint64_t>(1, static_cast<uint64_t>(config_.records));  // the machine wants one
  mc.extra_entries = std::max<uint64_t>(1, static_cast<uint64_t>(config_.max_writes - config_.records));
  mc.scale = config_.scale;
  mc.store.buffer_bytes = static_cast<uint32_t>(config_.buffer_kb) * 1024;
  mc.store.trie = MixOf(config_.trie);
  mc.store.fragment_bits = config_.fragments == "off" ? 0 : 16;
  mc.store.last_fragment_bits = config_.last_filter == "8" ? 8 : 0;
  mc.store.merge_thread = config_.merge_thread;
  auto m = Machine::Create(mc);
  if (!m.ok()) return m.status();
  machine_ = std::move(m).value();
  sim_ = machine_->sim();
  stream_.Attach(sim_, this, kTagArrival);
  store_ = machine_->store();
  if (config_.records > 0) {
    if (Status s = Load(static_cast<uint64_t>(config_.records)); !s.ok()) return s;
  }
  carried_ = StoreStats{};
  stream_.Rebuild(next_record_);
  ScanStructure(store_->structure());
  StartClock();
  return Status::Ok();
}

void ConaSession::StartClock() {
  TakeSample();
  sim_->After(kSampleNs, this, (generation_ << 2) | kTagSample);
  stream_.Start();
}

StoreStats ConaSession::TotalStats() const {
  StoreStats t = carried_;
  if (!store_) return t;
  const StoreStats& s = store_->stats();
  t.puts += s.puts;
  t.deletes += s.deletes;
  t.gets += s.gets;
  t.scans += s.scans;
  t.hits += s.hits;
  t.misses += s.misses;
  t.flash_reads += s.flash_reads;
  t.false_positives += s.false_positives;
  t.fragment_skips += s.fragment_skips;
  t.trie_symbols += s.trie_symbols;
  t.induces += s.induces;
  t.merges += s.merges;
  t.flips += s.flips;
  t.merge_moves += s.merge_moves;
  t.insert_ns += s.insert_ns;
  t.induce_ns += s.induce_ns;
  t.exposed_merge_ns += s.exposed_merge_ns;
  t.merge_ns += s.merge_ns;
  t.read_ns += s.read_ns;
  t.user_bytes += s.user_bytes;
  t.store_bytes_written += s.store_bytes_written;
  if (t.served_by.size() < s.served_by.size()) t.served_by.resize(s.served_by.size(), 0);
  for (size_t i = 0; i < s.served_by.size(); ++i) t.served_by[i] += s.served_by[i];
  return t;
}

// ---- the workload ------------------------------------------------------------------------

void ConaSession::OnEvent(sim::Simulator&, uint64_t tag) {
  if (crashed_) return;
  if ((tag & 3) == kTagSample) {
    if ((tag >> 2) != generation_) return;  // from before a crash
    TakeSample();
    sim_->After(kSampleNs, this, (generation_ << 2) | kTagSample);
  } else {
    if (!stream_.Current(tag)) return;  // from before a crash or a rate change
    Arrive();
    stream_.ScheduleNext();
  }
}

void ConaSession::Arrive() {
  ++offered_;
  if (outstanding_ >= kMaxOutstanding) {
    ++shed_;
    return;
  }
  IssueWorkloadOp();
}

void ConaSession::IssueWorkloadOp() {
  ycsb::Op op{ycsb::OpType::kInsert, 0, 0};
  if (ycsb::Generator* g = stream_.generator()) {
    op = g->Next();
    next_record_ = std::max(next_record_, g->record_count());
  } else {
    op.record = next_record_++;
  }
  const uint32_t kb = store_->options().key_bytes, vb = store_->options().value_bytes;
  std::string key;
  ycsb::KeyFor(op.record, kb, &key);
  const uint64_t gen = generation_;
  auto failed = [this](const Status& s) {
    ++errors_;
    last_error_ = s.message();
  };
  auto put = [this, gen, failed, vb](const std::string& k, uint64_t record) {
    std::string v;
    ycsb::ValueFor(record, ++version_counter_, vb, &v);
    ++outstanding_;
    Status s = store_->Put(k, v, [this, gen, k](const Status& st) {
      if (gen != generation_) return;
      --outstanding_;
      ++done_ops_;
      if (st.ok()) {
        ++acked_since_sync_;
        Remember(k);
      } else {
        ++errors_;
        last_error_ = st.message();
      }
    });
    AfterEvent();  // an idle store applied it at once
    if (!s.ok()) {
      --outstanding_;
      failed(s);
    }
  };
  switch (op.type) {
    case ycsb::OpType::kInsert:
    case ycsb::OpType::kUpdate: put(key, op.record); break;
    case ycsb::OpType::kRead:
    case ycsb::OpType::kScan:  // not offered (no workload with scans); read the first key
    case ycsb::OpType::kReadModifyWrite: {
      const bool rmw = op.type == ycsb::OpType::kReadModifyWrite;
      const uint64_t record = op.record;
      ++outstanding_;
      Status s = store_->Get(key, [this, gen, rmw, key, record, put](const Status&, std::string) {
        if (gen != generation_) return;
        --outstanding_;
        ++done_ops_;
        if (rmw) put(key, record);
      });
      if (!s.ok()) {
        --outstanding_;
        failed(s);
      }
      break;
    }
  }
}

void ConaSession::Remember(const std::string& key) {
  written_.push_back(key);
  ++written_total_;
  // Enough for both buffers even when keys repeat many times.
  const size_t cap = 8 * static_cast<size_t>(config_.buffer_kb) * 1024 / 220 + 4096;
  while (written_.size() > cap) written_.pop_front();
}

// ---- time and the structure's events ------------------------------------------------------

bool ConaSession::RunUntil(const bool* flag, uint64_t max_events) {
  uint64_t n = 0;
  while (!*flag && n < max_events && sim_->Step()) {
    ++n;
    AfterEvent();
  }
  return *flag;
}

ConaSession::Sample ConaSession::SampleNow() const {
  Sample s;
  s.t = sim_->now();
  const StoreStats st = TotalStats();
  s.writes = st.puts + st.deletes;
  s.reads = st.gets;
  s.insert_ns = st.insert_ns;
  s.read_ns = st.read_ns;
  s.merge_moves = st.merge_moves;
  s.exposed_merge_ns = st.exposed_merge_ns;
  if (device::PageCache* c = machine_->cache()) {
    s.cache_hits = c->hits();
    s.cache_misses = c->misses();
  }
  if (store_) {
    const Structure str = store_->structure();
    s.levels = str.levels;
    s.entries = str.entries;
  } else if (!samples_.empty()) {
    s.levels = samples_.back().levels;
  }
  return s;
}

void ConaSession::TakeSample() {
  samples_.push_back(SampleNow());
  ++samples_taken_;
  while (samples_.size() > kTimelineSamples) samples_.pop_front();
}

void ConaSession::Emit(const char* kind, int level) {
  events_.push_back(Event{++events_total_, sim_->now(), kind, level});
  while (events_.size() > kEvents) events_.pop_front();
}

int ConaSession::Busy() const {
  if (!store_) return 0;
  const Structure s = store_->structure();
  // The single-thread variant's writer does every merge itself: all of it is exposed.
  return !s.merging ? 0 : s.frozen_waiting || !store_->options().merge_thread ? 2 : 1;
}

void ConaSession::AfterEvent() {
  if (!store_) return;
  const StoreStats& st = store_->stats();
  const uint64_t writes = st.puts + st.deletes;
  // The structure changes with an induce, a merge's end, a flip or a write (the buffers), which
  // the counters show; and with a merge's start, which shows in none (the actor's first step
  // is a read), so while no merge runs and the store is not idle it is looked at after each event.
  const bool counted = st.induces != seen_induces_ || st.merges != seen_merges_ || st.flips != seen_flips_ || writes != seen_writes_;
  if (!counted && (merging_ || store_->idle())) return;
  ScanStructure(store_->structure());
}

void ConaSession::ScanStructure(const Structure& s) {
  const StoreStats& st = store_->stats();
  for (uint64_t i = seen_induces_; i < st.induces; ++i) Emit("induce", 1);
  for (uint64_t i = seen_merges_; i < st.merges; ++i) {
    Emit("merge_done", merge_level_);
    merging_ = false;
  }
  if (st.flips > seen_flips_) {
    // The level whose shadow became visible: the deepest cell visible now that was not.
    int level = -1;
    for (const CellInfo& c : s.cells) {
      if (!c.visible || c.level < 2) continue;
      const std::pair<int, uint64_t> id{c.level, c.seq};
      if (std::find(visible_.begin(), visible_.end(), id) == visible_.end()) level = std::max(level, c.level);
    }
    for (uint64_t i = seen_flips_; i < st.flips; ++i) Emit("flip", level);
  }
  if (s.merging && (!merging_ || s.merge_level != merge_level_)) {
    if (merging_) Emit("merge_done", merge_level_);  // one ended and the next began unseen
    Emit("merge_start", s.merge_level);
  }
  // A swap empties the active buffer. It happens as the store applies the put that found it
  // full: either inside our Put call (an idle store; we look right after each call) or in the
  // event that completed the put before (whose key, remembered in that event, went into the
  // old buffer). Either way the keys remembered from here on are the new active buffer's.
  if (s.active_entries < active_seen_) {
    swap_at_[1] = swap_at_[0];
    swap_at_[0] = written_total_;
  }
  active_seen_ = s.active_entries;
  merging_ = s.merging;
  merge_level_ = s.merging ? s.merge_level : merge_level_;
  visible_.clear();
  for (const CellInfo& c : s.cells) {
    if (c.visible) visible_.emplace_back(c.level, c.seq);
  }
  seen_induces_ = st.induces;
  seen_merges_ = st.merges;
  seen_flips_ = st.flips;
  seen_writes_ = st.puts + st.deletes;
}

Status ConaSession::Reconfigured(const ParamValues& config, const ParamValues& patch) {
  const Config next = FromParams(config);
  stream_.Reconfigure(patch, next.workload, next.rate_ops_per_s, next_record_);
  return Status::Ok();
}

}  // namespace fawnlab::cona
