// SiltStore: SILT (Lim, Fan, Andersen, Kaminsky, "SILT: A Memory-Efficient, High-Performance
// Key-Value Store", SOSP 2011) as the CONA thesis configures it (§3.2.2: SortedStore index block
// 64), a real store on an emulated device behind kv::KvStore (docs/stores/silt.md).
//
// Three kinds of store, newest data first:
//   - the LogStore: puts and deletes are appended to a log on the device and indexed by an
//     in-memory partial-key cuckoo table (silt/cuckoo.h: 15-bit tag + valid bit + 4-byte log
//     offset = 6 B a slot). A put whose tag matches a slot reads that log entry to tell an
//     update (the slot then points to the new entry) from another key. When the table cannot
//     take a key within its displacement bound (~93% full) or its log is full, the LogStore
//     freezes and a new one takes the writes; if the previous frozen one is not converted yet,
//     the writer waits (stall_ns).
//   - HashStores: the background converts a frozen LogStore by reading its log back and writing
//     its live entries in table-slot order; in DRAM only the tags stay (2 B a slot).
//   - the SortedStore: entries sorted by key, indexed by CONA's entropy-coded trie (cona/trie.h)
//     at block size `trie_block`. The background merges every HashStore present (once there are
//     `merge_hash_stores`) with it: it reads them and the old SortedStore back, sorts the
//     HashStores' entries (newest wins), merges, drops deletes, writes the new SortedStore and
//     builds its trie; then the new one replaces the old and the HashStores.
// The background is one actor on its own core (SILT's background thread; the CONA thesis:
// "SILT constantly runs a background sort"), competing with the foreground for the device; a
// due conversion runs between a merge's steps.
// Gets: active LogStore, frozen LogStore, HashStores newest to oldest (a tag match costs a read
// of the entry; a different key there is a false positive), then the SortedStore (the trie's
// rank, one read). Scans: none (has_scan false). As SILT's FileStore, a lookup reads a clean
// entry past the page cache (O_DIRECT, silt/direct_reads.h), each read and append is a system
// call, and the log is synced asynchronously every 1-8 MB appended.
// Durability: Sync flushes the device, so every log entry acknowledged before it is on the
// device; the in-memory tables, tag arrays and trie are not persisted and there is no recovery
// (docs/stores/silt.md "Durability").
// Single-threaded; deterministic given the options and the order of calls.
#ifndef FAWNLAB_SILT_STORE_H_
#define FAWNLAB_SILT_STORE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "cona/trie.h"
#include "device/device.h"
#include "kv/kv_store.h"
#include "silt/costs.h"
#include "silt/cuckoo.h"
#include "silt/direct_reads.h"
#include "silt/layout.h"
#include "sim/rng.h"
#include "sim/time.h"

namespace fawnlab::silt {

// SILT's LogStore table: its evaluation configurations' hash-table-size (131072 slots = 2^15
// 4-way buckets, the most its 15-bit tags address).
constexpr uint32_t kSiltLogSlots = 131072;
// The thesis's load: 25M records (§3.2.2); a file sized for 2 x 25M entries is SILT at scale 1.
constexpr uint64_t kThesisEntries = 50'000'000;
// SILT's LogStore scaled like the lab's machine: kSiltLogSlots x entries / kThesisEntries, to
// the nearest power-of-two count of buckets, at least 8 buckets (docs/decisions.md "Stores:
// SILT LogStore size"). The lab's default, 25K records (50K entries): 128 slots.
uint32_t LogSlotsForEntries(uint64_t entries);

struct Options {
  uint64_t region_offset = 0, region_bytes = 0;  // the store's files on the device (0: to its end)
  int stream = 0;
  double cpu_scale = 1.0;        // multiplies every CPU cost; 1.0 = the i7-3610QM (cona/costs.h)
  uint32_t key_bytes = 20, max_value_bytes = 200;
  // SILT's own.
  uint32_t log_slots = kSiltLogSlots;  // 0: from the region (LogSlotsForEntries of the entries it fits)
  int max_displacements = 128;   // SILT's MAX_CUCKOO_COUNT (hash_table_cuckoo.h)
  // Merge once this many HashStores exist: SILT's store1-high-watermark, 1 by default in its
  // code (fawnds_combi.cc) and its evaluation configs (exp_p4_dis.xml); a merge takes them all.
  int merge_hash_stores = 1;
  int max_hash_stores = 32;      // chosen: the file's HashStore pool (conversions wait beyond it)
  int trie_block = 64;           // the CONA thesis §3.2.2: "index block size of 64"
  uint32_t merge_chunk_bytes = 64 * 1024;  // bytes the background reads or writes per step
  // SILT's FileStore I/O (silt/direct_reads.h): lookups read clean parts of the files with
  // O_DIRECT (past the page cache, when the device is one) through a 128-sector private cache;
  // false: every read through the device given (SILT's use-buffered-io-only).
  bool direct_reads = true;
  // The log's asynchronous fdatasync after every 1, 2, 4 or 8 (random) times this many bytes
  // appended (SILT's FileStore::Append: 1 MB << rand() % 4).
  uint64_t log_sync_bytes = 1 << 20;
  uint64_t seed = 1;             // the cuckoo tables' victim choices
};

struct SiltStats {
  uint64_t conversions = 0, merges = 0;
  uint64_t false_positives = 0;      // a get's tag matched (or the trie's rank) but the key differed
  uint64_t put_verify_reads = 0;     // log entries a put read to tell an update from a tag collision
  uint64_t updates_in_place = 0;     // puts that found their key in the active LogStore
  uint64_t displacements = 0;        // cuckoo displacements that stayed
  uint64_t failed_inserts = 0;       // inserts that hit the bound (each froze a LogStore)
  uint64_t log_full_freezes = 0;     // freezes because the log itself was full
  uint64_t merge_entries_written = 0, dropped_duplicates = 0, dropped_deletes = 0;
  uint64_t sort_compares = 0;
  uint64_t trie_symbols = 0;         // decoded by gets
  uint64_t served_log = 0, served_hash = 0, served_sorted = 0;  // gets answered (found) per layer
  double last_log_occupancy = 0;     // the table occupancy at the last freeze by a failed insert
  uint64_t direct_reads = 0;         // lookup reads past the page cache (O_DIRECT)
  uint64_t sector_cache_hits = 0;    // lookup reads the 128-sector private cache answered
  uint64_t buffered_reads = 0;       // lookup reads through the page cache (dirty pages, or no direct path)
  uint64_t file_syncs = 0;           // asynchronous fdatasyncs completed (log, new SortedStores)
};

// One layer's memory, for the memory-per-key tests and the lab's view.
struct LayerInfo {
  std::string kind;     // "log", "frozen-log", "hash", "sorted"
  uint64_t entries = 0, capacity = 0;
  uint64_t dram_bytes = 0;
};

class SiltStore : public kv::KvStore {
 public:
  static StatusOr<std::unique_ptr<SiltStore>> Create(device::Device* dev, Options o);
  // File bytes a store needs for `entries` puts and deletes (duplicates included).
  static uint64_t FileBytes(const Options& o, uint64_t entries);
  // DRAM a store holds once `keys` keys are loaded: two LogStore tables, a batch of HashStores'
  // tags (16, what a merge typically finds waiting) and the SortedStore's trie (~0.5 B a key at
  // block 64, SILT §3.3). For sizing the machine's page cache before the load.
  static uint64_t DramEstimate(const Options& o, uint64_t keys);
  ~SiltStore() override;

