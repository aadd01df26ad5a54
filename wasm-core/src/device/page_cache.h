// PageCache: a DRAM page cache (LRU, sized in bytes) in front of any device, like the
// operating system's buffer cache on a FAWN back-end (256 MB of DRAM, FAWN SOSP'09 §4).
//
// Pages are 4 KB. A read whose pages are all cached completes after a memory copy
// (`hit_ns_per_kb`); otherwise each run of missing pages is read from the device (whole
// pages), its requested bytes are copied once it arrives, and the read completes after the last. Trim and erase drop the pages.
// Counters: hits and misses (in pages). If the device refuses a forwarded part (it crashed
// under a fault injector), the command is abandoned like every command in flight at a crash:
// it never completes, and the cache refuses what follows while the device does.
//
// Writes are write-through by default: the device is written, cached pages are updated (fully
// covered pages are inserted), and the write completes when the device's does; flush passes
// through. With `write_back` they behave like Linux's dirty pages (the FAWN prototype wrote
// its datastore files through the OS): a write updates or creates the pages and completes
// after the memory copy; dirty pages are not evicted. Above `dirty_background_bytes` a
// flusher writes dirty pages back one command at a time, in ascending page order from where
// it stopped (per-file order, as pdflush sweeps an inode), coalescing contiguous pages into
// writes of up to `writeback_max_bytes`; above `dirty_limit_bytes` writers are throttled —
// their writes complete only once the flusher has brought the dirty bytes back under the
// limit (balance_dirty_pages). A flush completes after every page dirty when it arrived has
// been written back and the device has flushed. A partial write to a page not in the cache
// takes the page's other bytes from the device untimed (Linux reads such a page first unless
// it lies past the file's end, as a log's appends do; we do not track file ends).
// Two options make write-back behave as Linux 3.x does for a file written through a shared
// mapping (mmap, the CONA thesis's store), off by default:
//   - `fault_on_write`: a store into a page that is not in memory faults the page in first
//     (filemap_fault): its missing pages are read from the device, one run at a time as a read
//     would, and the write completes once they have arrived and been copied (counted as
//     `write_faults`, not as read misses). A mapping cannot tell a whole-page overwrite from a partial
//     one, so whole pages are read too. A page no write ever sent to the device (through this
//     cache, or Poke) is a hole of the file: the fault fills it with zeros and reads nothing.
//   - `linux_balance`: balance_dirty_pages as Linux calls it: only a write that turns a clean
//     page dirty is throttled (a store to a page already dirty does not enter the kernel).
//     Without it every write is throttled while the dirty pages exceed the limit. (Linux also
//     counts the pages being written back, nr_writeback; at the lab's scales one 512 KB
//     request is up to half the limit, against 0.05% on the thesis's 8 GB, so they are not.)
// DropAll() forgets every page, dirty ones included, and every command in flight: the DRAM
// lost in a crash.
#ifndef FAWNLAB_DEVICE_PAGE_CACHE_H_
#define FAWNLAB_DEVICE_PAGE_CACHE_H_

#include <list>
#include <set>
#include <unordered_map>
#include <vector>

#include "device/device.h"
#include "device/page_image.h"

namespace fawnlab::device {

struct WriteBackOptions {
  bool enabled = false;
  // Linux 2.6.27's defaults on the Alix's 256 MB: dirty_background_ratio 5%, dirty_ratio 10%
  // of the memory available for caching (docs/decisions.md).
  uint64_t dirty_background_bytes = 10 << 20;
  uint64_t dirty_limit_bytes = 20 << 20;
  uint64_t writeback_max_bytes = 4 << 20;  // MAX_WRITEBACK_PAGES: 1024 pages per inode visit
  bool fault_on_write = false;  // a store to a missing page reads it first (mmap)
  bool linux_balance = false;   // throttle only writes that dirty a clean page

