#include "cona/store.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "device/page_cache.h"
#include "fawnds/record.h"

namespace fawnlab::cona {

using sim::SimDuration;
using sim::SimTime;

const char* TrieMixName(TrieMix m) {
  switch (m) {
    case TrieMix::kThesis: return "mix";
    case TrieMix::k4: return "4";
    case TrieMix::k16: return "16";
    case TrieMix::k64: return "64";
  }
  return "?";
}

int BlockSizeFor(TrieMix mix, int level, int levels) {
  switch (mix) {
    case TrieMix::k4: return 4;
    case TrieMix::k16: return 16;
    case TrieMix::k64: return 64;
    case TrieMix::kThesis: break;
  }
  // §3.2.1 / Table 3.3: with N levels, levels 1..N-4 block 4, N-3..N-1 block 16, N block 64.
  if (level >= levels) return 64;
  if (level > levels - 4) return 16;
  return 4;
}

struct Store::Cell {
  uint64_t id = 0;
  int level = 0, file_slot = 0;
  bool visible = false, done = false, consumed = false, in_merge = false;
  std::vector<uint64_t> sources;  // a shadow's source cells
  uint64_t entries = 0, merged = 0;
  uint32_t crc = 0;
  int block = 0, frag_bits = 0;
  CellIndex index;
  uint64_t offset = 0;
};

struct Store::Op {
  enum Kind { kPut, kDelete, kGet, kScan, kSync } kind = kPut;
  std::string key, value;
  Done done;
  GetDone get_done;
  ScanDone scan_done;
  LookupTrace* trace = nullptr;
  int count = 0;
  SimTime start = 0;
  SimTime wait_start = 0;
  SimTime induce_start = 0;
  // Get state.
  std::vector<uint64_t> order;
  SimDuration cpu = 0;
};

struct Store::Merge {
  int level = 0;  // sources' level; the shadow is at level + 1
  uint64_t src[2] = {0, 0};  // older, newer
  uint64_t out = 0;
  bool drop_tombstones = false;
  SimTime start = 0;
  struct Cursor {
    uint64_t next = 0, total = 0;   // next rank to read from the device; entries in the cell
    std::vector<uint8_t> chunk;     // entries read, not yet merged
    uint64_t pos = 0, count = 0;    // in chunk
    bool exhausted() const { return pos >= count && next >= total; }
    bool needs_read() const { return pos >= count && next < total; }
  } cur[2];
  std::vector<uint8_t> outbuf;
  uint64_t out_n = 0;
  std::vector<std::string> keys;
  uint32_t crc = 0;
  uint64_t chunk_entries = 1;
  uint64_t total = 0;  // at most
};

namespace {
Status BadKey(size_t got, uint32_t want) {
  return Status::InvalidArgument("key is " + std::to_string(got) + " bytes; the store's keys are " +
                                 std::to_string(want) + " bytes (key_bytes)");
}
}  // namespace

Store::Store(device::Device* dev, StoreOptions o, Layout l)
    : dev_(dev), sim_(dev->sim()), o_(std::move(o)), layout_(l), active_(l.buffer_entries), frozen_(l.buffer_entries),
      alive_(std::make_shared<bool>(true)) {
  slots_.assign(static_cast<size_t>(layout_.max_levels) + 2, std::vector<uint64_t>(3, 0));
  held_.assign(slots_.size(), std::vector<bool>(3, false));
  page_cache_ = dynamic_cast<device::PageCache*>(dev_);
  stats_.served_by.assign(static_cast<size_t>(layout_.max_levels) + 1, 0);
  fg_free_at_ = sim_->now();
  merge_free_at_ = sim_->now();
}

Store::~Store() { *alive_ = false; }

namespace {
Status CheckOptions(const StoreOptions& o) {
  if (o.fragment_bits != 0 && o.fragment_bits != 16)
    return Status::InvalidArgument("fragment_bits = " + std::to_string(o.fragment_bits) + " must be 16 or 0 (off)");
  if (o.last_fragment_bits != 0 && o.last_fragment_bits != 8 && o.last_fragment_bits != 16)
    return Status::InvalidArgument("last_fragment_bits = " + std::to_string(o.last_fragment_bits) + " must be 0, 8 or 16");
  if (o.merge_chunk_bytes < 512)
    return Status::InvalidArgument("merge_chunk_bytes = " + std::to_string(o.merge_chunk_bytes) + " is below 512");
  return Status::Ok();
}

StatusOr<Layout> LayoutFor(device::Device* dev, const StoreOptions& o) {
  if (dev == nullptr) return Status::InvalidArgument("no device given for the CONA store");
  Status s = CheckOptions(o);
  if (!s.ok()) return s;
  const uint64_t cap = dev->info().capacity_bytes;
  if (o.region_offset >= cap)
    return Status::InvalidArgument("region_offset " + std::to_string(o.region_offset) + " is beyond the device's " +
                                   std::to_string(cap) + " bytes");
  uint64_t bytes = o.region_bytes == 0 ? cap - o.region_offset : o.region_bytes;
  if (o.region_offset + bytes > cap)
    return Status::InvalidArgument("region [" + std::to_string(o.region_offset) + ", +" + std::to_string(bytes) +
                                   ") is beyond the device's " + std::to_string(cap) + " bytes");
  auto l = Layout::Make(o.buffer_bytes, o.key_bytes, o.value_bytes, o.region_offset, bytes);
  if (!l.ok()) return l.status();
  if (l.value().max_levels < 1)
    return Status::InvalidArgument("region of " + std::to_string(bytes) + " bytes is too small for one level (" +
                                   std::to_string(l.value().bytes_for_levels(1)) + " bytes needed)");
  return l;
}
}  // namespace

uint64_t Store::FileBytes(const StoreOptions& o, uint64_t entries) {
  auto l = Layout::Make(o.buffer_bytes, o.key_bytes, o.value_bytes, 0, 0);
  if (!l.ok()) return 0;
  Layout x = l.value();
  int k = 1;
  while (k < 40 && x.buffer_entries * (uint64_t{1} << k) - 1 < entries) ++k;
  return x.bytes_for_levels(k);
}

StatusOr<std::unique_ptr<Store>> Store::Create(device::Device* dev, StoreOptions o) {
  auto l = LayoutFor(dev, o);
  if (!l.ok()) return l.status();
  std::unique_ptr<Store> s(new Store(dev, std::move(o), l.value()));
  // Both manifest slots: the first, and the second cleared, so an old store's manifest in
  // this region cannot be taken for this one's.
  Manifest m;
  m.seq = 0;
  m.key_bytes = s->layout_.key_bytes;
  m.value_bytes = s->layout_.value_bytes;
  m.buffer_entries = s->layout_.buffer_entries;
  m.next_id = 1;
  std::vector<uint8_t> b0 = EncodeManifest(m);
  std::vector<uint8_t> zero(kManifestBytes, 0);
  device::IoCommand cmd{{device::IoEntry::Write(s->layout_.manifest_offset(0), kManifestBytes, b0.data()),
                         device::IoEntry::Write(s->layout_.manifest_offset(1), kManifestBytes, zero.data())},
                        s->o_.stream};
  auto r = device::SubmitAndWait(dev, cmd);
  if (!r.ok()) return r.status();
  auto f = device::SubmitAndWait(dev, device::IoCommand::Single(device::IoEntry::Flush(), s->o_.stream));
  if (!f.ok()) return f.status();
  s->manifest_seq_ = 1;
  s->stats_.store_bytes_written += 2 * kManifestBytes;
  s->fg_free_at_ = s->merge_free_at_ = dev->sim()->now();
  return s;
}

// ---------------------------------------------------------------- foreground queue

Status Store::CheckKey(std::string_view key) const {
  if (key.size() != layout_.key_bytes) return BadKey(key.size(), layout_.key_bytes);
  return Status::Ok();
}

Status Store::Enqueue(std::unique_ptr<Op> op) {
  if (failed_) return failure_;
  queue_.push_back(std::move(op));
  if (!current_) Pump();
  return Status::Ok();
}

void Store::Pump() {
  if (current_ || queue_.empty() || failed_) return;
  current_ = std::move(queue_.front());
  queue_.pop_front();
  Op* op = current_.get();
  op->start = std::max(sim_->now(), fg_free_at_);
  switch (op->kind) {
    case Op::kPut:
    case Op::kDelete: RunWrite(op); break;
    case Op::kGet: RunGet(op); break;
    case Op::kScan: RunScan(op); break;
    case Op::kSync: RunSync(op); break;
  }
}

void Store::Finish(SimDuration cost, std::function<void()> then) {
  const SimTime t = std::max(sim_->now(), fg_free_at_) + cost;
  fg_free_at_ = t;
  stats_.cpu_ns += cost;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [alive, then = std::move(then)] {
    if (auto a = alive.lock(); a && *a) then();
  });
}

