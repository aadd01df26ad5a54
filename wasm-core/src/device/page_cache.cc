#include "device/page_cache.h"

#include <algorithm>
#include <cassert>
#include <vector>

namespace fawnlab::device {

PageCache::PageCache(Device* inner, uint64_t capacity_bytes, double hit_ns_per_kb)
    : Device(inner->sim(), DeviceInfo{inner->info().profile, "page-cache", inner->info().capacity_bytes, kPage}),
      inner_(inner),
      capacity_pages_(capacity_bytes / kPage),
      hit_ns_per_kb_(hit_ns_per_kb) {}

PageCache::Entry* PageCache::Find(uint64_t page) {
  auto it = map_.find(page);
  if (it == map_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second.lru);
  return &it->second;
}

void PageCache::Insert(uint64_t page, PageImage image) {
  if (capacity_pages_ == 0) return;
  if (Entry* e = Find(page)) {
    e->image = std::move(image);
    return;
  }
  if (map_.size() >= capacity_pages_) Drop(lru_.back());
  lru_.push_front(page);
  map_.emplace(page, Entry{lru_.begin(), std::move(image)});
}

void PageCache::Drop(uint64_t page) {
  auto it = map_.find(page);
  if (it == map_.end()) return;
  lru_.erase(it->second.lru);
  map_.erase(it);
}

void PageCache::PartDone(uint64_t id) {
  auto it = parts_.find(id);
  if (it == parts_.end()) return;  // abandoned
  if (--it->second == 0) {
    parts_.erase(it);
    Complete(id, sim_->now());
  }
}

void PageCache::Forward(const IoCommand& c, uint64_t id) {
  ++parts_[id];
  Status s = inner_->Submit(c, [this, id](const IoCompletion&) { PartDone(id); });
  if (!s.ok()) {  // the device crashed: this command is lost with everything in flight
    parts_.clear();
    AbandonAll();
  }
}

void PageCache::Start(const IoCommand& cmd, uint64_t id) {
  parts_[id] = 1;  // the memory-copy part, done below
  double copy_kb = 0;
  const uint64_t cap = info().capacity_bytes;
  for (const IoEntry& e : cmd.entries) {
    const uint64_t first = e.offset / kPage, last = (e.offset + e.length - 1) / kPage;
    if (e.op == IoOp::kRead) {
      copy_kb += static_cast<double>(e.length) / 1024.0;
      uint64_t run_start = UINT64_MAX;
      auto read_run = [&](uint64_t a, uint64_t b) {  // pages [a, b)
        uint64_t off = a * kPage, len = std::min(b * kPage, cap) - off;
        std::vector<uint8_t> buf(len);
        Forward(IoCommand::Single(IoEntry::Read(off, len, buf.data()), cmd.stream), id);
        for (uint64_t p = a; p < b; ++p) {
          uint64_t po = (p - a) * kPage;
          if (po + kPage <= len) Insert(p, PageImage::FromBytes(buf.data() + po, kPage));
          uint64_t lo = std::max(p * kPage, e.offset), hi = std::min((p + 1) * kPage, e.offset + e.length);
          std::copy(buf.begin() + static_cast<long>(lo - off), buf.begin() + static_cast<long>(hi - off),
                    e.read_buf + (lo - e.offset));
        }
      };
      for (uint64_t p = first; p <= last; ++p) {
        Entry* hit = Find(p);
        if (hit) {
          ++hits_;
          if (run_start != UINT64_MAX) {
            read_run(run_start, p);
            run_start = UINT64_MAX;
          }
          uint64_t lo = std::max(p * kPage, e.offset), hi = std::min((p + 1) * kPage, e.offset + e.length);
          hit->image.CopyTo(e.read_buf + (lo - e.offset), static_cast<uint32_t>(lo - p * kPage),
                            static_cast<uint32_t>(hi - lo));
        } else {
          ++misses_;
          if (run_start == UINT64_MAX) run_start = p;
        }
      }
      if (run_start != UINT64_MAX) read_run(run_start, last + 1);
    } else if (e.op == IoOp::kWrite) {
      for (uint64_t p = first; p <= last; ++p) {
        uint64_t lo = std::max(p * kPage, e.offset), hi = std::min((p + 1) * kPage, e.offset + e.length);
        const uint8_t* src = e.write_buf + (lo - e.offset);
        if (lo == p * kPage && hi == (p + 1) * kPage) {
          Insert(p, PageImage::FromBytes(src, kPage));
        } else if (Entry* c = Find(p)) {
          c->image.Overwrite(kPage, static_cast<uint32_t>(lo - p * kPage), src, static_cast<uint32_t>(hi - lo));
        }
      }
      Forward(IoCommand::Single(e, cmd.stream), id);
    } else {
      if (e.op != IoOp::kFlush) {
        for (uint64_t p = first; p <= last; ++p) Drop(p);
      }
      Forward(IoCommand::Single(e, cmd.stream), id);
    }
  }
  sim::SimTime copied = sim_->now() + static_cast<sim::SimDuration>(copy_kb * hit_ns_per_kb_ + 0.5);
  sim_->Schedule(copied, [this, id]() { PartDone(id); });
}

void PageCache::Poke(uint64_t offset, uint64_t length, const uint8_t* data) {
  for (uint64_t p = offset / kPage; p <= (offset + length - 1) / kPage; ++p) Drop(p);
  inner_->Poke(offset, length, data);
}

}  // namespace fawnlab::device
