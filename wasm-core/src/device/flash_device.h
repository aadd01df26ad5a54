// FlashDevice: an SSD or flash card — a controller in front of an FTL over NAND.
//
// The controller spends `command_ns` of firmware time per I/O and moves host data over the
// host link at `bus_ns_per_kb`, on one timeline (the firmware drives the DMA: per I/O,
// command_ns + KB x bus_ns_per_kb, the X25 fit of vector thesis Table 6.2), page by page.
// It keeps two buffers:
//   - a write buffer of `write_buffer_pages` logical pages. A write is acknowledged once its
//     data is across the link and has a buffer slot; a page is programmed (through the FTL)
//     as soon as it is complete, or, if partial, when its slot is needed or on flush — then
//     the old page is read first (read-modify-write). When every slot is busy the write
//     waits for the earliest one to drain: sustained writes run at the media's pace.
//   - a read-ahead buffer: a read that continues the previous one marks a sequential stream,
//     and the controller prefetches the next `readahead_pages` pages; reads that hit it skip
//     the media and the firmware's per-read setup (`read_setup_ns`: address translation on a
//     small controller; fitted for the CompactFlash card).
// A flush programs every buffered page and completes when they are all on flash.
//
// Energy: idle power always, plus (active − idle) for the fraction of chip-time busy.
#ifndef FAWNLAB_DEVICE_FLASH_DEVICE_H_
#define FAWNLAB_DEVICE_FLASH_DEVICE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "device/device.h"
#include "device/ftl.h"
#include "device/nand.h"

namespace fawnlab::device {

struct FlashControllerConfig {
  sim::SimDuration command_ns = 10000;
  sim::SimDuration read_setup_ns = 0;
  double bus_ns_per_kb = 3650;
  uint32_t write_buffer_pages = 16;
  uint32_t readahead_pages = 0;
  double idle_w = 0.1;
  double active_w = 1.0;
};

class FlashDevice : public Device {
 public:
  FlashDevice(sim::Simulator* sim, DeviceInfo info, std::unique_ptr<Nand> nand, std::unique_ptr<Ftl> ftl,
              FlashControllerConfig config);

  void Peek(uint64_t offset, uint64_t length, uint8_t* out) const override;
  void Poke(uint64_t offset, uint64_t length, const uint8_t* data) override;
  double Joules() const override;

  Ftl& ftl() { return *ftl_; }
  const Ftl& ftl() const { return *ftl_; }
  Nand& nand() { return *nand_; }
  const Nand& nand() const { return *nand_; }
  const FlashControllerConfig& config() const { return config_; }
  uint32_t page_bytes() const { return nand_->geometry().page_bytes; }
  size_t buffered_pages() const { return buffer_.size(); }
  // When the controller and every chip have finished the work reserved so far.
  sim::SimTime BusyUntil() const;
  // Maps the whole logical space as if written sequentially, in no time (preconditioning);
  // page `lpn` holds the 64-bit word pattern(lpn) repeated. REQUIRES: nothing written yet.
  void FillSequential(const std::function<uint64_t(uint64_t lpn)>& pattern);

 protected:
  void Start(const IoCommand& cmd, uint64_t id) override;

 private:
  struct Buffered {
    PageImage image;
    // The byte ranges written so far, merged: the page is whole when this is [0, page).
    std::vector<std::pair<uint32_t, uint32_t>> covered;
    void Cover(uint32_t lo, uint32_t hi);
    bool Whole(uint32_t page_bytes) const {
      return covered.size() == 1 && covered[0].first == 0 && covered[0].second == page_bytes;
    }
  };
  struct Draining {
    sim::SimTime free_at;
    sim::SimTime gc_until;
    bool operator>(const Draining& o) const { return free_at > o.free_at; }
  };

  sim::SimTime DoRead(const IoEntry& e, sim::SimTime ready);
  sim::SimTime DoWrite(const IoEntry& e, sim::SimTime ready);
  void DoTrim(const IoEntry& e, bool zero_partial);
  sim::SimTime FlushAll(sim::SimTime ready);
  // Programs buffered page `lpn` (read-modify-write when partial); frees its slot later.
  void Drain(uint64_t lpn, sim::SimTime ready);
  // Waits for a free buffer slot at `t`; returns when one is free.
  sim::SimTime TakeSlot(sim::SimTime t);
  void NoteReadStall(uint64_t lpn, sim::SimTime ready, sim::SimTime done);

  std::unique_ptr<Nand> nand_;
  std::unique_ptr<Ftl> ftl_;
  FlashControllerConfig config_;
  sim::SimTime ctrl_free_ = 0, bus_free_ = 0;
  std::map<uint64_t, Buffered> buffer_;  // open (not yet draining) pages
  std::deque<uint64_t> buffer_order_;     // open pages, oldest first (may hold stale lpns)
  std::priority_queue<Draining, std::vector<Draining>, std::greater<Draining>> draining_;
  std::map<uint64_t, sim::SimTime> readahead_;  // lpn -> when its data is at the controller
  uint64_t last_read_end_ = UINT64_MAX;
  sim::SimTime latest_drain_ = 0;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_FLASH_DEVICE_H_
