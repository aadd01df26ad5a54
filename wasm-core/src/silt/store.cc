#include "silt/store.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <utility>

#include "device/page_cache.h"
#include "silt/store_internal.h"

namespace fawnlab::silt {

using sim::SimDuration;
using sim::SimTime;

namespace {
Status CheckOptions(const Options& o) {
  if (!(o.cpu_scale > 0)) return Status::InvalidArgument("cpu_scale must be positive");
  if (o.max_displacements < 0 || o.max_displacements > 10000)
    return Status::InvalidArgument("max_displacements = " + std::to_string(o.max_displacements) + " is out of range [0, 10000]");
  if (o.merge_hash_stores < 1 || o.merge_hash_stores > o.max_hash_stores)
    return Status::InvalidArgument("merge_hash_stores = " + std::to_string(o.merge_hash_stores) +
                                   " must be in [1, max_hash_stores = " + std::to_string(o.max_hash_stores) + "]");
  if (o.trie_block < 2 || o.trie_block > 1024)
    return Status::InvalidArgument("trie_block = " + std::to_string(o.trie_block) + " is out of range [2, 1024]");
  if (o.merge_chunk_bytes < 4096)
    return Status::InvalidArgument("merge_chunk_bytes = " + std::to_string(o.merge_chunk_bytes) + " is below 4096");
  if (o.log_sync_bytes < 4096 || o.log_sync_bytes > (uint64_t{1} << 40))
    return Status::InvalidArgument("log_sync_bytes = " + std::to_string(o.log_sync_bytes) + " is out of range [4096, 2^40]");
  return Status::Ok();
}
}  // namespace

uint32_t LogSlotsForEntries(uint64_t entries) {
  const double target = static_cast<double>(kSiltLogSlots / 4) * static_cast<double>(entries) / static_cast<double>(kThesisEntries);
  uint32_t b = 8;
  while (b < kSiltLogSlots / 4 && 2.0 * b <= target) b *= 2;
  if (b < kSiltLogSlots / 4 && target - b > 2.0 * b - target) b *= 2;  // the nearer power of two
  return 4 * b;
}

uint64_t SiltStore::FileBytes(const Options& o, uint64_t entries) {
  const uint32_t slots = o.log_slots ? o.log_slots : LogSlotsForEntries(entries);
  auto l = Layout::Make(o.key_bytes, o.max_value_bytes, slots, o.max_hash_stores, 0, 0);
  if (!l.ok()) return 0;
  const uint64_t sorted = cona::AlignUp(std::max<uint64_t>(entries, 1) * l.value().entry.entry_bytes);
  return l.value().fixed_bytes() + 2 * sorted;
}

uint64_t SiltStore::DramEstimate(const Options& o, uint64_t keys) {
  const uint64_t slots = o.log_slots ? o.log_slots : LogSlotsForEntries(2 * keys);
  const uint64_t trie_bits_per_key = o.trie_block >= 64 ? 4 : o.trie_block >= 16 ? 7 : 18;  // cona/trie.h, Table 3.2
  return 2 * slots * 6 + 16 * slots * 2 + keys * trie_bits_per_key / 8;
}

SiltStore::SiltStore(device::Device* dev, Options o, Layout l)
    : dev_(dev), sim_(dev->sim()), o_(std::move(o)), layout_(l), hc_(Scaled(cona::I7_3610QM(), o_.cpu_scale)),
      sc_(Scaled(SiltI7(), o_.cpu_scale)), alive_(std::make_shared<bool>(true)) {
  hash_region_used_.assign(static_cast<size_t>(layout_.hash_regions), false);
  fg_free_at_ = bg_free_at_ = sim_->now();
  if (auto* pc = dynamic_cast<device::PageCache*>(dev_); pc && o_.direct_reads) direct_dev_ = pc->inner();
  dr_ = DirectReads(layout_.region_offset, layout_.region_bytes);
  sync_rng_ = sim::Rng(o_.seed ^ 0x5157u);
  next_log_sync_ = o_.log_sync_bytes << sync_rng_.UniformU64(4);
}

SiltStore::~SiltStore() { *alive_ = false; }

StatusOr<std::unique_ptr<SiltStore>> SiltStore::Create(device::Device* dev, Options o) {
  if (dev == nullptr) return Status::InvalidArgument("no device given for the SILT store");
  if (Status s = CheckOptions(o); !s.ok()) return s;
  const uint64_t cap = dev->info().capacity_bytes;
  if (o.region_offset >= cap)
    return Status::InvalidArgument("region_offset " + std::to_string(o.region_offset) + " is beyond the device's " +
                                   std::to_string(cap) + " bytes");
  const uint64_t bytes = o.region_bytes == 0 ? cap - o.region_offset : o.region_bytes;
  if (o.region_offset + bytes > cap)
    return Status::InvalidArgument("region [" + std::to_string(o.region_offset) + ", +" + std::to_string(bytes) +
                                   ") is beyond the device's " + std::to_string(cap) + " bytes");
  if (o.log_slots == 0) {
    // The LogStore of the most entries the region is sized for.
    uint64_t lo = 0, hi = uint64_t{1} << 40;
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo + 1) / 2;
      const uint64_t need = FileBytes(o, mid);
      if (need != 0 && need <= bytes) lo = mid;
      else hi = mid - 1;
    }
    o.log_slots = LogSlotsForEntries(lo);
  }
  auto l = Layout::Make(o.key_bytes, o.max_value_bytes, o.log_slots, o.max_hash_stores, o.region_offset, bytes);
  if (!l.ok()) return l.status();
  std::unique_ptr<SiltStore> s(new SiltStore(dev, std::move(o), l.value()));
  s->active_ = std::make_unique<Log>();
  s->active_->id = s->next_id_++;
  s->active_->region = 0;
  s->active_->table = CuckooTable(s->layout_.log_slots / CuckooTable::kWays, true, s->o_.max_displacements,
                                  s->o_.seed * 0x9E3779B97F4A7C15ull + s->active_->id);
  return s;
}

