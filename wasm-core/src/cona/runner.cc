#include "cona/runner.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

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

// One phase on the CONA store: the closed loop is ycsb::ClosedLoop's; the samples and totals
// are read off the store's stats, the page cache and the flash device.
class Phase : public ycsb::ClosedLoop {
 public:
  Phase(Machine* m, std::vector<uint32_t>* versions, int clients, const ycsb::PhaseSpec& spec,
        const std::function<bool(double)>& progress, PhaseTotals* totals, std::vector<YcsbSample>* samples)
      : ClosedLoop(m->sim(), versions, m->store()->options().key_bytes, m->store()->options().value_bytes, clients, spec,
                   progress),
        m_(m),
        store_(m->store()),
        totals_(totals),
        samples_(samples) {}

 protected:
  Status StorePut(uint64_t, const std::string& key, const std::string& value, Done done) override {
    return store_->Put(key, value, std::move(done));
  }
  Status StoreGet(const std::string& key, GetDone done) override { return store_->Get(key, std::move(done)); }
  Status StoreScan(uint64_t, const std::string& key, int length, Done done) override {
    return store_->Scan(key, length, [done = std::move(done)](const Status& st, auto) {
      done(st.ok() ? st : Status::Internal("YCSB scan failed: " + st.message()));
    });
  }

  void Begin() override { start_ = last_ = Take(m_); }

  void Sample(uint64_t completed) override {
    const Mark now = Take(m_);
    YcsbSample s;
    s.ops = completed;
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

  void Finish(const ycsb::OpCounts& counts) override {
    const Mark end = Take(m_);
    PhaseTotals t;
    static_cast<ycsb::OpCounts&>(t) = counts;
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
    *totals_ = t;
  }

 private:
  Machine* m_;
  Store* store_;
  PhaseTotals* totals_;
  std::vector<YcsbSample>* samples_;
  Mark start_, last_;
};

}  // namespace

StatusOr<YcsbRun> RunYcsb(Machine* m, const RunConfig& c, const std::function<bool(double)>& progress) {
  if (m == nullptr || m->store() == nullptr) return Status::InvalidArgument("YCSB run: the machine has no store (crashed?)");
  auto plan = ycsb::PlanRun(c, m->config().records);
  if (!plan.ok()) return plan.status();
  YcsbRun out;
  std::vector<uint32_t> versions(plan.value().records, 0);
  Status s = ycsb::RunPhasesInto(
      c, plan.value(), &out,
      [&](const ycsb::PhaseSpec& p, PhaseTotals* t, std::vector<YcsbSample>* samples) {
        return Phase(m, &versions, c.clients, p, progress, t, samples);
      },
      [m] { return m->DropCaches(); });
  if (!s.ok()) return s;
  return out;
}

}  // namespace fawnlab::cona
