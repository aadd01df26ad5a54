// StoresSession::SnapshotJson (the per-frame picture; its fields: docs/stores/session.md and
// COMMON17.md's pinned shape) and the "timeline" column view.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "stores/lab/session.h"

namespace fawnlab::stores {
namespace {

double Milli(double v) { return std::round(v * 1000) / 1000; }
double Centi(double v) { return std::round(v * 100) / 100; }
double Ratio(double a, double b) { return b > 0 ? a / b : 0; }

void Num(JsonWriter& w, const char* k, double v) {
  w.Key(k);
  w.Number(v);
}
void Int(JsonWriter& w, const char* k, uint64_t v) {
  w.Key(k);
  w.Int(static_cast<int64_t>(v));
}
void Str(JsonWriter& w, const char* k, const std::string& v) {
  w.Key(k);
  w.String(v);
}

// The q-quantile (0..1) of the latencies, in µs (nearest rank); 0 with none.
double QuantileUs(const std::deque<uint32_t>& ns, double q) {
  if (ns.empty()) return 0;
  std::vector<uint32_t> v(ns.begin(), ns.end());
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - (q > 0 ? 1 : 0));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return Centi(static_cast<double>(v[k]) / 1e3);
}

}  // namespace

void StoresSession::WriteLane(JsonWriter& w, const Lane& l) const {
  const kv::KvCounters k = l.store->counters();
  w.BeginObject();
  Str(w, "kind", l.kind);
  Str(w, "label", l.label);
  const uint64_t ops = l.done_ops - l.ops0;
  Int(w, "ops", ops);
  Int(w, "queued", l.urgent.size() + (l.fill_end - l.fill_next) + l.queue.size() + (l.busy ? 1 : 0));
  Int(w, "reads", k.gets + k.scans - l.reads0);
  Int(w, "writes", k.puts + k.deletes - l.writes0);

  // Over the last kWindowNs: each kind's rate over the foreground time spent in it (as the
  // thesis and stores/runner.h report them), the stall share of write time, and the
  // background actors' busy share of wall time.
  const Sample now = SampleOf(l);
  const Sample* from = nullptr;
  for (const Sample& x : l.samples) {
    if (x.t >= now.t - kWindowNs) {
      from = &x;
      break;
    }
  }
  double write_iops = 0, read_iops = 0, stall = 0, busy = 0;
  if (from && now.t > from->t) {
    const double dw = static_cast<double>(now.writes - from->writes), dr = static_cast<double>(now.reads - from->reads);
    const double wns = static_cast<double>(now.write_ns - from->write_ns), rns = static_cast<double>(now.read_ns - from->read_ns);
    write_iops = Ratio(dw, wns / 1e9);
    read_iops = Ratio(dr, rns / 1e9);
    stall = 100 * Ratio(static_cast<double>(now.stall_ns - from->stall_ns), wns);
    busy = 100 * Ratio(static_cast<double>(now.background_ns - from->background_ns), static_cast<double>(now.t - from->t));
  }
  Num(w, "write_iops", std::round(write_iops));
  Num(w, "read_iops", std::round(read_iops));
  Num(w, "read_p50_us", QuantileUs(l.read_lat_ns, 0.5));
  Num(w, "read_p99_us", QuantileUs(l.read_lat_ns, 0.99));
  Num(w, "write_p50_us", QuantileUs(l.write_lat_ns, 0.5));
  Num(w, "write_p99_us", QuantileUs(l.write_lat_ns, 0.99));
  const uint64_t dram = l.store->dram_bytes();
  Int(w, "dram_bytes", dram);
  Num(w, "dram_bytes_per_key", Milli(Ratio(static_cast<double>(dram), static_cast<double>(Keys()))));
  Num(w, "lookup_reads_per_get", Milli(Ratio(static_cast<double>(k.lookup_reads), static_cast<double>(k.gets))));
  Num(w, "store_wa", Milli(Ratio(static_cast<double>(k.store_bytes_written), static_cast<double>(k.user_bytes))));
  device::FlashDevice* flash = l.machine->flash();
  Num(w, "ftl_wa", Milli(flash ? flash->counters().write_amplification() : 0));
  // Since the preload: the machine's energy (host idle + busy cores + the device) per operation.
  Num(w, "joules_per_op", ops ? (l.machine->Joules() - l.joules0) / static_cast<double>(ops) : 0);
  Num(w, "stall_pct", Centi(stall));
  Num(w, "background_busy_pct", Centi(busy));
  Int(w, "background_jobs", k.background_jobs);
  Int(w, "shed", l.shed);
  Int(w, "skipped_scans", l.skipped_scans);
  Int(w, "errors", l.errors);
  Int(w, "mismatches", l.mismatches);
  Str(w, "last_error", l.last_error);
  w.Key("structure");
  l.store->DescribeJson(&w);
  w.EndObject();
}

