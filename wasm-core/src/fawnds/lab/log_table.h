// LogTable: the FAWN-DS lab's record-by-record picture of one store's data log, for the log
// view (docs/modules.md, "The FAWN-DS lab's web modules").
//
// It decodes the records a store appends (incrementally: CatchUp reads only what is new) and
// keeps per record its log offset, type and key bits — 17 bytes a record, so a million-record
// log costs 17 MB, not a JSON text. Columns() then classifies every record against the
// store's index and range:
//   live          the index points at it (a put);
//   orphaned      a put superseded by a later put of the same key (the key is still live);
//   deleted       a delete record, or a put whose key has since been deleted;
//   out of range  its key left the store (a split's leftovers, until a compaction);
//   lost          written but never synced, and undone by a crash (MarkLost).
// The live set comes from one pass over the buckets (a bitmap of the offsets they point at); a
// non-live put costs one probe sequence, its fragment matches resolved against the table's
// 96 key bits (the low 64 and the top 32; two distinct SHA-1 keys agreeing on all 96 is not a
// case the lab meets). Range checks are exact: a key whose top 32 bits tie with a range end
// is read back from the device.
#ifndef FAWNLAB_FAWNDS_LAB_LOG_TABLE_H_
#define FAWNLAB_FAWNDS_LAB_LOG_TABLE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "fawnds/store.h"

namespace fawnlab::fawndslab {

enum class RecordState : uint8_t { kLive = 0, kOrphaned = 1, kDeleted = 2, kOutOfRange = 3, kLost = 4 };
constexpr int kRecordStates = 5;
const char* RecordStateName(RecordState s);

// Flag bits beside the state (bits 0-2) in LogColumns::flags.
constexpr uint8_t kStateMask = 0x07;
constexpr uint8_t kFlagDelete = 0x08;    // a delete record (else a put)
constexpr uint8_t kFlagReplayed = 0x10;  // replayed by the last recovery (after its checkpoint)

// Columns of a log, one entry per record in log order. A record's size is the next record's
// offset minus its own (the last one's: log_end minus its offset).
struct LogColumns {
  std::vector<uint32_t> offsets;  // log offsets
  std::vector<uint8_t> flags;     // state | kFlag*
  std::vector<uint32_t> keys;     // the key's top 32 bits (its first 8 hex digits)
  uint64_t log_end = 0;
  std::array<uint64_t, kRecordStates> counts{};
};

class LogTable {
 public:
  // Decodes the records in [decoded end, store.log_end()).
  void CatchUp(const fawnds::DataStore& store);
  // Every record's state against `store`'s index and range now.
  LogColumns Columns(const fawnds::DataStore& store) const;
  // After a crash (the device holds what survived): the records from the last one that no
  // longer decodes back are lost; returns how many.
  size_t MarkLost(const fawnds::DataStore& store);
  // The last `n` records were replayed by a recovery.
  void MarkReplayed(uint64_t n);
  size_t size() const { return offsets_.size(); }
  uint64_t end() const { return end_; }

 private:
  bool InRange(const fawnds::DataStore& store, size_t i) const;
  // Whether the index holds record i's key (pointing at any of its records); `at` maps
  // offset / kRecordHeader to a record number.
  bool KeyPresent(const fawnds::DataStore& store, size_t i, const std::vector<uint32_t>& at) const;

  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> key_hi_;
  std::vector<uint64_t> key_lo_;
  std::vector<uint8_t> type_;  // kFlagDelete or 0
  uint64_t end_ = 0;
  size_t lost_from_ = SIZE_MAX;
  size_t replayed_from_ = SIZE_MAX;
};

// The key's top 32 and low 64 bits.
uint32_t KeyHigh32(const fawnds::Key& k);
uint64_t KeyLow64(const fawnds::Key& k);

}  // namespace fawnlab::fawndslab

#endif  // FAWNLAB_FAWNDS_LAB_LOG_TABLE_H_
