// Store: the CONA (cache-oblivious no-lookahead array, thesis Ch. 3, Fig 3.2) on an emulated
// device: two sorted in-memory insertion buffers of B bytes (active and frozen, swapped on
// fill), a 2-CONA of k levels — cell capacity B·2^(i-1), two visible slots and one shadow slot
// per level, in one file at fixed offsets (cona/layout.h) — and per occupied cell an
// entropy-coded trie (key -> rank) and a key-fragment array (cona/cell.h).
//
// Puts and deletes go into the active buffer (a delete is a newer entry, a marker). When a put
// finds the active buffer full, the frozen buffer is induced into a free level-1 cell (its bytes
// written, its trie and fragments built) and the buffers swap; if level 1 has no free slot the
// writer first links completed shadows (Fig 3.3 d/h, cascading) or waits for the merge actor
// (exposed merge time). The merge actor (its own core, work conserving, competing for the
// device) merges a level's two full cells — a completed, unlinked shadow counts as one, Fig
// 3.3c — into the next level's shadow in steps: read a chunk of each source from the device,
// merge (the newer version of a duplicate wins), write a chunk of the shadow. With
// merge_thread = false the writer waits for every merge it starts (the single-thread variant).
// Gets search active then frozen buffer, then visible cells level 1 → k, newer cell first in a
// level: trie rank → fragment check → one entry read on a match. Durability: cells are
// immutable; a manifest (cona/manifest.h) written at each induce, link and sync names the
// visible cells and the synced buffer image; Sync flushes (durable_links: every manifest is
// made durable in the background); Recover rebuilds from the newest usable one, discarding
// shadows. docs/cona/store.md, docs/formats/cona.md.
// Timing: foreground ops one at a time through a FIFO core at HostCosts (cona/costs.h).
// Single-threaded; deterministic given the order of calls.
#ifndef FAWNLAB_CONA_STORE_H_
#define FAWNLAB_CONA_STORE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "cona/buffer.h"
#include "cona/cell.h"
#include "cona/costs.h"
#include "cona/layout.h"
#include "cona/manifest.h"
#include "device/device.h"
#include "device/page_cache.h"
#include "sim/time.h"