void Store::OpDone() {
  current_.reset();
  Pump();
}

Status Store::Io(device::IoCommand cmd, std::function<void()> then) {
  cmd.stream = o_.stream;
  std::weak_ptr<bool> alive = alive_;
  Status s = dev_->Submit(cmd, [alive, then = std::move(then)](const device::IoCompletion&) {
    if (auto a = alive.lock(); a && *a) then();
  });
  if (!s.ok() && !failed_) {
    failed_ = true;
    failure_ = Status::Unavailable("CONA store's device refused a command: " + s.ToString());
  }
  return s;
}

// ---------------------------------------------------------------- puts and deletes

Status Store::CheckRoom() const {
  if (accepted_entries_ + 1 > layout_.max_entries())
    return Status::ResourceExhausted("CONA file full: its " + std::to_string(layout_.max_levels) + " levels take " +
                                     std::to_string(layout_.max_entries()) + " puts and deletes (Store::FileBytes)");
  return Status::Ok();
}

Status Store::Put(std::string_view key, std::string_view value, Done done) {
  Status s = CheckKey(key);
  if (!s.ok()) return s;
  if (value.size() > layout_.value_bytes)
    return Status::InvalidArgument("value is " + std::to_string(value.size()) + " bytes; at most " +
                                   std::to_string(layout_.value_bytes) + " (value_bytes)");
  if (Status f = CheckRoom(); !f.ok()) return f;
  auto op = std::make_unique<Op>();
  op->kind = Op::kPut;
  op->key.assign(key);
  op->value.assign(value);
  op->done = std::move(done);
  ++accepted_entries_;
  return Enqueue(std::move(op));
}

Status Store::Delete(std::string_view key, Done done) {
  Status s = CheckKey(key);
  if (!s.ok()) return s;
  if (Status f = CheckRoom(); !f.ok()) return f;
  auto op = std::make_unique<Op>();
  op->kind = Op::kDelete;
  op->key.assign(key);
  op->done = std::move(done);
  ++accepted_entries_;
  return Enqueue(std::move(op));
}

void Store::RunWrite(Op* op) {
  if (active_.full() && !active_.Contains(op->key)) {
    if (frozen_.empty()) {
      active_.Swap(frozen_);
      image_frozen_ = image_active_;
      image_active_ = {};
    } else {
      MakeRoom(op);
      return;
    }
  }
  const bool del = op->kind == Op::kDelete;
  BufferWork w = active_.Insert(op->key, op->value, del);
  const HostCosts& c = o_.costs;
  const SimDuration cost = c.ns(c.op_base_ns + c.key_compare_ns * static_cast<double>(w.compares) +
                                c.insert_move_ns_per_byte * static_cast<double>(w.moved_entries * layout_.entry_bytes));
  if (del) ++stats_.deletes; else ++stats_.puts;
  stats_.user_bytes += op->key.size() + op->value.size();
  Finish(cost, [this, op] {
    stats_.insert_ns += sim_->now() - op->start;
    Done d = std::move(op->done);
    OpDone();
    if (d) d(Status::Ok());
  });
}

int Store::VisibleCount(int level) const {
  int n = 0;
  for (uint64_t id : slots_[level]) if (id && cells_.at(id)->visible) ++n;
  return n;
}

bool Store::HasShadow(int level) const {
  for (uint64_t id : slots_[level]) if (id && !cells_.at(id)->visible) return true;
  return false;
}

int Store::FreeSlot(int level) const {
  for (int s = 0; s < 3; ++s) if (slots_[level][s] == 0 && !held_[level][s]) return s;
  return -1;
}

// The last level's rule (§3.1.2: no fragments there by default): a cell is built as the last
// level's when no other cell is at its level or below (docs/decisions.md "CONA: N").
bool Store::AloneAtBottom(int level, uint64_t self) const {
  for (int l = level; l <= layout_.max_levels; ++l)
    for (uint64_t id : slots_[l]) if (id && id != self) return false;
  return true;
}

int Store::Depth() const {
  for (int l = layout_.max_levels; l >= 1; --l)
    for (uint64_t id : slots_[l]) if (id) return l;
  return 0;
}


bool Store::TryLink(int level) {
  if (level > layout_.max_levels) return false;
  Cell* sh = nullptr;
  for (uint64_t id : slots_[level]) if (id && !cells_.at(id)->visible) sh = cells_.at(id).get();
  if (!sh || !sh->done) return false;
  // Already merged into the completed shadow below: linking that one discards this one.
  if (sh->consumed) return TryLink(level + 1);
  if (VisibleCount(level) >= 2) {
    for (uint64_t id : slots_[level]) {
      if (id && cells_.at(id)->visible && !cells_.at(id)->consumed) return false;
    }
    if (!TryLink(level + 1)) return false;
    if (VisibleCount(level) >= 2) return false;
  }
  const std::vector<uint64_t> src = sh->sources;
  for (uint64_t id : src) Discard(id);
  sh->sources.clear();
  sh->visible = true;
  ++stats_.links;
  return true;
}

