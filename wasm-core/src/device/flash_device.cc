#include "device/flash_device.h"

#include <algorithm>
#include <cassert>
#include <utility>
#include <vector>

namespace fawnlab::device {

FlashDevice::FlashDevice(sim::Simulator* sim, DeviceInfo info, std::unique_ptr<Nand> nand, std::unique_ptr<Ftl> ftl,
                         FlashControllerConfig config)
    : Device(sim, std::move(info)), nand_(std::move(nand)), ftl_(std::move(ftl)), config_(config) {
  assert(config_.write_buffer_pages >= 1);
}

void FlashDevice::Buffered::Cover(uint32_t lo, uint32_t hi) {
  covered.emplace_back(lo, hi);
  std::sort(covered.begin(), covered.end());
  std::vector<std::pair<uint32_t, uint32_t>> merged;
  for (const auto& r : covered) {
    if (!merged.empty() && r.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, r.second);
    } else {
      merged.push_back(r);
    }
  }
  covered.swap(merged);
}

void FlashDevice::NoteReadStall(uint64_t lpn, sim::SimTime ready, sim::SimTime done) {
  int64_t ppn = ftl_->Locate(lpn);
  if (ppn < 0) return;
  int chip = nand_->ChipOf(nand_->BlockOf(static_cast<uint64_t>(ppn)));
  sim::SimTime bg = nand_->chip_background_until(chip);
  if (bg > ready) {
    ++counters_.gc_stalls;
    counters_.gc_stall_ns += std::min(bg, done) - ready;
  }
}

sim::SimTime FlashDevice::DoRead(const IoEntry& e, sim::SimTime ready) {
  const uint32_t pb = page_bytes();
  const uint64_t first = e.offset / pb, last = (e.offset + e.length - 1) / pb;
  const bool sequential = e.offset == last_read_end_;
  std::vector<std::pair<sim::SimTime, uint32_t>> page_ready;  // when each page's data is at the controller
  for (uint64_t lpn = first; lpn <= last; ++lpn) {
    uint64_t page_start = lpn * pb;
    uint32_t po = lpn == first ? static_cast<uint32_t>(e.offset - page_start) : 0;
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(pb - po, e.offset + e.length - (page_start + po)));
    uint8_t* out = e.read_buf + (page_start + po - e.offset);
    sim::SimTime r;
    auto b = buffer_.find(lpn);
    auto ra = readahead_.find(lpn);
    if (b != buffer_.end()) {
      b->second.image.CopyTo(out, po, n);
      r = ready;
    } else if (ra != readahead_.end()) {
      const PageImage* img = ftl_->Lookup(lpn);
      if (img) img->CopyTo(out, po, n); else PageImage().CopyTo(out, po, n);
      r = std::max(ready, ra->second);
    } else {
      sim::SimTime start = ready + config_.read_setup_ns;
      r = ftl_->Read(lpn, start, out, po, n);
      NoteReadStall(lpn, start, r);
      if (config_.readahead_pages > 0) readahead_[lpn] = r;
    }
    page_ready.push_back(std::make_pair(r, n));
  }
  last_read_end_ = e.offset + e.length;
  if (config_.readahead_pages > 0) {
    readahead_.erase(readahead_.begin(), readahead_.lower_bound(first));
    if (sequential) {
      for (uint64_t q = last + 1; q <= last + config_.readahead_pages && q < ftl_->logical_pages(); ++q) {
        if (readahead_.count(q) || buffer_.count(q) || ftl_->Locate(q) < 0) continue;
        readahead_[q] = ftl_->Read(q, ready, nullptr, 0, 0);
      }
    }
    while (readahead_.size() > config_.readahead_pages + 2) readahead_.erase(readahead_.begin());
  }
  // Each page crosses the host link once its data is at the controller, in order.
  sim::SimTime t = std::max({ready, bus_free_, ctrl_free_});
  for (const auto& [r, n] : page_ready) {
    t = std::max(t, r) + static_cast<sim::SimDuration>(config_.bus_ns_per_kb * n / 1024.0 + 0.5);
  }
  bus_free_ = ctrl_free_ = t;
  return t;
}

