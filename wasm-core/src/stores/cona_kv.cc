#include "stores/cona_kv.h"

#include <utility>

namespace fawnlab::stores {

cona::HostCosts ScaledCosts(const cona::HostCosts& c, double k) {
  cona::HostCosts s = c;
  s.op_base_ns *= k;
  s.key_compare_ns *= k;
  s.insert_move_ns_per_byte *= k;
  s.trie_symbol_ns *= k;
  s.cell_probe_ns *= k;
  s.fragment_compare_ns *= k;
  s.entry_compare_ns *= k;
  s.induce_copy_ns_per_byte *= k;
  s.build_ns_per_key *= k;
  s.merge_ns_per_entry *= k;
  return s;
}

ConaKv::ConaKv(device::Device* dev, std::unique_ptr<cona::Store> s)
    : dev_(dev), s_(std::move(s)), read_bytes_at_create_(dev->counters().host_read_bytes) {}

StatusOr<std::unique_ptr<ConaKv>> ConaKv::Create(device::Device* dev, cona::StoreOptions o, double cpu_scale) {
  if (!(cpu_scale > 0)) return Status::InvalidArgument("cona: cpu_scale must be above 0");
  o.costs = ScaledCosts(o.costs, cpu_scale);
  // The store's manifest write at creation is its own; the meter starts before it.
  const uint64_t before = dev->counters().host_read_bytes;
  auto s = cona::Store::Create(dev, o);
  if (!s.ok()) return s.status();
  std::unique_ptr<ConaKv> kv(new ConaKv(dev, std::move(s).value()));
  kv->read_bytes_at_create_ = before;
  return kv;
}

Status ConaKv::Put(std::string_view key, std::string_view value, Done done) { return s_->Put(key, value, std::move(done)); }
Status ConaKv::Delete(std::string_view key, Done done) { return s_->Delete(key, std::move(done)); }
Status ConaKv::Get(std::string_view key, GetDone done) { return s_->Get(key, std::move(done)); }
Status ConaKv::Scan(std::string_view start, int count, ScanDone done) { return s_->Scan(start, count, std::move(done)); }
Status ConaKv::Sync(Done done) { return s_->Sync(std::move(done)); }

kv::KvCounters ConaKv::counters() const {
  const cona::StoreStats& s = s_->stats();
  kv::KvCounters c;
  c.puts = s.puts;
  c.deletes = s.deletes;
  c.gets = s.gets;
  c.scans = s.scans;
  c.hits = s.hits;
  c.misses = s.misses;
  c.lookup_reads = s.flash_reads;
  // cona counts key + value of puts; a delete's entry carries its key.
  c.user_bytes = s.user_bytes + s.deletes * s_->options().key_bytes;
  c.store_bytes_written = s.store_bytes_written;
  c.store_bytes_read = dev_->counters().host_read_bytes - read_bytes_at_create_;
  c.write_ns = s.insert_ns;
  c.read_ns = s.read_ns + s.scan_ns;
  c.stall_ns = s.exposed_merge_ns;
  c.background_ns = s.merge_ns;
  c.foreground_cpu_ns = s.cpu_ns;
  c.background_jobs = s.merges;
  return c;
}

void ConaKv::DescribeJson(JsonWriter* w) const {
  const cona::Structure st = s_->structure();
  w->BeginObject();
  w->Key("type");
  w->String("cona");
  w->Key("buffer_capacity");
  w->Int(static_cast<int64_t>(st.buffer_capacity));
  w->Key("buffers");
  w->BeginArray(true);
  w->Int(static_cast<int64_t>(st.active_entries));
  w->Int(static_cast<int64_t>(st.frozen_entries));
  w->EndArray();
  w->Key("levels");
  w->BeginArray();
  for (int level = 1; level <= st.levels; ++level) {
    w->BeginObject();
    w->Key("level");
    w->Int(level);
    w->Key("cells");
    w->BeginArray();
    for (const cona::CellInfo& c : st.cells) {
      if (c.level != level) continue;
      w->BeginObject();
      w->Key("slot");
      w->Int(c.slot);
      w->Key("visible");
      w->Bool(c.visible);
      w->Key("entries");
      w->Int(static_cast<int64_t>(c.entries));
      w->Key("capacity");
      w->Int(static_cast<int64_t>(c.capacity));
      w->Key("merged");
      w->Int(static_cast<int64_t>(c.merged));
      w->EndObject();
    }
    w->EndArray();
    w->EndObject();
  }
  w->EndArray();
  w->Key("merging");
  w->Bool(st.merging);
  w->Key("merge_level");
  w->Int(st.merging ? st.merge_level : 0);
  w->EndObject();
}

}  // namespace fawnlab::stores
