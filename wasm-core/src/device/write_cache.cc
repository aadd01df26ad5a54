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

// The first segment of `v` (sorted, non-overlapping) that ends after `a`: the first that can
// overlap [a, ...).
template <typename V>
auto FirstEndingAfter(V& v, uint64_t a) {
  auto it = std::upper_bound(v.begin(), v.end(), a, [](uint64_t x, const WriteCache::Segment& s) { return x < s.offset; });
  if (it != v.begin() && std::prev(it)->offset + std::prev(it)->length > a) --it;
  return it;
}

}  // namespace

void WriteCache::Insert(uint64_t offset, uint64_t length, int64_t ready, const uint8_t* data) {
  assert(length > 0 && Fits(length));
  assert(segs_.empty() || ready >= last_ready_);
  const uint64_t a = offset, b = offset + length;
  auto first = FirstEndingAfter(segs_, a);
  auto last = first;
  while (last != segs_.end() && last->offset < b) ++last;  // [first, last) overlap [a, b)
  Segment s;
  s.offset = a;
  s.length = length;
  s.ready = ready;
  if (keep_data_) {
    if (data) {
      s.data.assign(data, data + length);
    } else {
      s.data.assign(length, 0);
    }
  }
  last_ready_ = ready;
  dirty_ += length;
  if (first == last) {  // nothing older under it
    segs_.insert(first, std::move(s));
    return;
  }
  std::vector<Segment> repl;  // what replaces [first, last): a left rest, the new one, a right rest
  if (first->offset < a) repl.push_back(Slice(*first, first->offset, a));
  repl.push_back(std::move(s));
  const Segment& l = *std::prev(last);
  if (l.offset + l.length > b) repl.push_back(Slice(l, b, l.offset + l.length));
  for (auto it = first; it != last; ++it) dirty_ -= it->length;
  for (const Segment& r : repl) dirty_ += r.length;
  dirty_ -= length;  // counted in repl
  size_t at = static_cast<size_t>(first - segs_.begin());
  segs_.erase(first, last);
  segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(at), std::make_move_iterator(repl.begin()),
               std::make_move_iterator(repl.end()));
}

bool WriteCache::Covers(uint64_t offset, uint64_t length) const {
  const uint64_t end = offset + length;
  uint64_t covered = offset;  // [offset, covered) is in the cache
  while (covered < end) {
    if (has_inflight_ && inflight_.offset <= covered && covered < inflight_.offset + inflight_.length) {
      covered = inflight_.offset + inflight_.length;
      continue;
    }
    auto it = std::upper_bound(segs_.begin(), segs_.end(), covered,
                               [](uint64_t x, const Segment& s) { return x < s.offset; });
    if (it == segs_.begin()) return false;  // the segment holding `covered`, if any, precedes it
    --it;
    if (it->offset + it->length <= covered) return false;
    covered = it->offset + it->length;
  }
  return true;
}

void WriteCache::Overlay(uint64_t offset, uint64_t length, uint8_t* out) const {
  if (!keep_data_) return;
  const uint64_t a = offset, b = offset + length;
  if (has_inflight_) CopyOut(inflight_, a, b, out);  // older than any dirty segment over it
  auto it = FirstEndingAfter(segs_, a);
  for (; it != segs_.end() && it->offset < b; ++it) CopyOut(*it, a, b, out);
}

void WriteCache::Patch(uint64_t offset, uint64_t length, const uint8_t* data) {
  if (!keep_data_) return;
  const uint64_t a = offset, b = offset + length;
  if (has_inflight_) CopyIn(&inflight_, a, b, data);
  for (auto it = FirstEndingAfter(segs_, a); it != segs_.end() && it->offset < b; ++it) CopyIn(&*it, a, b, data);
}

int64_t WriteCache::EarliestReady() const {
  assert(!segs_.empty());
  int64_t t = last_ready_;
  for (const Segment& s : segs_) t = std::min(t, s.ready);
  return t;
}

bool WriteCache::TakeNext(uint64_t head_offset, int64_t t) {
  if (has_inflight_ || segs_.empty()) return false;
  const size_t n = segs_.size();
  const size_t start = static_cast<size_t>(
      std::lower_bound(segs_.begin(), segs_.end(), head_offset,
                       [](const Segment& s, uint64_t x) { return s.offset < x; }) - segs_.begin());
  size_t pick = n;
  if (last_ready_ <= t) {  // every segment is ready: the elevator's next
    pick = start < n ? start : 0;
  } else {
    for (size_t k = 0; k < n && pick == n; ++k) {
      size_t i = (start + k) % n;
      if (segs_[i].ready <= t) pick = i;
    }
    if (pick == n) return false;
  }
  inflight_ = std::move(segs_[pick]);
  segs_.erase(segs_.begin() + static_cast<std::ptrdiff_t>(pick));
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
