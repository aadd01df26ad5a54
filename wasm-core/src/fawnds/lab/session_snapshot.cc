// FawndsSession::SnapshotJson: the per-frame picture (docs/modules.md, "The FAWN-DS lab's
// session", lists the fields).
#include <algorithm>

#include "fawnds/lab/ring.h"
#include "fawnds/lab/session.h"

namespace fawnlab::fawndslab {
namespace {

constexpr sim::SimDuration kBinNs = 50 * sim::kMs;
constexpr int64_t kBins = 120;

void WriteRange(JsonWriter& w, const fawnds::KeyRange& r) {
  w.Key("range");
  w.BeginObject();
  w.Key("start_hex");
  w.String(r.start.Hex());
  w.Key("end_hex");
  w.String(r.end.Hex());
  w.Key("start_frac");
  w.Number(RingFraction(r.start));
  w.Key("end_frac");
  w.Number(r.start == r.end ? RingFraction(r.end) + 1 : RingFraction(r.end));
  w.Key("label");
  w.String(RangeLabel(r));
  w.EndObject();
}

void Num(JsonWriter& w, const char* k, double v) {
  w.Key(k);
  w.Number(v);
}

// A store as the snapshot lists it.
struct StoreView {
  size_t id;
  const char* role;
  fawnds::KeyRange range;
  uint64_t slot, file_offset, log_end, log_capacity, records, live, lost;
  int index_bits;
  uint64_t buckets, index_bytes, checkpoints;
};

void WriteStoreView(JsonWriter& w, const StoreView& v) {
  w.BeginObject();
  w.Key("id");
  w.Int(static_cast<int64_t>(v.id));
  w.Key("role");
  w.String(v.role);
  WriteRange(w, v.range);
  Num(w, "slot", static_cast<double>(v.slot));
  Num(w, "file_offset", static_cast<double>(v.file_offset));
  Num(w, "log_end", static_cast<double>(v.log_end));
  Num(w, "log_capacity", static_cast<double>(v.log_capacity));
  Num(w, "records", static_cast<double>(v.records));
  Num(w, "live", static_cast<double>(v.live));
  Num(w, "lost", static_cast<double>(v.lost));
  w.Key("index_bits");
  w.Int(v.index_bits);
  Num(w, "buckets", static_cast<double>(v.buckets));
  Num(w, "index_bytes", static_cast<double>(v.index_bytes));
  Num(w, "checkpoints", static_cast<double>(v.checkpoints));
  w.EndObject();
}

}  // namespace

void FawndsSession::WriteStore(JsonWriter& w, size_t i, const fawnds::DataStore& s, const fawnds::KeyRange& r, uint64_t slot,
                               const char* role) {
  LogTable& t = TableFor(&s);
  t.CatchUp(s);
  WriteStoreView(w, StoreView{i, role, r, slot, s.options().region_offset, s.log_end(), s.log_capacity(), t.size(), s.live_keys(), 0,
                              s.index().index_bits(), s.index().buckets(), s.index().bytes(), s.stats().checkpoints});
}

void FawndsSession::WriteLookup(JsonWriter& w) const {
  w.Key("last_lookup");
  if (!has_lookup_) {
    w.Null();
    return;
  }
  const Lookup& l = last_lookup_;
  w.BeginObject();
  w.Key("op");
  w.String(l.op);
  w.Key("key");
  w.String(l.key);
  w.Key("key_hex");
  w.String(l.key_hex);
  w.Key("store");
  w.Int(l.store);
  Num(w, "index", l.index);
  Num(w, "fragment", l.fragment);
  w.Key("queued");
  w.Bool(l.queued);
  w.Key("probes");
  w.BeginArray();
  for (const Probe& p : l.probes) {
    w.BeginArray(true);
    w.Int(p.j);
    w.Number(static_cast<double>(p.bucket));
    w.Bool(p.valid);
    w.Int(p.fragment);
    w.Number(p.offset);
    w.String(p.outcome);
    w.EndArray();
  }
  w.EndArray();
  w.Key("reads");
  w.BeginArray();
  const fawnds::DataStore* s = l.store >= 0 && node_ && static_cast<size_t>(l.store) < node_->num_stores()
                                   ? &node_->store(static_cast<size_t>(l.store))
                                   : nullptr;
  for (size_t i = 0; i < l.reads.size(); ++i) {
    w.BeginObject();
    Num(w, "log_offset", static_cast<double>(l.reads[i].first));
    Num(w, "bytes", l.reads[i].second);
    Num(w, "device_offset", s ? static_cast<double>(s->DeviceOffsetOf(l.reads[i].first)) : -1);
    w.Key("false_positive");
    w.Bool(l.read_false_positive[i]);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void FawndsSession::WriteCounters(JsonWriter& w) {
  uint64_t live = 0, index_bytes = 0, log_bytes = 0, buckets = 0;
  if (node_) {
    for (size_t i = 0; i < node_->num_stores(); ++i) {
      const fawnds::DataStore& s = node_->store(i);
      live += s.live_keys();
      index_bytes += s.index().bytes();
      buckets += s.index().buckets();
      log_bytes += s.log_end();
    }
  }
  const device::DeviceCounters& dc = flash_->counters();
  double mean_us = 0;
  for (const auto& d : recent_done_) mean_us += sim::NsToUs(d.second);
  if (!recent_done_.empty()) mean_us /= static_cast<double>(recent_done_.size());
  w.Key("counters");
  w.BeginObject();
  Num(w, "ops_issued", static_cast<double>(ops_issued_));
  Num(w, "ops_completed", static_cast<double>(ops_completed_));
  Num(w, "puts", static_cast<double>(puts_));
  Num(w, "gets", static_cast<double>(gets_));
  Num(w, "deletes", static_cast<double>(deletes_));
  Num(w, "hits", static_cast<double>(hits_));
  Num(w, "misses", static_cast<double>(misses_));
  Num(w, "measured_gets", static_cast<double>(measured_gets_));
  Num(w, "reads_per_lookup", measured_gets_ ? static_cast<double>(get_reads_) / static_cast<double>(measured_gets_) : 0);
  Num(w, "false_positives", static_cast<double>(false_positives_));
  Num(w, "live_keys", static_cast<double>(live));
  Num(w, "index_bytes", static_cast<double>(index_bytes));
  Num(w, "index_bytes_per_bucket", buckets ? static_cast<double>(index_bytes) / static_cast<double>(buckets) : 0);
  Num(w, "dram_bytes_per_key", live ? static_cast<double>(index_bytes) / static_cast<double>(live) : 0);
  Num(w, "log_bytes", static_cast<double>(log_bytes));
  Num(w, "client_bytes", static_cast<double>(client_record_bytes_));
  const uint64_t written = dc.host_write_bytes - std::min(dc.host_write_bytes, baseline_write_bytes_);
  Num(w, "node_bytes_written", static_cast<double>(written));
  Num(w, "write_amplification",
      client_record_bytes_ ? static_cast<double>(written) / static_cast<double>(client_record_bytes_) : 0);
  Num(w, "flash_write_amplification", dc.write_amplification());
  Num(w, "qps", static_cast<double>(done_times_.size()));  // completions in the last virtual second
  Num(w, "mean_latency_us", mean_us);
  w.EndObject();
}

void FawndsSession::WriteTimeline(JsonWriter& w) {
  const sim::SimTime now = sim_.now();
  const int64_t last = now / kBinNs;
  const int64_t first = std::max<int64_t>(0, last - kBins + 1);
  w.Key("timeline");
  w.BeginObject();
  Num(w, "bin_ns", static_cast<double>(kBinNs));
  Num(w, "first_ns", static_cast<double>(first * kBinNs));
  w.Key("qps");
  w.BeginArray(true);
  for (int64_t b = first; b <= last; ++b) {
    auto it = qps_bins_.find(b);
    const double n = it == qps_bins_.end() ? 0 : static_cast<double>(it->second);
    w.Number(n / sim::NsToSec(kBinNs));  // the current bin is still filling
  }
  w.EndArray();
  w.Key("locks");
  w.BeginArray(true);
  for (const auto& l : locks_) {
    w.BeginArray(true);
    w.Number(static_cast<double>(l[0]));
    w.Number(static_cast<double>(l[1]));
    w.EndArray();
  }
  if (saw_locked_) {
    w.BeginArray(true);
    w.Number(static_cast<double>(lock_started_));
    w.Number(static_cast<double>(now));
    w.EndArray();
  }
  w.EndArray();
  w.Key("maintenance");
  w.BeginArray(true);
  for (const auto& [s, e, k] : maint_spans_) {
    w.BeginArray(true);
    w.Number(static_cast<double>(s));
    w.Number(static_cast<double>(e));
    w.String(k);
    w.EndArray();
  }
  if (saw_running_) {
    w.BeginArray(true);
    w.Number(static_cast<double>(maint_started_));
    w.Number(static_cast<double>(now));
    w.String(maint_kind_);
    w.EndArray();
  }
  w.EndArray();
  w.EndObject();
}

std::string FawndsSession::SnapshotJson() {
  JsonWriter w;
  w.BeginObject();
  Num(w, "time_ns", static_cast<double>(sim_.now()));
  Num(w, "version", static_cast<double>(version_));
  w.Key("crashed");
  w.Bool(crashed_);
  Num(w, "crashed_at_ns", static_cast<double>(crashed_at_));

  w.Key("config");
  w.BeginObject();
  w.Key("profile");
  w.String(config_.profile);
  w.Key("capacity_mb");
  w.Int(config_.capacity_mb);
  w.Key("stores");
  w.Int(config_.stores);
  w.Key("index_bits");
  w.Int(config_.index_bits);
  w.Key("file_mb");
  w.Int(config_.file_mb);
  Num(w, "lock_hold_us", config_.lock_hold_us);
  w.Key("page_cache_mb");
  w.Int(config_.page_cache_mb);
  w.Key("value_bytes");
  w.Int(config_.value_bytes);
  Num(w, "load_rate_per_s", config_.load_rate_per_s);
  Num(w, "load_put_fraction", config_.load_put_fraction);
  w.Key("load_keys");
  w.Int(config_.load_keys);
  w.EndObject();

  const device::DeviceCounters& dc = flash_->counters();
  w.Key("device");
  w.BeginObject();
  w.Key("profile");
  w.String(flash_->info().profile);
  w.Key("kind");
  w.String(flash_->info().kind);
  Num(w, "capacity_bytes", static_cast<double>(flash_->info().capacity_bytes));
  Num(w, "unit_bytes", flash_->info().unit_bytes);
  Num(w, "reads", static_cast<double>(dc.reads));
  Num(w, "writes", static_cast<double>(dc.writes));
  Num(w, "flushes", static_cast<double>(dc.flushes));
  Num(w, "host_read_bytes", static_cast<double>(dc.host_read_bytes));
  Num(w, "host_write_bytes", static_cast<double>(dc.host_write_bytes));
  Num(w, "media_write_bytes", static_cast<double>(dc.media_write_bytes));
  Num(w, "erases", static_cast<double>(dc.erases));
  Num(w, "gc_moves", static_cast<double>(dc.gc_moves));
  Num(w, "queue_depth", dc.queue_depth);
  Num(w, "joules", flash_->Joules());
  Num(w, "unsynced_bytes", crashed_ ? 0 : static_cast<double>(injector_->unsynced_bytes()));
  Num(w, "cache_hits", cache_ ? static_cast<double>(cache_->hits()) : 0);
  Num(w, "cache_misses", cache_ ? static_cast<double>(cache_->misses()) : 0);
  w.EndObject();

  w.Key("stores");
  w.BeginArray();
  if (crashed_) {
    for (size_t i = 0; i < frozen_.size(); ++i) {
      const Frozen& f = frozen_[i];
      const uint64_t buckets = uint64_t{1} << config_.index_bits;
      WriteStoreView(w, StoreView{i, "crashed", f.range, f.slot, f.slot * (uint64_t(config_.file_mb) << 20), f.log.log_end, f.log_capacity,
                                  f.log.offsets.size(), 0, f.lost, config_.index_bits, buckets, 0, 0});
    }
  } else {
    PruneTables();
    const fawnds::DataStore* src = node_->maintenance_source();
    const fawnds::DataStore* dst = node_->maintenance_destination();
    for (size_t i = 0; i < node_->num_stores(); ++i) {
      const fawnds::DataStore& s = node_->store(i);
      const char* role = &s == src ? "source" : &s == dst ? "destination" : "serving";
      WriteStore(w, i, s, node_->range(i), node_->slot(i), role);
    }
    if (dst && node_->progress().kind != "merge") {
      WriteStore(w, node_->num_stores(), *dst, dst->options().range,
                 dst->options().region_offset / (uint64_t(config_.file_mb) << 20), "building");
    }
  }
  w.EndArray();

  w.Key("maintenance");
  w.BeginObject();
  const bool running = !crashed_ && node_->maintenance_running();
  w.Key("running");
  w.Bool(running);
  w.Key("kind");
  w.String(running ? node_->progress().kind : maint_kind_);
  int source = -1, dest = -1;
  if (running) {
    for (size_t i = 0; i < node_->num_stores(); ++i) {
      if (&node_->store(i) == node_->maintenance_source()) source = static_cast<int>(i);
      if (&node_->store(i) == node_->maintenance_destination()) dest = static_cast<int>(i);
    }
    if (dest < 0) dest = static_cast<int>(node_->num_stores());
  }
  w.Key("source");
  w.Int(source);
  w.Key("destination");
  w.Int(dest);
  const fawnds::MaintenanceProgress empty;
  const fawnds::MaintenanceProgress& p = running ? node_->progress() : empty;
  Num(w, "scanned", static_cast<double>(p.scanned));
  Num(w, "source_end", static_cast<double>(p.source_end));
  Num(w, "copied", static_cast<double>(p.copied));
  Num(w, "skipped", static_cast<double>(p.skipped));
  w.Key("locked");
  w.Bool(p.locked);
  Num(w, "lock_hold_ns", config_.lock_hold_us * 1000.0);
  Num(w, "lock_started_ns", p.locked ? static_cast<double>(lock_started_) : -1);
  Num(w, "started_ns", running ? static_cast<double>(maint_started_) : -1);
  Num(w, "queued", running ? static_cast<double>(node_->queued()) : 0);
  w.Key("last_result");
  w.String(maint_result_);
  w.EndObject();

  WriteLookup(w);

  w.Key("ops");
  w.BeginArray();
  for (const OpResult& o : ops_) {
    w.BeginObject();
    Num(w, "id", static_cast<double>(o.id));
    w.Key("op");
    w.String(o.op);
    w.Key("key");
    w.String(o.key);
    w.Key("status");
    w.String(o.status);
    w.Key("message");
    w.String(o.message);
    w.Key("value");
    w.String(o.value);
    Num(w, "latency_ns", o.done >= 0 ? static_cast<double>(o.done - o.issued) : -1);
    w.EndObject();
  }
  w.EndArray();

  w.Key("recovery");
  if (!recovery_) {
    w.Null();
  } else {
    w.BeginObject();
    Num(w, "duration_ns", static_cast<double>(recovery_->duration_ns));
    Num(w, "list_seq", static_cast<double>(recovery_->list_seq));
    Num(w, "restricted", static_cast<double>(recovery_->restricted));
    w.Key("stores");
    w.BeginArray();
    for (const RecoveredStore& f : recovery_->stores) {
      w.BeginObject();
      Num(w, "slot", static_cast<double>(f.slot));
      w.Key("range");
      w.String(RangeLabel(f.range));
      w.Key("from_checkpoint");
      w.Bool(f.report.from_checkpoint);
      Num(w, "checkpoint_seq", static_cast<double>(f.report.checkpoint_seq));
      Num(w, "replayed_records", static_cast<double>(f.report.replayed_records));
      Num(w, "log_end", static_cast<double>(f.report.log_end));
      w.Key("end_reason");
      w.String(f.report.end_reason);
      Num(w, "duration_ns", static_cast<double>(f.report.duration_ns));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }

  w.Key("load");
  w.BeginObject();
  Num(w, "outstanding", outstanding_);
  Num(w, "issued", static_cast<double>(load_issued_));
  Num(w, "shed", static_cast<double>(load_shed_));
  Num(w, "errors", static_cast<double>(load_errors_));
  w.Key("last_error");
  w.String(last_load_error_);
  w.EndObject();

  WriteCounters(w);
  WriteTimeline(w);
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::fawndslab