sim::SimTime FlashDevice::TakeSlot(sim::SimTime t) {
  for (;;) {
    while (!draining_.empty() && draining_.top().free_at <= t) draining_.pop();
    if (buffer_.size() + draining_.size() < config_.write_buffer_pages) return t;
    if (!draining_.empty()) {
      Draining d = draining_.top();
      draining_.pop();
      if (d.gc_until > t) {
        ++counters_.gc_stalls;
        counters_.gc_stall_ns += std::min(d.gc_until, d.free_at) - t;
      }
      return std::max(t, d.free_at);
    }
    // Every slot holds an open page: program the oldest.
    while (!buffer_order_.empty() && !buffer_.count(buffer_order_.front())) buffer_order_.pop_front();
    assert(!buffer_order_.empty());
    uint64_t lpn = buffer_order_.front();
    buffer_order_.pop_front();
    Drain(lpn, t);
  }
}

void FlashDevice::Drain(uint64_t lpn, sim::SimTime ready) {
  auto it = buffer_.find(lpn);
  assert(it != buffer_.end());
  Buffered b = std::move(it->second);
  buffer_.erase(it);
  sim::SimTime t = ready;
  if (!b.Whole(page_bytes()) && ftl_->Locate(lpn) >= 0) t = ftl_->Read(lpn, t, nullptr, 0, 0);  // read-modify-write
  FtlWrite w = ftl_->Write(lpn, std::move(b.image), t);
  draining_.push(Draining{w.done, w.gc_until});
  latest_drain_ = std::max(latest_drain_, w.done);
}

sim::SimTime FlashDevice::DoWrite(const IoEntry& e, sim::SimTime ready) {
  // Pages stream over the host link one after another; each needs a buffer slot before its
  // transfer starts (the link stalls while none is free), and a completed page starts
  // programming as soon as it has arrived — so transfers overlap with programs.
  const uint32_t pb = page_bytes();
  const uint64_t first = e.offset / pb, last = (e.offset + e.length - 1) / pb;
  sim::SimTime t = std::max({ready, bus_free_, ctrl_free_});
  for (uint64_t lpn = first; lpn <= last; ++lpn) {
    uint64_t page_start = lpn * pb;
    uint32_t po = lpn == first ? static_cast<uint32_t>(e.offset - page_start) : 0;
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(pb - po, e.offset + e.length - (page_start + po)));
    const uint8_t* src = e.write_buf + (page_start + po - e.offset);
    readahead_.erase(lpn);
    auto it = buffer_.find(lpn);
    if (it == buffer_.end()) {
      t = std::max(t, TakeSlot(t));
      Buffered b;
      const PageImage* cur = ftl_->Lookup(lpn);
      if (cur) b.image = cur->Clone(pb);
      it = buffer_.emplace(lpn, std::move(b)).first;
      buffer_order_.push_back(lpn);
    }
    t += static_cast<sim::SimDuration>(config_.bus_ns_per_kb * n / 1024.0 + 0.5);
    it->second.image.Overwrite(pb, po, src, n);
    it->second.Cover(po, po + n);
    if (it->second.Whole(pb)) Drain(lpn, t);
  }
  bus_free_ = ctrl_free_ = t;
  return t;
}

void FlashDevice::DoTrim(const IoEntry& e, bool zero_partial) {
  const uint32_t pb = page_bytes();
  const uint64_t first = e.offset / pb, last = (e.offset + e.length - 1) / pb;
  for (uint64_t lpn = first; lpn <= last; ++lpn) {
    uint64_t page_start = lpn * pb;
    uint64_t lo = std::max(page_start, e.offset), hi = std::min(page_start + pb, e.offset + e.length);
    if (lo == page_start && hi == page_start + pb) {
      buffer_.erase(lpn);
      readahead_.erase(lpn);
      ftl_->Trim(lpn);
    } else if (zero_partial) {
      std::vector<uint8_t> zeros(hi - lo, 0);
      DoWrite(IoEntry::Write(lo, hi - lo, zeros.data()), sim_->now());
    }
  }
}