void Store::Discard(uint64_t id) {
  auto it = cells_.find(id);
  if (it == cells_.end()) return;
  Cell* c = it->second.get();
  std::vector<uint64_t> src = c->visible ? std::vector<uint64_t>{} : c->sources;
  slots_[c->level][c->file_slot] = 0;
  // The durable manifest may still name this cell: its slot is not reused until a manifest
  // that no longer does is durable (WriteManifest releases it).
  if (c->visible && o_.durable_links) held_[c->level][c->file_slot] = true;
  cells_.erase(it);
  for (uint64_t s : src) Discard(s);
}

void Store::MakeRoom(Op* op) {
  auto stop_waiting = [this, op] {
    if (frozen_waiting_) {
      stats_.exposed_merge_ns += sim_->now() - op->wait_start;
      frozen_waiting_ = false;
    }
  };
  if (VisibleCount(1) < 2 && FreeSlot(1) >= 0) {
    stop_waiting();
    Induce(op);
    return;
  }
  const uint64_t links0 = stats_.links;
  if (VisibleCount(1) >= 2) TryLink(2);
  // (A deeper link may have happened even when level 2's shadow could not follow.)
  if (stats_.links != links0) {
    ++stats_.flips;
    stop_waiting();
    // The link names new visible cells: a manifest says so (level 1's freed slots are reused
    // only once it is durable).
    op->induce_start = sim_->now();
    WriteManifest(false, [this, op] {
      stats_.induce_ns += sim_->now() - op->induce_start;
      MakeRoom(op);
    });
    return;
  }
  // Wait: for the merge actor, or for the flush that frees a held level-1 slot.
  if (!frozen_waiting_) {
    frozen_waiting_ = true;
    op->wait_start = std::max(sim_->now(), fg_free_at_);
  }
  if (!merge_) MergeKick();
  if (!merge_ && !manifest_busy_ && !manifest_due_) {
    failed_ = true;
    failure_ = Status::Internal("CONA store stuck: level 1 is full and no merge can run");

    return;
  }
  writer_wait_ = [this, op] { MakeRoom(op); };
}

void Store::NotifyWriter() {
  if (writer_wait_) {
    auto w = std::move(writer_wait_);
    writer_wait_ = nullptr;
    w();
  }
}

void Store::Induce(Op* op) {
  const int slot = FreeSlot(1);
  assert(slot >= 0);
  op->induce_start = std::max(sim_->now(), fg_free_at_);
  auto cell = std::make_unique<Cell>();
  cell->id = next_id_++;
  cell->level = 1;
  cell->file_slot = slot;
  cell->offset = layout_.cell_offset(1, slot);
  const int depth = std::max(Depth(), 1);
  cell->block = BlockSizeFor(o_.trie, 1, depth);
  cell->frag_bits = AloneAtBottom(1, 0) ? o_.last_fragment_bits : o_.fragment_bits;
  const auto& es = frozen_.entries();
  cell->entries = es.size();
  cell->merged = es.size();
  std::vector<uint8_t> bytes(es.size() * layout_.entry_bytes);
  std::vector<std::string> keys;
  keys.reserve(es.size());
  for (size_t i = 0; i < es.size(); ++i) {
    EncodeEntry(layout_, es[i].key, es[i].del ? kKindDelete : kKindPut, es[i].value, bytes.data() + i * layout_.entry_bytes);
    keys.push_back(es[i].key);
  }
  cell->crc = fawnds::Crc32c(bytes.data(), bytes.size());
  auto idx = CellIndex::Build(keys, cell->block, cell->frag_bits);
  assert(idx.ok());
  cell->index = std::move(idx).value();
  const HostCosts& c = o_.costs;
  const SimDuration cpu = c.ns(c.induce_copy_ns_per_byte * static_cast<double>(bytes.size()) +
                               c.build_ns_per_key * static_cast<double>(es.size()));
  Cell* raw = cell.get();
  cells_[raw->id] = std::move(cell);
  slots_[1][slot] = raw->id;  // occupied (not yet visible) while its bytes are written
  stats_.store_bytes_written += bytes.size();
  auto data = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  Finish(cpu, [this, op, raw, data] {
    Io(device::IoCommand::Single(device::IoEntry::Write(raw->offset, data->size(), data->data())), [this, op, raw] {
      raw->visible = raw->done = true;
      frozen_.Clear();
      active_.Swap(frozen_);
      image_frozen_ = image_active_;  // the induced part of the image is in a cell now
      image_active_ = {};
      ++stats_.induces;
      WriteManifest(false, [this, op] {
        stats_.induce_ns += sim_->now() - op->induce_start;
        MergeKick();
        if (!o_.merge_thread && merge_) {
          op->wait_start = sim_->now();
          SingleThreadWait(op);
          return;
        }
        RunWrite(op);
      });
    });
  });
}

// The single-thread variant: the writer does every merge the induce made due before it goes
// on (all of it exposed).
void Store::SingleThreadWait(Op* op) {
  if (merge_) {
    writer_wait_ = [this, op] { SingleThreadWait(op); };
    return;
  }
  stats_.exposed_merge_ns += sim_->now() - op->wait_start;
  RunWrite(op);
}

// ---------------------------------------------------------------- manifest and sync

std::vector<uint8_t> Store::BuildManifest(bool sync) {
  Manifest m;
  m.seq = manifest_seq_++;
  m.key_bytes = layout_.key_bytes;
  m.value_bytes = layout_.value_bytes;
  m.buffer_entries = layout_.buffer_entries;
  m.next_id = next_id_;
  m.synced_seq = sync ? m.seq : last_sync_seq_;
  m.image_slot = (image_frozen_.count || image_active_.count) ? image_slot_ : -1;
  m.frozen = image_frozen_;
  m.active = image_active_;
  for (const auto& [id, c] : cells_) {
    if (!c->visible) continue;
    ManifestCell mc;
    mc.level = static_cast<uint8_t>(c->level);
    mc.file_slot = static_cast<uint8_t>(c->file_slot);
    mc.id = c->id;
    mc.entries = c->entries;
    mc.block_size = static_cast<uint8_t>(c->block);
    mc.fragment_bits = static_cast<uint8_t>(c->frag_bits);
    mc.crc = c->crc;
    m.cells.push_back(mc);
  }
  ++stats_.manifests;
  stats_.store_bytes_written += kManifestBytes;
  return EncodeManifest(m);
}

// A manifest names the visible cells (and the synced image). It goes to the slot that does not
// hold the newest durable manifest (a torn write there would leave nothing to recover from).
// `durable` (a sync): flush (the cells and image it names are durable first: a write-back cache
// may reorder), write, flush, then `then`. Otherwise (an induce or a link) `then` at once:
// with durable_links the same three steps run in the background, one manifest at a time, the
// newest state each time, and the slots of cells it no longer names are reused only once it is
// durable; without, the manifest is written, unflushed (the next sync makes it durable).
void Store::WriteManifest(bool durable, std::function<void()> then) {
  if (!durable && !o_.durable_links) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(BuildManifest(false));
    Io(device::IoCommand::Single(device::IoEntry::Write(layout_.manifest_offset(1 - durable_slot_), kManifestBytes,
                                                        bytes->data())),
       [bytes, then = std::move(then)] { then(); });
    return;
  }
  if (durable) sync_waiters_.push_back(std::move(then));
  else manifest_due_ = true;
  PumpManifest();
  if (!durable) then();
}

