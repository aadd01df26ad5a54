// MemTable: LevelDB's memtable (db/memtable.cc, db/skiplist.h, util/arena.cc of LevelDB 1.23)
// as the LSM's write buffer. The entries live in an ordered map of internal keys (every
// version is kept, as in LevelDB); what it costs and occupies is LevelDB's: each insert draws
// a skiplist node height from LevelDB's own generator (Random(0xdeadbeef), branching 4, at
// most 12 levels), and the memory is LevelDB's arena, emulated byte for byte: each entry's
// encoding (varint key length, internal key, varint value length, value) and its node (8 + 8 ×
// height bytes, 8-aligned) carved from 4 KB blocks (allocations above 1 KB get their own
// block; 8 bytes of bookkeeping per block). ApproximateMemoryUsage is the arena's usage, the
// figure LevelDB compares with write_buffer_size.
#ifndef FAWNLAB_LSM_MEMTABLE_H_
#define FAWNLAB_LSM_MEMTABLE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "lsm/block.h"

namespace fawnlab::lsm {

struct InternalLess {
  bool operator()(const std::string& a, const std::string& b) const { return CompareInternal(a, b) < 0; }
};

class MemTable {
 public:
  using Map = std::map<std::string, std::string, InternalLess>;
  MemTable();
  // Adds a version; returns the skiplist levels an insert visits (the list's height after it).
  int Add(uint64_t seq, ValueType type, std::string_view user_key, std::string_view value);
  // The newest version of `user_key`: false if none; else *deleted tells a deletion marker.
  bool Get(std::string_view user_key, std::string* value, bool* deleted) const;
  uint64_t ApproximateMemoryUsage() const { return memory_usage_; }
  int max_height() const { return max_height_; }
  const Map& entries() const { return map_; }
  uint64_t size() const { return map_.size(); }

 private:
  void Allocate(uint64_t bytes, bool aligned);
  int RandomHeight();

  Map map_;
  uint64_t memory_usage_ = 0;
  uint64_t remaining_ = 0;  // bytes left in the current arena block
  uint64_t used_ = 0;       // bytes used of it (for alignment)
  uint32_t seed_ = 0xdeadbeef & 0x7fffffffu;
  int max_height_ = 1;
};

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_MEMTABLE_H_
