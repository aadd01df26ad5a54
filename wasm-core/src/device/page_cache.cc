#include "device/page_cache.h"

#include <algorithm>
#include <cassert>
#include <vector>

namespace fawnlab::device {

PageCache::PageCache(Device* inner, uint64_t capacity_bytes, double hit_ns_per_kb, WriteBackOptions wb)
    : Device(inner->sim(), DeviceInfo{inner->info().profile, "page-cache", inner->info().capacity_bytes, kPage}),
      inner_(inner),
      capacity_pages_(capacity_bytes / kPage),
      hit_ns_per_kb_(hit_ns_per_kb),
      wb_(wb) {
  // Dirty pages cannot be evicted: keep them to half the cache at most.
  wb_.dirty_limit_bytes = std::min(wb_.dirty_limit_bytes, capacity_pages_ / 2 * kPage);
  wb_.dirty_background_bytes = std::min(wb_.dirty_background_bytes, wb_.dirty_limit_bytes);
  wb_.writeback_max_bytes = std::max<uint64_t>(kPage, wb_.writeback_max_bytes / kPage * kPage);
}

PageCache::Entry* PageCache::Find(uint64_t page) {
  auto it = map_.find(page);
  if (it == map_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second.lru);
  return &it->second;
}

void PageCache::Peek(uint64_t offset, uint64_t length, uint8_t* out) const {
  while (length > 0) {
    const uint64_t page = offset / kPage;
    const uint32_t po = static_cast<uint32_t>(offset % kPage);
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(length, kPage - po));
    auto it = map_.find(page);
    if (it != map_.end()) {
      it->second.image.CopyTo(out, po, n);
    } else {
      inner_->Peek(offset, n, out);
    }
    offset += n;
    length -= n;
    out += n;
  }
}

void PageCache::Insert(uint64_t page, PageImage image) {
  if (capacity_pages_ == 0) return;
  if (Entry* e = Find(page)) {
    e->image = std::move(image);
    return;
  }
  if (map_.size() >= capacity_pages_) {  // evict the least recently used clean page
    for (auto it = lru_.rbegin(); it != lru_.rend(); ++it) {
      if (!dirty_.count(*it)) {
        Drop(*it);
        break;
      }
    }
  }
  lru_.push_front(page);
  map_.emplace(page, Entry{lru_.begin(), std::move(image)});
}

void PageCache::Drop(uint64_t page) {
  auto it = map_.find(page);
  if (it == map_.end()) return;
  lru_.erase(it->second.lru);
  map_.erase(it);
  dirty_.erase(page);
}

void PageCache::PartDone(uint64_t id) {
  auto it = parts_.find(id);
  if (it == parts_.end()) return;  // abandoned
  if (--it->second == 0) {
    parts_.erase(it);
    Complete(id, sim_->now());
  }
}

void PageCache::Forward(const IoCommand& c, uint64_t id, sim::SimDuration then_ns) {
  ++parts_[id];
  const uint64_t epoch = epoch_;
  Status s = inner_->Submit(c, [this, id, then_ns, epoch](const IoCompletion&) {
    if (then_ns == 0) return PartDone(id);
    sim_->Schedule(sim_->now() + then_ns, [this, id, epoch]() {
      if (epoch == epoch_) PartDone(id);
    });
  });
  if (!s.ok()) Crashed();  // the device crashed: this command is lost with everything in flight
}

void PageCache::Crashed() { DropAll(); }

void PageCache::DropAll() {
  parts_.clear();
  throttled_.clear();
  flushes_.clear();
  map_.clear();
  lru_.clear();
  dirty_.clear();
  wb_in_flight_ = false;
  ++epoch_;
  AbandonAll();
}

