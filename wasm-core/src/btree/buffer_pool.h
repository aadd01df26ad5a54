// BufferPool: the B+tree's page cache in DRAM — a fixed number of page frames, least
// recently used first out, like BerkeleyDB's memory pool (mpool).
//
// Pages live at fixed places: page n is the `page_bytes` at region_offset + n × page_bytes,
// and is always written back there (update in place). Fetch() returns a page pinned: from
// the pool (a hit), or read from the device (a miss) into a frame; when every frame is taken
// the least recently used unpinned page is evicted first, and if it is dirty it is written
// back — one page-sized write at its own offset — before its frame is reused, as BDB's single
// thread does. WriteDirty() writes every dirty page in page-number order (BDB's memp_sync
// sorts its buffers the same way) and leaves them cached and clean.
//
// I/O is blocking in simulated time: each read or write is submitted to the device and the
// simulator runs until it completes (queue depth 1). A page read that does not decode (bad
// checksum, wrong page, never written) is the device's kCorruption error naming the page.
//
// Single-threaded. Node pointers stay valid until the page is evicted; a pinned page is
// never evicted.
#ifndef FAWNLAB_BTREE_BUFFER_POOL_H_
#define FAWNLAB_BTREE_BUFFER_POOL_H_

#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "btree/page.h"
#include "device/device.h"

namespace fawnlab::btree {

struct PoolStats {
  uint64_t hits = 0, misses = 0;
  uint64_t evictions = 0;          // pages dropped to make room
  uint64_t dirty_evictions = 0;    // of which written back first
  uint64_t page_reads = 0, page_writes = 0;  // device I/Os (writes include syncs)
};

class BufferPool {
 public:
  // REQUIRES: capacity_pages >= 1, page_bytes valid (ValidPageBytes).
  BufferPool(device::Device* dev, uint64_t region_offset, uint32_t page_bytes, size_t capacity_pages, int stream);

  // Page `page`, pinned (Unpin it when done). Reads it on a miss.
  StatusOr<Node*> Fetch(uint32_t page);
  // A frame for a page that is new to the tree (nothing is read): pinned, dirty, empty
  // leaf. REQUIRES: the page is not cached.
  StatusOr<Node*> Fresh(uint32_t page);
  // Releases one pin; `dirty` marks the page changed since it was last written.
  void Unpin(uint32_t page, bool dirty);
  // Writes every dirty page, in page order. Does not flush the device.
  Status WriteDirty();
  // Drops every page without writing anything (a crash, or a test). REQUIRES: none pinned.
  void Discard();

  // The cached page or nullptr, without touching the LRU order or the counters.
  const Node* Cached(uint32_t page) const;
  bool IsDirty(uint32_t page) const;
  size_t size() const { return frames_.size(); }
  size_t capacity() const { return capacity_; }
  size_t dirty_pages() const;
  const PoolStats& stats() const { return stats_; }
  uint64_t PageOffset(uint32_t page) const { return region_offset_ + uint64_t{page} * page_bytes_; }

 private:
  struct Frame {
    Node node;
    bool dirty = false;
    int pins = 0;
    std::list<uint32_t>::iterator lru;  // most recently used at the front
  };
  // Frees a frame if the pool is full (evicting, writing back). Error if all are pinned.
  Status MakeRoom();
  Status WritePage(const Node& node);
  Frame& Insert(uint32_t page);

  device::Device* dev_;
  uint64_t region_offset_;
  uint32_t page_bytes_;
  size_t capacity_;
  int stream_;
  std::unordered_map<uint32_t, Frame> frames_;
  std::list<uint32_t> lru_;
  std::vector<uint8_t> io_;
  PoolStats stats_;
};

}  // namespace fawnlab::btree

#endif  // FAWNLAB_BTREE_BUFFER_POOL_H_