// ---------------------------------------------------------------- the foreground queue

Status SiltStore::CheckKey(std::string_view key) const {
  if (key.size() != layout_.entry.key_bytes)
    return Status::InvalidArgument("key is " + std::to_string(key.size()) + " bytes; the store's keys are " +
                                   std::to_string(layout_.entry.key_bytes) + " bytes (key_bytes)");
  return Status::Ok();
}

Status SiltStore::Enqueue(std::unique_ptr<Op> op) {
  if (failed_) return failure_;
  queue_.push_back(std::move(op));
  if (!current_) Pump();
  return Status::Ok();
}

void SiltStore::Pump() {
  if (current_ || queue_.empty() || failed_) return;
  current_ = std::move(queue_.front());
  queue_.pop_front();
  Op* op = current_.get();
  op->start = std::max(sim_->now(), fg_free_at_);
  op->cpu = hc_.op_base_ns;
  switch (op->kind) {
    case Op::kPut:
    case Op::kDelete: RunWrite(op); break;
    case Op::kGet: RunGet(op); break;
    case Op::kSync: {
      const uint64_t mark = dr_.BeginSync();
      Io(device::IoCommand::Single(device::IoEntry::Flush()), [this, op, mark] {
        dr_.SyncDone(mark);
        Complete(op, Status::Ok(), {});
      });
      break;
    }
  }
}

// The foreground core: `cost` after it is free (and after now).
void SiltStore::Finish(SimDuration cost, std::function<void()> then) {
  const SimTime t = std::max(sim_->now(), fg_free_at_) + cost;
  fg_free_at_ = t;
  c_.foreground_cpu_ns += cost;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [alive, then = std::move(then)] {
    if (auto a = alive.lock(); a && *a) then();
  });
}

// Charges the op's CPU, then answers it and serves the next.
void SiltStore::Complete(Op* op, const Status& st, std::string value) {
  Finish(hc_.ns(op->cpu), [this, op, st, value = std::move(value)]() mutable {
    const SimDuration lat = sim_->now() - op->start;
    if (op->kind == Op::kGet) c_.read_ns += lat;
    else if (op->kind != Op::kSync) c_.write_ns += lat;
    Done d = std::move(op->done);
    GetDone g = std::move(op->get_done);
    const bool is_get = op->kind == Op::kGet;
    current_.reset();
    Pump();
    if (is_get) {
      if (g) g(st, std::move(value));
    } else if (d) {
      d(st);
    }
  });
}

