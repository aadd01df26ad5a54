// Node: the FAWN-DS stores of one back-end — one per key range, each in its own file on one
// device (SOSP'09 §3.3: "a separate FAWN-DS datastore file for each of its virtual IDs") — with
// request routing and the three maintenance operations of §3.3.2, which run while reads and
// writes continue (§3.3.3):
//   Compact(s)     copies s's live, in-range puts into a new file (the LFS-style cleaner);
//   Split(s, at)   copies s's records with keys in (s.start, at] into a new store, which takes
//                  that part of the range; s keeps (at, s.end] and its leftovers until compacted;
//   Merge(a, b)    appends every record of the smaller of two adjacent stores into the larger,
//                  which takes both ranges (the paper's advice, §4.3) — every record within the
//                  smaller's range: leftovers of an earlier split are older than the other
//                  store's versions and stay behind.
// Each scans its source log in chunks (timed reads) and appends into the destination the puts
// that are still their key's current version and the deletes of keys the destination holds
// (the paper copies every in-range entry of a split or merge; copying only current versions
// keeps a range that a merge handed back from resurrecting a split's old leftovers — see
// docs/decisions.md); when the
// scan has caught up with the source's end it locks the affected ranges for `lock_hold_ns`
// (SOSP'09: 20–30 ms; thesis: 5–50 µs), swaps the store list and releases the requests that
// arrived meanwhile. One maintenance operation runs at a time.
//
// Durability: the node keeps its datastore list on the device (store_list.h), written at
// Create and as each maintenance operation's commit point. After the swap the operation
// checkpoints the store that now holds the moved records (the new store; for a merge the
// receiving one); when that is durable it writes the list; when the list is durable it
// narrows the source (split) or frees the old file (compact, merge), and only then is the
// operation done (its `done` runs, another may start). Each step waits for the one before to
// complete, because a crash may keep a write that was in flight while losing earlier unsynced
// ones. Until the commit completes, SyncAll and CheckpointAll report completion only once it
// has: an acknowledged sync covers requests the new stores took. Recover() reopens the listed
// stores and keeps in each index only the keys of the range the list gives it, so a crash
// anywhere in an operation leaves either the old list of stores or the new one, never a mix.
#ifndef FAWNLAB_FAWNDS_NODE_H_
#define FAWNLAB_FAWNDS_NODE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "fawnds/store.h"

namespace fawnlab::fawnds {

struct NodeOptions {
  int index_bits = 16;
  uint64_t file_bytes = 64 << 20;   // each store's file, header and index slots included
  sim::SimDuration lock_hold_ns = 25 * sim::kMs;  // SOSP'09 §3.3.3 (thesis: 5-50 µs)
  uint64_t scan_chunk = 256 * 1024;
};

struct MaintenanceProgress {
  std::string kind;          // "", "compact", "split", "merge"
  uint64_t scanned = 0;      // source log bytes processed
  uint64_t source_end = 0;   // the source log's current end
  uint64_t copied = 0;       // records written to the destination
  uint64_t skipped = 0;      // records left behind (orphaned, deleted, out of range)
  bool locked = false;
  bool committing = false;   // swapped and unlocked; waiting for the new store list to be durable
};

class Node {
 public:
  using Done = DataStore::Done;
  using GetDone = DataStore::GetDone;

  // Stores for `ranges` (which must not overlap), in files allocated from the device's start.
  static StatusOr<std::unique_ptr<Node>> Create(device::Device* dev, NodeOptions o, const std::vector<KeyRange>& ranges);
  ~Node();

  Status Put(const Key& key, std::string_view value, Done done);
  Status Delete(const Key& key, Done done);
  Status Get(const Key& key, GetDone done);
  Status SyncAll(Done done);