  // Write-back on, with Linux 2.6.27's ratios of `cacheable` bytes, in requests of at most
  // `max_request` (an ATA command moves at most 256 sectors, so the block layer splits
  // larger ones for a CF card: 128 KB).
  static WriteBackOptions Linux(double cacheable, uint64_t max_request) {
    WriteBackOptions wb;
    wb.enabled = true;
    wb.dirty_background_bytes = static_cast<uint64_t>(cacheable * 0.05);
    wb.dirty_limit_bytes = static_cast<uint64_t>(cacheable * 0.10);
    wb.writeback_max_bytes = max_request;
    return wb;
  }
  // Write-back on, as Linux 3.x (the CONA thesis's 2014 kernel) sets it for its machine
  // (cona::Machine, stores::Machine): dirty_background_ratio 10, dirty_ratio 20 of the
  // `cacheable` bytes, write-back in 512 KB requests (the block layer's max_sectors_kb).
  static WriteBackOptions Linux3(uint64_t cacheable) {
    WriteBackOptions wb;
    wb.enabled = true;
    wb.dirty_background_bytes = cacheable / 10;
    wb.dirty_limit_bytes = cacheable / 5;
    wb.writeback_max_bytes = 512 * 1024;
    return wb;
  }
};

struct PageCacheStats {
  uint64_t hits = 0, misses = 0;  // pages
  uint64_t writeback_commands = 0, writeback_bytes = 0;
  uint64_t throttled_writes = 0;
  uint64_t write_faults = 0;  // pages a write read in first (fault_on_write)
};

class PageCache : public Device {
 public:
  static constexpr uint32_t kPage = 4096;
  PageCache(Device* inner, uint64_t capacity_bytes, double hit_ns_per_kb = 250, WriteBackOptions wb = {});

  // The bytes as a reader sees them: cached pages (dirty ones newer than the device's) first.
  void Peek(uint64_t offset, uint64_t length, uint8_t* out) const override;
  void Poke(uint64_t offset, uint64_t length, const uint8_t* data) override;
  double Joules() const override { return inner_->Joules(); }
  Status Available() const override { return inner_->Available(); }

  uint64_t hits() const { return stats_.hits; }
  uint64_t misses() const { return stats_.misses; }
  const PageCacheStats& stats() const { return stats_; }
  size_t cached_pages() const { return map_.size(); }
  uint64_t dirty_bytes() const { return dirty_.size() * kPage; }
  Device* inner() const { return inner_; }
  // The crash: every page and every command in flight is forgotten.
  void DropAll();

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
  // Forwards `c` to the device as a part of command `id`, done `then_ns` after the device's completion.
  void Forward(const IoCommand& c, uint64_t id, sim::SimDuration then_ns = 0);
  void PartDone(uint64_t id);
  void WriteBack(const IoEntry& e, uint64_t id, int stream);
  // Starts the next write-back command if one is due and none is in flight.
  void Flusher();
  void WriteBackDone(uint64_t seq);
  // Completes the throttled writes and the flushes whose pages are all written.
  void Release();
  void Crashed();
  // Pages [a, b) now have data on the device (fault_on_write reads only those).
  void MarkOnDevice(uint64_t a, uint64_t b);
  bool OnDevice(uint64_t page) const;

  struct PendingFlush {
    uint64_t id;
    std::set<uint64_t> pages;  // dirty when the flush arrived, not yet sent to the device
    uint64_t need_seq;         // the write-back command that must complete first
    int stream;
    bool forwarded = false;
  };

  Device* inner_;
  uint64_t capacity_pages_;
  double hit_ns_per_kb_;
  WriteBackOptions wb_;
  std::list<uint64_t> lru_;  // most recent first
  std::unordered_map<uint64_t, Entry> map_;
  std::unordered_map<uint64_t, int> parts_;
  std::set<uint64_t> dirty_;
  uint64_t cursor_ = 0;        // the flusher's position (a page number)
  uint64_t wb_submitted_ = 0;  // write-back commands sent (their sequence numbers count from 1)
  uint64_t wb_completed_ = 0;
  bool wb_in_flight_ = false;
  uint64_t epoch_ = 0;  // bumped by DropAll: completions of earlier write-backs are ignored
  std::vector<uint64_t> throttled_;  // write commands waiting for the dirty bytes to fall
  std::vector<PendingFlush> flushes_;
  std::vector<uint8_t> wb_buf_;
  std::vector<bool> on_device_;  // per page (fault_on_write only): written to the device once
  PageCacheStats stats_;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_PAGE_CACHE_H_
