#include "stores/runner.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/histogram.h"
#include "ycsb/generator.h"
#include "ycsb/keys.h"

namespace fawnlab::stores {
namespace {

// The counters a sample or a phase differences.
struct Mark {
  sim::SimTime t = 0;
  kv::KvCounters k;
  uint64_t hits = 0, misses = 0, dev_read = 0, dev_write = 0, nand_write = 0;
  double joules = 0;
};

Mark Take(Machine* m) {
  Mark k;
  k.t = m->sim()->now();
  k.k = m->store()->counters();
  k.hits = m->cache()->hits();
  k.misses = m->cache()->misses();
  const device::DeviceCounters& f = m->flash()->counters();
  k.dev_read = f.host_read_bytes;
  k.dev_write = f.host_write_bytes;
  k.nand_write = f.media_write_bytes;
  k.joules = m->Joules();
  return k;
}

double Rate(uint64_t n, sim::SimDuration ns) { return ns > 0 ? static_cast<double>(n) / sim::NsToSec(ns) : 0; }
double Ratio(uint64_t a, uint64_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0; }
uint64_t Writes(const kv::KvCounters& k) { return k.puts + k.deletes; }
uint64_t Reads(const kv::KvCounters& k) { return k.gets + k.scans; }

// What both phases share: the version each record must read back, the records present.
struct State {
  std::vector<uint32_t> versions;
  std::vector<uint8_t> present;
  uint64_t keys = 0;
  // For workloads with scans: every record written (or preloaded), by key in key order, so a
  // scan's answer can be checked whole. Kept as writes are issued: the store serves operations
  // in call order, so a scan sees exactly the writes issued before it.
  bool track_keys = false;
  std::map<std::string, uint64_t> by_key;
};

class Phase {
 public:
  Phase(Machine* m, ycsb::Generator* gen, State* st, uint64_t total, int clients, uint64_t sample_every,
        const std::function<bool(double)>& progress, double p0, double p1, bool rmw_two)
      : rmw_weight_(rmw_two ? 2 : 1),
        m_(m),
        store_(m->store()),
        key_bytes_(m->config().params.key_bytes),
        value_bytes_(m->config().params.value_bytes),
        gen_(gen),
        st_(st),
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
  std::string Key(uint64_t r) const {
    std::string k;
    ycsb::KeyFor(r, key_bytes_, &k);
    return k;
  }
  std::string Value(uint64_t r, uint32_t v) const {
    std::string s;
    ycsb::ValueFor(r, v, value_bytes_, &s);
    return s;
  }
  void Grow(uint64_t r) {
    if (r >= st_->versions.size()) {
      st_->versions.resize(r + 1 + r / 4, 0);
      st_->present.resize(st_->versions.size(), 0);
    }
  }
  void MarkPresent(uint64_t r) {
    Grow(r);
    if (!st_->present[r]) {
      st_->present[r] = 1;
      ++st_->keys;
    }
  }

  void Issue() {
    if (issued_ >= total_ || !ok()) return;
    if (gen_ == nullptr) {  // the load: the next record, version 0
      const uint64_t r = issued_++;
      ++totals_.ops;
      Grow(r);
      st_->versions[r] = 0;
      ++totals_.inserts;
      Write(r, [this] { Completed(1); });
      return;
    }
    const ycsb::Op op = gen_->Next();
    const uint64_t r = op.record;
    const uint64_t weight = op.type == ycsb::OpType::kReadModifyWrite ? rmw_weight_ : 1;
    issued_ += weight;
    totals_.ops += weight;
    Grow(r);
    switch (op.type) {
      case ycsb::OpType::kRead:
        Read(r, [this] { Completed(1); });
        break;
      case ycsb::OpType::kUpdate:
        ++totals_.updates;
        ++st_->versions[r];
        Write(r, [this] { Completed(1); });
        break;
      case ycsb::OpType::kInsert:
        ++totals_.inserts;
        st_->versions[r] = 0;
        Write(r, [this] { Completed(1); });
        break;
      case ycsb::OpType::kScan: {
        ++totals_.scans;
        const sim::SimTime t0 = m_->sim()->now();
        // What the scan must return: the first scan_length records from its key on, each at
        // the version the writes issued so far gave it.
        std::vector<std::pair<std::string, std::string>> want;
        const std::string start = Key(r);
        for (auto it = st_->by_key.lower_bound(start);
             it != st_->by_key.end() && static_cast<int>(want.size()) < op.scan_length; ++it) {
          want.emplace_back(it->first, Value(it->second, st_->versions[it->second]));
        }
        Status s = store_->Scan(start, op.scan_length, [this, r, t0, want = std::move(want)](
                                                           const Status& st, std::vector<std::pair<std::string, std::string>> got) {
          if (!st.ok()) {
            Fail(Status::Internal("YCSB scan failed: " + st.message()));
            return;
          }
          if (got != want) {
            Fail(Status::Internal("YCSB scan from record " + std::to_string(r) + " returned " + std::to_string(got.size()) +
                                  " entries, not the " + std::to_string(want.size()) + " expected (or wrong keys or values)"));
            return;
          }
          read_lat_.Record(static_cast<uint64_t>(m_->sim()->now() - t0));
          Completed(1);
        });
        if (!s.ok()) Fail(s);
        break;
      }
      case ycsb::OpType::kReadModifyWrite:
        ++totals_.rmws;
        Read(r, [this, r, weight] {
          ++st_->versions[r];
          Write(r, [this, weight] { Completed(weight); });
        });
        break;
    }
  }

