// WriteCache: a disk drive's volatile write-back buffer, the part of its DRAM cache that holds
// written data the drive has acknowledged but not yet put on the platter.
//
// The cache is a set of non-overlapping dirty byte ranges (segments), each with the time it
// became dirty (`ready`: a segment cannot be destaged before its data arrived) and, when the
// cache keeps data, its bytes. A newer write over dirty bytes replaces them (the older segment
// is trimmed or split). Destaging takes one segment at a time "in flight" (one head): the next
// in elevator order (C-LOOK: the first ready segment at or after the head's byte position,
// else the lowest ready one); it keeps its buffer space until it reaches the platter
// (DoneInflight). Space is counted conservatively: a new write fits when dirty + in-flight +
// its length <= capacity (an overwrite is not credited in advance). Adjacent segments are not
// merged: each write is destaged as written.
//
// Used by DiskDevice (event-driven, with data) and srcmap::DiskServer (the inline server, timing
// only); both make the same choices from the same calls. Deterministic; single-threaded.
#ifndef FAWNLAB_DEVICE_WRITE_CACHE_H_
#define FAWNLAB_DEVICE_WRITE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fawnlab::device {

class WriteCache {
 public:
  struct Segment {
    uint64_t offset = 0, length = 0;
    int64_t ready = 0;
    std::vector<uint8_t> data;  // empty when the cache keeps no data
  };

  WriteCache(uint64_t capacity_bytes, bool keep_data) : capacity_(capacity_bytes), keep_data_(keep_data) {}

  uint64_t capacity() const { return capacity_; }
  uint64_t dirty_bytes() const { return dirty_; }
  uint64_t used_bytes() const { return dirty_ + (has_inflight_ ? inflight_.length : 0); }
  bool empty() const { return dirty_ == 0 && !has_inflight_; }
  bool has_dirty() const { return dirty_ > 0; }
  size_t segments() const { return segs_.size(); }
  bool Fits(uint64_t length) const { return used_bytes() + length <= capacity_; }

  // Makes [offset, offset + length) dirty from `ready` on, replacing older dirty bytes there.
  // `data`: `length` bytes (ignored when the cache keeps no data). REQUIRES: Fits(length), and
  // `ready` no earlier than the previous insert's (writes are taken in order).
  void Insert(uint64_t offset, uint64_t length, int64_t ready, const uint8_t* data);
  // Whether every byte of the range is in the cache (dirty or in flight).
  bool Covers(uint64_t offset, uint64_t length) const;
  // Copies the cached bytes of the range over `out` (`out` holds the range), newest last.
  void Overlay(uint64_t offset, uint64_t length, uint8_t* out) const;
  // Replaces the cached copies of the range's bytes with `data` (a backdoor write or an erase
  // that must win over older cached data); the segments stay dirty as they were.
  void Patch(uint64_t offset, uint64_t length, const uint8_t* data);

  // The earliest `ready` among dirty segments. REQUIRES: has_dirty().
  int64_t EarliestReady() const;
  // Takes the next segment to destage at time `t` with the head at byte `head_offset` (C-LOOK
  // over the segments ready by `t`) into flight. False when none is ready or one is in flight.
  bool TakeNext(uint64_t head_offset, int64_t t);
  bool has_inflight() const { return has_inflight_; }
  const Segment& inflight() const { return inflight_; }
  // The in-flight segment has reached the platter: its space is free.
  void DoneInflight();

 private:
  uint64_t capacity_;
  bool keep_data_;
  uint64_t dirty_ = 0;
  // Inserts come in time order, so the last one's `ready` bounds every dirty segment's: when it
  // has passed, all are ready (the common case, no scan).
  int64_t last_ready_ = 0;
  std::vector<Segment> segs_;  // sorted by offset; non-overlapping (a small cache: a vector)
  Segment inflight_;
  bool has_inflight_ = false;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_WRITE_CACHE_H_
