// DataStore: one FAWN-DS datastore — an append-only data log on a device plus the in-DRAM
// hash index that points into it (SOSP'09 §3.3; thesis §4.1.2). A node keeps one per key
// range, each in its own file (a region of the device: `region_offset`, `region_bytes`).
//
// Operations take effect when called, in call order (the index changes at once, and the
// appended record is on the device from then on); their completion — the simulated time the
// device takes for the reads and the append — comes later through the callback:
//   Put     appends a put record; if the key was present (a fragment match whose record
//           holds the same full key), its bucket is repointed and the old record orphaned,
//           else the first free bucket of the key's probe sequence takes it.
//   Get     reads the record of each fragment match in probe order until the full key
//           matches (a false positive costs one extra read, counted).
//   Delete  clears the bucket's valid bit and appends a delete record, so replay re-deletes.
//   Sync    flushes the device; an operation acknowledged before a Sync completed is durable.
//   Checkpoint  writes the index image and a superblock (log end, next record number) into
//           the file's alternate slots, then flushes (§3.3.1 "periodically checkpoints").
// Recover() reopens a file: the newest valid superblock whose index image checks out, that
// image, then the log after it, record by record, until the first record that is absent,
// torn, stale or damaged — that is the log's end. With no image it replays the whole log.
// Records outside the store's range (a split's leftovers) are not indexed. A node, which
// knows each store's range from its datastore list, passes that range instead of the
// superblock's (a crash can leave a superblock behind or ahead of the list).
//
// File layout (docs/formats/fawnds.md): superblock slots A and B (4 KB each), index image
// slots A and B (6 × 2^i bytes each, 4 KB-rounded), then the log.
#ifndef FAWNLAB_FAWNDS_STORE_H_
#define FAWNLAB_FAWNDS_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "fawnds/hash_index.h"
#include "fawnds/key.h"
#include "fawnds/record.h"

namespace fawnlab::fawnds {

struct StoreOptions {
  int index_bits = 16;
  KeyRange range;             // the keys this store accepts (default: all)
  uint64_t region_offset = 0;
  uint64_t region_bytes = 0;  // the whole file, header slots included
  uint32_t nonce = 1;         // distinguishes this store's records from an earlier file's
  int stream = 0;             // device stream (NVM channel) for this store's I/O
};

struct StoreStats {
  uint64_t puts = 0, gets = 0, deletes = 0;
  uint64_t hits = 0, misses = 0;
  uint64_t record_reads = 0;     // flash reads of records (lookups and put verification)
  uint64_t false_positives = 0;  // fragment matches whose full key differed
  uint64_t orphaned = 0;         // records no bucket points to any more (puts over a key, deletes)
  // Log bytes those orphaned records hold (garbage a compaction would reclaim). Counted from
  // the store's creation or, after Recover, from its checkpoint: garbage older than the
  // checkpoint is not known.
  uint64_t garbage_bytes = 0;
  uint64_t checkpoints = 0;
};

struct RecoveryReport {
  bool from_checkpoint = false;
  uint64_t checkpoint_seq = 0;
  uint64_t replayed_records = 0;
  uint64_t log_end = 0;
  std::string end_reason;  // why replay stopped: "end of log", or the corruption it met
  uint64_t dropped_out_of_range = 0;  // image entries outside the range given to Recover
  sim::SimDuration duration_ns = 0;
};

class DataStore {
 public:
  using Done = std::function<void(const Status&)>;
  using GetDone = std::function<void(const Status&, std::string value)>;
  static constexpr uint64_t kSlot = 4096;

  // A new, empty store; writes its first superblock (and trims the file) before returning.
  static StatusOr<std::unique_ptr<DataStore>> Create(device::Device* dev, StoreOptions o);
  // Reopens the store in [region_offset, region_offset + region_bytes) after a crash or a
  // restart. Runs the device until it is done (recovery is the node's only work).
  static StatusOr<std::unique_ptr<DataStore>> Recover(device::Device* dev, uint64_t region_offset,
                                                      uint64_t region_bytes, int stream, RecoveryReport* report);
  // The same, with `range` as the store's range: the log is replayed for keys in `range`
  // only, and keys outside it that the checkpoint's image holds are dropped from the index.
  static StatusOr<std::unique_ptr<DataStore>> Recover(device::Device* dev, uint64_t region_offset,
                                                      uint64_t region_bytes, int stream, RecoveryReport* report,
                                                      const KeyRange& range);
  // Bytes a file needs for `log_bytes` of log with 2^index_bits buckets.
  static uint64_t FileBytes(int index_bits, uint64_t log_bytes);