void Store::PumpManifest() {
  if (manifest_busy_ || failed_ || (!manifest_due_ && sync_waiters_.empty())) return;
  manifest_busy_ = true;
  manifest_due_ = false;
  const bool sync = !sync_waiters_.empty();
  auto waiters = std::make_shared<std::vector<std::function<void()>>>(std::move(sync_waiters_));
  sync_waiters_.clear();
  // Built now: every cell it names (and the image) was written before the flush below.
  const uint64_t seq = manifest_seq_;
  auto bytes = std::make_shared<std::vector<uint8_t>>(BuildManifest(sync));
  std::vector<std::pair<int, int>> release;
  for (int l = 1; l < static_cast<int>(held_.size()); ++l)
    for (int sl = 0; sl < 3; ++sl) if (held_[l][sl]) release.emplace_back(l, sl);
  const int slot = 1 - durable_slot_;
  auto done = [this, release, slot, seq, sync, waiters] {
    manifest_busy_ = false;
    durable_slot_ = slot;
    durable_seq_ = seq;
    if (sync) last_sync_seq_ = seq;
    for (const auto& [l, sl] : release) held_[l][sl] = false;
    PumpManifest();  // a manifest due meanwhile (before anyone below checks for progress)
    if (!release.empty()) MergeKick();
    for (auto& w : *waiters) w();
    NotifyWriter();
  };
  Io(device::IoCommand::Single(device::IoEntry::Flush()), [this, bytes, slot, done] {
    Io(device::IoCommand::Single(device::IoEntry::Write(layout_.manifest_offset(slot), kManifestBytes, bytes->data())),
       [this, bytes, done] { Io(device::IoCommand::Single(device::IoEntry::Flush()), done); });
  });
}

Status Store::Sync(Done done) {
  auto op = std::make_unique<Op>();
  op->kind = Op::kSync;
  op->done = std::move(done);
  return Enqueue(std::move(op));
}

void Store::RunSync(Op* op) {
  // The buffers' image into the image slot the durable manifest does not name.
  const int slot = image_slot_ == 0 ? 1 : 0;
  const uint64_t nf = frozen_.size(), na = active_.size();
  auto data = std::make_shared<std::vector<uint8_t>>((nf + na) * layout_.entry_bytes);
  uint64_t i = 0;
  for (const SortedBuffer* b : {&frozen_, &active_}) {
    for (const auto& e : b->entries()) {
      EncodeEntry(layout_, e.key, e.del ? kKindDelete : kKindPut, e.value, data->data() + i * layout_.entry_bytes);
      ++i;
    }
  }
  const HostCosts& c = o_.costs;
  const SimDuration cpu = c.ns(c.op_base_ns + c.induce_copy_ns_per_byte * static_cast<double>(data->size()));
  Finish(cpu, [this, op, data, slot, nf, na] {
    auto after = [this, op, data, slot, nf, na] {
      image_slot_ = slot;
      image_frozen_ = {0, nf, fawnds::Crc32c(data->data(), nf * layout_.entry_bytes)};
      image_active_ = {nf, na, fawnds::Crc32c(data->data() + nf * layout_.entry_bytes, na * layout_.entry_bytes)};
      WriteManifest(true, [this, op] {
        ++stats_.syncs;
        stats_.sync_ns += sim_->now() - op->start;
        Done d = std::move(op->done);
        OpDone();
        if (d) d(Status::Ok());
      });
    };
    if (data->empty()) { after(); return; }
    stats_.store_bytes_written += data->size();
    Io(device::IoCommand::Single(device::IoEntry::Write(layout_.image_offset(slot), data->size(), data->data())), after);
  });
}

// ---------------------------------------------------------------- gets

Status Store::Get(std::string_view key, GetDone done, LookupTrace* trace) {
  Status s = CheckKey(key);
  if (!s.ok()) return s;
  auto op = std::make_unique<Op>();
  op->kind = Op::kGet;
  op->key.assign(key);
  op->get_done = std::move(done);
  op->trace = trace;
  if (trace) *trace = LookupTrace{};
  return Enqueue(std::move(op));
}

std::vector<const Store::Cell*> Store::SearchOrder() const {
  std::vector<const Cell*> v;
  for (const auto& [id, c] : cells_) if (c->visible) v.push_back(c.get());
  std::sort(v.begin(), v.end(), [](const Cell* a, const Cell* b) {
    if (a->level != b->level) return a->level < b->level;
    return a->id > b->id;  // within a level, the newer cell first
  });
  return v;
}

void Store::RunGet(Op* op) {
  ++stats_.gets;
  const HostCosts& c = o_.costs;
  double cpu = c.op_base_ns;
  auto answer = [this, op](bool found, bool del, std::string value, int served) {
    if (found && !del) ++stats_.hits; else ++stats_.misses;
    if (found && served >= 0 && static_cast<size_t>(served) < stats_.served_by.size()) ++stats_.served_by[served];
    const SimDuration cost = op->cpu;
    Finish(cost, [this, op, found, del, value = std::move(value)]() mutable {
      const SimDuration lat = sim_->now() - op->start;
      stats_.read_ns += lat;
      if (op->trace) {
        op->trace->found = found && !del;
        op->trace->latency_ns = lat;
      }
      GetDone d = std::move(op->get_done);
      OpDone();
      if (!d) return;
      if (found && !del) d(Status::Ok(), std::move(value));
      else d(Status::NotFound(del ? "key deleted" : "key not found"), std::string());
    });
  };
  int slot = 0;
  for (const SortedBuffer* b : {&active_, &frozen_}) {
    BufferWork w;
    const BufEntry* e = b->Find(op->key, &w);
    cpu += c.key_compare_ns * static_cast<double>(w.compares);
    if (op->trace)
      op->trace->steps.push_back(LookupStep{0, slot, w.pos, 0, -1, false, false, e ? (e->del ? 3 : 1) : 0});
    if (e) {
      op->cpu = c.ns(cpu);
      answer(true, e->del, e->value, 0);
      return;
    }
    ++slot;
  }
  op->order.clear();
  for (const Cell* cell : SearchOrder()) op->order.push_back(cell->id);
  ProbeCells(op, 0, c.ns(cpu));
}

