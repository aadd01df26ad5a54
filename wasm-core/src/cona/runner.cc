#include "cona/runner.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ycsb/generator.h"
#include "ycsb/keys.h"

namespace fawnlab::cona {
namespace {

// The counters a sample or a phase differences.
struct Mark {
  sim::SimTime t = 0;
  uint64_t puts = 0, gets = 0, merges = 0, merge_moves = 0, induces = 0, flips = 0, flash_reads = 0;
  sim::SimDuration insert_ns = 0, read_ns = 0, merge_ns = 0, exposed_ns = 0, induce_ns = 0;
  uint64_t hits = 0, misses = 0, dev_read = 0, dev_write = 0, user_bytes = 0, store_written = 0;
};

Mark Take(Machine* m) {
  Mark k;
  const StoreStats& s = m->store()->stats();
  k.t = m->sim()->now();
  k.puts = s.puts + s.deletes;
  k.gets = s.gets;
  k.merges = s.merges;
  k.merge_moves = s.merge_moves;
  k.induces = s.induces;
  k.flips = s.flips;
  k.flash_reads = s.flash_reads;
  k.insert_ns = s.insert_ns;
  k.read_ns = s.read_ns;
  k.merge_ns = s.merge_ns;
  k.exposed_ns = s.exposed_merge_ns;
  k.induce_ns = s.induce_ns;
  k.hits = m->cache()->hits();
  k.misses = m->cache()->misses();
  k.dev_read = m->flash()->counters().host_read_bytes;
  k.dev_write = m->flash()->counters().host_write_bytes;
  k.user_bytes = s.user_bytes;
  k.store_written = s.store_bytes_written;
  return k;
}

double Rate(uint64_t n, sim::SimDuration ns) { return ns > 0 ? static_cast<double>(n) / sim::NsToSec(ns) : 0; }
double Ratio(uint64_t hits, uint64_t misses) {
  return hits + misses ? static_cast<double>(hits) / static_cast<double>(hits + misses) : 0;
}

// One phase: `total` operations, `clients` outstanding, in a closed loop.
class Phase {
 public:
  Phase(Machine* m, ycsb::Generator* gen, std::vector<uint32_t>* versions, uint64_t total, int clients,
        uint64_t sample_every, const std::function<bool(double)>& progress, double p0, double p1, bool rmw_two)
      : rmw_weight_(rmw_two ? 2 : 1),
        m_(m),
        store_(m->store()),
        gen_(gen),
        versions_(versions),
        total_(total),
        clients_(clients),
        every_(sample_every),
        progress_(progress),
        p0_(p0),
        p1_(p1) {}

  Status Run(PhaseTotals* totals, std::vector<YcsbSample>* samples) {
    samples_ = samples;
    next_sample_ = every_;
    start_ = last_ = Take(m_);
    for (int i = 0; i < clients_ && ok(); ++i) Issue();
    uint64_t steps = 0;
    while (completed_ < total_ && ok()) {
      if (!m_->sim()->Step()) {
        return Status::Internal("YCSB run stalled: " + std::to_string(completed_) + " of " + std::to_string(total_) +
                                " operations completed and nothing left to happen");
      }
      if (++steps % 2048 == 0 && progress_ && !progress_(Fraction())) return Status::Cancelled("cancelled");
    }
    if (!ok()) return failure_;
    if (samples_->empty() || samples_->back().ops != completed_) Sample();
    Totals(totals);
    return Status::Ok();
  }

 private:
  bool ok() const { return failure_.ok(); }
  double Fraction() const {
    return p0_ + (p1_ - p0_) * (total_ ? static_cast<double>(completed_) / static_cast<double>(total_) : 1);
  }
  void Fail(Status s) {
    if (ok()) failure_ = std::move(s);
  }
  std::string Key(uint64_t r) {
    std::string k;
    ycsb::KeyFor(r, store_->options().key_bytes, &k);
    return k;
  }
  std::string Value(uint64_t r, uint32_t v) {
    std::string s;
    ycsb::ValueFor(r, v, store_->options().value_bytes, &s);
    return s;
  }
  uint32_t& Version(uint64_t r) {
    if (r >= versions_->size()) versions_->resize(r + 1 + r / 4, 0);
    return (*versions_)[r];
  }

