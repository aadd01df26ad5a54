#include "stores/runner.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/histogram.h"
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

// What both phases share beyond the versions: the records present.
struct State {
  std::vector<uint8_t> present;
  uint64_t keys = 0;
  // For workloads with scans: every record written (or preloaded), by key in key order, so a
  // scan's answer can be checked whole. Kept as writes are issued: the store serves operations
  // in call order, so a scan sees exactly the writes issued before it.
  bool track_keys = false;
  std::map<std::string, uint64_t> by_key;
};

// One phase on a kv/ store: the closed loop is ycsb::ClosedLoop's; this checks scans whole,
// times every operation, counts the records present and reads the samples and totals off the
// store's counters, the page cache, the flash device and the machine's Joules.
class Phase : public ycsb::ClosedLoop {
 public:
  Phase(Machine* m, std::vector<uint32_t>* versions, State* st, int clients, const ycsb::PhaseSpec& spec,
        const std::function<bool(double)>& progress, PhaseTotals* totals, std::vector<YcsbSample>* samples)
      : ClosedLoop(m->sim(), versions, m->config().params.key_bytes, m->config().params.value_bytes, clients, spec,
                   progress),
        m_(m),
        store_(m->store()),
        st_(st),
        totals_(totals),
        samples_(samples) {}

 protected:
  Status StorePut(uint64_t r, const std::string& key, const std::string& value, Done done) override {
    if (st_->track_keys) st_->by_key.emplace(key, r);
    return store_->Put(key, value, std::move(done));
  }
  Status StoreGet(const std::string& key, GetDone done) override { return store_->Get(key, std::move(done)); }

  // What the scan must return: the first `length` records from its key on, each at the
  // version the writes issued so far gave it.
  Status StoreScan(uint64_t r, const std::string& key, int length, Done done) override {
    const sim::SimTime t0 = sim()->now();
    std::vector<std::pair<std::string, std::string>> want;
    for (auto it = st_->by_key.lower_bound(key); it != st_->by_key.end() && static_cast<int>(want.size()) < length;
         ++it) {
      want.emplace_back(it->first, Value(it->second, Version(it->second)));
    }
    return store_->Scan(key, length, [this, r, t0, want = std::move(want), done = std::move(done)](
                                         const Status& st, std::vector<std::pair<std::string, std::string>> got) {
      if (!st.ok()) return done(Status::Internal("YCSB scan failed: " + st.message()));
      if (got != want) {
        return done(Status::Internal("YCSB scan from record " + std::to_string(r) + " returned " +
                                     std::to_string(got.size()) + " entries, not the " + std::to_string(want.size()) +
                                     " expected (or wrong keys or values)"));
      }
      read_lat_.Record(static_cast<uint64_t>(sim()->now() - t0));
      done(Status::Ok());
    });
  }

  void OnWriteDone(uint64_t r, sim::SimTime issued) override {
    write_lat_.Record(static_cast<uint64_t>(sim()->now() - issued));
    if (r >= st_->present.size()) st_->present.resize(r + 1 + r / 4, 0);
    if (!st_->present[r]) {
      st_->present[r] = 1;
      ++st_->keys;
    }
  }
  void OnReadDone(sim::SimTime issued) override { read_lat_.Record(static_cast<uint64_t>(sim()->now() - issued)); }

  void Begin() override { start_ = last_ = Take(m_); }

  void Sample(uint64_t completed) override {
    const Mark now = Take(m_);
    YcsbSample s;
    s.ops = completed;
    s.t_s = sim::NsToSec(now.t - start_.t);
    s.write_iops = Rate(Writes(now.k) - Writes(last_.k), now.k.write_ns - last_.k.write_ns);
    s.read_iops = Rate(Reads(now.k) - Reads(last_.k), now.k.read_ns - last_.k.read_ns);
    s.cum_write_iops = Rate(Writes(now.k) - Writes(start_.k), now.k.write_ns - start_.k.write_ns);
    s.cum_read_iops = Rate(Reads(now.k) - Reads(start_.k), now.k.read_ns - start_.k.read_ns);
    s.cache_hit_ratio = Ratio(now.hits - last_.hits, (now.hits - last_.hits) + (now.misses - last_.misses));
    samples_->push_back(s);
    last_ = now;
  }

  void Finish(const ycsb::OpCounts& counts) override {
    const Mark end = Take(m_);
    const kv::KvCounters& a = start_.k;
    const kv::KvCounters& b = end.k;
    PhaseTotals t;
    static_cast<ycsb::OpCounts&>(t) = counts;
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
    *totals_ = t;
  }

 private:
  Machine* m_;
  kv::KvStore* store_;
  State* st_;
  PhaseTotals* totals_;
  std::vector<YcsbSample>* samples_;
  Mark start_, last_;
  sim::LogHistogram read_lat_, write_lat_;
};

}  // namespace

StatusOr<YcsbRun> RunYcsb(Machine* m, const RunConfig& c, const std::function<bool(double)>& progress) {
  if (m == nullptr || m->store() == nullptr) return Status::InvalidArgument("YCSB run: the machine has no store");
  auto planned = ycsb::PlanRun(c, m->config().records);
  if (!planned.ok()) return planned.status();
  const ycsb::RunPlan& plan = planned.value();
  const uint64_t n = plan.records;
  if (plan.ops > 0 && plan.workload.scan > 0 && !m->store()->has_scan()) {
    return Status::InvalidArgument(std::string("YCSB workload '") + c.workload + "' scans, and the " +
                                   m->store()->kind() + " store has no ordered scan");
  }
  YcsbRun out;
  std::vector<uint32_t> versions(n, 0);
  State st;
  st.present.assign(n, c.load ? 0 : 1);
  st.keys = c.load ? 0 : n;
  st.track_keys = plan.ops > 0 && plan.workload.scan > 0;
  if (st.track_keys && !c.load) {
    std::string k;
    for (uint64_t r = 0; r < n; ++r) {
      ycsb::KeyFor(r, m->config().params.key_bytes, &k);
      st.by_key.emplace(k, r);
    }
  }
  Status s = ycsb::RunPhasesInto(
      c, plan, &out,
      [&](const ycsb::PhaseSpec& p, PhaseTotals* t, std::vector<YcsbSample>* samples) {
        return Phase(m, &versions, &st, c.clients, p, progress, t, samples);
      },
      [m] { return m->DropCaches(); });
  if (!s.ok()) return s;
  return out;
}

}  // namespace fawnlab::stores