  void Write(uint64_t r, std::function<void()> then) {
    ++totals_.writes;
    if (st_->track_keys) st_->by_key.emplace(Key(r), r);
    const sim::SimTime t0 = m_->sim()->now();
    Status s = store_->Put(Key(r), Value(r, st_->versions[r]), [this, r, t0, then = std::move(then)](const Status& st) {
      if (!st.ok()) {
        Fail(Status::Internal("YCSB put failed: " + st.message()));
        return;
      }
      write_lat_.Record(static_cast<uint64_t>(m_->sim()->now() - t0));
      MarkPresent(r);
      then();
    });
    if (!s.ok()) Fail(Status::Internal("YCSB put of record " + std::to_string(r) + " refused: " + s.message()));
  }

  void Read(uint64_t r, std::function<void()> then) {
    ++totals_.reads;
    const uint32_t want = st_->versions[r];
    const sim::SimTime t0 = m_->sim()->now();
    Status s = store_->Get(Key(r), [this, r, want, t0, then = std::move(then)](const Status& st, std::string value) {
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
      read_lat_.Record(static_cast<uint64_t>(m_->sim()->now() - t0));
      then();
    });
    if (!s.ok()) Fail(Status::Internal("YCSB get of record " + std::to_string(r) + " refused: " + s.message()));
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
    s.write_iops = Rate(Writes(now.k) - Writes(last_.k), now.k.write_ns - last_.k.write_ns);
    s.read_iops = Rate(Reads(now.k) - Reads(last_.k), now.k.read_ns - last_.k.read_ns);
    s.cum_write_iops = Rate(Writes(now.k) - Writes(start_.k), now.k.write_ns - start_.k.write_ns);
    s.cum_read_iops = Rate(Reads(now.k) - Reads(start_.k), now.k.read_ns - start_.k.read_ns);
    s.cache_hit_ratio = Ratio(now.hits - last_.hits, (now.hits - last_.hits) + (now.misses - last_.misses));
    samples_->push_back(s);
    last_ = now;
  }