  // Each returns an error at once (and never calls `done`) when the operation is refused: a
  // key outside the range, a value over kMaxValue, a full index or file, a device refusal.
  Status Put(const Key& key, std::string_view value, Done done);
  Status Delete(const Key& key, Done done);
  Status Get(const Key& key, GetDone done);
  // Vector lookups: a batch of keys looked up together (for the vector-I/O lab). Each key's
  // candidate records — its fragment matches, in probe order — are read in rounds: round r
  // reads the r-th candidate of every key that still has one, as one device command (vectors
  // of up to device::kMaxVectorEntries entries; an NVM device serves each as one command).
  // Round 0 holds every key's first candidate, so without false positives a batch costs one
  // command. A key with no fragment match costs no read. `done` receives, in key order, a
  // status (Ok or NotFound) and the value for each key, once every read has completed.
  using MultiGetDone = std::function<void(std::vector<Status>, std::vector<std::string>)>;
  Status MultiGet(const std::vector<Key>& keys, MultiGetDone done);
  // The same on device stream `stream` instead of the store's own (a networked back-end's
  // thread uses the DMA channel of its connection).
  Status MultiGet(const std::vector<Key>& keys, int stream, MultiGetDone done);
  Status Sync(Done done);
  // Drops the key's index entry without writing a record (its records stay in the log as
  // orphans): a split's end, for the keys that moved to the new store. DRAM only.
  void Forget(const Key& key);
  Status Checkpoint(Done done);

  const HashIndex& index() const { return index_; }
  const StoreStats& stats() const { return stats_; }
  const StoreOptions& options() const { return o_; }
  // Changes the range the store accepts (a split or merge ending); written at the next checkpoint.
  void set_range(const KeyRange& r) { o_.range = r; }
  // Where the log's byte `offset` lies on the device.
  uint64_t DeviceOffsetOf(uint64_t offset) const { return LogDeviceOffset(offset); }
  uint64_t log_end() const { return log_end_; }
  uint64_t log_capacity() const { return o_.region_bytes - log_start_; }
  uint64_t log_start() const { return log_start_; }  // within the file
  uint32_t next_seq() const { return next_seq_; }
  uint64_t live_keys() const { return index_.valid_buckets(); }
  // True when the index points at the record at log offset `offset` for `key`.
  bool IsLive(const Key& key, uint64_t offset) const;
  // Decodes the record at log offset `offset` from the device's bytes (no timing).
  StatusOr<RecordView> PeekRecord(uint64_t offset, std::string* buf) const;

 private:
  struct Join;  // calls an operation's `done` once all its I/Os have finished
  DataStore(device::Device* dev, StoreOptions o);
  static StatusOr<std::unique_ptr<DataStore>> Recover(device::Device* dev, uint64_t region_offset, uint64_t region_bytes,
                                                      int stream, RecoveryReport* report, const KeyRange* range);
  uint64_t ImageBytes() const;
  uint64_t LogDeviceOffset(uint64_t log_offset) const { return o_.region_offset + log_start_ + log_offset; }
  // The bucket holding `key`, or -1, in one pass over its probe sequence. `checked_`
  // receives the offsets of every record read (fragment matches, in probe order), `match_`
  // the decoded record of the match (pointing into scratch_), and `free` (if given) the first
  // bucket whose valid bit is clear, or -1.
  int64_t Find(const Key& key, int64_t* free = nullptr);
  // Points the key's bucket at `offset` (repointing an existing entry, else taking the first
  // free bucket of its probe sequence). False when no bucket is free.
  bool ApplyPut(const Key& key, uint64_t offset);
  void ApplyDelete(const Key& key);
  // Appends a record at the log's end (one device write, joined to `join`); its log offset.
  StatusOr<uint64_t> Append(RecordType type, const Key& key, std::string_view value, const std::shared_ptr<Join>& join);
  // Issues the timed reads of the records at `offsets` one after another, then calls `then`
  // (which, like the reads, must not need the store: it may be replaced meanwhile).
  void ReadChain(const std::vector<uint64_t>& offsets, std::function<void()> then);
  // The timed reads of the records Find compared (checked_), after an append, joined to `j`.
  void VerifyReads(const std::shared_ptr<Join>& j);
  // Submits a one-entry command on the store's stream (reusing one command object).
  Status SubmitOne(const device::IoEntry& e, device::CompletionFn fn);

  device::Device* dev_;
  StoreOptions o_;
  HashIndex index_;
  uint64_t log_start_ = 0;
  uint64_t log_end_ = 0;
  uint32_t next_seq_ = 1;
  uint64_t checkpoint_seq_ = 0;
  uint32_t image_slot_ = 0;  // 0: none yet, 1: A, 2: B
  StoreStats stats_;
  // Reused buffers (the device touches buffers only inside Submit, so one of each suffices).
  // Completion closures never refer to the store: Node replaces stores with reads in flight.
  std::string scratch_;               // the record Find or PeekRecord decoded last
  std::string record_;                // the record being appended
  std::vector<uint8_t> sink_;         // destination of timed reads whose bytes were peeked
  std::vector<uint64_t> checked_;     // Find's fragment-match offsets
  RecordView match_{};                // Find's full-key match, into scratch_
  uint64_t last_peek_size_ = 0;       // bytes of the last record Find compared (checked_.back())
  mutable uint64_t peek_hint_ = kRecordHeader;  // bytes PeekRecord reads first (last record's size)
  device::IoCommand io_;              // SubmitOne's command
};

}  // namespace fawnlab::fawnds

#endif  // FAWNLAB_FAWNDS_STORE_H_
