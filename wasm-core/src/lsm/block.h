// LevelDB's on-disk block format (table/block_builder.cc, table/block.cc, table/format.cc of
// LevelDB 1.23) and the LSM's internal keys.
//
// Internal key: the user key followed by an 8-byte trailer that orders versions newest first.
// LevelDB's trailer is the little-endian fixed64 (sequence << 8 | type) with a comparator that
// reverses it; here the trailer is the big-endian complement of the same number, so the same
// order is a byte compare of the trailer (same 8 bytes, same order: docs/stores/lsm.md).
// Block: entries (shared-prefix length, non-shared length, value length as varint32s, the
// key's non-shared bytes, the value), a restart point every `restart_interval` entries (no
// prefix sharing there), then the restart offsets (fixed32 each) and their count (fixed32).
// Stored blocks carry a 5-byte trailer: the compression type (0: none) and the masked CRC32C
// of the contents and the type. A BlockHandle is (offset, size) as two varint64s.
#ifndef FAWNLAB_LSM_BLOCK_H_
#define FAWNLAB_LSM_BLOCK_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace fawnlab::lsm {

enum ValueType : uint8_t { kTypeDeletion = 0, kTypeValue = 1 };
constexpr uint64_t kMaxSequence = (uint64_t{1} << 56) - 1;
constexpr size_t kTrailerBytes = 8;
constexpr size_t kBlockTrailerBytes = 5;

void PutVarint32(std::string* dst, uint32_t v);
void PutVarint64(std::string* dst, uint64_t v);
void PutFixed32(std::string* dst, uint32_t v);
void PutFixed64(std::string* dst, uint64_t v);
// Decodes a varint from [*p, limit); advances *p. False on a truncated or overlong varint.
bool GetVarint32(const char** p, const char* limit, uint32_t* v);
bool GetVarint64(const char** p, const char* limit, uint64_t* v);
int VarintLength(uint64_t v);

// Internal keys.
void AppendInternalKey(std::string* dst, std::string_view user_key, uint64_t seq, ValueType t);
inline std::string_view UserKey(std::string_view ikey) { return ikey.substr(0, ikey.size() - kTrailerBytes); }
uint64_t SequenceOf(std::string_view ikey);
ValueType TypeOf(std::string_view ikey);
// <0, 0, >0: user keys bytewise, then newer (higher sequence) first.
int CompareInternal(std::string_view a, std::string_view b);
// LevelDB's InternalKeyComparator::FindShortestSeparator / FindShortSuccessor (user keys
// shortened bytewise, then the trailer of the newest possible version).
void ShortestSeparator(std::string* start, std::string_view limit);
void ShortSuccessor(std::string* key);

uint32_t MaskCrc(uint32_t crc);

struct BlockHandle {
  uint64_t offset = 0, size = 0;  // size excludes the 5-byte trailer
  void EncodeTo(std::string* dst) const { PutVarint64(dst, offset); PutVarint64(dst, size); }
  bool DecodeFrom(const char** p, const char* limit) { return GetVarint64(p, limit, &offset) && GetVarint64(p, limit, &size); }
};

class BlockBuilder {
 public:
  explicit BlockBuilder(int restart_interval);
  void Add(std::string_view key, std::string_view value);  // keys in increasing order
  std::string_view Finish();                               // contents; valid until Reset
  void Reset();
  size_t CurrentSizeEstimate() const { return buffer_.size() + restarts_.size() * 4 + 4; }
  bool empty() const { return buffer_.empty(); }
  uint64_t entries() const { return entries_; }

 private:
  int interval_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  int counter_ = 0;
  uint64_t entries_ = 0;
  std::string last_key_;
  bool finished_ = false;
};

struct BlockEntry {
  std::string key;
  std::string_view value;  // into the block's contents
};

// A parsed block (contents without the trailer). Seek finds the first entry whose key is >=
// `target` under CompareInternal (or plain bytes: `internal` false, the metaindex), counting
// its binary-search steps and the entries it decoded.
class BlockReader {
 public:
  static StatusOr<BlockReader> Parse(std::string_view contents);
  struct SeekWork { int steps = 0, decoded = 0; };
  bool Seek(std::string_view target, BlockEntry* out, SeekWork* work, bool internal = true) const;
  // Every entry in order.
  Status ForEach(const std::function<void(const BlockEntry&)>& fn) const;
  uint32_t restarts() const { return num_restarts_; }

 private:
  bool DecodeAt(uint32_t offset, std::string* key, std::string_view* value, uint32_t* next) const;
  std::string_view data_;
  uint32_t restart_offset_ = 0, num_restarts_ = 0;
};

// Appends the trailer (type 0, masked CRC32C over contents + type) to `dst`.
void AppendBlockTrailer(std::string_view contents, std::string* dst);

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_BLOCK_H_