  const char* kind() const override { return "silt"; }
  Status Put(std::string_view key, std::string_view value, Done done) override;
  Status Delete(std::string_view key, Done done) override;
  Status Get(std::string_view key, GetDone done) override;
  Status Sync(Done done) override;
  bool idle() const override;
  uint64_t dram_bytes() const override;
  kv::KvCounters counters() const override;
  void DescribeJson(JsonWriter* w) const override;

  const SiltStats& stats() const { return s_; }
  std::vector<LayerInfo> layers() const;
  const Layout& layout() const { return layout_; }
  const Options& options() const { return o_; }

 private:
  struct Log;
  struct Hash;
  struct Sorted;
  struct Op;
  struct Merge;
  SiltStore(device::Device* dev, Options o, Layout l);

  Status CheckKey(std::string_view key) const;
  Status Enqueue(std::unique_ptr<Op> op);
  void Pump();
  void Finish(sim::SimDuration cost, std::function<void()> then);
  void Complete(Op* op, const Status& s, std::string value);
  Status Io(device::IoCommand cmd, std::function<void()> then, device::Device* target = nullptr);
  // A lookup's read of one entry (gets and a put's check): SILT's FileStore rules.
  void LookupRead(uint64_t off, std::shared_ptr<std::vector<uint8_t>> buf, std::function<void()> then);
  void AsyncSync();
  // Foreground.
  void RunWrite(Op* op);
  void VerifyCandidate(Op* op);
  void Append(Op* op);
  void Freeze(Op* op);
  void RunGet(Op* op);
  void ProbeBelow(Op* op);
  void CheckNextCandidate(Op* op);
  // Background (silt/background.cc).
  void Kick();
  void BackgroundNext();
  void BgCpu(sim::SimDuration cost, std::function<void()> then);
  void ChunkedRead(uint64_t offset, uint64_t bytes, uint8_t* out, std::function<void()> then);
  void ChunkedWrite(uint64_t offset, std::shared_ptr<std::vector<uint8_t>> data, uint64_t from, std::function<void()> then);
  void Convert();
  void StartMerge();
  void MergeStep();
  void MergeSort();
  void MergeOutput();
  void MergeFinish();
  void WakeWriter();

  device::Device* dev_;
  sim::Simulator* sim_;
  Options o_;
  Layout layout_;
  cona::HostCosts hc_;
  SiltCosts sc_;
  kv::KvCounters c_;
  SiltStats s_;
  uint64_t next_id_ = 1;          // layer ids: higher is newer (the SortedStore is 0)
  uint64_t accepted_ = 0;         // puts and deletes accepted (the file's room)
  std::unique_ptr<Log> active_, frozen_;
  std::vector<std::unique_ptr<Hash>> hash_;   // oldest first
  std::vector<bool> hash_region_used_;
  std::unique_ptr<Sorted> sorted_;
  // Foreground.
  std::deque<std::unique_ptr<Op>> queue_;
  std::unique_ptr<Op> current_;
  sim::SimTime fg_free_at_ = 0;
  std::function<void()> writer_wait_;
  // Background.
  bool bg_busy_ = false, converting_ = false;
  sim::SimTime bg_free_at_ = 0, bg_busy_since_ = 0;
  std::unique_ptr<Merge> merge_;
  bool failed_ = false;
  Status failure_;
  std::shared_ptr<bool> alive_;
  // SILT's file I/O.
  device::Device* direct_dev_ = nullptr;  // the device under the page cache, if dev_ is one
  DirectReads dr_;
  uint64_t log_unsynced_ = 0, next_log_sync_ = 0;
  sim::Rng sync_rng_{1};
};

}  // namespace fawnlab::silt

#endif  // FAWNLAB_SILT_STORE_H_