void Store::ProbeCells(Op* op, size_t from, SimDuration cpu_ns) {
  const HostCosts& c = o_.costs;
  double cpu = static_cast<double>(cpu_ns);
  for (size_t i = from; i < op->order.size(); ++i) {
    auto it = cells_.find(op->order[i]);
    if (it == cells_.end()) continue;
    const Cell* cell = it->second.get();
    if (cell->entries == 0) continue;
    ProbeResult pr = cell->index.Probe(op->key);
    stats_.trie_symbols += pr.trie_symbols;
    cpu += c.cell_probe_ns + c.trie_symbol_ns * static_cast<double>(pr.trie_symbols) +
           (pr.fragment >= 0 ? c.fragment_compare_ns : 0);
    // The logical slot: visible cells at a level, older 0, newer 1.
    int lslot = 0;
    for (uint64_t id : slots_[cell->level])
      if (id && id != cell->id && cells_.at(id)->visible && id < cell->id) lslot = 1;
    LookupStep step{cell->level, lslot, pr.rank, pr.trie_symbols, pr.fragment, false, false, 0};
    if (pr.fragment == 0) {
      ++stats_.fragment_skips;
      if (op->trace) op->trace->steps.push_back(step);
      continue;
    }
    // One entry read, after the CPU work so far.
    ++stats_.flash_reads;
    auto buf = std::make_shared<std::vector<uint8_t>>(layout_.entry_bytes);
    const uint64_t off = cell->offset + pr.rank * layout_.entry_bytes;
    const int level = cell->level;
    auto st = std::make_shared<LookupStep>(step);
    Finish(c.ns(cpu), [this, op, i, buf, off, st, level] {
      device::PageCache* pc = page_cache_;
      const uint64_t misses0 = pc ? pc->misses() : 1;
      Status s = Io(device::IoCommand::Single(device::IoEntry::Read(off, layout_.entry_bytes, buf->data())),
                    [this, op, i, buf, st, level] {
                      LookupStep& step = *st;
                      std::string_view k, v;
                      uint8_t kind = 0;
                      Status d = DecodeEntry(layout_, buf->data(), &k, &kind, &v);
                      const HostCosts& c2 = o_.costs;
                      step.flash_read = true;
                      if (d.ok() && k == op->key) {
                        step.outcome = kind == kKindDelete ? 3 : 1;
                        if (op->trace) op->trace->steps.push_back(step);
                        const bool del = kind == kKindDelete;
                        if (del) ++stats_.misses; else ++stats_.hits;
                        if (static_cast<size_t>(level) < stats_.served_by.size()) ++stats_.served_by[level];
                        std::string value(v);
                        Finish(c2.ns(c2.entry_compare_ns), [this, op, del, value = std::move(value)]() mutable {
                          const SimDuration lat = sim_->now() - op->start;
                          stats_.read_ns += lat;
                          if (op->trace) { op->trace->found = !del; op->trace->latency_ns = lat; }
                          GetDone g = std::move(op->get_done);
                          OpDone();
                          if (!g) return;
                          if (!del) g(Status::Ok(), std::move(value));
                          else g(Status::NotFound("key deleted"), std::string());
                        });
                        return;
                      }
                      ++stats_.false_positives;
                      step.outcome = 2;
                      if (op->trace) op->trace->steps.push_back(step);
                      ProbeCells(op, i + 1, c2.ns(c2.entry_compare_ns));
                    });
      if (s.ok() && pc) st->cache_hit = pc->misses() == misses0;
      (void)s;
    });
    return;
  }
  // Not found anywhere.
  ++stats_.misses;
  Finish(c.ns(cpu), [this, op] {
    const SimDuration lat = sim_->now() - op->start;
    stats_.read_ns += lat;
    if (op->trace) { op->trace->found = false; op->trace->latency_ns = lat; }
    GetDone g = std::move(op->get_done);
    OpDone();
    if (g) g(Status::NotFound("key not found"), std::string());
  });
}

// ---------------------------------------------------------------- scans

Status Store::Scan(std::string_view start, int count, ScanDone done) {
  if (count < 0) return Status::InvalidArgument("scan count " + std::to_string(count) + " is negative");
  auto op = std::make_unique<Op>();
  op->kind = Op::kScan;
  op->key.assign(start);
  op->count = count;
  op->scan_done = std::move(done);
  return Enqueue(std::move(op));
}

// A scan reads, from every visible cell, entries from the first key >= start (found by a binary
// search of entry reads), merges them with the buffers newest first, and doubles its window
// until `count` live keys are certain. On the thesis's mmapped file each entry read is a load
// that may fault, and the client thread waits for each fault before its next load: the reads
// are dependent and go to the device one after another, in the order the scan made them. The
// scan decides what to read from the bytes a reader sees now (the device's Peek: the cells it
// reads are immutable while it runs), then issues that chain; it completes after the last read
// and its CPU work.
void Store::RunScan(Op* op) {
  ++stats_.scans;
  const HostCosts& c = o_.costs;
  double cpu = c.op_base_ns;
  std::vector<uint64_t> reads;  // entry offsets, in the order the scan reads them
  std::vector<const Cell*> order = SearchOrder();
  std::vector<std::pair<std::string, std::string>> out;
  const std::string start = op->key;
  const uint64_t want = static_cast<uint64_t>(op->count);
  std::vector<uint8_t> buf(layout_.entry_bytes);
  auto read_entry = [&](const Cell* cell, uint64_t r, std::string* k, uint8_t* kind, std::string* v) {
    const uint64_t off = cell->offset + r * layout_.entry_bytes;
    reads.push_back(off);
    dev_->Peek(off, layout_.entry_bytes, buf.data());
    std::string_view kv, vv;
    Status d = DecodeEntry(layout_, buf.data(), &kv, kind, &vv);
    if (!d.ok()) { k->clear(); return; }
    k->assign(kv);
    v->assign(vv);
  };
  // Lower bounds per cell.
  std::vector<uint64_t> lb(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    uint64_t lo = 0, hi = order[i]->entries;
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      std::string k, v;
      uint8_t kind;
      read_entry(order[i], mid, &k, &kind, &v);
      cpu += c.entry_compare_ns;
      if (k < start) lo = mid + 1; else hi = mid;
    }
    lb[i] = lo;
  }
  for (uint64_t window = std::max<uint64_t>(want, 1);; window *= 2) {
    std::map<std::string, std::pair<bool, std::string>> seen;  // key -> (deleted, value), newest wins
    bool any_truncated = false;
    std::string cutoff;  // keys beyond the smallest truncated source's last key are uncertain
    bool have_cutoff = false;
    auto add = [&](const std::string& k, bool del, const std::string& v) {
      if (!seen.count(k)) seen.emplace(k, std::make_pair(del, v));
    };
    for (const SortedBuffer* b : {&active_, &frozen_}) {
      for (size_t j = b->LowerBound(start); j < b->size(); ++j) add(b->entries()[j].key, b->entries()[j].del, b->entries()[j].value);
    }
    for (size_t i = 0; i < order.size(); ++i) {
      const uint64_t end = std::min<uint64_t>(order[i]->entries, lb[i] + window);
      std::string last;
      for (uint64_t r = lb[i]; r < end; ++r) {
        std::string k, v;
        uint8_t kind = 0;
        read_entry(order[i], r, &k, &kind, &v);
        cpu += c.entry_compare_ns;
        add(k, kind == kKindDelete, v);
        last = k;
      }
      if (end < order[i]->entries) {
        any_truncated = true;
        if (!have_cutoff || last < cutoff) { cutoff = last; have_cutoff = true; }
      }
    }
    out.clear();
    for (const auto& [k, dv] : seen) {
      if (out.size() >= want) break;
      if (have_cutoff && k > cutoff) break;
      if (!dv.first) out.emplace_back(k, dv.second);
    }
    if (out.size() >= want || !any_truncated) break;
  }
  auto result = std::make_shared<std::vector<std::pair<std::string, std::string>>>(std::move(out));
  const SimDuration cost = c.ns(cpu);
  // The reads one after another, then the CPU work.
  struct Chain {
    std::vector<uint64_t> reads;
    size_t next = 0;
    std::vector<uint8_t> buf;
    std::function<void()> step;
  };
  auto chain = std::make_shared<Chain>();
  chain->reads = std::move(reads);
  chain->buf.resize(layout_.entry_bytes);
  chain->step = [this, op, result, cost, w = std::weak_ptr<Chain>(chain)] {
    auto ch = w.lock();
    if (!ch) return;
    if (ch->next < ch->reads.size()) {
      const uint64_t off = ch->reads[ch->next++];
      Io(device::IoCommand::Single(device::IoEntry::Read(off, layout_.entry_bytes, ch->buf.data())), ch->step);
      return;
    }
    Finish(cost, [this, op, result] {
      stats_.scan_ns += sim_->now() - op->start;
      ScanDone d = std::move(op->scan_done);
      OpDone();
      if (d) d(Status::Ok(), std::move(*result));
    });
  };
  auto first = chain->step;
  scan_chain_ = chain;  // owned by the store while it runs (one foreground op at a time)
  first();
}