Status SiltStore::Io(device::IoCommand cmd, std::function<void()> then, device::Device* target) {
  cmd.stream = o_.stream;
  for (const auto& e : cmd.entries) {
    if (e.op == device::IoOp::kRead) c_.store_bytes_read += e.length;
    if (e.op == device::IoOp::kWrite) {
      c_.store_bytes_written += e.length;
      dr_.Written(e.offset, e.length);
    }
  }
  std::weak_ptr<bool> alive = alive_;
  Status s = (target ? target : dev_)->Submit(cmd, [alive, then = std::move(then)](const device::IoCompletion&) {
    if (auto a = alive.lock(); a && *a) then();
  });
  if (!s.ok() && !failed_) {
    failed_ = true;
    failure_ = Status::Unavailable("SILT store's device refused a command: " + s.ToString());
  }
  return s;
}

// SILT's FileStore::int_pread: the private sector cache, else O_DIRECT whole sectors from the
// device under the page cache if no page of the entry is dirty, else a buffered read.
void SiltStore::LookupRead(uint64_t off, std::shared_ptr<std::vector<uint8_t>> buf, std::function<void()> then) {
  const uint64_t len = buf->size();
  if (direct_dev_ && dr_.Clean(off, len)) {
    if (dr_.Lookup(off, len, buf->data())) {
      ++s_.sector_cache_hits;
      std::weak_ptr<bool> alive = alive_;
      sim_->Schedule(sim_->now(), [alive, then = std::move(then)] {
        if (auto a = alive.lock(); a && *a) then();
      });
      return;
    }
    ++s_.direct_reads;
    uint64_t s_off = 0, s_len = 0;
    DirectReads::Sectors(off, len, &s_off, &s_len);
    auto sec = std::make_shared<std::vector<uint8_t>>(s_len);
    const uint64_t issued = dr_.BeginSync();
    Io(device::IoCommand::Single(device::IoEntry::Read(s_off, s_len, sec->data())),
       [this, off, s_off, s_len, sec, buf, issued, then = std::move(then)] {
         dr_.Fill(s_off, s_len, sec->data(), issued);
         std::memcpy(buf->data(), sec->data() + (off - s_off), buf->size());
         then();
       },
       direct_dev_);
    return;
  }
  ++s_.buffered_reads;
  Io(device::IoCommand::Single(device::IoEntry::Read(off, len, buf->data())), std::move(then));
}

// An asynchronous fdatasync (SILT's FileStore SyncTask): a flush through the page cache; the
// pages written before it are clean once it completes. Nobody waits for it.
void SiltStore::AsyncSync() {
  const uint64_t mark = dr_.BeginSync();
  Io(device::IoCommand::Single(device::IoEntry::Flush()), [this, mark] {
    dr_.SyncDone(mark);
    ++s_.file_syncs;
  });
}

// ---------------------------------------------------------------- puts and deletes

Status SiltStore::Put(std::string_view key, std::string_view value, Done done) {
  if (Status s = CheckKey(key); !s.ok()) return s;
  if (value.size() > layout_.entry.value_bytes)
    return Status::InvalidArgument("value is " + std::to_string(value.size()) + " bytes; at most " +
                                   std::to_string(layout_.entry.value_bytes) + " (max_value_bytes)");
  if (accepted_ + 1 > layout_.sorted_entries)
    return Status::ResourceExhausted("SILT file full: its SortedStore slots take " + std::to_string(layout_.sorted_entries) +
                                     " puts and deletes (SiltStore::FileBytes)");
  auto op = std::make_unique<Op>();
  op->kind = Op::kPut;
  op->key.assign(key);
  op->value.assign(value);
  op->done = std::move(done);
  ++accepted_;
  return Enqueue(std::move(op));
}

