// ConaSession::SnapshotJson (the per-frame picture; its fields: docs/cona/session.md) and
// the "timeline" column view.
#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "cona/lab/session.h"

namespace fawnlab::cona {
namespace {

// The first two bytes of a store key, big-endian: where the key sits in the key space.
uint16_t KeyPrefix16(const std::string& key) {
  const auto b = [&](size_t i) { return i < key.size() ? static_cast<uint16_t>(static_cast<unsigned char>(key[i])) : uint16_t{0}; };
  return static_cast<uint16_t>(b(0) << 8 | b(1));
}

double Milli(double v) { return std::round(v * 1000) / 1000; }
double Centi(double v) { return std::round(v * 100) / 100; }
double Ratio(double a, double b) { return b > 0 ? a / b : 0; }

void Num(JsonWriter& w, const char* k, double v) {
  w.Key(k);
  w.Number(v);
}
void Int(JsonWriter& w, const char* k, int64_t v) {
  w.Key(k);
  w.Int(v);
}
void Int(JsonWriter& w, const char* k, uint64_t v) { Int(w, k, static_cast<int64_t>(v)); }
void Int(JsonWriter& w, const char* k, int v) { Int(w, k, static_cast<int64_t>(v)); }
void Bool(JsonWriter& w, const char* k, bool v) {
  w.Key(k);
  w.Bool(v);
}
void Str(JsonWriter& w, const char* k, const std::string& v) {
  w.Key(k);
  w.String(v);
}

}  // namespace

std::vector<uint16_t> ConaSession::BufferKeys(int which) const {
  // The active buffer holds the distinct keys written since the last swap, the frozen one
  // those written between the two swaps before (the store applies writes in call order).
  const uint64_t first_kept = written_total_ - written_.size();
  const uint64_t from = std::max(first_kept, which == 0 ? swap_at_[0] : swap_at_[1]);
  const uint64_t to = which == 0 ? written_total_ : std::max(first_kept, swap_at_[0]);
  std::unordered_set<std::string> seen;
  std::vector<uint16_t> keys;
  for (uint64_t i = from; i < to; ++i) {
    const std::string& k = written_[static_cast<size_t>(i - first_kept)];
    if (seen.insert(k).second) keys.push_back(KeyPrefix16(k));
  }
  std::sort(keys.begin(), keys.end());
  if (keys.size() <= kKeySamples) return keys;
  std::vector<uint16_t> sampled;
  for (size_t i = 0; i < kKeySamples; ++i) sampled.push_back(keys[i * keys.size() / kKeySamples]);
  return sampled;
}

void ConaSession::WriteCounters(JsonWriter& w, const Structure& s, const StoreStats& st) const {
  w.Key("counters");
  w.BeginObject();
  Int(w, "puts", st.puts);
  Int(w, "gets", st.gets);
  Int(w, "deletes", st.deletes);
  Int(w, "hits", st.hits);
  Int(w, "misses", st.misses);
  Int(w, "flash_reads", st.flash_reads);
  Int(w, "false_positives", st.false_positives);
  Int(w, "fragment_skips", st.fragment_skips);
  Int(w, "induces", st.induces);
  Int(w, "merges", st.merges);
  Int(w, "flips", st.flips);
  Int(w, "merge_moves", st.merge_moves);
  Num(w, "merge_steps_per_insert", Milli(Ratio(static_cast<double>(st.merge_moves), static_cast<double>(st.puts + st.deletes))));
  Num(w, "exposed_merge_ms", Milli(static_cast<double>(st.exposed_merge_ns) / 1e6));
  Num(w, "merge_ms", Milli(static_cast<double>(st.merge_ns) / 1e6));
  Num(w, "insert_ms", Milli(static_cast<double>(st.insert_ns) / 1e6));
  const double dram = store_ ? static_cast<double>(store_->dram_bytes()) : 0;
  Int(w, "dram_bytes", static_cast<uint64_t>(dram));
  Num(w, "dram_bytes_per_key", Milli(Ratio(dram, static_cast<double>(s.entries))));
  Num(w, "index_bytes_per_key", Milli(Ratio(static_cast<double>(s.trie_bytes + s.fragment_bytes), static_cast<double>(s.entries))));
  Int(w, "trie_bytes", s.trie_bytes);
  Int(w, "fragment_bytes", s.fragment_bytes);
  Int(w, "buffer_bytes", s.buffer_bytes);
  Num(w, "store_write_amp", Milli(Ratio(static_cast<double>(st.store_bytes_written), static_cast<double>(st.user_bytes))));
  Num(w, "ftl_write_amp", Milli(machine_->flash()->counters().write_amplification()));

  // Over the last kWindowNs: the store's rates as the thesis reports them (operations per
  // second of foreground time spent in them, cona/runner.h) and as completed per second.
  const Sample now = SampleNow();
  const Sample* from = nullptr;
  for (const Sample& x : samples_) {
    if (x.t >= now.t - kWindowNs) {
      from = &x;
      break;
    }
  }
  double write_iops = 0, read_iops = 0, writes_per_s = 0, reads_per_s = 0, hit_ratio = 0, moves_per_s = 0;
  if (from && now.t > from->t && now.writes >= from->writes && now.reads >= from->reads) {
    const double secs = static_cast<double>(now.t - from->t) / 1e9;
    const double dw = static_cast<double>(now.writes - from->writes), dr = static_cast<double>(now.reads - from->reads);
    write_iops = Ratio(dw, static_cast<double>(now.insert_ns - from->insert_ns) / 1e9);
    read_iops = Ratio(dr, static_cast<double>(now.read_ns - from->read_ns) / 1e9);
    writes_per_s = dw / secs;
    reads_per_s = dr / secs;
    moves_per_s = static_cast<double>(now.merge_moves - from->merge_moves) / secs;
    if (now.cache_hits >= from->cache_hits && now.cache_misses >= from->cache_misses) {
      const double h = static_cast<double>(now.cache_hits - from->cache_hits), m = static_cast<double>(now.cache_misses - from->cache_misses);
      hit_ratio = Ratio(h, h + m);
    }
  }
  Num(w, "write_iops", std::round(write_iops));
  Num(w, "read_iops", std::round(read_iops));
  Num(w, "writes_per_s", std::round(writes_per_s));
  Num(w, "reads_per_s", std::round(reads_per_s));
  Num(w, "merge_moves_per_s", std::round(moves_per_s));
  Num(w, "cache_hit_ratio", Milli(hit_ratio));
  w.Key("served_by");
  w.BeginArray(true);
  for (uint64_t v : st.served_by) w.Int(static_cast<int64_t>(v));
  w.EndArray();
  w.EndObject();
}

void ConaSession::WriteLookup(JsonWriter& w) const {
  w.Key("last_lookup");
  if (!has_lookup_) {
    w.Null();
    return;
  }
  const Lookup& l = last_lookup_;
  w.BeginObject();
  Str(w, "key", l.key);
  Int(w, "prefix", static_cast<uint64_t>(KeyPrefix16(l.store_key)));  // beside the buffers' key prefixes
  if (l.record >= 0) Int(w, "record", static_cast<uint64_t>(l.record));
  Bool(w, "found", l.found);
  Num(w, "latency_us", Centi(static_cast<double>(l.latency_ns) / 1e3));
  int reads = 0;
  for (const LookupStep& s : l.trace.steps) reads += s.flash_read ? 1 : 0;
  Int(w, "flash_reads", static_cast<uint64_t>(reads));
  w.Key("steps");
  w.BeginArray();
  for (const LookupStep& s : l.trace.steps) {
    w.BeginObject();
    Int(w, "level", s.level);
    Int(w, "slot", s.slot);
    Int(w, "rank", s.rank);
    Int(w, "trie_symbols", s.trie_symbols);
    Int(w, "fragment", s.fragment);
    Bool(w, "flash_read", s.flash_read);
    Bool(w, "cache_hit", s.cache_hit);
    Int(w, "outcome", s.outcome);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void ConaSession::WriteRecovery(JsonWriter& w) const {
  Num(w, "recovered_at_ns", static_cast<double>(recovered_at_));
  Int(w, "manifest_seq", recovery_.manifest_seq);
  Int(w, "cells", recovery_.cells);
  Int(w, "cell_entries", recovery_.cell_entries);
  Int(w, "buffer_entries", recovery_.buffer_entries);  // restored from the synced buffer image
  Int(w, "bytes_read", recovery_.bytes_read);
  Num(w, "recovery_us", Centi(static_cast<double>(recovery_.duration_ns) / 1e3));
}

std::string ConaSession::SnapshotJson() {
  // While crashed: the structure as the power failed (what was on flash and what was lost).
  const Structure s = store_ ? store_->structure() : at_crash_;
  const StoreStats st = TotalStats();
  JsonWriter w;
  w.BeginObject();
  Num(w, "t_ns", static_cast<double>(sim_->now()));
  Bool(w, "crashed", crashed_);
  Str(w, "workload", stream_.workload());
  Num(w, "rate_ops_per_s", stream_.rate());
  Int(w, "records", next_record_);
  Int(w, "buffer_capacity", s.buffer_capacity);
  Int(w, "levels", s.levels);
  Int(w, "max_levels", s.max_levels);
  Int(w, "entries", s.entries);

  w.Key("buffers");
  w.BeginArray();
  for (int b = 0; b < 2; ++b) {
    w.BeginObject();
    Str(w, "role", b == 0 ? "active" : "frozen");
    Int(w, "entries", b == 0 ? s.active_entries : s.frozen_entries);
    if (b == 1) {
      Bool(w, "waiting", s.frozen_waiting);
    }
    w.Key("keys");
    w.BeginArray(true);
    if (store_) {
      for (uint16_t k : BufferKeys(b)) w.Int(k);
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();

  w.Key("cells");
  w.BeginArray();
  for (const CellInfo& c : s.cells) {
    w.BeginObject();
    Int(w, "level", c.level);
    Int(w, "slot", c.slot);
    Bool(w, "visible", c.visible);
    Int(w, "entries", c.entries);
    Int(w, "capacity", c.capacity);
    Int(w, "merged", c.merged);
    Int(w, "trie_bytes", c.trie_bytes);
    Int(w, "fragment_bytes", c.fragment_bytes);
    Int(w, "block", c.block_size);
    Int(w, "fragment_bits", c.fragment_bits);
    Int(w, "seq", c.seq);
    Bool(w, "done", c.done);
    Bool(w, "consumed", c.consumed);
    w.EndObject();
  }
  w.EndArray();

  w.Key("merge");
  w.BeginObject();
  const bool merging = s.merging && !crashed_;  // a crash cuts the merge short
  Bool(w, "active", merging);
  Int(w, "level", merging ? s.merge_level : 0);
  Int(w, "moved", merging ? s.merge_moved : 0);
  Int(w, "total", merging ? s.merge_total : 0);
  w.EndObject();

  WriteCounters(w, s, st);
  WriteLookup(w);

  w.Key("events");
  w.BeginArray();
  for (const Event& e : events_) {
    w.BeginObject();
    Int(w, "n", e.n);
    Num(w, "t_ns", static_cast<double>(e.t));
    Str(w, "kind", e.kind);
    Int(w, "level", e.level);
    w.EndObject();
  }
  w.EndArray();

  w.Key("load");
  w.BeginObject();
  Int(w, "offered", offered_);
  Int(w, "completed", done_ops_);
  Int(w, "outstanding", static_cast<uint64_t>(outstanding_));
  Int(w, "shed", shed_);
  Int(w, "errors", errors_);
  Str(w, "last_error", last_error_);
  Int(w, "unsynced_writes", acked_since_sync_);
  w.EndObject();

  w.Key("recovery");
  if (recovered_) {
    w.BeginObject();
    WriteRecovery(w);
    w.EndObject();
  } else {
    w.Null();
  }
  w.EndObject();
  return w.str();
}

StatusOr<ColumnSet> ConaSession::View(const std::string& name, const ParamValues&) {
  if (name != "timeline") return Status::NotFound("unknown view '" + name + "'");
  // One row per sample interval (kSampleNs) of the last kTimelineSamples: the thesis's time
  // series (Figs 3.15-3.20) live.
  std::vector<double> t, writes, reads, write_iops, read_iops, moves, exposed_ms, hit, levels, entries;
  for (size_t i = 1; i < samples_.size(); ++i) {
    const Sample& a = samples_[i - 1];
    const Sample& b = samples_[i];
    if (b.t <= a.t || b.writes < a.writes || b.reads < a.reads) continue;
    const double secs = static_cast<double>(b.t - a.t) / 1e9;
    t.push_back(static_cast<double>(b.t));
    writes.push_back(std::round(static_cast<double>(b.writes - a.writes) / secs));
    reads.push_back(std::round(static_cast<double>(b.reads - a.reads) / secs));
    write_iops.push_back(std::round(Ratio(static_cast<double>(b.writes - a.writes), static_cast<double>(b.insert_ns - a.insert_ns) / 1e9)));
    read_iops.push_back(std::round(Ratio(static_cast<double>(b.reads - a.reads), static_cast<double>(b.read_ns - a.read_ns) / 1e9)));
    moves.push_back(static_cast<double>(b.merge_moves - a.merge_moves));
    exposed_ms.push_back(Milli(static_cast<double>(b.exposed_merge_ns - a.exposed_merge_ns) / 1e6));
    const bool ok = b.cache_hits >= a.cache_hits && b.cache_misses >= a.cache_misses;
    const double h = ok ? static_cast<double>(b.cache_hits - a.cache_hits) : 0, m = ok ? static_cast<double>(b.cache_misses - a.cache_misses) : 0;
    hit.push_back(Milli(Ratio(h, h + m)));
    levels.push_back(b.levels);
    entries.push_back(static_cast<double>(b.entries));
  }
  ColumnSet c;
  c.Number("sample_ns", static_cast<double>(kSampleNs));
  c.F64("t_ns", t);
  c.F64("writes_per_s", writes);
  c.F64("reads_per_s", reads);
  c.F64("write_iops", write_iops);
  c.F64("read_iops", read_iops);
  c.F64("merge_moves", moves);
  c.F64("exposed_merge_ms", exposed_ms);
  c.F64("cache_hit_ratio", hit);
  c.F64("levels", levels);
  c.F64("entries", entries);
  return c;
}

}  // namespace fawnlab::cona
