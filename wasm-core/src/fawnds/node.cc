#include "fawnds/node.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "fawnds/store_list.h"

namespace fawnlab::fawnds {

using device::IoCommand;
using device::IoEntry;

struct Node::Job {
  std::string kind;
  size_t src = 0;                     // the store being scanned
  size_t into = SIZE_MAX;             // merge: the store receiving the records
  std::unique_ptr<DataStore> fresh;   // compact / split: the new store
  uint64_t fresh_slot = 0;
  DataStore* dst = nullptr;
  KeyRange copy_range;                // split: the part that moves
  KeyRange final_src_range;           // split: what the source keeps
  KeyRange lock_a, lock_b;
  bool has_lock_b = false;
  uint64_t pos = 0;
  std::vector<Key> moved;             // split: keys whose puts were carried to the new store
  DataStore* source = nullptr;        // the store scanned (stores_[src] until the swap)
  std::unique_ptr<DataStore> retired; // compact, merge: the source after the swap, until the commit ends
  uint64_t old_slot = 0;              // compact, merge: the file freed at the commit
  bool locked = false;
  Status failure;
  Done done;
};

Node::Node(device::Device* dev, NodeOptions o) : dev_(dev), o_(o) {}
Node::~Node() = default;

StatusOr<std::unique_ptr<Node>> Node::Create(device::Device* dev, NodeOptions o, const std::vector<KeyRange>& ranges) {
  if (ranges.empty()) return Status::InvalidArgument("FAWN-DS node: needs at least one key range");
  if (ranges.size() > StoreList::kMaxStores) {
    return Status::InvalidArgument("FAWN-DS node: " + std::to_string(ranges.size()) + " key ranges exceed the " +
                                   std::to_string(StoreList::kMaxStores) + " stores a datastore list holds");
  }
  if (o.file_bytes < DataStore::FileBytes(o.index_bits, DataStore::kSlot)) {
    return Status::InvalidArgument("FAWN-DS node: file_bytes is too small for the index and a log");
  }
  std::unique_ptr<Node> n(new Node(dev, o));
  for (const KeyRange& r : ranges) {
    auto slot = n->AllocateSlot();
    if (!slot.ok()) return slot.status();
    auto s = n->NewStore(r, slot.value());
    if (!s.ok()) return s.status();
    n->stores_.push_back(Entry{r, std::move(s).value(), slot.value()});
  }
  if (Status st = n->WriteList(true, nullptr); !st.ok()) return st;
  return n;
}

const DataStore* Node::maintenance_source() const { return job_ ? job_->source : nullptr; }
const DataStore* Node::maintenance_destination() const { return job_ ? job_->dst : nullptr; }

StatusOr<uint64_t> Node::AllocateSlot() {
  if (!free_slots_.empty()) {
    uint64_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  // The device's last 2 × 64 KB hold the datastore list.
  if ((next_slot_ + 1) * o_.file_bytes + 2 * StoreList::kSlotBytes > dev_->info().capacity_bytes) {
    return Status::ResourceExhausted("FAWN-DS node: the device has no room for another " +
                                     std::to_string(o_.file_bytes) + "-byte store file");
  }
  return next_slot_++;
}

void Node::FreeSlot(uint64_t slot) {
  // The file's blocks go back to the device (a trim), so a flash FTL need not copy them.
  (void)dev_->Submit(IoCommand::Single(IoEntry::Trim(slot * o_.file_bytes, o_.file_bytes)), nullptr);
  free_slots_.push_back(slot);
}

StatusOr<std::unique_ptr<DataStore>> Node::NewStore(const KeyRange& range, uint64_t slot) {
  StoreOptions so;
  so.index_bits = o_.index_bits;
  so.range = range;
  so.region_offset = slot * o_.file_bytes;
  so.region_bytes = o_.file_bytes;
  so.nonce = next_nonce_++;
  return DataStore::Create(dev_, so);
}

int Node::Route(const Key& key) const {
  for (size_t i = 0; i < stores_.size(); ++i) {
    if (stores_[i].range.Contains(key)) return static_cast<int>(i);
  }
  return -1;
}

bool Node::Locked(const Key& key) const {
  return job_ && job_->locked && (job_->lock_a.Contains(key) || (job_->has_lock_b && job_->lock_b.Contains(key)));
}

Status Node::Put(const Key& key, std::string_view value, Done done) {
  if (Locked(key)) {
    queued_.push_back([this, key, v = std::string(value), done]() {
      Status s = Put(key, v, done);
      if (!s.ok() && done) done(s);
    });
    return Status::Ok();
  }
  int i = Route(key);
  if (i < 0) return Status::InvalidArgument("FAWN-DS node: no store holds key " + key.Hex());
  return stores_[static_cast<size_t>(i)].store->Put(key, value, std::move(done));
}

Status Node::Delete(const Key& key, Done done) {
  if (Locked(key)) {
    queued_.push_back([this, key, done]() {
      Status s = Delete(key, done);
      if (!s.ok() && done) done(s);
    });
    return Status::Ok();
  }
  int i = Route(key);
  if (i < 0) return Status::InvalidArgument("FAWN-DS node: no store holds key " + key.Hex());
  return stores_[static_cast<size_t>(i)].store->Delete(key, std::move(done));
}

Status Node::Get(const Key& key, GetDone done) {
  if (Locked(key)) {
    queued_.push_back([this, key, done]() {
      Status s = Get(key, done);
      if (!s.ok() && done) done(s, std::string());
    });
    return Status::Ok();
  }
  int i = Route(key);
  if (i < 0) return Status::InvalidArgument("FAWN-DS node: no store holds key " + key.Hex());
  return stores_[static_cast<size_t>(i)].store->Get(key, std::move(done));
}

Status Node::SyncAll(Done done) {
  return dev_->Submit(IoCommand::Single(IoEntry::Flush()), [this, done = std::move(done)](const device::IoCompletion&) {
    WhenCommitted(done);
  });
}

Status Node::Begin(std::unique_ptr<Job> job) {
  if (job_) return Status::ResourceExhausted("FAWN-DS node: a " + job_->kind + " is already running");
  progress_ = MaintenanceProgress{};
  progress_.kind = job->kind;
  job->source = stores_[job->src].store.get();
  job_ = std::move(job);
  ScanStep();
  return Status::Ok();
}

Status Node::Compact(size_t store, Done done) {
  if (store >= stores_.size()) return Status::InvalidArgument("FAWN-DS node: no store " + std::to_string(store));
  if (job_) return Status::ResourceExhausted("FAWN-DS node: a " + job_->kind + " is already running");
  auto slot = AllocateSlot();
  if (!slot.ok()) return slot.status();
  auto fresh = NewStore(stores_[store].range, slot.value());
  if (!fresh.ok()) {
    FreeSlot(slot.value());
    return fresh.status();
  }
  auto job = std::make_unique<Job>();
  job->kind = "compact";
  job->src = store;
  job->fresh = std::move(fresh).value();
  job->fresh_slot = slot.value();
  job->dst = job->fresh.get();
  job->copy_range = stores_[store].range;
  job->lock_a = stores_[store].range;
  job->done = std::move(done);
  return Begin(std::move(job));
}

Status Node::Split(size_t store, const Key& at, Done done) {
  if (store >= stores_.size()) return Status::InvalidArgument("FAWN-DS node: no store " + std::to_string(store));
  const KeyRange r = stores_[store].range;
  if (!r.Contains(at) || at == r.end) {
    return Status::InvalidArgument("FAWN-DS node: split point " + at.Hex() + " is not strictly inside store " +
                                   std::to_string(store) + "'s range");
  }
  if (job_) return Status::ResourceExhausted("FAWN-DS node: a " + job_->kind + " is already running");
  if (stores_.size() >= StoreList::kMaxStores) {
    return Status::ResourceExhausted("FAWN-DS node: the datastore list is full (" + std::to_string(stores_.size()) +
                                     " stores); merge some first");
  }
  auto slot = AllocateSlot();
  if (!slot.ok()) return slot.status();
  KeyRange moving{r.start, at};
  auto fresh = NewStore(moving, slot.value());
  if (!fresh.ok()) {
    FreeSlot(slot.value());
    return fresh.status();
  }
  auto job = std::make_unique<Job>();
  job->kind = "split";
  job->src = store;
  job->fresh = std::move(fresh).value();
  job->fresh_slot = slot.value();
  job->dst = job->fresh.get();
  job->copy_range = moving;
  job->final_src_range = KeyRange{at, r.end};
  job->lock_a = r;
  job->done = std::move(done);
  return Begin(std::move(job));
}

Status Node::Merge(size_t a, size_t b, Done done) {
  if (a >= stores_.size() || b >= stores_.size() || a == b) return Status::InvalidArgument("FAWN-DS node: merge needs two different stores");
  const KeyRange ra = stores_[a].range, rb = stores_[b].range;
  KeyRange joined;
  if (ra.end == rb.start) {
    joined = KeyRange{ra.start, rb.end};
  } else if (rb.end == ra.start) {
    joined = KeyRange{rb.start, ra.end};
  } else {
    return Status::InvalidArgument("FAWN-DS node: stores " + std::to_string(a) + " and " + std::to_string(b) +
                                   " hold ranges that are not adjacent");
  }
  if (job_) return Status::ResourceExhausted("FAWN-DS node: a " + job_->kind + " is already running");
  // The store with fewer records is merged into the larger (SOSP'09 §4.3).
  size_t small = stores_[a].store->log_end() <= stores_[b].store->log_end() ? a : b;
  size_t large = small == a ? b : a;
  auto job = std::make_unique<Job>();
  job->kind = "merge";
  job->src = small;
  job->into = large;
  job->dst = stores_[large].store.get();
  job->dst->set_range(joined);
  // Only the source's own range moves: records left behind by an earlier split belong to
  // the other store, where newer versions may live.
  job->copy_range = stores_[small].range;
  job->lock_a = ra;
  job->lock_b = rb;
  job->has_lock_b = true;
  job->done = std::move(done);
  return Begin(std::move(job));
}

void Node::ScanStep() {
  Job& j = *job_;
  DataStore* src = stores_[j.src].store.get();
  progress_.source_end = src->log_end();
  if (!j.failure.ok()) {
    Finish();
    return;
  }
  if (j.pos >= src->log_end()) {
    // Caught up: hold the lock while the list is swapped.
    j.locked = true;
    progress_.locked = true;
    dev_->sim()->Schedule(dev_->sim()->now() + o_.lock_hold_ns, [this]() { Finish(); });
    return;
  }
  std::string peek;
  auto head = src->PeekRecord(j.pos, &peek);
  uint64_t n = std::min<uint64_t>(o_.scan_chunk, src->log_end() - j.pos);
  if (head.ok()) n = std::max<uint64_t>(n, head.value().size);
  auto buf = std::make_shared<std::string>(n, '\0');
  Status s = dev_->Submit(
      IoCommand::Single(IoEntry::Read(src->DeviceOffsetOf(j.pos), n, reinterpret_cast<uint8_t*>(buf->data())),
                        src->options().stream),
      [this, buf, src](const device::IoCompletion&) {
        Job& job = *job_;
        uint64_t p = 0;
        while (p + kRecordHeader <= buf->size() && job.failure.ok()) {
          auto r = DecodeRecord(std::string_view(*buf).substr(p), job.pos + p, 0, src->options().nonce);
          if (!r.ok()) {
            if (p == 0 && r.status().code() != StatusCode::kNotFound) job.failure = r.status();
            break;
          }
          const RecordView& rec = r.value();
          const uint64_t off = job.pos + p;
          // All three copy a put only if it is in range and still the key's current version
          // (a later version, or a delete, comes later in the log; a split's leftovers are no
          // longer indexed), and carry a delete over only if the destination holds the key.
          const bool copy = job.copy_range.Contains(rec.key) && (rec.type == RecordType::kDelete || src->IsLive(rec.key, off));
          const uint64_t dst_end = job.dst->log_end();
          if (copy) {
            // A delete is carried over only when the destination holds the key (compaction:
            // a put copied before the delete was appended to the source).
            Status st = rec.type == RecordType::kPut ? job.dst->Put(rec.key, rec.value, nullptr)
                                                     : job.dst->Delete(rec.key, nullptr);
            if (!st.ok()) job.failure = st;
            if (job.kind == "split" && rec.type == RecordType::kPut) job.moved.push_back(rec.key);
          }
          if (job.dst->log_end() > dst_end) {
            ++progress_.copied;
          } else {
            ++progress_.skipped;
          }
          p += rec.size;
        }
        job.pos += p;
        progress_.scanned = job.pos;
        ScanStep();
      });
  if (!s.ok()) {
    j.failure = s;
    Finish();
  }
}

void Node::Finish() {
  Job& j = *job_;
  if (!j.failure.ok()) {
    if (j.fresh) FreeSlot(j.fresh_slot);
    if (j.kind == "merge") j.dst->set_range(stores_[j.into].range);
    j.locked = false;
    progress_.locked = false;
    ReleaseHeld();
    EndJob();
    return;
  }
  // The swap: from now on requests go to the new store list (see the header for the commit
  // that follows). The store holding the moved records is checkpointed first.
  DataStore* holder = j.kind == "merge" ? j.dst : j.fresh.get();
  if (j.kind == "compact") {
    j.old_slot = stores_[j.src].slot;
    j.retired = std::move(stores_[j.src].store);
    stores_[j.src].store = std::move(j.fresh);
    stores_[j.src].slot = j.fresh_slot;
  } else if (j.kind == "split") {
    stores_[j.src].range = j.final_src_range;  // the source's own range narrows at the commit
    stores_.push_back(Entry{j.copy_range, std::move(j.fresh), j.fresh_slot});
  } else {
    stores_[j.into].range = j.dst->options().range;
    j.old_slot = stores_[j.src].slot;
    j.retired = std::move(stores_[j.src].store);
    stores_.erase(stores_.begin() + static_cast<long>(j.src));
  }
  j.locked = false;
  progress_.locked = false;
  progress_.committing = true;
  Status s = holder->Checkpoint([this](const Status&) {
    Status w = WriteList(false, [this](const device::IoCompletion&) { Commit(); });
    if (!w.ok()) job_->failure = w;  // the device crashed: the commit never completes
  });
  if (!s.ok()) j.failure = s;
  ReleaseHeld();
}

void Node::Commit() {
  Job& j = *job_;
  if (j.kind == "split") {
    DataStore* src = j.source;
    src->set_range(j.final_src_range);
    // The moved keys leave the source's index now (their records stay until a compaction),
    // so no later merge into the source can bring an old version back.
    for (const Key& k : j.moved) src->Forget(k);
    (void)src->Checkpoint(nullptr);
  } else {
    FreeSlot(j.old_slot);
  }
  progress_.committing = false;
  EndJob();
  std::vector<Done> waiting;
  waiting.swap(after_commit_);
  for (Done& d : waiting) d(Status::Ok());
}

void Node::ReleaseHeld() {
  std::deque<std::function<void()>> held;
  held.swap(queued_);
  for (auto& op : held) op();
}

void Node::EndJob() {
  std::unique_ptr<Job> j = std::move(job_);
  if (j->done) j->done(j->failure);
}

void Node::WhenCommitted(Done done) {
  if (!done) return;
  if (job_ && progress_.committing) {
    after_commit_.push_back(std::move(done));
  } else {
    done(Status::Ok());
  }
}

namespace {
// Arcs (start, end] overlap when either's end lies in the other (the whole ring overlaps all).
bool Overlaps(const KeyRange& a, const KeyRange& b) { return a.Contains(b.end) || b.Contains(a.end); }
}  // namespace

Status Node::AddStore(const KeyRange& range, Done done) {
  if (job_) return Status::ResourceExhausted("FAWN-DS node: a " + job_->kind + " is running; add the store after it");
  for (const Entry& e : stores_) {
    if (Overlaps(e.range, range)) return Status::InvalidArgument("FAWN-DS node: the new store's range overlaps an existing store's");
  }
  if (stores_.size() >= StoreList::kMaxStores) return Status::ResourceExhausted("FAWN-DS node: the datastore list is full");
  auto slot = AllocateSlot();
  if (!slot.ok()) return slot.status();
  auto s = NewStore(range, slot.value());
  if (!s.ok()) {
    FreeSlot(slot.value());
    return s.status();
  }
  stores_.push_back(Entry{range, std::move(s).value(), slot.value()});
  return WriteList(false, [done = std::move(done)](const device::IoCompletion&) {
    if (done) done(Status::Ok());
  });
}

Status Node::RemoveStore(size_t i, Done done) {
  if (i >= stores_.size()) return Status::InvalidArgument("FAWN-DS node: no store " + std::to_string(i));
  if (job_) return Status::ResourceExhausted("FAWN-DS node: a " + job_->kind + " is running; remove the store after it");
  const uint64_t slot = stores_[i].slot;
  retired_.push_back(std::move(stores_[i].store));  // in-flight reads may still complete into it
  stores_.erase(stores_.begin() + static_cast<std::ptrdiff_t>(i));
  return WriteList(false, [this, slot, done = std::move(done)](const device::IoCompletion&) {
    FreeSlot(slot);  // only once no durable list names the file
    if (done) done(Status::Ok());
  });
}

Status Node::Narrow(size_t i, const KeyRange& range, Done done) {
  if (i >= stores_.size()) return Status::InvalidArgument("FAWN-DS node: no store " + std::to_string(i));
  if (job_) return Status::ResourceExhausted("FAWN-DS node: a " + job_->kind + " is running; narrow the store after it");
  const KeyRange old = stores_[i].range;
  const bool same_start = range.start == old.start, same_end = range.end == old.end;
  const bool inside = old.Contains(range.end) && (same_start || old.Contains(range.start));
  if (!inside || (!same_start && !same_end) || (same_start && same_end)) {
    return Status::InvalidArgument("FAWN-DS node: a narrowed range must be a proper sub-range sharing one end with store " +
                                   std::to_string(i) + "'s");
  }
  stores_[i].range = range;
  stores_[i].store->set_range(range);
  return WriteList(false, [done = std::move(done)](const device::IoCompletion&) {
    if (done) done(Status::Ok());
  });
}

Status Node::CheckpointAll(Done done) {
  // `done` runs once every store's checkpoint (each ends with a flush) has completed.
  auto pending = std::make_shared<size_t>(stores_.size());
  for (Entry& e : stores_) {
    Status s = e.store->Checkpoint([this, pending, done](const Status&) {
      if (--*pending == 0) WhenCommitted(done);
    });
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Status Node::WriteList(bool wait, device::CompletionFn then) {
  StoreList l;
  l.seq = ++list_seq_;
  l.file_bytes = o_.file_bytes;
  l.next_nonce = next_nonce_;
  l.next_slot = next_slot_;
  for (const Entry& e : stores_) l.entries.push_back(StoreListEntry{e.slot, e.store->options().nonce, e.range});
  const std::vector<uint8_t> b = l.Encode();
  IoCommand cmd{{IoEntry::Write(StoreList::CopyOffset(dev_->info().capacity_bytes, l.seq), b.size(), b.data()),
                 IoEntry::Flush()},
                0};
  if (wait) return device::SubmitAndWait(dev_, cmd).status();
  return dev_->Submit(cmd, std::move(then));
}

StatusOr<std::unique_ptr<Node>> Node::Recover(device::Device* dev, NodeOptions o, Recovery* report) {
  const sim::SimTime t0 = dev->sim()->now();
  auto read = StoreList::Read(dev);
  if (!read.ok()) return read.status();
  const StoreList& l = read.value();
  if (l.file_bytes != o.file_bytes) {
    return Status::InvalidArgument("FAWN-DS node: the datastore list's files are " + std::to_string(l.file_bytes) +
                                   " bytes, not the " + std::to_string(o.file_bytes) + " asked for");
  }
  if (l.entries.empty()) return Status::Corruption("FAWN-DS node: the datastore list names no store");
  std::unique_ptr<Node> n(new Node(dev, o));
  Recovery rep;
  rep.list_seq = l.seq;
  std::vector<bool> used(l.next_slot, false);
  for (const StoreListEntry& e : l.entries) {
    RecoveryReport sr;
    auto s = DataStore::Recover(dev, e.slot * l.file_bytes, l.file_bytes, 0, &sr, e.range);
    if (!s.ok()) {
      return Status::Corruption("FAWN-DS node: the listed store in slot " + std::to_string(e.slot) +
                                " did not recover: " + s.status().message());
    }
    std::unique_ptr<DataStore> store = std::move(s).value();
    if (store->options().nonce != e.nonce) {
      return Status::Corruption("FAWN-DS node: slot " + std::to_string(e.slot) + " holds the store with nonce " +
                                std::to_string(store->options().nonce) + ", the list names nonce " +
                                std::to_string(e.nonce));
    }
    rep.restricted += sr.dropped_out_of_range;
    used[e.slot] = true;
    n->stores_.push_back(Entry{e.range, std::move(store), e.slot});
    rep.stores.push_back(sr);
  }
  n->next_slot_ = l.next_slot;
  for (uint64_t slot = l.next_slot; slot-- > 0;) {
    if (!used[slot]) n->free_slots_.push_back(slot);  // the lowest free slot is taken first
  }
  n->next_nonce_ = l.next_nonce;
  n->list_seq_ = l.seq;
  rep.duration_ns = dev->sim()->now() - t0;
  if (report) *report = std::move(rep);
  return n;
}

}  // namespace fawnlab::fawnds