void PageCache::Start(const IoCommand& cmd, uint64_t id) {
  parts_[id] = 1;  // the memory-copy part, done below
  double copy_kb = 0;
  const uint64_t cap = info().capacity_bytes;
  for (const IoEntry& e : cmd.entries) {
    const uint64_t first = e.offset / kPage, last = (e.offset + e.length - 1) / kPage;
    if (e.op == IoOp::kRead) {
      uint64_t run_start = UINT64_MAX;
      auto read_run = [&](uint64_t a, uint64_t b) {  // pages [a, b)
        uint64_t off = a * kPage, len = std::min(b * kPage, cap) - off;
        std::vector<uint8_t> buf(len);
        // The requested bytes are copied out once the pages have arrived.
        const uint64_t want = std::min(off + len, e.offset + e.length) - std::max(off, e.offset);
        Forward(IoCommand::Single(IoEntry::Read(off, len, buf.data()), cmd.stream), id,
                static_cast<sim::SimDuration>(static_cast<double>(want) / 1024.0 * hit_ns_per_kb_ + 0.5));
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
          ++stats_.hits;
          copy_kb += static_cast<double>(std::min((p + 1) * kPage, e.offset + e.length) - std::max(p * kPage, e.offset)) / 1024.0;
          // Copy before reading the run of misses: inserting those pages may evict this one.
          uint64_t lo = std::max(p * kPage, e.offset), hi = std::min((p + 1) * kPage, e.offset + e.length);
          hit->image.CopyTo(e.read_buf + (lo - e.offset), static_cast<uint32_t>(lo - p * kPage),
                            static_cast<uint32_t>(hi - lo));
          if (run_start != UINT64_MAX) {
            read_run(run_start, p);
            run_start = UINT64_MAX;
          }
        } else {
          ++stats_.misses;
          if (run_start == UINT64_MAX) run_start = p;
        }
      }
      if (run_start != UINT64_MAX) read_run(run_start, last + 1);
    } else if (e.op == IoOp::kWrite && wb_.enabled) {
      copy_kb += static_cast<double>(e.length) / 1024.0;
      WriteBack(e, id, cmd.stream);
    } else if (e.op == IoOp::kFlush && wb_.enabled) {
      ++parts_[id];
      flushes_.push_back(PendingFlush{id, dirty_, wb_submitted_, cmd.stream});
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
      MarkOnDevice(first, last + 1);
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
  if (wb_.enabled) {
    Flusher();
    Release();
  }
}

void PageCache::WriteBack(const IoEntry& e, uint64_t id, int stream) {
  const uint64_t cap = info().capacity_bytes;
  const uint64_t first = e.offset / kPage, last = (e.offset + e.length - 1) / kPage;
  if (wb_.fault_on_write) {
    // The mapping's faults: each run of missing pages is read before the store completes. The
    // pages' bytes are taken below as before (the device holds them until the write-back).
    const uint64_t epoch = epoch_;
    uint64_t run_start = UINT64_MAX;
    auto fault_run = [&](uint64_t a, uint64_t b) {  // pages [a, b)
      const uint64_t off = a * kPage, len = std::min(b * kPage, cap) - off;
      auto buf = std::make_shared<std::vector<uint8_t>>(len);
      ++parts_[id];
      Status s = inner_->Submit(IoCommand::Single(IoEntry::Read(off, len, buf->data()), stream),
                                [this, id, epoch, buf, len](const IoCompletion&) {
                                  const auto copy = static_cast<sim::SimDuration>(static_cast<double>(len) / 1024.0 * hit_ns_per_kb_ + 0.5);
                                  sim_->Schedule(sim_->now() + copy, [this, id, epoch]() {
                                    if (epoch == epoch_) PartDone(id);
                                  });
                                });
      if (!s.ok()) Crashed();
    };
    for (uint64_t p = first; p <= last; ++p) {
      if (map_.count(p) || !OnDevice(p)) {  // cached, or a hole the kernel fills with zeros
        if (run_start != UINT64_MAX) fault_run(run_start, p);
        run_start = UINT64_MAX;
      } else {
        ++stats_.write_faults;
        if (run_start == UINT64_MAX) run_start = p;
      }
    }
    if (run_start != UINT64_MAX) fault_run(run_start, last + 1);
    if (epoch != epoch_) return;  // the device crashed: this write is lost with the rest
  }
  bool newly_dirtied = false;
  std::vector<uint8_t> page(kPage);
  for (uint64_t p = first; p <= last; ++p) {
    if (!dirty_.count(p)) newly_dirtied = true;
    const uint64_t lo = std::max(p * kPage, e.offset), hi = std::min((p + 1) * kPage, e.offset + e.length);
    const uint8_t* src = e.write_buf + (lo - e.offset);
    if (Entry* c = Find(p)) {
      c->image.Overwrite(kPage, static_cast<uint32_t>(lo - p * kPage), src, static_cast<uint32_t>(hi - lo));
    } else {
      const uint64_t end = std::min((p + 1) * kPage, cap);
      std::fill(page.begin(), page.end(), 0);
      if (lo > p * kPage || hi < end) inner_->Peek(p * kPage, end - p * kPage, page.data());
      std::copy(src, src + (hi - lo), page.begin() + static_cast<long>(lo - p * kPage));
      dirty_.insert(p);  // before Insert, so the eviction it may do spares it
      Insert(p, PageImage::FromBytes(page.data(), kPage));
    }
    dirty_.insert(p);
  }
  if (dirty_bytes() > wb_.dirty_limit_bytes && (newly_dirtied || !wb_.linux_balance)) {
    ++parts_[id];
    throttled_.push_back(id);
    ++stats_.throttled_writes;
  }
}

void PageCache::Flusher() {
  if (wb_in_flight_ || dirty_.empty()) return;
  bool flushing = false;
  for (const PendingFlush& f : flushes_) flushing = flushing || !f.pages.empty();
  if (dirty_bytes() <= wb_.dirty_background_bytes && !flushing) return;
  auto it = dirty_.lower_bound(cursor_);
  if (it == dirty_.end()) it = dirty_.begin();
  const uint64_t first = *it, max_pages = wb_.writeback_max_bytes / kPage;
  uint64_t n = 0;
  while (it != dirty_.end() && *it == first + n && n < max_pages) {
    ++n;
    ++it;
  }
  const uint64_t cap = info().capacity_bytes;
  const uint64_t len = std::min((first + n) * kPage, cap) - first * kPage;
  const uint64_t seq = ++wb_submitted_;
  wb_buf_.assign(len, 0);
  for (uint64_t p = first; p < first + n; ++p) {
    const uint64_t at = (p - first) * kPage;
    map_.at(p).image.CopyTo(wb_buf_.data() + at, 0, static_cast<uint32_t>(std::min<uint64_t>(kPage, len - at)));
    dirty_.erase(p);
    for (PendingFlush& f : flushes_) {
      if (f.pages.erase(p)) f.need_seq = seq;
    }
  }
  MarkOnDevice(first, first + n);
  cursor_ = first + n;
  wb_in_flight_ = true;
  ++stats_.writeback_commands;
  stats_.writeback_bytes += len;
  const uint64_t epoch = epoch_;
  Status s = inner_->Submit(IoCommand::Single(IoEntry::Write(first * kPage, len, wb_buf_.data())),
                            [this, seq, epoch](const IoCompletion&) {
                              if (epoch == epoch_) WriteBackDone(seq);
                            });
  if (!s.ok()) Crashed();
}

void PageCache::WriteBackDone(uint64_t seq) {
  wb_in_flight_ = false;
  wb_completed_ = seq;
  Flusher();
  Release();
}

void PageCache::Release() {
  if (dirty_bytes() <= wb_.dirty_limit_bytes && !throttled_.empty()) {
    std::vector<uint64_t> ids;
    ids.swap(throttled_);
    for (uint64_t id : ids) PartDone(id);
  }
  std::vector<PendingFlush> ready;
  for (size_t i = 0; i < flushes_.size();) {
    if (flushes_[i].pages.empty() && wb_completed_ >= flushes_[i].need_seq) {
      ready.push_back(flushes_[i]);
      flushes_.erase(flushes_.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  const uint64_t epoch = epoch_;
  for (const PendingFlush& f : ready) {
    if (epoch != epoch_) return;  // a forward failed: the device crashed
    Forward(IoCommand::Single(IoEntry::Flush(), f.stream), f.id);
    PartDone(f.id);  // the hold part; the forwarded flush's part remains
  }
}

void PageCache::MarkOnDevice(uint64_t a, uint64_t b) {
  if (!wb_.fault_on_write) return;
  if (on_device_.size() < b) on_device_.resize(b, false);
  for (uint64_t p = a; p < b; ++p) on_device_[p] = true;
}

bool PageCache::OnDevice(uint64_t page) const { return page < on_device_.size() && on_device_[page]; }

void PageCache::Poke(uint64_t offset, uint64_t length, const uint8_t* data) {
  MarkOnDevice(offset / kPage, (offset + length - 1) / kPage + 1);
  for (uint64_t p = offset / kPage; p <= (offset + length - 1) / kPage; ++p) Drop(p);
  inner_->Poke(offset, length, data);
}

}  // namespace fawnlab::device
