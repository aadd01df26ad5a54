// The on-flash record of a FAWN-DS data log (docs/formats/fawnds.md).
//
// Every Store and Delete appends one record (SOSP'09 §3.3.1: "each stored entry has a header";
// deletes are "similar to store operations with 0-byte values"). Little-endian:
//
//   0  u32  crc32c of bytes [4, size), seeded with the store's nonce (so a record left in a
//           reused file by an earlier store never checks out)
//   4  u32  seq     record number in this log, 1, 2, 3, … (recovery stops where it breaks)
//   8  u8   type    1 = put, 2 = delete
//   9  u32  value_length (0 for a delete; at most kMaxValue)
//   13 u8[20] key   the full 160-bit key
//   33 value bytes
//
// size = 33 + value_length. The papers fix no field widths; the checksum and sequence number
// are this lab's, so that recovery can tell the log's end from a torn or stale tail.
#ifndef FAWNLAB_FAWNDS_RECORD_H_
#define FAWNLAB_FAWNDS_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "fawnds/key.h"

namespace fawnlab::fawnds {

enum class RecordType : uint8_t { kPut = 1, kDelete = 2 };

constexpr uint32_t kRecordHeader = 33;
// A value's bytes: 1 MiB, plus 4 so that the real cluster can keep a memcached client's
// 1 MiB value behind its 4-byte flags header (docs/cluster.md, "Limits").
constexpr uint32_t kMaxValue = (1u << 20) + 4;

struct RecordView {
  RecordType type;
  uint32_t seq;
  Key key;
  std::string_view value;  // points into the decoded buffer
  uint32_t size;           // bytes the record occupies
};

// Appends the encoding of a record to `out`. REQUIRES: value.size() <= kMaxValue.
void EncodeRecord(RecordType type, uint32_t seq, const Key& key, std::string_view value, uint32_t nonce,
                  std::string* out);
inline uint32_t RecordSize(size_t value_length) { return kRecordHeader + static_cast<uint32_t>(value_length); }

// Decodes the record at the start of `bytes` (`offset` is only for messages). Errors:
// kNotFound when the header is all zeros (the end of a log that was never written further);
// kCorruption naming the offset and the problem (truncated, bad type, oversized value,
// checksum mismatch, or a sequence number other than `expected_seq` when that is non-zero).
StatusOr<RecordView> DecodeRecord(std::string_view bytes, uint64_t offset, uint32_t expected_seq, uint32_t nonce);

// CRC-32C (Castagnoli), software.
uint32_t Crc32c(const uint8_t* data, size_t n, uint32_t crc = 0);

}  // namespace fawnlab::fawnds

#endif  // FAWNLAB_FAWNDS_RECORD_H_
