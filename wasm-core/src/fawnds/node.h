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

  size_t num_stores() const { return stores_.size(); }
  DataStore& store(size_t i) { return *stores_[i].store; }
  const DataStore& store(size_t i) const { return *stores_[i].store; }
  const KeyRange& range(size_t i) const { return stores_[i].range; }
  const MaintenanceProgress& progress() const { return progress_; }
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

  device::Device* dev_;
  NodeOptions o_;
  std::vector<Entry> stores_;
  std::vector<uint64_t> free_slots_;
  uint64_t next_slot_ = 0;
  uint32_t next_nonce_ = 1;
  std::unique_ptr<Job> job_;
  MaintenanceProgress progress_;
  std::deque<std::function<void()>> queued_;  // requests held by the lock
};

}  // namespace fawnlab::fawnds

#endif  // FAWNLAB_FAWNDS_NODE_H_
