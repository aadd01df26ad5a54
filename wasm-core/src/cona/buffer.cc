#include "cona/buffer.h"

#include <cassert>

namespace fawnlab::cona {

namespace {
// Binary search with the comparisons counted.
size_t Search(const std::vector<BufEntry>& v, std::string_view key, uint64_t* compares) {
  size_t lo = 0, hi = v.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    ++*compares;
    if (std::string_view(v[mid].key) < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}
}  // namespace

BufferWork SortedBuffer::Insert(std::string_view key, std::string_view value, bool del) {
  BufferWork w;
  const size_t pos = Search(entries_, key, &w.compares);
  w.pos = pos;
  if (pos < entries_.size() && entries_[pos].key == key) {
    entries_[pos].value.assign(value.data(), value.size());
    entries_[pos].del = del;
    return w;
  }
  assert(!full());
  w.moved_entries = entries_.size() - pos;
  entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(pos),
                  BufEntry{std::string(key), std::string(value), del});
  return w;
}

const BufEntry* SortedBuffer::Find(std::string_view key, BufferWork* work) const {
  BufferWork local;
  BufferWork* w = work ? work : &local;
  const size_t pos = Search(entries_, key, &w->compares);
  w->pos = pos;
  if (pos < entries_.size() && entries_[pos].key == key) return &entries_[pos];
  return nullptr;
}

size_t SortedBuffer::LowerBound(std::string_view key) const {
  uint64_t c = 0;
  return Search(entries_, key, &c);
}

bool SortedBuffer::Contains(std::string_view key) const {
  const size_t pos = LowerBound(key);
  return pos < entries_.size() && entries_[pos].key == key;
}

}  // namespace fawnlab::cona