  void Issue() {
    if (issued_ >= total_ || !ok()) return;
    if (gen_ == nullptr) {  // the load: the next record, version 0
      const uint64_t r = issued_++;
      ++totals_.ops;
      Version(r) = 0;
      ++totals_.inserts;
      Write(r, [this] { Completed(1); });
      return;
    }
    const ycsb::Op op = gen_->Next();
    const uint64_t r = op.record;
    const uint64_t weight = op.type == ycsb::OpType::kReadModifyWrite ? rmw_weight_ : 1;
    issued_ += weight;
    totals_.ops += weight;
    switch (op.type) {
      case ycsb::OpType::kRead:
        Read(r, [this] { Completed(1); });
        break;
      case ycsb::OpType::kUpdate:
        ++totals_.updates;
        ++Version(r);
        Write(r, [this] { Completed(1); });
        break;
      case ycsb::OpType::kInsert:
        ++totals_.inserts;
        Version(r) = 0;
        Write(r, [this] { Completed(1); });
        break;
      case ycsb::OpType::kScan: {
        ++totals_.scans;
        Status s = store_->Scan(Key(r), op.scan_length, [this](const Status& st, auto) {
          if (!st.ok()) Fail(Status::Internal("YCSB scan failed: " + st.message()));
          Completed(1);
        });
        if (!s.ok()) Fail(s);
        break;
      }
      case ycsb::OpType::kReadModifyWrite:
        ++totals_.rmws;
        Read(r, [this, r, weight] {
          ++Version(r);
          Write(r, [this, weight] { Completed(weight); });
        });
        break;
    }
  }

  void Write(uint64_t r, std::function<void()> then) {
    ++totals_.writes;
    Status s = store_->Put(Key(r), Value(r, Version(r)), [this, then = std::move(then)](const Status& st) {
      if (!st.ok()) {
        Fail(Status::Internal("YCSB put failed: " + st.message()));
        return;
      }
      then();
    });
    if (!s.ok()) Fail(s);
  }

  void Read(uint64_t r, std::function<void()> then) {
    ++totals_.reads;
    const uint32_t want = Version(r);
    Status s = store_->Get(Key(r), [this, r, want, then = std::move(then)](const Status& st, std::string value) {
      if (st.code() == StatusCode::kNotFound) {
        ++totals_.not_found;
        Fail(Status::Internal("YCSB read of record " + std::to_string(r) + " found nothing"));
        return;
      }
      if (!st.ok()) {
        Fail(Status::Internal("YCSB get failed: " + st.message()));
        return;
      }
      if (value != Value(r, want)) {
        Fail(Status::Internal("YCSB read of record " + std::to_string(r) + " returned the wrong value (expected version " +
                              std::to_string(want) + ")"));
        return;
      }
      then();
    });
    if (!s.ok()) Fail(s);
  }

  void Completed(uint64_t weight) {
    completed_ += weight;
    while (completed_ >= next_sample_) {
      Sample();
      next_sample_ += every_;
    }
    Issue();
  }

  void Sample() {
    const Mark now = Take(m_);
    YcsbSample s;
    s.ops = completed_;
    s.t_s = sim::NsToSec(now.t - start_.t);
    s.write_iops = Rate(now.puts - last_.puts, now.insert_ns - last_.insert_ns);
    s.read_iops = Rate(now.gets - last_.gets, now.read_ns - last_.read_ns);
    s.cum_write_iops = Rate(now.puts - start_.puts, now.insert_ns - start_.insert_ns);
    s.cum_read_iops = Rate(now.gets - start_.gets, now.read_ns - start_.read_ns);
    s.merge_moves = now.merge_moves - last_.merge_moves;
    s.merge_ms = static_cast<double>(now.merge_ns - last_.merge_ns) / 1e6;
    s.exposed_merge_ms = static_cast<double>(now.exposed_ns - last_.exposed_ns) / 1e6;
    s.flips = now.flips - last_.flips;
    s.levels = store_->structure().levels;
    s.cache_hit_ratio = Ratio(now.hits - last_.hits, now.misses - last_.misses);
    samples_->push_back(s);
    last_ = now;
  }

