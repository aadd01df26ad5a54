// Backend (backend.h): the node's stores: adding one for a range (dropping the recovered
// stores it overlaps), writing a chain put or delete, refusing it for want of room, and the
// background maintenance that makes room (splits, then compactions).
#include "fawnkv/backend.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "fawnds/record.h"

namespace fawnlab::fawnkv {

namespace {
// Whether ring ranges (a.start, a.end] and (b.start, b.end] share a key.
bool Overlap(const KeyRange& a, const KeyRange& b) { return a.Contains(b.end) || b.Contains(a.end); }
}  // namespace

void Backend::DropStale(const KeyRange& range) {
  for (size_t k = 0; k < stale_.size();) {
    const int st = node_->StoreOf(stale_[k]);
    if (st < 0 || !(node_->range(static_cast<size_t>(st)).end == stale_[k])) {
      stale_.erase(stale_.begin() + static_cast<long>(k));
      continue;
    }
    if (Overlap(node_->range(static_cast<size_t>(st)), range)) {
      (void)node_->RemoveStore(static_cast<size_t>(st), nullptr);
      stale_.erase(stale_.begin() + static_cast<long>(k));
      continue;
    }
    ++k;
  }
}

void Backend::EnsureStore(const KeyRange& range) {
  if (!stale_.empty()) DropStale(range);
  if (node_->StoreOf(range.end) >= 0) return;
  Status st = node_->AddStore(range, nullptr);
  if (!st.ok()) ++stats_.store_errors;  // the range's puts will be refused: visible in the counters
}

void Backend::WriteToStore(std::shared_ptr<Message> fwd, Role role, std::function<void()> after,
                           std::shared_ptr<std::function<void()>> fin) {
  // A delete's answer says whether the tail held the key.
  Status st = fwd->del ? node_->Delete(fwd->key, [fwd, after](const Status& r) {
                           fwd->found = r.ok();
                           after();
                         })
                       : node_->Put(fwd->key, fwd->value, [after](const Status&) { after(); });
  if (st.ok()) return MaybeCompact();
  if (st.code() == StatusCode::kResourceExhausted && o_.compact_fill > 0) {
    const uint64_t need = fawnds::RecordSize(fwd->del ? 0 : fwd->value.size());
    MakeRoom(fwd->key, need, [this, fwd, role, after, fin](bool compacted) {
      if (failed_) return;
      if (compacted) return WriteToStore(fwd, role, after, fin);
      Refuse(*fwd, role, fin);
    });
    return;
  }
  Refuse(*fwd, role, fin);
}

void Backend::Refuse(const Message& m, const Role& role, const std::shared_ptr<std::function<void()>>& fin) {
  // Not applied, not forwarded. At the head nothing holds it: a definite refusal. Further
  // down the chain the head has applied it: the client's timeout says "may or may not".
  ++stats_.store_errors;
  if (role.head) {
    ++stats_.refused;
    Reply(m, false, std::string(), ReplyStatus::kNoSpace);
  }
  (*fin)();
}

// --- background compaction ------------------------------------------------------------------

uint64_t Backend::RoomFor(const Key& key) const {
  const int i = node_->StoreOf(key);
  if (i < 0) return kRoomUnknown;
  const fawnds::DataStore& ds = node_->store(static_cast<size_t>(i));
  uint64_t room = ds.log_capacity() - std::min(ds.log_capacity(), ds.log_end());
  const bool unknown = std::find(unknown_garbage_.begin(), unknown_garbage_.end(), &ds) != unknown_garbage_.end();
  if (o_.compact_fill > 0 && !unknown) room += ds.stats().garbage_bytes;
  return room;
}

bool Backend::CanCompact() const {
  // A scan holds its store and log offsets; a donor's flush starts at its pre-copy's offset.
  if (!scans_.empty()) return false;
  for (const auto& [end, s] : segs_) {
    if (s.flush_due) return false;
  }
  return true;
}

bool Backend::StartCompaction(size_t store, std::function<void(bool)> then) {
  const Key end = node_->range(store).end;
  Status st = node_->Compact(store, [this, end, then](const Status& r) {
    if (failed_) return;
    if (r.ok()) {
      ++stats_.compactions;
      const int i = node_->StoreOf(end);
      const uint64_t now_end = i >= 0 ? node_->store(static_cast<size_t>(i)).log_end() : 0;
      const uint64_t was_end = node_->progress().source_end;  // the old log's end at the swap
      if (was_end > now_end) stats_.reclaimed_bytes += was_end - now_end;
    }
    if (then) then(r.ok());
    RunAfterMaintenance();
    MaybeCompact();
  });
  return st.ok();
}

void Backend::RunAfterMaintenance() {
  std::vector<std::function<void()>> waiting;
  waiting.swap(after_maintenance_);
  for (auto& w : waiting) {
    if (failed_) return;
    w();  // each may wait again (a compaction started meanwhile)
  }
}

void Backend::MakeRoom(const Key& key, uint64_t need, std::function<void(bool)> then) {
  if (node_->maintenance_running()) {
    after_maintenance_.push_back([this, key, need, then]() { MakeRoom(key, need, then); });
    return;
  }
  const int i = node_->StoreOf(key);
  if (i < 0 || !CanCompact()) return then(false);
  const fawnds::DataStore& ds = node_->store(static_cast<size_t>(i));
  const bool unknown = std::find(unknown_garbage_.begin(), unknown_garbage_.end(), &ds) != unknown_garbage_.end();
  // Room after compacting: what is free now plus the garbage (unknown for a recovered store
  // never compacted here: try once).
  if (!unknown && ds.log_capacity() - ds.log_end() + ds.stats().garbage_bytes < need) return then(false);
  unknown_garbage_.erase(std::remove(unknown_garbage_.begin(), unknown_garbage_.end(), &ds), unknown_garbage_.end());
  if (!StartCompaction(static_cast<size_t>(i), then)) then(false);
}

bool Backend::MaybeSplit() {
  for (size_t i = 0; i < node_->num_stores(); ++i) {
    const KeyRange r = node_->range(i);
    if (std::find(stale_.begin(), stale_.end(), r.end) != stale_.end()) continue;
    for (const auto& [end, s] : segs_) {
      if (s.released || end == r.end || !r.Contains(end)) continue;
      Status st = node_->Split(i, end, [this](const Status&) {
        if (failed_) return;
        RunAfterMaintenance();
        MaybeCompact();
      });
      if (st.ok()) return true;
    }
  }
  return false;
}

void Backend::MaybeCompact() {
  if (o_.compact_fill <= 0 || failed_ || node_->maintenance_running() || !after_maintenance_.empty() || !CanCompact()) return;
  if (MaybeSplit()) return;
  for (size_t i = 0; i < node_->num_stores(); ++i) {
    const fawnds::DataStore& ds = node_->store(i);
    if (std::find(stale_.begin(), stale_.end(), node_->range(i).end) != stale_.end()) continue;  // unclaimed: dropped later
    const double end = static_cast<double>(ds.log_end());
    if (end >= o_.compact_fill * static_cast<double>(ds.log_capacity()) &&
        static_cast<double>(ds.stats().garbage_bytes) >= o_.compact_garbage * end) {
      if (StartCompaction(i, nullptr)) return;
    }
  }
}

}  // namespace fawnlab::fawnkv