  Status Compact(size_t store, Done done);
  Status Split(size_t store, const Key& at, Done done);
  Status Merge(size_t a, size_t b, Done done);
  // Membership changes of a FAWN-KV back-end (fawnkv/backend.h). Each refuses while a
  // maintenance operation runs, rewrites the datastore list and calls `done` when it is
  // durable. AddStore: an empty store for `range`, which may not overlap another store's.
  // RemoveStore: store i's file is trimmed and freed (the range is given away). Narrow: store
  // i keeps only `range`, a sub-range sharing one end with its own; keys outside it become
  // unreachable at once (their records go at the next compaction).
  Status AddStore(const KeyRange& range, Done done);
  Status RemoveStore(size_t i, Done done);
  Status Narrow(size_t i, const KeyRange& range, Done done);
  // The store whose range holds `key`, or -1.
  int StoreOf(const Key& key) const { return Route(key); }

  // Checkpoints every store (index image and superblock, each with a flush); `done` runs
  // when all have completed (and a maintenance commit in progress has, see above).
  Status CheckpointAll(Done done);

  // Reopens a node after a crash or restart from the newest valid datastore list: each
  // listed store through DataStore::Recover, its index restricted to the list's range for it
  // (a crash between a list update and a store's own checkpoint leaves the store's superblock
  // naming its older, wider range). `o` gives what the list does not hold (lock hold time,
  // scan chunk, index bits of new stores); its file_bytes must be the list's. Errors name
  // the list or the store that could not be read. Runs the device until it is done.
  struct Recovery {
    uint64_t list_seq = 0;
    std::vector<RecoveryReport> stores;  // in list order
    uint64_t restricted = 0;             // index entries dropped as outside their store's listed range
    sim::SimDuration duration_ns = 0;
  };
  static StatusOr<std::unique_ptr<Node>> Recover(device::Device* dev, NodeOptions o, Recovery* report);

  size_t num_stores() const { return stores_.size(); }
  DataStore& store(size_t i) { return *stores_[i].store; }
  const DataStore& store(size_t i) const { return *stores_[i].store; }
  const KeyRange& range(size_t i) const { return stores_[i].range; }
  const MaintenanceProgress& progress() const { return progress_; }
  // The slot of store i's file.
  uint64_t slot(size_t i) const { return stores_[i].slot; }
  const NodeOptions& options() const { return o_; }
  // The store a running maintenance operation scans, and the one it writes into (a new store
  // for compact and split, the larger store for merge); null when none runs.
  const DataStore* maintenance_source() const;
  const DataStore* maintenance_destination() const;
  bool maintenance_running() const { return job_ != nullptr; }
  size_t queued() const { return queued_.size(); }

 private:
  struct Entry {
    KeyRange range;
    std::unique_ptr<DataStore> store;
    uint64_t slot;
  };
  struct Job;
  Node(device::Device* dev, NodeOptions o);
  int Route(const Key& key) const;
  StatusOr<uint64_t> AllocateSlot();
  void FreeSlot(uint64_t slot);
  StatusOr<std::unique_ptr<DataStore>> NewStore(const KeyRange& range, uint64_t slot);
  Status Begin(std::unique_ptr<Job> job);
  void ScanStep();
  void Finish();
  bool Locked(const Key& key) const;
  // Writes the current store list as the next copy of the durable list, with a flush; waits
  // for it when `wait` (creation), else submits it with `then` as its completion.
  Status WriteList(bool wait, device::CompletionFn then);
  // The commit's last step (the list is durable): narrow the split's source or free the old
  // file, end the job, release the syncs that waited.
  void Commit();
  void ReleaseHeld();  // runs the requests the lock held
  void EndJob();       // clears the job and calls its `done`
  // Calls `done` now, or when the maintenance commit in progress completes.
  void WhenCommitted(Done done);

  device::Device* dev_;
  NodeOptions o_;
  std::vector<Entry> stores_;
  std::vector<uint64_t> free_slots_;
  uint64_t next_slot_ = 0;
  uint32_t next_nonce_ = 1;
  uint64_t list_seq_ = 0;
  std::unique_ptr<Job> job_;
  MaintenanceProgress progress_;
  std::deque<std::function<void()>> queued_;  // requests held by the lock
  std::vector<Done> after_commit_;             // syncs waiting for the commit in progress
  std::vector<std::unique_ptr<DataStore>> retired_;  // removed stores (reads may still be in flight)
};

}  // namespace fawnlab::fawnds

#endif  // FAWNLAB_FAWNDS_NODE_H_
