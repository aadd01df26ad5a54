#include "fawnds/lab/log_table.h"

#include <algorithm>
#include <string>

namespace fawnlab::fawndslab {

using fawnds::DataStore;
using fawnds::HashIndex;
using fawnds::Key;

const char* RecordStateName(RecordState s) {
  switch (s) {
    case RecordState::kLive: return "live";
    case RecordState::kOrphaned: return "orphaned";
    case RecordState::kDeleted: return "deleted";
    case RecordState::kOutOfRange: return "out_of_range";
    case RecordState::kLost: return "lost";
  }
  return "?";
}

uint32_t KeyHigh32(const Key& k) {
  return (uint32_t{k.bytes[0]} << 24) | (uint32_t{k.bytes[1]} << 16) | (uint32_t{k.bytes[2]} << 8) | k.bytes[3];
}

uint64_t KeyLow64(const Key& k) {
  uint64_t v = 0;
  for (int i = 12; i < 20; ++i) v = (v << 8) | k.bytes[i];
  return v;
}

void LogTable::CatchUp(const DataStore& store) {
  std::string buf;
  while (end_ < store.log_end()) {
    auto r = store.PeekRecord(end_, &buf);
    if (!r.ok()) break;  // cannot happen for a log the store wrote; stop rather than spin
    offsets_.push_back(static_cast<uint32_t>(end_));
    key_hi_.push_back(KeyHigh32(r.value().key));
    key_lo_.push_back(KeyLow64(r.value().key));
    type_.push_back(r.value().type == fawnds::RecordType::kDelete ? kFlagDelete : 0);
    end_ += r.value().size;
  }
}

bool LogTable::InRange(const DataStore& store, size_t i) const {
  const fawnds::KeyRange& r = store.options().range;
  if (r.start == r.end) return true;
  if (key_hi_[i] != KeyHigh32(r.start) && key_hi_[i] != KeyHigh32(r.end)) {
    // The top 32 bits decide the order against both ends.
    Key k;
    for (int b = 0; b < 4; ++b) k.bytes[b] = static_cast<uint8_t>(key_hi_[i] >> (24 - 8 * b));
    return r.Contains(k);
  }
  std::string buf;
  auto rec = store.PeekRecord(offsets_[i], &buf);
  return rec.ok() && r.Contains(rec.value().key);
}

bool LogTable::KeyPresent(const DataStore& store, size_t i, const std::vector<uint32_t>& at) const {
  const HashIndex& index = store.index();
  Key low;  // the index and fragment come from the low bits only
  for (int b = 0; b < 8; ++b) low.bytes[12 + b] = static_cast<uint8_t>(key_lo_[i] >> (56 - 8 * b));
  const uint32_t idx = index.IndexOf(low);
  const uint16_t frag = index.FragmentOf(low);
  for (int j = 0; j < HashIndex::kProbes; ++j) {
    HashIndex::Bucket b = index.Get(index.Probe(idx, j));
    if (!b.valid || b.fragment != frag) continue;
    if (b.offset >= end_) continue;
    const uint32_t r = at[b.offset / fawnds::kRecordHeader];
    if (r != UINT32_MAX && offsets_[r] == b.offset && key_lo_[r] == key_lo_[i] && key_hi_[r] == key_hi_[i]) return true;
  }
  return false;
}

LogColumns LogTable::Columns(const DataStore& store) const {
  LogColumns c;
  const size_t n = offsets_.size();
  c.offsets = offsets_;
  c.keys = key_hi_;
  c.log_end = end_;
  c.flags.assign(n, 0);
  // Live: the offsets valid buckets point at, as a bitmap over the log's bytes (one pass over
  // the buckets, then one over the records; no search per bucket).
  const HashIndex& index = store.index();
  std::vector<uint64_t> pointed((end_ >> 6) + 1, 0);
  for (uint64_t b = 0; b < index.buckets(); ++b) {
    HashIndex::Bucket bk = index.Get(b);
    if (bk.valid && bk.offset < end_) pointed[bk.offset >> 6] |= uint64_t{1} << (bk.offset & 63);
  }
  // Record number by offset / 33: records are at least a header apart, so each slot holds at
  // most one record's start. Built when a non-live put needs its key looked up.
  std::vector<uint32_t> at;
  for (size_t i = 0; i < n; ++i) {
    RecordState s;
    const uint32_t off = offsets_[i];
    if (i >= lost_from_) {
      s = RecordState::kLost;
    } else if (type_[i] == 0 && ((pointed[off >> 6] >> (off & 63)) & 1)) {
      s = RecordState::kLive;
    } else if (!InRange(store, i)) {
      s = RecordState::kOutOfRange;
    } else if (type_[i] != 0) {
      s = RecordState::kDeleted;
    } else {
      if (at.empty()) {
        at.assign(end_ / fawnds::kRecordHeader + 1, UINT32_MAX);
        for (size_t r = 0; r < n; ++r) at[offsets_[r] / fawnds::kRecordHeader] = static_cast<uint32_t>(r);
      }
      s = KeyPresent(store, i, at) ? RecordState::kOrphaned : RecordState::kDeleted;
    }
    c.flags[i] = static_cast<uint8_t>(static_cast<uint8_t>(s) | type_[i] | (i >= replayed_from_ ? kFlagReplayed : 0));
    ++c.counts[static_cast<size_t>(s)];
  }
  return c;
}

size_t LogTable::MarkLost(const DataStore& store) {
  std::string buf;
  size_t i = offsets_.size();
  while (i > 0) {
    auto r = store.PeekRecord(offsets_[i - 1], &buf);
    if (r.ok() && KeyLow64(r.value().key) == key_lo_[i - 1]) break;
    --i;
  }
  lost_from_ = i;
  return offsets_.size() - i;
}

void LogTable::MarkReplayed(uint64_t n) {
  replayed_from_ = n >= offsets_.size() ? 0 : offsets_.size() - static_cast<size_t>(n);
  if (n == 0) replayed_from_ = SIZE_MAX;
}

}  // namespace fawnlab::fawndslab
