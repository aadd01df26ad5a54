#include "fawnds/node.h"

#include <algorithm>
#include <utility>

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
  bool locked = false;
  Status failure;
  Done done;
};

Node::Node(device::Device* dev, NodeOptions o) : dev_(dev), o_(o) {}
Node::~Node() = default;

StatusOr<std::unique_ptr<Node>> Node::Create(device::Device* dev, NodeOptions o, const std::vector<KeyRange>& ranges) {
  if (ranges.empty()) return Status::InvalidArgument("FAWN-DS node: needs at least one key range");
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
  return n;
}

StatusOr<uint64_t> Node::AllocateSlot() {
  if (!free_slots_.empty()) {
    uint64_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  if ((next_slot_ + 1) * o_.file_bytes > dev_->info().capacity_bytes) {
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
  return dev_->Submit(IoCommand::Single(IoEntry::Flush()), [done = std::move(done)](const device::IoCompletion&) {
    if (done) done(Status::Ok());
  });
}

Status Node::Begin(std::unique_ptr<Job> job) {
  if (job_) return Status::ResourceExhausted("FAWN-DS node: a " + job_->kind + " is already running");
  progress_ = MaintenanceProgress{};
  progress_.kind = job->kind;
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
  std::unique_ptr<Job> j = std::move(job_);
  if (j->failure.ok()) {
    if (j->kind == "compact") {
      uint64_t old = stores_[j->src].slot;
      stores_[j->src].store = std::move(j->fresh);
      stores_[j->src].slot = j->fresh_slot;
      FreeSlot(old);
      (void)stores_[j->src].store->Checkpoint(nullptr);
    } else if (j->kind == "split") {
      DataStore& src = *stores_[j->src].store;
      src.set_range(j->final_src_range);
      // The moved keys leave the source's index now (their records stay until a compaction),
      // so no later merge into the source can bring an old version back.
      for (const Key& k : j->moved) src.Forget(k);
      stores_[j->src].range = j->final_src_range;
      (void)src.Checkpoint(nullptr);
      (void)j->fresh->Checkpoint(nullptr);
      stores_.push_back(Entry{j->copy_range, std::move(j->fresh), j->fresh_slot});
    } else {
      stores_[j->into].range = j->dst->options().range;
      (void)j->dst->Checkpoint(nullptr);
      uint64_t old = stores_[j->src].slot;
      stores_.erase(stores_.begin() + static_cast<long>(j->src));
      FreeSlot(old);
    }
  } else {
    if (j->fresh) FreeSlot(j->fresh_slot);
    if (j->kind == "merge") j->dst->set_range(stores_[j->into].range);
  }
  progress_.locked = false;
  std::deque<std::function<void()>> held;
  held.swap(queued_);
  for (auto& op : held) op();
  if (j->done) j->done(j->failure);
}

}  // namespace fawnlab::fawnds