  void Totals(PhaseTotals* out) {
    const Mark end = Take(m_);
    const kv::KvCounters& a = start_.k;
    const kv::KvCounters& b = end.k;
    PhaseTotals& t = totals_;
    t.seconds = sim::NsToSec(end.t - start_.t);
    t.write_s = sim::NsToSec(b.write_ns - a.write_ns);
    t.read_s = sim::NsToSec(b.read_ns - a.read_ns);
    t.write_iops = Rate(Writes(b) - Writes(a), b.write_ns - a.write_ns);
    t.read_iops = Rate(Reads(b) - Reads(a), b.read_ns - a.read_ns);
    t.ops_per_s = Rate(t.ops, end.t - start_.t);
    t.read_p50_us = read_lat_.Quantile(0.5) / 1000;
    t.read_p99_us = read_lat_.Quantile(0.99) / 1000;
    t.write_p50_us = write_lat_.Quantile(0.5) / 1000;
    t.write_p99_us = write_lat_.Quantile(0.99) / 1000;
    t.keys = st_->keys;
    t.dram_bytes = store_->dram_bytes();
    t.dram_bytes_per_key = Ratio(t.dram_bytes, t.keys);
    t.lookup_reads = b.lookup_reads - a.lookup_reads;
    t.lookup_reads_per_get = Ratio(t.lookup_reads, b.gets - a.gets);
    t.user_bytes = b.user_bytes - a.user_bytes;
    t.store_bytes_written = b.store_bytes_written - a.store_bytes_written;
    t.store_bytes_read = b.store_bytes_read - a.store_bytes_read;
    t.store_wa = Ratio(t.store_bytes_written, t.user_bytes);
    t.device_read_bytes = end.dev_read - start_.dev_read;
    t.device_write_bytes = end.dev_write - start_.dev_write;
    t.nand_write_bytes = end.nand_write - start_.nand_write;
    t.ftl_wa = Ratio(t.nand_write_bytes, t.device_write_bytes);
    t.stall_s = sim::NsToSec(b.stall_ns - a.stall_ns);
    t.stall_fraction = b.write_ns > a.write_ns ? static_cast<double>(b.stall_ns - a.stall_ns) /
                                                     static_cast<double>(b.write_ns - a.write_ns)
                                               : 0;
    t.background_s = sim::NsToSec(b.background_ns - a.background_ns);
    t.foreground_cpu_s = sim::NsToSec(b.foreground_cpu_ns - a.foreground_cpu_ns);
    t.background_jobs = b.background_jobs - a.background_jobs;
    t.cache_hits = end.hits - start_.hits;
    t.cache_misses = end.misses - start_.misses;
    t.cache_hit_ratio = Ratio(t.cache_hits, t.cache_hits + t.cache_misses);
    t.joules = end.joules - start_.joules;
    t.joules_per_op = t.ops ? t.joules / static_cast<double>(t.ops) : 0;
    *out = t;
  }

  uint64_t rmw_weight_;
  uint64_t next_sample_ = 0;
  Machine* m_;
  kv::KvStore* store_;
  uint32_t key_bytes_, value_bytes_;
  ycsb::Generator* gen_;
  State* st_;
  uint64_t total_;
  int clients_;
  uint64_t every_;
  const std::function<bool(double)>& progress_;
  double p0_, p1_;
  uint64_t issued_ = 0, completed_ = 0;
  Status failure_;
  Mark start_, last_;
  PhaseTotals totals_;
  sim::LogHistogram read_lat_, write_lat_;
  std::vector<YcsbSample>* samples_ = nullptr;
};

}  // namespace

StatusOr<YcsbRun> RunYcsb(Machine* m, const RunConfig& c, const std::function<bool(double)>& progress) {
  if (m == nullptr || m->store() == nullptr) return Status::InvalidArgument("YCSB run: the machine has no store");
  auto w = ycsb::FindWorkload(c.workload);
  if (!w.ok()) return Status::InvalidArgument("parameter 'workload': " + w.status().message());
  if (c.clients < 1 || c.clients > 1024) return Status::InvalidArgument("parameter 'clients' must be in 1..1024");
  const uint64_t n = m->config().records;
  const uint64_t ops = c.run ? (c.operations ? c.operations : n) : 0;
  if (ops > 0 && w.value().scan > 0 && !m->store()->has_scan()) {
    return Status::InvalidArgument(std::string("YCSB workload '") + c.workload + "' scans, and the " +
                                   m->store()->kind() + " store has no ordered scan");
  }
  const uint64_t load = c.load ? n : 0;
  const double all = static_cast<double>(load + ops);
  const double split = all > 0 ? static_cast<double>(load) / all : 0;
  YcsbRun out;
  State st;
  st.versions.assign(n, 0);
  st.present.assign(n, c.load ? 0 : 1);
  st.keys = c.load ? 0 : n;
  st.track_keys = ops > 0 && w.value().scan > 0;
  if (st.track_keys && !c.load) {
    std::string k;
    for (uint64_t r = 0; r < n; ++r) {
      ycsb::KeyFor(r, m->config().params.key_bytes, &k);
      st.by_key.emplace(k, r);
    }
  }
  if (load > 0) {
    const uint64_t every = c.sample_every ? c.sample_every : std::max<uint64_t>(1, load / 250);
    Phase p(m, nullptr, &st, load, c.clients, every, progress, 0, split, false);
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
    Phase p(m, &gen, &st, ops, c.clients, every, progress, split, 1, c.rmw_counts_two);
    Status s = p.Run(&out.run, &out.samples);
    if (!s.ok()) return s;
  }
  return out;
}

}  // namespace fawnlab::stores
