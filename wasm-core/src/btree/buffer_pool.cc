#include "btree/buffer_pool.h"

#include <algorithm>
#include <cassert>

namespace fawnlab::btree {

using device::IoCommand;
using device::IoEntry;

BufferPool::BufferPool(device::Device* dev, uint64_t region_offset, uint32_t page_bytes, size_t capacity_pages,
                       int stream)
    : dev_(dev), region_offset_(region_offset), page_bytes_(page_bytes), capacity_(capacity_pages), stream_(stream) {
  assert(capacity_pages >= 1 && ValidPageBytes(page_bytes));
  io_.resize(page_bytes);
  frames_.reserve(capacity_pages * 2);
}

Status BufferPool::WritePage(const Node& node) {
  EncodeNode(node, page_bytes_, io_.data());
  auto w = device::SubmitAndWait(dev_, IoCommand::Single(IoEntry::Write(PageOffset(node.page), page_bytes_, io_.data()), stream_));
  if (!w.ok()) return w.status();
  ++stats_.page_writes;
  return Status::Ok();
}

Status BufferPool::MakeRoom() {
  if (frames_.size() < capacity_) return Status::Ok();
  for (auto it = lru_.rbegin(); it != lru_.rend(); ++it) {
    auto f = frames_.find(*it);
    assert(f != frames_.end());
    if (f->second.pins > 0) continue;
    if (f->second.dirty) {
      Status s = WritePage(f->second.node);
      if (!s.ok()) return s;
      ++stats_.dirty_evictions;
    }
    ++stats_.evictions;
    lru_.erase(f->second.lru);
    frames_.erase(f);
    return Status::Ok();
  }
  return Status::ResourceExhausted("btree: every one of the buffer pool's " + std::to_string(capacity_) +
                                   " pages is pinned");
}

BufferPool::Frame& BufferPool::Insert(uint32_t page) {
  lru_.push_front(page);
  Frame& f = frames_[page];
  f.lru = lru_.begin();
  f.pins = 1;
  return f;
}

StatusOr<Node*> BufferPool::Fetch(uint32_t page) {
  auto it = frames_.find(page);
  if (it != frames_.end()) {
    ++stats_.hits;
    Frame& f = it->second;
    lru_.splice(lru_.begin(), lru_, f.lru);
    ++f.pins;
    return &f.node;
  }
  ++stats_.misses;
  Status s = MakeRoom();
  if (!s.ok()) return s;
  auto r = device::SubmitAndWait(dev_, IoCommand::Single(IoEntry::Read(PageOffset(page), page_bytes_, io_.data()), stream_));
  if (!r.ok()) return r.status();
  ++stats_.page_reads;
  Node n;
  s = DecodeNode(io_.data(), page_bytes_, page, &n);
  if (!s.ok()) return s;
  Frame& f = Insert(page);
  f.node = std::move(n);
  return &f.node;
}

StatusOr<Node*> BufferPool::Fresh(uint32_t page) {
  assert(frames_.find(page) == frames_.end());
  Status s = MakeRoom();
  if (!s.ok()) return s;
  Frame& f = Insert(page);
  f.dirty = true;
  f.node = Node{};
  f.node.page = page;
  return &f.node;
}

void BufferPool::Unpin(uint32_t page, bool dirty) {
  auto it = frames_.find(page);
  assert(it != frames_.end() && it->second.pins > 0);
  --it->second.pins;
  if (dirty) it->second.dirty = true;
}

Status BufferPool::WriteDirty() {
  std::vector<uint32_t> dirty;
  for (const auto& [page, f] : frames_) {
    if (f.dirty) dirty.push_back(page);
  }
  std::sort(dirty.begin(), dirty.end());
  for (uint32_t page : dirty) {
    Frame& f = frames_.at(page);
    Status s = WritePage(f.node);
    if (!s.ok()) return s;
    f.dirty = false;
  }
  return Status::Ok();
}

void BufferPool::Discard() {
  for (const auto& [page, f] : frames_) {
    (void)page;
    assert(f.pins == 0);
  }
  frames_.clear();
  lru_.clear();
}

const Node* BufferPool::Cached(uint32_t page) const {
  auto it = frames_.find(page);
  return it == frames_.end() ? nullptr : &it->second.node;
}

bool BufferPool::IsDirty(uint32_t page) const {
  auto it = frames_.find(page);
  return it != frames_.end() && it->second.dirty;
}

size_t BufferPool::dirty_pages() const {
  size_t n = 0;
  for (const auto& [page, f] : frames_) n += f.dirty ? 1 : 0;
  return n;
}

}  // namespace fawnlab::btree