Status SiltStore::Delete(std::string_view key, Done done) {
  if (Status s = CheckKey(key); !s.ok()) return s;
  if (accepted_ + 1 > layout_.sorted_entries)
    return Status::ResourceExhausted("SILT file full: its SortedStore slots take " + std::to_string(layout_.sorted_entries) +
                                     " puts and deletes (SiltStore::FileBytes)");
  auto op = std::make_unique<Op>();
  op->kind = Op::kDelete;
  op->key.assign(key);
  op->done = std::move(done);
  ++accepted_;
  return Enqueue(std::move(op));
}

// The active LogStore's table: the key's two buckets; a tag match may be the key itself (an
// update: the slot then points to the new entry) or another key with the same tag.
void SiltStore::RunWrite(Op* op) {
  if (active_->appended >= layout_.log_entries) {
    ++s_.log_full_freezes;
    Freeze(op);
    return;
  }
  op->hash = active_->table.Hash(op->key);
  op->cpu += sc_.cuckoo_hash_ns + 2 * (sc_.bucket_probe_ns + CuckooTable::kWays * sc_.tag_compare_ns);
  op->ncand = active_->table.Candidates(op->hash, op->cands);
  op->ci = 0;
  VerifyCandidate(op);
}

void SiltStore::VerifyCandidate(Op* op) {
  if (op->ci >= op->ncand) {
    // A new key in this LogStore.
    CuckooTable::InsertResult r = active_->table.Insert(op->hash, static_cast<uint32_t>(active_->appended));
    op->cpu += sc_.displacement_ns * r.displacements;
    if (!r.ok) {
      ++s_.failed_inserts;
      s_.last_log_occupancy = active_->table.occupancy();
      Freeze(op);
      return;
    }
    s_.displacements += static_cast<uint64_t>(r.displacements);
    op->cands[0] = r.slot;
    op->ci = -1;  // inserted (not an update)
    Append(op);
    return;
  }
  const uint32_t slot = op->cands[op->ci];
  const uint64_t E = layout_.entry.entry_bytes;
  auto buf = std::make_shared<std::vector<uint8_t>>(E);
  ++s_.put_verify_reads;
  op->cpu += 2 * sc_.syscall_ns;  // SILT reads a candidate's header, then its key (two preads)
  LookupRead(layout_.log_offset(active_->region) + uint64_t{active_->table.offset(slot)} * E, buf,
     [this, op, buf, slot] {
       std::string_view k, v;
       uint8_t kind = 0;
       op->cpu += hc_.entry_compare_ns;
       if (cona::DecodeEntry(layout_.entry, buf->data(), &k, &kind, &v).ok() && k == op->key) {
         ++s_.updates_in_place;
         active_->table.SetOffset(slot, static_cast<uint32_t>(active_->appended));
         op->cands[0] = slot;
         Append(op);
         return;
       }
       ++op->ci;
       VerifyCandidate(op);
     });
}

// The entry at the log's end (the table already points to it).
void SiltStore::Append(Op* op) {
  const bool del = op->kind == Op::kDelete;
  const uint64_t E = layout_.entry.entry_bytes;
  std::vector<uint8_t> bytes(E);
  cona::EncodeEntry(layout_.entry, op->key, del ? cona::kKindDelete : cona::kKindPut, op->value, bytes.data());
  const uint64_t off = layout_.log_offset(active_->region) + active_->appended * E;
  ++active_->appended;
  if (del) ++c_.deletes; else ++c_.puts;
  c_.user_bytes += op->key.size() + op->value.size();
  op->cpu += sc_.syscall_ns;  // the pwritev
  Io(device::IoCommand::Single(device::IoEntry::Write(off, E, bytes.data())), [this, op] {
    Complete(op, Status::Ok(), {});
  });
  log_unsynced_ += E;
  if (log_unsynced_ >= next_log_sync_) {
    log_unsynced_ = 0;
    next_log_sync_ = o_.log_sync_bytes << sync_rng_.UniformU64(4);
    AsyncSync();
  }
}