std::string StoresSession::SnapshotJson() {
  JsonWriter w;
  w.BeginObject();
  Num(w, "t_ns", static_cast<double>(sim_->now()));
  Str(w, "workload", stream_.workload());
  Int(w, "ops_offered", offered_);
  Num(w, "rate_ops_per_s", stream_.rate());
  Int(w, "records", next_record_);
  Int(w, "keys", Keys());
  w.Key("stores");
  w.BeginArray();
  for (const Lane& l : lanes_) WriteLane(w, l);
  w.EndArray();
  w.Key("skipped");
  w.BeginArray();
  for (const auto& [kind, why] : skipped_) {
    w.BeginObject();
    Str(w, "kind", kind);
    Str(w, "reason", why);
    w.EndObject();
  }
  w.EndArray();
  w.Key("last_get");
  if (!has_last_get_) {
    w.Null();
  } else {
    w.BeginObject();
    Str(w, "key", last_get_.key);
    w.Key("per_store");
    w.BeginArray();
    for (const auto& [kind, u] : last_get_.per_store) {
      w.BeginObject();
      Str(w, "kind", kind);
      w.Key("found");
      w.Bool(u.found);
      Num(w, "latency_us", Centi(static_cast<double>(u.latency_ns) / 1e3));
      Int(w, "device_reads", u.device_reads);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.Key("events");
  w.BeginArray();
  for (const Event& e : events_) {
    w.BeginObject();
    Num(w, "t_ns", static_cast<double>(e.t));
    Str(w, "kind", e.kind);
    Str(w, "store", e.store);
    Str(w, "detail", e.detail);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.str();
}

StatusOr<ColumnSet> StoresSession::View(const std::string& name, const ParamValues&) {
  if (name != "timeline") return Status::NotFound("unknown view '" + name + "'");
  // One row per sample interval (kSampleNs) of the last kTimelineSamples; per store its
  // completed writes and reads per second and its queue.
  ColumnSet c;
  c.Number("sample_ns", static_cast<double>(kSampleNs));
  std::vector<double> t;
  for (size_t j = 1; j < sample_times_.size(); ++j) t.push_back(static_cast<double>(sample_times_[j]));
  c.F64("t_ns", t);
  for (const Lane& l : lanes_) {
    std::string id = l.kind;
    id.erase(std::remove(id.begin(), id.end(), '-'), id.end());  // cona-1t -> cona1t, as the metric names
    std::vector<double> writes, reads, queued;
    // A lane's samples are taken with sample_times_ (TakeSample), one each.
    for (size_t j = 1; j < l.samples.size(); ++j) {
      const Sample& a = l.samples[j - 1];
      const Sample& b = l.samples[j];
      const double secs = static_cast<double>(b.t - a.t) / 1e9;
      writes.push_back(secs > 0 ? std::round(static_cast<double>(b.writes - a.writes) / secs) : 0);
      reads.push_back(secs > 0 ? std::round(static_cast<double>(b.reads - a.reads) / secs) : 0);
      queued.push_back(static_cast<double>(b.queued));
    }
    c.F64(id + "_writes_per_s", writes);
    c.F64(id + "_reads_per_s", reads);
    c.F64(id + "_queued", queued);
  }
  return c;
}

}  // namespace fawnlab::stores