// ---------------------------------------------------------------- the merge actor

bool Store::PickMerge(int* level, uint64_t* a, uint64_t* b) const {
  // The shallowest level with two full cells not yet merged (a completed shadow counts,
  // Fig 3.3c) whose next level has a free shadow slot.
  for (int l = 1; l < layout_.max_levels; ++l) {
    std::vector<uint64_t> cand;
    for (uint64_t id : slots_[l]) {
      if (!id) continue;
      const Cell* c = cells_.at(id).get();
      if ((c->visible || c->done) && !c->consumed && !c->in_merge) cand.push_back(id);
    }
    if (cand.size() < 2) continue;
    if (HasShadow(l + 1) || FreeSlot(l + 1) < 0) continue;
    std::sort(cand.begin(), cand.end());
    *level = l;
    *a = cand[0];
    *b = cand[1];
    return true;
  }
  return false;
}

void Store::MergeKick() {
  if (merge_ || failed_) return;
  int level = 0;
  uint64_t a = 0, b = 0;
  if (!PickMerge(&level, &a, &b)) return;
  auto m = std::make_unique<Merge>();
  m->level = level;
  m->src[0] = a;
  m->src[1] = b;
  m->start = sim_->now();
  // Delete markers may go only when the output is the deepest data: no other cell at or below
  // the target level (docs/decisions.md "CONA: deletes").
  bool deeper = false;
  for (int l = level + 1; l <= layout_.max_levels; ++l)
    for (uint64_t id : slots_[l]) if (id) deeper = true;
  m->drop_tombstones = !deeper;
  Cell* ca = cells_.at(a).get();
  Cell* cb = cells_.at(b).get();
  ca->in_merge = cb->in_merge = true;
  m->cur[0].total = ca->entries;
  m->cur[1].total = cb->entries;
  m->total = ca->entries + cb->entries;
  m->chunk_entries = std::max<uint64_t>(1, o_.merge_chunk_bytes / layout_.entry_bytes);
  auto out = std::make_unique<Cell>();
  out->id = next_id_++;
  out->level = level + 1;
  out->file_slot = FreeSlot(level + 1);
  out->offset = layout_.cell_offset(level + 1, out->file_slot);
  out->sources = {a, b};
  m->out = out->id;
  slots_[level + 1][out->file_slot] = out->id;
  cells_[out->id] = std::move(out);
  merge_ = std::move(m);
  MergeStep();
}

void Store::MergeStep() {
  Merge* m = merge_.get();
  if (m->cur[0].exhausted() && m->cur[1].exhausted() && m->out_n == 0) {
    MergeDone();
    return;
  }
  device::IoCommand cmd;
  for (int s = 0; s < 2; ++s) {
    Merge::Cursor& cu = m->cur[s];
    if (!cu.needs_read()) continue;
    const Cell* src = cells_.at(m->src[s]).get();
    const uint64_t n = std::min(m->chunk_entries, cu.total - cu.next);
    cu.chunk.resize(n * layout_.entry_bytes);
    cmd.entries.push_back(device::IoEntry::Read(src->offset + cu.next * layout_.entry_bytes, n * layout_.entry_bytes, cu.chunk.data()));
    cu.next += n;
    cu.pos = 0;
    cu.count = n;
  }
  if (cmd.entries.empty()) { MergeWrite(); return; }
  Io(std::move(cmd), [this] { MergeWrite(); });
}

// Merges what the chunks in memory allow, charges the CPU on the merge core, writes the output.
void Store::MergeWrite() {
  Merge* m = merge_.get();
  Cell* out = cells_.at(m->out).get();
  const uint32_t E = layout_.entry_bytes;
  uint64_t processed = 0;
  m->outbuf.clear();
  m->out_n = 0;
  while (m->out_n < m->chunk_entries) {
    Merge::Cursor& A = m->cur[0];
    Merge::Cursor& B = m->cur[1];
    const bool ha = A.pos < A.count, hb = B.pos < B.count;
    if ((!ha && A.next < A.total) || (!hb && B.next < B.total)) break;  // refill first
    if (!ha && !hb) break;
    int take;
    const uint8_t* pa = ha ? A.chunk.data() + A.pos * E : nullptr;
    const uint8_t* pb = hb ? B.chunk.data() + B.pos * E : nullptr;
    if (!ha) take = 1;
    else if (!hb) take = 0;
    else {
      const int cmp = std::memcmp(pa, pb, layout_.key_bytes);
      if (cmp == 0) {  // a duplicate: the newer cell's (B) wins
        ++A.pos;
        ++stats_.dropped_duplicates;
        ++processed;
        continue;
      }
      take = cmp < 0 ? 0 : 1;
    }
    Merge::Cursor& C = m->cur[take];
    const uint8_t* p = take == 0 ? pa : pb;
    ++C.pos;
    ++processed;
    if (m->drop_tombstones && p[layout_.key_bytes] == kKindDelete) {
      ++stats_.dropped_tombstones;
      continue;
    }
    m->outbuf.insert(m->outbuf.end(), p, p + E);
    m->keys.emplace_back(reinterpret_cast<const char*>(p), layout_.key_bytes);
    ++m->out_n;
  }
  const HostCosts& c = o_.costs;
  const SimTime t = std::max(sim_->now(), merge_free_at_) + c.ns(c.merge_ns_per_entry * static_cast<double>(processed));
  merge_free_at_ = t;
  ++stats_.merge_steps;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [this, alive, out] {
    if (auto a = alive.lock(); !a || !*a) return;
    Merge* m = merge_.get();
    if (m->out_n == 0) { MergeStep(); return; }
    const uint64_t off = out->offset + out->merged * layout_.entry_bytes;
    m->crc = fawnds::Crc32c(m->outbuf.data(), m->outbuf.size(), m->crc);
    out->merged += m->out_n;
    stats_.merge_moves += m->out_n;
    stats_.store_bytes_written += m->outbuf.size();
    auto data = std::make_shared<std::vector<uint8_t>>(std::move(m->outbuf));
    m->outbuf.clear();
    m->out_n = 0;
    Io(device::IoCommand::Single(device::IoEntry::Write(off, data->size(), data->data())), [this, data] { MergeStep(); });
  });
}