// The active LogStore is full: it becomes the frozen one (the background converts it) and a
// new one takes the write, unless the previous frozen one is still there: then wait.
void SiltStore::Freeze(Op* op) {
  if (frozen_) {
    if (!op->waiting) {
      op->waiting = true;
      op->wait_start = std::max(sim_->now(), fg_free_at_);
    }
    writer_wait_ = [this, op] { Freeze(op); };
    Kick();
    return;
  }
  if (op->waiting) {
    op->waiting = false;
    c_.stall_ns += sim_->now() - op->wait_start;
  }
  frozen_ = std::move(active_);
  active_ = std::make_unique<Log>();
  active_->id = next_id_++;
  active_->region = 1 - frozen_->region;
  active_->table = CuckooTable(layout_.log_slots / CuckooTable::kWays, true, o_.max_displacements,
                               o_.seed * 0x9E3779B97F4A7C15ull + active_->id);
  Kick();
  RunWrite(op);
}

void SiltStore::WakeWriter() {
  if (!writer_wait_) return;
  auto w = std::move(writer_wait_);
  writer_wait_ = nullptr;
  w();
}

// ---------------------------------------------------------------- gets

Status SiltStore::Get(std::string_view key, GetDone done) {
  if (Status s = CheckKey(key); !s.ok()) return s;
  auto op = std::make_unique<Op>();
  op->kind = Op::kGet;
  op->key.assign(key);
  op->get_done = std::move(done);
  return Enqueue(std::move(op));
}

void SiltStore::RunGet(Op* op) {
  ++c_.gets;
  op->cpu += sc_.cuckoo_hash_ns;
  op->hash = active_->table.Hash(op->key);
  op->layer = std::numeric_limits<uint64_t>::max();
  ProbeBelow(op);
}

// The newest layer older than op->layer, as the store is now (a merge or conversion may have
// replaced layers since the last one was probed: their entries are in the layers below).
void SiltStore::ProbeBelow(Op* op) {
  const CuckooTable* table = nullptr;
  uint64_t id = 0;
  for (const Log* l : {active_.get(), frozen_.get()}) {
    if (l && l->id < op->layer && l->id > id) {
      id = l->id;
      table = &l->table;
      op->layer_is_log = true;
      op->layer_base = layout_.log_offset(l->region);
    }
  }
  for (auto it = hash_.rbegin(); it != hash_.rend(); ++it) {
    const Hash* h = it->get();
    if (h->id < op->layer && h->id > id) {
      id = h->id;
      table = &h->tags;
      op->layer_is_log = false;
      op->layer_base = layout_.hash_offset(h->region);
    }
  }
  if (table) {
    op->layer = id;
    op->cpu += 2 * (sc_.bucket_probe_ns + CuckooTable::kWays * sc_.tag_compare_ns);
    op->ncand = table->Candidates(op->hash, op->cands);
    for (int i = 0; i < op->ncand; ++i) op->cands[i] = table->offset(op->cands[i]);  // entry index
    op->ci = 0;
    CheckNextCandidate(op);
    return;
  }
  // The SortedStore: the trie's rank, one read (a key it does not hold reads some entry).
  if (op->layer > 0 && sorted_ && sorted_->entries > 0) {
    op->layer = 0;
    uint64_t symbols = 0;
    const uint64_t rank = sorted_->trie->Rank(op->key, &symbols);
    s_.trie_symbols += symbols;
    op->cpu += hc_.cell_probe_ns + hc_.trie_symbol_ns * static_cast<double>(symbols);
    op->layer_is_log = false;
    op->layer_base = layout_.sorted_offset(sorted_->region);
    op->cands[0] = static_cast<uint32_t>(rank);
    op->ncand = 1;
    op->ci = 0;
    CheckNextCandidate(op);
    return;
  }
  ++c_.misses;
  Complete(op, Status::NotFound("key not found"), {});
}