  void Totals(PhaseTotals* out) {
    const Mark end = Take(m_);
    PhaseTotals& t = totals_;
    t.seconds = sim::NsToSec(end.t - start_.t);
    t.write_s = sim::NsToSec(end.insert_ns - start_.insert_ns);
    t.read_s = sim::NsToSec(end.read_ns - start_.read_ns);
    t.write_iops = Rate(end.puts - start_.puts, end.insert_ns - start_.insert_ns);
    t.read_iops = Rate(end.gets - start_.gets, end.read_ns - start_.read_ns);
    t.ops_per_s = Rate(t.ops, end.t - start_.t);
    t.merges = end.merges - start_.merges;
    t.merge_moves = end.merge_moves - start_.merge_moves;
    t.induces = end.induces - start_.induces;
    t.flips = end.flips - start_.flips;
    t.merge_s = sim::NsToSec(end.merge_ns - start_.merge_ns);
    t.exposed_merge_s = sim::NsToSec(end.exposed_ns - start_.exposed_ns);
    t.induce_s = sim::NsToSec(end.induce_ns - start_.induce_ns);
    t.cache_hits = end.hits - start_.hits;
    t.cache_misses = end.misses - start_.misses;
    t.cache_hit_ratio = Ratio(t.cache_hits, t.cache_misses);
    t.flash_reads = end.flash_reads - start_.flash_reads;
    t.device_read_bytes = end.dev_read - start_.dev_read;
    t.device_write_bytes = end.dev_write - start_.dev_write;
    t.user_bytes = end.user_bytes - start_.user_bytes;
    t.store_bytes_written = end.store_written - start_.store_written;
    t.levels = store_->structure().levels;
    *out = t;
  }

  uint64_t rmw_weight_;
  uint64_t next_sample_ = 0;
  Machine* m_;
  Store* store_;
  ycsb::Generator* gen_;
  std::vector<uint32_t>* versions_;
  uint64_t total_;
  int clients_;
  uint64_t every_;
  const std::function<bool(double)>& progress_;
  double p0_, p1_;
  uint64_t issued_ = 0, completed_ = 0;
  Status failure_;
  Mark start_, last_;
  PhaseTotals totals_;
  std::vector<YcsbSample>* samples_ = nullptr;
};

}  // namespace

StatusOr<YcsbRun> RunYcsb(Machine* m, const RunConfig& c, const std::function<bool(double)>& progress) {
  if (m == nullptr || m->store() == nullptr) return Status::InvalidArgument("YCSB run: the machine has no store (crashed?)");
  auto w = ycsb::FindWorkload(c.workload);
  if (!w.ok()) return Status::InvalidArgument("parameter 'workload': " + w.status().message());
  if (c.clients < 1 || c.clients > 1024) return Status::InvalidArgument("parameter 'clients' must be in 1..1024");
  const uint64_t n = m->config().records;
  const uint64_t ops = c.run ? (c.operations ? c.operations : n) : 0;
  const uint64_t load = c.load ? n : 0;
  const double all = static_cast<double>(load + ops);
  const double split = all > 0 ? static_cast<double>(load) / all : 0;
  YcsbRun out;
  std::vector<uint32_t> versions(n, 0);
  if (load > 0) {
    const uint64_t every = c.sample_every ? c.sample_every : std::max<uint64_t>(1, load / 250);
    Phase p(m, nullptr, &versions, load, c.clients, every, progress, 0, split, false);
    Status s = p.Run(&out.load, &out.load_samples);
    if (!s.ok()) return s;
  }
  if (ops > 0 && c.cold_start) {
    Status s = m->DropCaches();
    if (!s.ok()) return s;
  }
  if (ops > 0) {
    ycsb::Generator gen(w.value(), n, c.seed, ops);
    const uint64_t every = c.sample_every ? c.sample_every : std::max<uint64_t>(1, ops / 250);
    Phase p(m, &gen, &versions, ops, c.clients, every, progress, split, 1, c.rmw_counts_two);
    Status s = p.Run(&out.run, &out.samples);
    if (!s.ok()) return s;
  }
  return out;
}

}  // namespace fawnlab::cona