void Store::MergeDone() {
  Merge* m = merge_.get();
  Cell* out = cells_.at(m->out).get();
  const int depth = std::max(Depth(), out->level);
  out->block = BlockSizeFor(o_.trie, out->level, depth);
  out->frag_bits = AloneAtBottom(out->level, out->id) ? o_.last_fragment_bits : o_.fragment_bits;
  out->entries = out->merged;
  out->crc = m->crc;
  auto idx = CellIndex::Build(m->keys, out->block, out->frag_bits);
  assert(idx.ok());
  out->index = std::move(idx).value();
  const HostCosts& c = o_.costs;
  const SimTime t = std::max(sim_->now(), merge_free_at_) + c.ns(c.build_ns_per_key * static_cast<double>(m->keys.size()));
  merge_free_at_ = t;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [this, alive, out] {
    if (auto a = alive.lock(); !a || !*a) return;
    Merge* m = merge_.get();
    out->done = true;
    for (uint64_t id : m->src) {
      auto it = cells_.find(id);
      if (it != cells_.end()) {
        it->second->consumed = true;
        it->second->in_merge = false;
      }
    }
    ++stats_.merges;
    stats_.merge_ns += sim_->now() - m->start;
    merge_.reset();
    MergeKick();
    NotifyWriter();
  });
}

// ---------------------------------------------------------------- inspection

bool Store::idle() const { return queue_.empty() && !current_ && !merge_ && !manifest_busy_; }

uint64_t Store::dram_bytes() const {
  uint64_t b = active_.reserved_bytes(layout_.entry_bytes) + frozen_.reserved_bytes(layout_.entry_bytes);
  for (const auto& [id, c] : cells_) b += c->index.trie_bytes() + c->index.fragment_bytes();
  return b;
}

Structure Store::structure() const {
  Structure s{};
  s.buffer_capacity = layout_.buffer_entries;
  s.active_entries = active_.size();
  s.frozen_entries = frozen_.size();
  s.frozen_waiting = frozen_waiting_;
  s.levels = Depth();
  s.max_levels = layout_.max_levels;
  s.entries = active_.size() + frozen_.size();
  s.buffer_bytes = active_.reserved_bytes(layout_.entry_bytes) + frozen_.reserved_bytes(layout_.entry_bytes);
  for (int l = 1; l <= layout_.max_levels; ++l) {
    std::vector<const Cell*> vis;
    const Cell* sh = nullptr;
    for (uint64_t id : slots_[l]) {
      if (!id) continue;
      const Cell* c = cells_.at(id).get();
      // (A level-1 cell whose induce is being written shows in a visible slot, not yet visible.)
      if (c->visible || l == 1) vis.push_back(c); else sh = c;
    }
    std::sort(vis.begin(), vis.end(), [](const Cell* a, const Cell* b) { return a->id < b->id; });
    auto info = [&](const Cell* c, int slot) {
      CellInfo ci{};
      ci.level = l;
      ci.slot = slot;
      ci.visible = c->visible;
      ci.entries = c->done ? c->entries : c->merged;
      ci.capacity = layout_.cell_capacity(l);
      ci.merged = c->merged;
      ci.trie_bytes = c->index.trie_bytes();
      ci.fragment_bytes = c->index.fragment_bytes();
      ci.block_size = c->block;
      ci.fragment_bits = c->frag_bits;
      ci.seq = c->id;
      ci.file_slot = c->file_slot;
      ci.done = c->done;
      ci.consumed = c->consumed;
      s.trie_bytes += ci.trie_bytes;
      s.fragment_bytes += ci.fragment_bytes;
      if (c->visible) s.entries += c->entries;
      s.cells.push_back(ci);
    };
    for (size_t i = 0; i < vis.size(); ++i) info(vis[i], static_cast<int>(i));
    if (sh) info(sh, 2);
  }
  s.merging = merge_ != nullptr;
  s.merge_level = merge_ ? merge_->level : 0;
  if (merge_) {
    s.merge_moved = cells_.at(merge_->out)->merged;
    s.merge_total = merge_->total;
  }
  return s;
}

// ---------------------------------------------------------------- recovery

StatusOr<std::unique_ptr<Store>> Store::Recover(device::Device* dev, StoreOptions o, RecoveryReport* report) {
  RecoveryReport rep;
  auto l = LayoutFor(dev, o);
  if (!l.ok()) return l.status();
  sim::Simulator* sim = dev->sim();
  const SimTime t0 = sim->now();
  const Layout& L = l.value();
  std::vector<uint8_t> b[2] = {std::vector<uint8_t>(kManifestBytes), std::vector<uint8_t>(kManifestBytes)};
  device::IoCommand cmd{{device::IoEntry::Read(L.manifest_offset(0), kManifestBytes, b[0].data()),
                         device::IoEntry::Read(L.manifest_offset(1), kManifestBytes, b[1].data())},
                        o.stream};
  auto r = device::SubmitAndWait(dev, cmd);
  if (!r.ok()) return r.status();
  rep.bytes_read += 2 * kManifestBytes;
  StatusOr<Manifest> m[2] = {DecodeManifest(b[0].data(), kManifestBytes), DecodeManifest(b[1].data(), kManifestBytes)};
  // Newest first; a manifest whose cells or image do not check (a torn write that named cells
  // a crash undid) gives way to the other.
  std::vector<int> order;
  for (int i = 0; i < 2; ++i) if (m[i].ok()) order.push_back(i);
  if (order.size() == 2 && m[order[1]].value().seq > m[order[0]].value().seq) std::swap(order[0], order[1]);
  if (order.empty())
    return Status::Corruption("no valid CONA manifest at offset " + std::to_string(l.value().manifest_offset(0)) +
                              ": slot 0: " + m[0].status().message() + "; slot 1: " + m[1].status().message());
  std::string errors;
  for (size_t n = 0; n < order.size(); ++n) {
    const int pick = order[n];
    if (n > 0 && m[pick].value().seq < m[order[0]].value().synced_seq) {
      // The newer manifest says a sync made a manifest at least that new durable: this older
      // one would silently lose synced data.
      errors += "; slot " + std::to_string(pick) + " (seq " + std::to_string(m[pick].value().seq) +
                ") is older than the last sync (seq " + std::to_string(m[order[0]].value().synced_seq) + ")";
      break;
    }
    rep = RecoveryReport{};
    rep.bytes_read = 2 * kManifestBytes;
    rep.manifest_slot = pick;
    rep.manifest_seq = m[pick].value().seq;
    rep.other_slot = n > 0 ? "newer, but " + errors
                           : (m[1 - pick].ok() ? "older (seq " + std::to_string(m[1 - pick].value().seq) + ")"
                                               : m[1 - pick].status().message());
    auto s = RecoverFrom(dev, o, l.value(), m[pick].value(), pick, &rep);
    if (s.ok()) {
      rep.duration_ns = sim->now() - t0;
      s.value()->MergeKick();  // merges the recovered structure makes due (shadows were discarded)
      if (report) *report = rep;
      return s;
    }
    if (s.status().code() != StatusCode::kCorruption) return s.status();
    errors += (errors.empty() ? "" : "; ") + std::string("slot ") + std::to_string(pick) + ": " + s.status().message();
  }
  return Status::Corruption("no CONA manifest recovers: " + errors);
}

