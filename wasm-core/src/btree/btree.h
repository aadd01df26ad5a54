// BTree: an update-in-place B+tree key-value store on a device — the kind of store FAWN
// compared FAWN-DS with (BerkeleyDB's B-Tree, SOSP'09 §4.1.2) — with a buffer pool smaller
// than the tree.
//
// Keys are FAWN's 160-bit keys; values are byte strings of up to MaxValueBytes(page_bytes).
// Internal pages hold separator keys and child page numbers, leaves hold the sorted (key,
// value) entries and a link to their right sibling. Put descends from the root through the
// pool, inserts or replaces the entry in its leaf, and splits a page that overflows: a leaf at
// the byte midpoint (the separator is the right half's first key), an internal page at its
// middle key (which moves up); a root split adds a level. New pages are numbered in order
// after the last (the file grows at its end). Get descends the same way. Nothing is written
// until the pool evicts a dirty page or Sync() writes them all, then the meta page, then
// flushes the device. There is no write-ahead log (BDB without transactions): after a crash
// only the state of the last Sync() is consistent, and a page that was torn or never written
// reads back as kCorruption naming the page.
//
// Time: every operation charges `cpu_ns_per_op` of simulated CPU, and its I/O (the pool's
// misses and write-backs) runs at queue depth 1 on the device, the simulator running until
// each completes — one thread, as BDB's insert loop was.
//
// Layout (docs/formats/btree.md): page n at region_offset + n × page_bytes; page 0 is the
// meta page.
#ifndef FAWNLAB_BTREE_BTREE_H_
#define FAWNLAB_BTREE_BTREE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "btree/buffer_pool.h"
#include "btree/page.h"
#include "device/device.h"
#include "sim/time.h"

namespace fawnlab::btree {

struct BTreeOptions {
  uint32_t page_bytes = 4096;  // BerkeleyDB's default page size on most filesystems
  uint32_t pool_pages = 256;
  uint64_t region_offset = 0;  // REQUIRES: a multiple of page_bytes
  uint64_t region_bytes = 0;   // 0: to the end of the device
  sim::SimDuration cpu_ns_per_op = 0;
  int stream = 0;
};

struct BTreeStats {
  uint64_t puts = 0, inserts = 0, updates = 0;  // puts = inserts (new keys) + updates
  uint64_t gets = 0, found = 0;
  uint64_t leaf_splits = 0, internal_splits = 0, root_splits = 0;
};

// What Check() found: the tree's shape.
struct TreeShape {
  uint32_t height = 0;
  uint64_t leaves = 0, internals = 0;
  uint64_t entries = 0;
  double mean_leaf_fill = 0;  // entry bytes / (page_bytes − header), over the leaves
  double min_leaf_fill = 0;   // over non-root leaves (1 when the root is the only leaf)
};

class BTree {
 public:
  // A new, empty tree: an empty root leaf and the meta page, written and flushed. The region
  // is not trimmed (a database file on a used card, as in 2009).
  static StatusOr<std::unique_ptr<BTree>> Create(device::Device* dev, BTreeOptions o);
  // The tree last synced to the region; the pool starts empty. o.page_bytes must match.
  static StatusOr<std::unique_ptr<BTree>> Open(device::Device* dev, BTreeOptions o);

  // Inserts or replaces. Errors: a value over MaxValueBytes (nothing changes), a full region
  // (kResourceExhausted, nothing changes), the device's errors and kCorruption from reads.
  Status Put(const Key& key, std::string_view value);
  // The value, or kNotFound.
  StatusOr<std::string> Get(const Key& key);
  // Writes every dirty page (in page order) and the meta page, then flushes the device.
  Status Sync();

  // Walks the whole tree without timing (cached pages as they are in the pool, the others
  // decoded from the device's bytes) and checks its invariants: keys sorted and within their
  // separators, every leaf at the same depth, levels and child counts consistent, encoded
  // sizes within a page, non-root pages at least the fill a split guarantees, the leaf chain
  // in key order, the entry count. The first violation is kCorruption naming the page.
  StatusOr<TreeShape> Check() const;

  const Meta& meta() const { return meta_; }
  const BTreeStats& stats() const { return stats_; }
  const BufferPool& pool() const { return pool_; }
  BufferPool& pool() { return pool_; }
  const BTreeOptions& options() const { return o_; }
  // Pages the region holds, the meta page included.
  uint64_t max_pages() const { return o_.region_bytes / o_.page_bytes; }

 private:
  BTree(device::Device* dev, BTreeOptions o);
  static Status Validate(device::Device* dev, BTreeOptions* o);
  Status WriteMeta();
  void ChargeCpu();
  // Splits the overflowing leaf at the end of `path` (every page pinned; idx[d] is path[d]'s
  // child index in path[d − 1]) and then each ancestor that overflows; marks what changed.
  Status SplitUp(const std::vector<Node*>& path, const std::vector<size_t>& idx, std::vector<bool>* dirty);
  Status CheckNode(uint32_t page, uint32_t depth, const Key* lo, const Key* hi, std::vector<uint32_t>* leaves,
                   TreeShape* shape, std::vector<uint8_t>* seen) const;

  device::Device* dev_;
  BTreeOptions o_;
  Meta meta_;
  BufferPool pool_;
  BTreeStats stats_;
};

}  // namespace fawnlab::btree

#endif  // FAWNLAB_BTREE_BTREE_H_