sim::SimTime FlashDevice::FlushAll(sim::SimTime ready) {
  while (!buffer_order_.empty()) {
    uint64_t lpn = buffer_order_.front();
    buffer_order_.pop_front();
    if (buffer_.count(lpn)) Drain(lpn, ready);
  }
  return std::max(ready, latest_drain_);
}

void FlashDevice::Start(const IoCommand& cmd, uint64_t id) {
  const uint64_t programmed0 = nand_->pages_programmed(), read0 = nand_->pages_read();
  const uint64_t erases0 = nand_->total_erases(), moves0 = ftl_->stats().gc_moves;
  const sim::SimTime now = sim_->now();
  sim::SimTime done = now;
  for (const IoEntry& e : cmd.entries) {
    sim::SimTime ce = std::max(now, ctrl_free_) + config_.command_ns;
    ctrl_free_ = ce;
    sim::SimTime d = ce;
    switch (e.op) {
      case IoOp::kRead: d = DoRead(e, ce); break;
      case IoOp::kWrite: d = DoWrite(e, ce); break;
      case IoOp::kTrim: DoTrim(e, false); break;
      case IoOp::kErase: DoTrim(e, true); break;
      case IoOp::kFlush: d = FlushAll(ce); break;
    }
    done = std::max(done, d);
  }
  const uint64_t pb = page_bytes();
  counters_.media_write_bytes += (nand_->pages_programmed() - programmed0) * pb;
  counters_.media_read_bytes += (nand_->pages_read() - read0) * pb;
  counters_.erases += nand_->total_erases() - erases0;
  counters_.gc_moves += ftl_->stats().gc_moves - moves0;
  Complete(id, done);
}

void FlashDevice::Peek(uint64_t offset, uint64_t length, uint8_t* out) const {
  const uint32_t pb = page_bytes();
  while (length > 0) {
    uint64_t lpn = offset / pb;
    uint32_t po = static_cast<uint32_t>(offset % pb);
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(length, pb - po));
    auto b = buffer_.find(lpn);
    if (b != buffer_.end()) {
      b->second.image.CopyTo(out, po, n);
    } else if (const PageImage* img = ftl_->Lookup(lpn)) {
      img->CopyTo(out, po, n);
    } else {
      PageImage().CopyTo(out, po, n);
    }
    offset += n;
    length -= n;
    out += n;
  }
}

void FlashDevice::Poke(uint64_t offset, uint64_t length, const uint8_t* data) {
  const uint32_t pb = page_bytes();
  while (length > 0) {
    uint64_t lpn = offset / pb;
    uint32_t po = static_cast<uint32_t>(offset % pb);
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(length, pb - po));
    auto b = buffer_.find(lpn);
    if (b != buffer_.end()) {
      b->second.image.Overwrite(pb, po, data, n);
    } else {
      const PageImage* cur = ftl_->Lookup(lpn);
      PageImage img = cur ? cur->Clone(pb) : PageImage();
      img.Overwrite(pb, po, data, n);
      ftl_->Write(lpn, std::move(img), sim_->now());
    }
    offset += n;
    length -= n;
    data += n;
  }
}

double FlashDevice::Joules() const {
  double seconds = sim::NsToSec(sim_->now());
  double busy_chip_seconds = sim::NsToSec(nand_->busy_ns()) / nand_->geometry().chips;
  return config_.idle_w * seconds + (config_.active_w - config_.idle_w) * std::min(busy_chip_seconds, seconds);
}

sim::SimTime FlashDevice::BusyUntil() const {
  sim::SimTime t = std::max(ctrl_free_, bus_free_);
  for (int c = 0; c < nand_->geometry().chips; ++c) t = std::max(t, nand_->chip_free(c));
  return t;
}

void FlashDevice::FillSequential(const std::function<uint64_t(uint64_t lpn)>& pattern) {
  ftl_->FillSequential([&](uint64_t lpn) { return PageImage::Uniform(pattern(lpn)); });
}

}  // namespace fawnlab::device
