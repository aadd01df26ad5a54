// PageCache: a DRAM page cache (LRU, sized in bytes) in front of any device, like the
// operating system's buffer cache on a FAWN back-end (256 MB of DRAM, FAWN SOSP'09 §4).
//
// Pages are 4 KB. A read whose pages are all cached completes after a memory copy
// (`hit_ns_per_kb`); otherwise each run of missing pages is read from the device (whole
// pages) and the read completes when the last one arrives. Writes are write-through: the
// device is written, cached pages are updated (fully covered pages are inserted), and the
// write completes when the device's does. Trim and erase drop the pages; flush passes
// through. Counters: hits and misses (in pages). If the device refuses a forwarded part (it
// crashed under a fault injector), the command is abandoned like every command in flight at a
// crash: it never completes, and the cache refuses what follows while the device does.
#ifndef FAWNLAB_DEVICE_PAGE_CACHE_H_
#define FAWNLAB_DEVICE_PAGE_CACHE_H_

#include <list>
#include <unordered_map>

#include "device/device.h"
#include "device/page_image.h"

namespace fawnlab::device {

class PageCache : public Device {
 public:
  static constexpr uint32_t kPage = 4096;
  PageCache(Device* inner, uint64_t capacity_bytes, double hit_ns_per_kb = 250);

  void Peek(uint64_t offset, uint64_t length, uint8_t* out) const override { inner_->Peek(offset, length, out); }
  void Poke(uint64_t offset, uint64_t length, const uint8_t* data) override;
  double Joules() const override { return inner_->Joules(); }
  Status Available() const override { return inner_->Available(); }

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  size_t cached_pages() const { return map_.size(); }
  Device* inner() const { return inner_; }

 protected:
  void Start(const IoCommand& cmd, uint64_t id) override;

 private:
  struct Entry {
    std::list<uint64_t>::iterator lru;
    PageImage image;
  };
  Entry* Find(uint64_t page);
  void Insert(uint64_t page, PageImage image);
  void Drop(uint64_t page);
  // Forwards `c` to the device; `pending` counts outstanding parts of command `id`.
  void Forward(const IoCommand& c, uint64_t id);
  void PartDone(uint64_t id);

  Device* inner_;
  uint64_t capacity_pages_;
  double hit_ns_per_kb_;
  std::list<uint64_t> lru_;  // most recent first
  std::unordered_map<uint64_t, Entry> map_;
  std::unordered_map<uint64_t, int> parts_;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_PAGE_CACHE_H_