StatusOr<std::unique_ptr<Store>> Store::RecoverFrom(device::Device* dev, const StoreOptions& o, const Layout& layout,
                                                    const Manifest& man, int slot, RecoveryReport* rep_out) {
  RecoveryReport& rep = *rep_out;
  sim::Simulator* sim = dev->sim();
  std::unique_ptr<Store> s(new Store(dev, o, layout));
  const Layout& L = s->layout_;
  if (man.key_bytes != L.key_bytes || man.value_bytes != L.value_bytes || man.buffer_entries != L.buffer_entries)
    return Status::InvalidArgument("CONA manifest was written with key_bytes " + std::to_string(man.key_bytes) +
                                   ", value_bytes " + std::to_string(man.value_bytes) + ", " +
                                   std::to_string(man.buffer_entries) + " entries per buffer; the options give " +
                                   std::to_string(L.key_bytes) + ", " + std::to_string(L.value_bytes) + ", " +
                                   std::to_string(L.buffer_entries));
  const HostCosts& c = s->o_.costs;
  double cpu = 0;
  for (const ManifestCell& mc : man.cells) {
    if (mc.level < 1 || mc.level > L.max_levels || mc.file_slot > 2 || mc.entries > L.cell_capacity(mc.level))
      return Status::Corruption("CONA manifest names cell " + std::to_string(mc.id) + " at level " +
                                std::to_string(mc.level) + " slot " + std::to_string(mc.file_slot) + " with " +
                                std::to_string(mc.entries) + " entries: outside the file's layout");
    if (s->slots_[mc.level][mc.file_slot] != 0)
      return Status::Corruption("CONA manifest names two cells in level " + std::to_string(mc.level) + " slot " +
                                std::to_string(mc.file_slot));
    auto cell = std::make_unique<Cell>();
    cell->id = mc.id;
    cell->level = mc.level;
    cell->file_slot = mc.file_slot;
    cell->offset = L.cell_offset(mc.level, mc.file_slot);
    cell->entries = cell->merged = mc.entries;
    cell->block = mc.block_size;
    cell->frag_bits = mc.fragment_bits;
    cell->crc = mc.crc;
    cell->visible = cell->done = true;
    std::vector<uint8_t> data(mc.entries * L.entry_bytes);
    if (!data.empty()) {
      auto rr = device::SubmitAndWait(dev, device::IoCommand::Single(device::IoEntry::Read(cell->offset, data.size(), data.data()), s->o_.stream));
      if (!rr.ok()) return rr.status();
    }
    rep.bytes_read += data.size();
    if (fawnds::Crc32c(data.data(), data.size()) != mc.crc)
      return Status::Corruption("CONA cell " + std::to_string(mc.id) + " (level " + std::to_string(mc.level) +
                                ") does not match its manifest CRC");
    std::vector<std::string> keys;
    keys.reserve(mc.entries);
    for (uint64_t i = 0; i < mc.entries; ++i) {
      std::string_view k, v;
      uint8_t kind;
      Status d = DecodeEntry(L, data.data() + i * L.entry_bytes, &k, &kind, &v);
      if (!d.ok()) return d;
      if (!keys.empty() && !(keys.back() < k)) return Status::Corruption("CONA cell " + std::to_string(mc.id) + " is not sorted");
      keys.emplace_back(k);
    }
    auto idx = CellIndex::Build(keys, cell->block, cell->frag_bits);
    if (!idx.ok()) return idx.status();
    cell->index = std::move(idx).value();
    cpu += c.build_ns_per_key * static_cast<double>(mc.entries);
    s->slots_[mc.level][mc.file_slot] = cell->id;
    ++rep.cells;
    rep.cell_entries += mc.entries;
    s->cells_[cell->id] = std::move(cell);
  }
  // The synced buffers.
  if (man.image_slot >= 0) {
    if (man.image_slot > 1) return Status::Corruption("CONA manifest names image slot " + std::to_string(man.image_slot));
    const ManifestImagePart* parts[2] = {&man.frozen, &man.active};
    SortedBuffer* bufs[2] = {&s->frozen_, &s->active_};
    for (int i = 0; i < 2; ++i) {
      const ManifestImagePart& p = *parts[i];
      if (p.count == 0) continue;
      if (p.count > L.buffer_entries || (p.start + p.count) * L.entry_bytes > L.image_bytes)
        return Status::Corruption("CONA manifest's buffer image part is outside its slot");
      std::vector<uint8_t> data(p.count * L.entry_bytes);
      auto rr = device::SubmitAndWait(dev, device::IoCommand::Single(
          device::IoEntry::Read(L.image_offset(man.image_slot) + p.start * L.entry_bytes, data.size(), data.data()), s->o_.stream));
      if (!rr.ok()) return rr.status();
      rep.bytes_read += data.size();
      if (fawnds::Crc32c(data.data(), data.size()) != p.crc)
        return Status::Corruption("CONA buffer image does not match its manifest CRC");
      for (uint64_t j = 0; j < p.count; ++j) {
        std::string_view k, v;
        uint8_t kind;
        Status d = DecodeEntry(L, data.data() + j * L.entry_bytes, &k, &kind, &v);
        if (!d.ok()) return d;
        bufs[i]->Insert(k, v, kind == kKindDelete);
      }
      rep.buffer_entries += p.count;
    }
    s->image_slot_ = man.image_slot;
    s->image_frozen_ = man.frozen;
    s->image_active_ = man.active;
  }
  // A frozen part may hold fewer than a buffer's entries: it was the active buffer when the
  // image was taken. It is induced as it is (a smaller level-1 cell).
  s->next_id_ = man.next_id;
  for (const auto& [id, cell] : s->cells_) s->next_id_ = std::max(s->next_id_, id + 1);
  s->manifest_seq_ = man.seq + 1;
  s->durable_slot_ = slot;
  s->durable_seq_ = man.seq;
  s->last_sync_seq_ = man.synced_seq;
  // What the file can still take is counted in buffers' worth: a level-i cell stands for
  // 2^(i-1) induced buffers whatever merges dropped.
  s->accepted_entries_ = rep.buffer_entries;
  for (const auto& [id, cell] : s->cells_) s->accepted_entries_ += L.cell_capacity(cell->level);
  sim->RunUntil(sim->now() + c.ns(cpu));
  s->fg_free_at_ = s->merge_free_at_ = sim->now();
  return s;
}

}  // namespace fawnlab::cona
