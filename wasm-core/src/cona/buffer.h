// SortedBuffer: one of the CONA's two in-memory insertion buffers (thesis §3.2, Fig 3.2): a
// sorted array of at most `capacity` entries. Insert keeps it sorted (a put over a key already
// there replaces that entry in place); Find is a binary search. Each call reports the work it
// did — comparisons, and the bytes a sorted-array insert moves ((entries after the insertion
// point) × entry bytes) — for the store to charge at the host's costs.
#ifndef FAWNLAB_CONA_BUFFER_H_
#define FAWNLAB_CONA_BUFFER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fawnlab::cona {

struct BufEntry {
  std::string key;
  std::string value;
  bool del = false;
};

struct BufferWork {
  uint64_t compares = 0;
  uint64_t moved_entries = 0;  // entries shifted by an insert
  uint64_t pos = 0;            // where the key is (or would be)
};

class SortedBuffer {
 public:
  explicit SortedBuffer(uint64_t capacity = 0) : capacity_(capacity) {}
  // Inserts or replaces. REQUIRES: !full() or the key is present.
  BufferWork Insert(std::string_view key, std::string_view value, bool del);
  // The entry for `key`, or null.
  const BufEntry* Find(std::string_view key, BufferWork* work) const;
  // Index of the first entry with key >= `key`.
  size_t LowerBound(std::string_view key) const;
  bool Contains(std::string_view key) const;

  bool full() const { return entries_.size() >= capacity_; }
  bool empty() const { return entries_.empty(); }
  uint64_t size() const { return entries_.size(); }
  uint64_t capacity() const { return capacity_; }
  const std::vector<BufEntry>& entries() const { return entries_; }
  void Clear() { entries_.clear(); }
  void Swap(SortedBuffer& o) { entries_.swap(o.entries_); }
  // Bytes the buffer reserves: capacity × entry bytes (the thesis's B).
  uint64_t reserved_bytes(uint32_t entry_bytes) const { return capacity_ * entry_bytes; }

 private:
  uint64_t capacity_;
  std::vector<BufEntry> entries_;
};

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_BUFFER_H_
