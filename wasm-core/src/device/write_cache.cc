#include "device/write_cache.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>

namespace fawnlab::device {
namespace {

// Copies the bytes of `s` that fall in [a, b) over `out` (which holds [a, b)).
void CopyOut(const WriteCache::Segment& s, uint64_t a, uint64_t b, uint8_t* out) {
  uint64_t lo = std::max(a, s.offset), hi = std::min(b, s.offset + s.length);
  if (lo >= hi || s.data.empty()) return;
  std::memcpy(out + (lo - a), s.data.data() + (lo - s.offset), hi - lo);
}

// Copies `data` (the bytes of [a, b); zeros when null) over the part of `s` in [a, b).
void CopyIn(WriteCache::Segment* s, uint64_t a, uint64_t b, const uint8_t* data) {
  uint64_t lo = std::max(a, s->offset), hi = std::min(b, s->offset + s->length);
  if (lo >= hi || s->data.empty()) return;
  uint8_t* dst = s->data.data() + (lo - s->offset);
  if (data) {
    std::memcpy(dst, data + (lo - a), hi - lo);
  } else {
    std::memset(dst, 0, hi - lo);
  }
}

WriteCache::Segment Slice(const WriteCache::Segment& s, uint64_t lo, uint64_t hi) {
  WriteCache::Segment out;
  out.offset = lo;
  out.length = hi - lo;
  out.ready = s.ready;
  if (!s.data.empty()) {
    out.data.assign(s.data.begin() + static_cast<std::ptrdiff_t>(lo - s.offset),
                    s.data.begin() + static_cast<std::ptrdiff_t>(hi - s.offset));
  }
  return out;
}

}  // namespace

void WriteCache::Insert(uint64_t offset, uint64_t length, int64_t ready, const uint8_t* data) {
  assert(length > 0 && Fits(length));
  const uint64_t a = offset, b = offset + length;
  auto it = map_.lower_bound(a);
  if (it != map_.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second.length > a) it = prev;
  }
  while (it != map_.end() && it->first < b) {
    Segment s = std::move(it->second);
    it = map_.erase(it);
    dirty_ -= s.length;
    readies_.erase(readies_.find(s.ready));
    const uint64_t end = s.offset + s.length;
    if (s.offset < a) {
      Segment left = Slice(s, s.offset, a);
      dirty_ += left.length;
      readies_.insert(left.ready);
      map_.emplace(left.offset, std::move(left));
    }
    if (end > b) {
      Segment right = Slice(s, b, end);
      dirty_ += right.length;
      readies_.insert(right.ready);
      map_.emplace(right.offset, std::move(right));
    }
  }
  Segment s;
  s.offset = a;
  s.length = length;
  s.ready = ready;
  if (keep_data_ && data) s.data.assign(data, data + length);
  if (keep_data_ && !data) s.data.assign(length, 0);
  map_.emplace(a, std::move(s));
  dirty_ += length;
  readies_.insert(ready);
}

bool WriteCache::Covers(uint64_t offset, uint64_t length) const {
  const uint64_t a = offset, b = offset + length;
  std::vector<std::pair<uint64_t, uint64_t>> parts;
  auto it = map_.lower_bound(a);
  if (it != map_.begin()) --it;
  for (; it != map_.end() && it->first < b; ++it) parts.emplace_back(it->first, it->first + it->second.length);
  if (has_inflight_) parts.emplace_back(inflight_.offset, inflight_.offset + inflight_.length);
  std::sort(parts.begin(), parts.end());
  uint64_t covered = a;
  for (const auto& [lo, hi] : parts) {
    if (lo > covered) break;
    covered = std::max(covered, hi);
  }
  return covered >= b;
}

void WriteCache::Overlay(uint64_t offset, uint64_t length, uint8_t* out) const {
  if (!keep_data_) return;
  const uint64_t a = offset, b = offset + length;
  if (has_inflight_) CopyOut(inflight_, a, b, out);  // older than any dirty segment over it
  auto it = map_.lower_bound(a);
  if (it != map_.begin()) --it;
  for (; it != map_.end() && it->first < b; ++it) CopyOut(it->second, a, b, out);
}

void WriteCache::Patch(uint64_t offset, uint64_t length, const uint8_t* data) {
  if (!keep_data_) return;
  const uint64_t a = offset, b = offset + length;
  if (has_inflight_) CopyIn(&inflight_, a, b, data);
  auto it = map_.lower_bound(a);
  if (it != map_.begin()) --it;
  for (; it != map_.end() && it->first < b; ++it) CopyIn(&it->second, a, b, data);
}

bool WriteCache::TakeNext(uint64_t head_offset, int64_t t) {
  if (has_inflight_ || map_.empty()) return false;
  auto start = map_.lower_bound(head_offset);
  auto pick = map_.end();
  if (*readies_.begin() > t) return false;
  if (*readies_.rbegin() <= t) {  // every segment is ready: the elevator's next
    pick = start != map_.end() ? start : map_.begin();
  } else {
    for (auto it = start; it != map_.end() && pick == map_.end(); ++it) {
      if (it->second.ready <= t) pick = it;
    }
    for (auto it = map_.begin(); it != start && pick == map_.end(); ++it) {
      if (it->second.ready <= t) pick = it;
    }
    if (pick == map_.end()) return false;
  }
  inflight_ = std::move(pick->second);
  map_.erase(pick);
  readies_.erase(readies_.find(inflight_.ready));
  dirty_ -= inflight_.length;
  has_inflight_ = true;
  return true;
}

void WriteCache::DoneInflight() {
  assert(has_inflight_);
  has_inflight_ = false;
  inflight_.data.clear();
  inflight_.data.shrink_to_fit();
}

}  // namespace fawnlab::device
