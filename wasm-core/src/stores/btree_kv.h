// BTreeKv: the project's update-in-place B+tree (btree::BTree, the BerkeleyDB-like store FAWN
// compared FAWN-DS with, SOSP'09 §4.1.2) behind kv::KvStore, with ordered scans along its leaf
// chain. The YCSB 20-byte keys are FAWN's 160-bit keys, byte for byte.
//
// BTree is synchronous: its buffer pool waits for each page I/O by running the simulator,
// which cannot happen inside a shared simulator's event callback. So the tree runs on a
// PageIoRecorder (stores/page_io_recorder.h): each operation runs at call time, in call
// order, on the recorder (its data effect and its errors at once; reads see the real bytes),
// and its page I/Os are recorded; the adapter then serves the operations one at a time in
// call order: the operation's CPU, then its page I/Os replayed on the real device at queue
// depth 1, each after the one before, as BDB's one thread does. The tree's code is unchanged
// (the B+tree lab's results do not move).
//
// Deletes: the tree has none; the adapter stores values with a 1-byte tag (0 live, 1 deleted)
// and a delete of a live key writes the 1-byte tombstone (a BDB delete would drop the entry;
// neither merges pages). The pool is 64 pages of 4 KB: BerkeleyDB's default 256 KB cache
// (dram_bytes: the frames in use). CPU (BTreeCosts x cpu_scale, i7 constants from
// cona/costs.h for the same operations): dispatch; per level a page visit and a binary search;
// a put's shift of half a 69%-full leaf (Yao's mean fill) and half a page per split; every
// page read or written decoded or encoded at the memcpy rate; the value copied.
#ifndef FAWNLAB_STORES_BTREE_KV_H_
#define FAWNLAB_STORES_BTREE_KV_H_

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "btree/btree.h"
#include "kv/kv_store.h"
#include "stores/page_io_recorder.h"

namespace fawnlab::stores {

struct BTreeCosts {
  double dispatch_ns;            // op_base_ns
  double page_visit_ns;          // cell_probe_ns: a page's header, one cache miss, per level
  double key_compare_ns;         // key_compare_ns: per binary-search step
  double move_ns_per_byte;       // insert_move_ns_per_byte: a leaf's entries shifted, a split's copy
  double copy_ns_per_byte;       // induce_copy_ns_per_byte: page encode/decode, the value copy
};
BTreeCosts BTreeI7Costs();

struct BTreeKvOptions {
  uint32_t page_bytes = 4096;
  uint32_t pool_pages = 64;      // BerkeleyDB's default cache, 256 KB
  uint64_t region_offset = 0, region_bytes = 0;
  int stream = 0;
  double cpu_scale = 1.0;
  uint32_t key_bytes = 20, max_value_bytes = 200;
};

class BTreeKv : public kv::KvStore {
 public:
  static StatusOr<std::unique_ptr<BTreeKv>> Create(device::Device* dev, BTreeKvOptions o);
  // Bytes of file for `entries` puts of `value_bytes` values: every leaf at least half full
  // (a split's guarantee), internal pages, the meta page, and a put's worst-case new pages.
  static uint64_t FileBytes(uint64_t entries, uint32_t value_bytes, uint32_t page_bytes = 4096);
  ~BTreeKv() override;

  const char* kind() const override { return "btree"; }
  Status Put(std::string_view key, std::string_view value, Done done) override;
  Status Delete(std::string_view key, Done done) override;
  Status Get(std::string_view key, GetDone done) override;
  bool has_scan() const override { return true; }
  Status Scan(std::string_view start, int count, ScanDone done) override;
  Status Sync(Done done) override;
  bool idle() const override { return queue_.empty() && !busy_; }
  uint64_t dram_bytes() const override;
  kv::KvCounters counters() const override;
  void DescribeJson(JsonWriter* w) const override;

  btree::BTree* tree() { return tree_.get(); }

 private:
  // kSetup: I/O of no operation (the tree's creation, or an operation refused after it did I/O).
  enum class Kind { kSetup, kPut, kDelete, kGet, kScan, kSync };
  struct Job {
    Kind kind = Kind::kSetup;
    std::vector<RecordedIo> ios;
    sim::SimDuration cpu = 0;
    uint64_t user_bytes = 0;
    Status status;
    std::string value;
    std::vector<std::pair<std::string, std::string>> entries;
    Done done;
    GetDone get_done;
    ScanDone scan_done;
    sim::SimTime start = 0;
  };
  BTreeKv(device::Device* dev, BTreeKvOptions o);
  Status CheckKey(std::string_view key) const;
  // The CPU of an operation that visited the tree's levels and did `ios`, with `splits` new
  // splits, `moved` leaf bytes shifted and `copied` value bytes copied.
  sim::SimDuration CostOf(const std::vector<RecordedIo>& ios, uint64_t splits, double moved, uint64_t copied) const;
  uint64_t Splits() const;
  // Queues `job` with the I/O the recorder holds.
  void Enqueue(Job job);
  void Pump();
  void RunIo(size_t i);
  void Finish();
  StatusOr<std::vector<std::pair<std::string, std::string>>> ScanTree(const btree::Key& start, int count);

  device::Device* dev_;
  sim::Simulator* sim_;
  BTreeKvOptions o_;
  BTreeCosts c_;
  std::unique_ptr<PageIoRecorder> rec_;
  std::unique_ptr<btree::BTree> tree_;
  std::deque<Job> queue_;
  Job cur_;
  bool busy_ = false;
  sim::SimTime fg_free_at_ = 0;
  std::vector<uint8_t> sink_;
  uint64_t read_at_create_ = 0, written_at_create_ = 0;
  kv::KvCounters k_;
  std::shared_ptr<bool> alive_;
};

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_BTREE_KV_H_
