// LsmStore: a log-structured merge tree in LevelDB's image (LevelDB 1.23: db/db_impl.cc,
// db/version_set.cc) on an emulated device, behind kv::KvStore.
//
// Writes: each put or delete appends a one-operation WriteBatch to the write-ahead log (LevelDB's
// log format, one device write per record, as LevelDB's log writer flushes each one to the
// OS), then enters the memtable (lsm/memtable.h: LevelDB's skiplist costs and arena bytes).
// Before a write, LevelDB's MakeRoomForWrite: at 8 level-0 files the write is delayed 1 ms
// once; if the memtable is over write_buffer_size, a full immutable memtable or 12 level-0
// files make the writer wait for the background (stall_ns); otherwise the memtable becomes
// the immutable one and a new log starts. The background actor (one, like LevelDB's thread,
// on its own core and competing for the device) flushes the immutable memtable to a table
// (lsm/table.h: 4 KB blocks, per-table index and Bloom filter blocks) and runs LevelDB's size
// compactions (lsm/version.h): it reads the input tables back from the device, merges them
// (the newest version of a key wins; older versions are dropped, deletions too where no deeper
// level holds the key), writes output tables cut at max_file_bytes or at the grandparent
// overlap limit, syncs, and appends a VersionEdit to the manifest; a pending immutable
// memtable is flushed between output tables (LevelDB gives it priority). Tables are freed
// once no version or reader holds them. Gets look in the memtable, the immutable one, level-0
// tables newest first, then one table per level: index block -> that block's filter -> one
// data block read; a get that must look in a second table charges the first a seek, and a
// table out of its allowed seeks (one per 16 KB, at least 100) is compacted when no level's
// score asks for one (LevelDB's seek compaction). Scans merge every source in key order.
//
// Sizes: LevelDB's (write buffer 4 MB, tables 2 MB, L1 10 MB, ×10 per level) times size_scale
// (1.0 = LevelDB's own), floored at kMinSizeScale so a table spans a few 4 KB blocks; the
// block size is not scaled. size_scale 0 picks the scale from the region (ScaleForEntries of
// the entries it is sized for: the lab's records / 25M, like the machine's scale).
// CPU: cona::HostCosts (shared primitives) and LsmCosts (lsm/costs.h), × cpu_scale.
// docs/stores/lsm.md. Single-threaded; deterministic given the order of calls.
#ifndef FAWNLAB_LSM_STORE_H_
#define FAWNLAB_LSM_STORE_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "cona/costs.h"
#include "device/device.h"
#include "kv/kv_store.h"
#include "lsm/costs.h"
#include "lsm/log_format.h"
#include "lsm/memtable.h"
#include "lsm/version.h"
#include "sim/time.h"

namespace fawnlab::lsm {

constexpr double kMinSizeScale = 1.0 / 128;  // 2 MB / 128 = 16 KB tables: four 4 KB blocks

struct Options {
  uint64_t region_offset = 0, region_bytes = 0;  // the store's files on the device (0: to its end)
  int stream = 0;
  double cpu_scale = 1.0;   // multiplies every CPU cost; 1.0 = the thesis' i7-3610QM
  uint32_t key_bytes = 20, max_value_bytes = 200;
  int bloom_bits = 10;      // Bloom filter bits per key (0: none, LevelDB's default; 10 the common choice)
  double size_scale = 1.0;  // × LevelDB's sizes; 0: from the region (see the header comment)
  // LevelDB 1.23's defaults (include/leveldb/options.h, db/version_set.cc), at size_scale 1.
  uint64_t write_buffer_bytes = 4 << 20;
  uint64_t max_file_bytes = 2 << 20;
  uint64_t l1_bytes = 10 << 20;
  uint32_t block_bytes = 4096;
  int block_restart_interval = 16;
  sim::SimDuration slowdown_ns = 1000000;  // the 1 ms sleep at 8 level-0 files (not scaled)
  uint32_t io_chunk_bytes = 1 << 20;       // the background's read and write commands
  cona::HostCosts host = cona::I7_3610QM();
  LsmCosts costs = LsmI7_3610QM();
};

// The scale for a store sized for `entries` puts and deletes: entries / 50M (the thesis loads
// 25M records; the lab's files hold twice the records), floored at kMinSizeScale, at most 1.
double ScaleForEntries(uint64_t entries);

struct LevelStats {
  uint64_t files = 0, bytes = 0, target_bytes = 0;
  uint64_t bytes_written = 0;  // flush and compaction outputs into this level (LevelDB's Write(MB))
  uint64_t bytes_read = 0;     // compaction inputs from this level and the one above into it
  uint64_t compactions = 0;
};

struct LsmStats {
  uint64_t flushes = 0, compactions = 0, trivial_moves = 0;
  uint64_t seek_compactions = 0;               // of the compactions and moves, started by seeks
  uint64_t slowdowns = 0, stops = 0;           // writes delayed 1 ms; writer waits
  uint64_t syncs = 0;                          // device flushes after written tables
  uint64_t wal_bytes = 0, table_bytes = 0, manifest_bytes = 0;
  uint64_t filter_negatives = 0, false_positives = 0;  // gets' filter answers
  uint64_t dropped_versions = 0, dropped_deletions = 0;
  std::array<LevelStats, kNumLevels> levels{};
};

class LsmStore : public kv::KvStore {
 public:
  static StatusOr<std::unique_ptr<LsmStore>> Create(device::Device* dev, Options o);
  // Bytes of file a store needs for `entries` puts and deletes (duplicates included).
  static uint64_t FileBytes(const Options& o, uint64_t entries);
  // The DRAM a store sized for 2 × `keys` entries holds with `keys` live keys (for a page
  // cache's sizing): two full memtables and, per key, its share of a table's index block (one
  // ~23-byte entry per data block) and filter block (bloom_bits per key, at least 64 bits per
  // block, two 4-byte offsets per block).
  static uint64_t DramEstimate(const Options& o, uint64_t keys);
  ~LsmStore() override;