namespace fawnlab::cona {

enum class TrieMix : uint8_t { kThesis, k4, k16, k64 };  // kThesis: first N-4 levels 4,
                                                         // N-3..N-1 16, last level 64 (§3.2.1)
const char* TrieMixName(TrieMix m);
// Block size for a cell at `level` when the structure has `levels` levels (N).
int BlockSizeFor(TrieMix mix, int level, int levels);

struct StoreOptions {
  uint32_t buffer_bytes = 64 * 1024;      // B per buffer (Fig 3.4: 8 KB..1 MB, 64 KB chosen)
  uint32_t key_bytes = 20, value_bytes = 200;  // §3.2 setup: 20 B keys, 200 B values (max)
  TrieMix trie = TrieMix::kThesis;
  int fragment_bits = 16;                 // upper levels: 16 (§3.1.2) or 0 (off)
  int last_fragment_bits = 0;             // the last level: 0 (default) or 8 (the full filter)
  bool merge_thread = true;               // false: the single-thread variant (merges inline)
  uint64_t region_offset = 0, region_bytes = 0;  // the store's one file on the device (0: to its end)
  int stream = 0;
  HostCosts costs = I7_3610QM();
  // Added by H1: bytes of each source the merge actor reads per step (and of shadow it writes).
  uint32_t merge_chunk_bytes = 64 * 1024;
  // Added by H1. false (the thesis: an mmapped file, write-back left to the kernel): only Sync
  // flushes; a crash loses nothing synced, but a torn write between syncs may hit a cell the
  // last sync named, and recovery then refuses with a clear Corruption error. true: each
  // induce's or link's manifest is also made durable in the background (flush, write, flush)
  // and a freed slot is reused only once no durable manifest names it — torn writes cost
  // nothing synced, but a fast writer waits for those flushes. docs/decisions.md "CONA: durability".
  bool durable_links = false;
};

struct StoreStats {
  uint64_t puts = 0, deletes = 0, gets = 0, scans = 0, hits = 0, misses = 0;
  uint64_t flash_reads = 0;        // entry reads issued by lookups (page-cache hits included)
  uint64_t false_positives = 0;    // fragment matched, full key differed
  uint64_t fragment_skips = 0;     // cells a fragment mismatch skipped without a read
  uint64_t trie_symbols = 0;       // Huffman symbols decoded by lookups
  uint64_t induces = 0, merges = 0, flips = 0;
  uint64_t merge_moves = 0;        // entries written by merges (the thesis's "merge operations")
  sim::SimDuration insert_ns = 0;          // foreground time in puts/deletes (all of it)
  sim::SimDuration induce_ns = 0;          // ... of which inducing the frozen buffer
  sim::SimDuration exposed_merge_ns = 0;   // ... of which waiting for (or, single-thread,
                                           //     doing) merges: "exposed merge time"
  sim::SimDuration merge_ns = 0;           // the merge actor's busy time (CPU + its I/O)
  sim::SimDuration read_ns = 0;            // foreground time in gets
  uint64_t user_bytes = 0;         // key+value bytes put
  uint64_t store_bytes_written = 0;  // bytes the store wrote to its file (induce, merges, manifest, syncs)
  std::vector<uint64_t> served_by;   // gets answered by [0] the buffers, [i] level i
  // Added by H1:
  uint64_t links = 0;              // shadows made visible (each flip links one or more)
  uint64_t merge_steps = 0;        // merge actor steps (read chunks, merge, write chunk)
  uint64_t dropped_duplicates = 0; // older versions merges dropped
  uint64_t dropped_tombstones = 0; // delete markers dropped by merges into the deepest data
  uint64_t syncs = 0, manifests = 0;
  sim::SimDuration sync_ns = 0, scan_ns = 0;
  // Added by H1 (issue 17): CPU time the foreground charged (every Finish), for energy.
  sim::SimDuration cpu_ns = 0;
};

struct CellInfo {
  int level;            // 1..k
  int slot;             // 0, 1 visible; 2 the shadow
  bool visible;         // false for a shadow (being merged into, or done and not yet linked)
  uint64_t entries, capacity;   // capacity = B·2^(level-1) entries-worth
  uint64_t merged;      // a shadow's entries written so far (== entries when done)
  uint64_t trie_bytes, fragment_bytes;
  int block_size, fragment_bits;
  uint64_t seq;         // creation order: higher is newer
  // Added by H1:
  int file_slot;        // the physical slot (0..2) in the level's file region
  bool done;            // a shadow whose merge completed (a visible cell is always done)
  bool consumed;        // its entries are already merged into a completed shadow below
};

struct Structure {
  uint64_t buffer_capacity;            // entries per buffer
  uint64_t active_entries, frozen_entries;
  bool frozen_waiting;                 // the frozen buffer is full and waits for a level-1 slot
  int levels;                          // k
  uint64_t entries;                    // in buffers and visible cells (duplicates counted)
  uint64_t trie_bytes, fragment_bytes, buffer_bytes;
  std::vector<CellInfo> cells;         // occupied or being-merged cells, level then slot
  bool merging; int merge_level;       // the merge in progress: level L's cells into L+1's shadow
  // Added by H1:
  uint64_t merge_moved = 0, merge_total = 0;  // the merge in progress: entries written / at most
  int max_levels = 0;                  // K: levels the file holds
};

struct LookupStep {
  int level;            // 0: a buffer (slot 0 active, 1 frozen); else the cell's level
  int slot;
  uint64_t rank;        // the trie's answer (buffers: the binary search's position)
  uint64_t trie_symbols;
  int fragment;         // -1: no fragment array, 0: mismatch (skipped), 1: match
  bool flash_read;      // an entry read was issued
  bool cache_hit;       // ... and the page cache had every page of it
  int outcome;          // 0 not here, 1 found, 2 false positive, 3 found a delete marker
};
struct LookupTrace { std::vector<LookupStep> steps; bool found = false; sim::SimDuration latency_ns = 0; };

struct RecoveryReport {
  uint64_t manifest_seq = 0;
  int manifest_slot = -1;
  std::string other_slot;          // why the other manifest slot was not used ("older", or its error)
  uint64_t cells = 0, cell_entries = 0;
  uint64_t buffer_entries = 0;     // restored from the synced image
  uint64_t bytes_read = 0;
  sim::SimDuration duration_ns = 0;
};

class Store {
 public:
  using Done = std::function<void(const Status&)>;
  using GetDone = std::function<void(const Status&, std::string value)>;  // NotFound if absent/deleted
  using ScanDone = std::function<void(const Status&, std::vector<std::pair<std::string, std::string>>)>;
  // `dev` is the device the file lives on (typically a PageCache over a flash device); the
  // simulator is dev->sim(). Create: a new empty store (writes its manifest).
  static StatusOr<std::unique_ptr<Store>> Create(device::Device* dev, StoreOptions o);
  // Reopens after a crash or restart from the manifest (runs the simulator until done).
  static StatusOr<std::unique_ptr<Store>> Recover(device::Device* dev, StoreOptions o, RecoveryReport* report);
  // Bytes of file a store needs for `entries` entries (levels enough, 3 slots per level, manifest).
  // `entries` counts every put and delete the store will take (duplicates included).
  static uint64_t FileBytes(const StoreOptions& o, uint64_t entries);
  ~Store();