void SiltStore::CheckNextCandidate(Op* op) {
  if (op->ci >= op->ncand) {
    if (op->layer == 0) {
      ++c_.misses;
      Complete(op, Status::NotFound("key not found"), {});
      return;
    }
    ProbeBelow(op);
    return;
  }
  const uint64_t E = layout_.entry.entry_bytes;
  auto buf = std::make_shared<std::vector<uint8_t>>(E);
  ++c_.lookup_reads;
  // SILT reads a candidate's header, then its key: two preads (the private sector cache saves
  // the device, not the calls); a third reads the value of a match (below).
  op->cpu += 2 * sc_.syscall_ns;
  LookupRead(op->layer_base + uint64_t{op->cands[op->ci]} * E, buf,
     [this, op, buf] {
       std::string_view k, v;
       uint8_t kind = 0;
       op->cpu += hc_.entry_compare_ns;
       if (cona::DecodeEntry(layout_.entry, buf->data(), &k, &kind, &v).ok() && k == op->key) {
         if (op->layer == 0) ++s_.served_sorted;
         else if (op->layer_is_log) ++s_.served_log;
         else ++s_.served_hash;
         if (kind == cona::kKindDelete) {
           ++c_.misses;
           Complete(op, Status::NotFound("key deleted"), {});
         } else {
           ++c_.hits;
           op->cpu += sc_.syscall_ns;
           Complete(op, Status::Ok(), std::string(v));
         }
         return;
       }
       // The SortedStore's rank of a key it does not hold reads another key: not a false
       // positive of a tag, the price of a filterless trie (SILT §3.3).
       if (op->layer != 0) ++s_.false_positives;
       ++op->ci;
       CheckNextCandidate(op);
     });
}

// ---------------------------------------------------------------- sync and inspection

Status SiltStore::Sync(Done done) {
  auto op = std::make_unique<Op>();
  op->kind = Op::kSync;
  op->done = std::move(done);
  return Enqueue(std::move(op));
}

bool SiltStore::idle() const {
  if (!queue_.empty() || current_ || bg_busy_ || merge_) return false;
  // Background work due: a frozen LogStore to convert, or enough HashStores to merge.
  if (frozen_) return false;
  return static_cast<int>(hash_.size()) < o_.merge_hash_stores;
}

kv::KvCounters SiltStore::counters() const {
  kv::KvCounters c = c_;
  // The background's busy span so far, if it is busy now (it is added when it goes idle).
  if (bg_busy_) c.background_ns += sim_->now() - bg_busy_since_;
  return c;
}

uint64_t SiltStore::dram_bytes() const {
  uint64_t b = 0;
  for (const LayerInfo& l : layers()) b += l.dram_bytes;
  return b;
}

std::vector<LayerInfo> SiltStore::layers() const {
  std::vector<LayerInfo> v;
  v.push_back({"log", active_->table.used(), active_->table.slots(), active_->table.bytes()});
  if (frozen_) v.push_back({"frozen-log", frozen_->table.used(), frozen_->table.slots(), frozen_->table.bytes()});
  for (auto it = hash_.rbegin(); it != hash_.rend(); ++it)
    v.push_back({"hash", (*it)->entries, (*it)->tags.slots(), (*it)->tags.bytes()});
  LayerInfo s{"sorted", 0, layout_.sorted_entries, 0};
  if (sorted_) {
    s.entries = sorted_->entries;
    s.dram_bytes = sorted_->trie ? sorted_->trie->bytes() : 0;
  }
  v.push_back(s);
  return v;
}

void SiltStore::DescribeJson(JsonWriter* w) const {
  w->BeginObject();
  w->Key("type");
  w->String("silt");
  auto counts = [w](uint64_t entries, uint64_t capacity) {
    w->BeginObject();
    w->Key("entries");
    w->Int(static_cast<int64_t>(entries));
    w->Key("capacity");
    w->Int(static_cast<int64_t>(capacity));
    w->EndObject();
  };
  w->Key("log");
  counts(active_->table.used(), active_->table.slots());
  // The frozen LogStore (waiting for or in conversion), beside the pinned fields.
  w->Key("frozen_log");
  if (frozen_) counts(frozen_->table.used(), frozen_->table.slots());
  else w->Null();
  w->Key("hash_stores");  // newest first
  w->BeginArray();
  for (auto it = hash_.rbegin(); it != hash_.rend(); ++it) counts((*it)->entries, (*it)->tags.slots());
  w->EndArray();
  w->Key("sorted");
  w->BeginObject();
  w->Key("entries");
  w->Int(static_cast<int64_t>(sorted_ ? sorted_->entries : 0));
  w->EndObject();
  w->Key("converting");
  w->Bool(converting_);
  w->Key("merging");
  w->Bool(merge_ != nullptr);
  w->EndObject();
}

}  // namespace fawnlab::silt