  const char* kind() const override { return "lsm"; }
  Status Put(std::string_view key, std::string_view value, Done done) override;
  Status Delete(std::string_view key, Done done) override;
  Status Get(std::string_view key, GetDone done) override;
  bool has_scan() const override { return true; }
  Status Scan(std::string_view start, int count, ScanDone done) override;
  Status Sync(Done done) override;
  bool idle() const override;
  uint64_t dram_bytes() const override;
  kv::KvCounters counters() const override { return c_; }
  void DescribeJson(JsonWriter* w) const override;

  LsmStats stats() const;        // levels filled in from the current version
  const Options& options() const { return o_; }
  double size_scale() const { return scale_; }
  uint64_t write_buffer_bytes() const { return wb_; }
  const Sizes& sizes() const { return sizes_; }
  int levels_in_use() const;

 private:
  struct Op;
  struct Job;
  class Extents;
  LsmStore(device::Device* dev, Options o, double scale);

  Status CheckKey(std::string_view key) const;
  Status Enqueue(std::unique_ptr<Op> op);
  void Pump();
  void Finish(sim::SimDuration cost, std::function<void()> then);
  void OpDone();
  sim::SimDuration Cpu(double ns) const;
  void Io(device::IoCommand cmd, std::function<void()> then);
  void Fail(Status s);
  // Foreground.
  void MakeRoom(Op* op);
  void WriteToLog(Op* op);
  void RunGet(Op* op);
  void ProbeFiles(Op* op, size_t from, double cpu);
  void AnswerGet(Op* op, bool found, bool deleted, std::string value, double cpu);
  void ChargeSeek(Op* op);
  void RunScan(Op* op);
  void NotifyWriter();
  // Background.
  void BgKick();
  void BgCpu(double ns, std::function<void()> then);
  void BgDone();
  void Flush(std::function<void()> then);
  void StartCompaction();
  void ReadInputs(size_t task);
  void CompactStep();
  void CompactInstall();
  void WriteImage(std::shared_ptr<std::string> image, uint64_t offset, uint64_t from, std::function<void()> then);
  StatusOr<FilePtr> NewFile(const std::string& image, uint64_t entries, std::string smallest, std::string largest);
  void Apply(const std::vector<std::pair<int, uint64_t>>& deleted, const std::vector<std::pair<int, FilePtr>>& added);
  void WriteManifest(const VersionEdit& e, std::function<void()> then);
  void SyncOutputs(std::function<void()> then);

  device::Device* dev_;
  sim::Simulator* sim_;
  Options o_;
  double scale_;
  uint64_t wb_;
  Sizes sizes_;
  // Layout: [manifest][log 0][log 1][tables].
  uint64_t manifest_off_ = 0, manifest_bytes_ = 0, wal_off_[2] = {0, 0}, wal_bytes_ = 0, tables_off_ = 0, tables_bytes_ = 0;
  std::shared_ptr<Extents> extents_;
  kv::KvCounters c_;
  LsmStats st_;
  std::shared_ptr<MemTable> mem_, imm_;
  int wal_slot_ = 0;
  uint64_t wal_pos_ = 0;
  LogWriter wal_log_;
  uint64_t log_number_ = 1;
  std::shared_ptr<Version> current_;
  std::array<std::string, kNumLevels> pointers_;
  uint64_t next_file_ = 2, last_seq_ = 0;
  uint64_t manifest_pos_ = 0;
  LogWriter manifest_log_;
  uint64_t unsynced_bytes_ = 0;  // table bytes written since the last device flush
  // Foreground.
  std::deque<std::unique_ptr<Op>> queue_;
  std::unique_ptr<Op> cur_;
  sim::SimTime fg_free_at_ = 0;
  std::function<void()> writer_wait_;
  // Background.
  bool bg_busy_ = false, flushing_ = false;
  int compacting_ = -1;
  sim::SimTime bg_free_at_ = 0, bg_start_ = 0;
  std::unique_ptr<Job> job_;
  bool failed_ = false;
  Status failure_;
  std::shared_ptr<bool> alive_;
};

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_STORE_H_