  // Foreground operations are served one at a time in call order (the client thread); each
  // takes effect in order and completes through its callback at the virtual time the host's
  // CPU costs, the waits for the merge actor and the device give. Errors (wrong key length,
  // value too long, file full, device refused) return at once and never call `done`.
  Status Put(std::string_view key, std::string_view value, Done done);
  Status Delete(std::string_view key, Done done);
  Status Get(std::string_view key, GetDone done, LookupTrace* trace = nullptr);  // trace filled before done
  Status Scan(std::string_view start, int count, ScanDone done);  // key order (keys are hashes)
  Status Sync(Done done);  // everything acknowledged before it is durable once it completes
  const StoreStats& stats() const { return stats_; }
  Structure structure() const;
  const StoreOptions& options() const { return o_; }
  bool idle() const;       // no foreground op queued and no merge (nor background manifest) in progress
  uint64_t dram_bytes() const;  // tries + fragments + buffers: what the index really occupies
  const Layout& layout() const { return layout_; }

 private:
  struct Cell;
  struct Op;
  struct Merge;
  Store(device::Device* dev, StoreOptions o, Layout l);
  static StatusOr<std::unique_ptr<Store>> RecoverFrom(device::Device* dev, const StoreOptions& o, const Layout& layout,
                                                      const Manifest& man, int slot, RecoveryReport* rep);

  Status CheckKey(std::string_view key) const;
  Status CheckRoom() const;
  Status Enqueue(std::unique_ptr<Op> op);
  void Pump();
  void Finish(sim::SimDuration cost, std::function<void()> then);
  void OpDone();
  // Foreground steps.
  void RunWrite(Op* op);
  void MakeRoom(Op* op);
  void SingleThreadWait(Op* op);
  void Induce(Op* op);
  void RunGet(Op* op);
  void ProbeCells(Op* op, size_t from, sim::SimDuration cpu);
  void RunScan(Op* op);
  void RunSync(Op* op);
  void WriteManifest(bool durable, std::function<void()> then);
  std::vector<uint8_t> BuildManifest(bool sync);
  void PumpManifest();
  // Structure.
  int Depth() const;
  bool AloneAtBottom(int level, uint64_t self) const;
  int FreeSlot(int level) const;
  bool HasShadow(int level) const;
  int VisibleCount(int level) const;
  bool TryLink(int level);
  void Discard(uint64_t id);
  std::vector<const Cell*> SearchOrder() const;
  // The merge actor.
  void MergeKick();
  bool PickMerge(int* level, uint64_t* a, uint64_t* b) const;
  void MergeStep();
  void MergeRead();
  void MergeWrite();
  void MergeDone();
  void NotifyWriter();
  // Device helpers.
  Status Io(device::IoCommand cmd, std::function<void()> then);

  device::Device* dev_;
  device::PageCache* page_cache_ = nullptr;  // dev_, when it is a page cache (LookupStep::cache_hit)
  sim::Simulator* sim_;
  StoreOptions o_;
  Layout layout_;
  StoreStats stats_;
  SortedBuffer active_, frozen_;
  std::map<uint64_t, std::unique_ptr<Cell>> cells_;     // by id
  std::vector<std::vector<uint64_t>> slots_;            // [level][file slot] = cell id or 0
  std::vector<std::vector<bool>> held_;                 // freed, but a durable manifest may name it
  uint64_t next_id_ = 1;
  uint64_t manifest_seq_ = 0;
  uint64_t accepted_entries_ = 0;
  // The synced buffer image still needed (parts drop once induced).
  int image_slot_ = -1;
  ManifestImagePart image_frozen_, image_active_;
  // Foreground.
  std::deque<std::unique_ptr<Op>> queue_;
  std::unique_ptr<Op> current_;
  std::shared_ptr<void> scan_chain_;  // the running scan's chain of dependent reads
  sim::SimTime fg_free_at_ = 0;
  std::function<void()> writer_wait_;   // set while the writer waits for the merge actor
  bool frozen_waiting_ = false;
  bool manifest_busy_ = false, manifest_due_ = false;
  std::vector<std::function<void()>> sync_waiters_;
  int durable_slot_ = 0;        // the manifest slot holding the newest durable manifest
  uint64_t durable_seq_ = 0;
  uint64_t last_sync_seq_ = 0;
  // Merge actor.
  std::unique_ptr<Merge> merge_;
  sim::SimTime merge_free_at_ = 0;
  bool failed_ = false;
  Status failure_;
  std::shared_ptr<bool> alive_;
};

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_STORE_H_
