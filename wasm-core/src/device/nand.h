// Nand: raw NAND flash — chips on channels, erase blocks of pages — with the rules a flash
// translation layer must obey and the time each operation takes.
//
// Rules (asserted): a page is programmed only when erased, and within a block only at or
// after the last programmed page (in-order programming; skipped pages stay erased); a block
// is erased as a whole. Each page is erased, valid (holds live data) or invalid (stale); the
// FTL marks pages invalid. Page contents are really stored (PageImage).
//
// Timing is a reservation model: every chip and every channel is a timeline busy until some
// instant, and an operation that becomes ready at `ready` starts when its chip (and, for a
// data transfer, its channel) is free. A read is the array read (t_R) then the transfer out
// over the channel; a program is the transfer in then t_PROG; an erase occupies the chip
// only; a collector copy on one chip is a copy-back (t_R + t_PROG, no transfer) unless the
// controller moves copies through itself to check ECC (copy_back = false: read then program). Operations
// on one chip run in the order they were reserved, so a long erase or program delays every
// later read on that chip — the single-chip CompactFlash card's behaviour.
//
// Global physical page number ppn = block * pages_per_block + page; block b is on chip
// b % chips (blocks are interleaved), and chip c is on channel c % channels.
#ifndef FAWNLAB_DEVICE_NAND_H_
#define FAWNLAB_DEVICE_NAND_H_

#include <cstdint>
#include <vector>

#include "device/page_image.h"
#include "sim/time.h"

namespace fawnlab::device {

struct NandGeometry {
  int channels = 1;
  int chips = 1;               // in total, spread over the channels
  uint32_t blocks = 64;        // in total, interleaved over the chips
  uint32_t pages_per_block = 64;
  uint32_t page_bytes = 2048;
  uint64_t pages() const { return uint64_t{blocks} * pages_per_block; }
  uint64_t bytes() const { return pages() * page_bytes; }
};

struct NandTiming {
  sim::SimDuration read_ns = 25000;      // t_R: array to page register
  sim::SimDuration program_ns = 200000;  // t_PROG
  sim::SimDuration erase_ns = 2000000;   // t_BERS
  sim::SimDuration transfer_ns_per_kb = 25000;  // channel transfer
  bool copy_back = true;  // collector copies stay inside the chip (else they cross the controller for ECC)
};

enum class PageState : uint8_t { kErased, kValid, kInvalid };

// What an FTL reports about a page operation, for the views.
class NandObserver {
 public:
  virtual ~NandObserver() = default;
  virtual void OnProgram(uint64_t ppn, bool by_collector) {}
  virtual void OnCopy(uint64_t from_ppn, uint64_t to_ppn) {}
  virtual void OnErase(uint32_t block) {}
};

class Nand {
 public:
  Nand(NandGeometry g, NandTiming t);

  const NandGeometry& geometry() const { return g_; }
  const NandTiming& timing() const { return t_; }
  int ChipOf(uint32_t block) const { return static_cast<int>(block % static_cast<uint32_t>(g_.chips)); }
  int ChannelOf(int chip) const { return chip % g_.channels; }
  uint32_t BlockOf(uint64_t ppn) const { return static_cast<uint32_t>(ppn / g_.pages_per_block); }
  uint64_t Ppn(uint32_t block, uint32_t page) const { return uint64_t{block} * g_.pages_per_block + page; }

  // Reads page `ppn` (ready at `ready`); copies bytes [offset, offset+len) into `out` if
  // non-null. Returns when the data is at the controller.
  sim::SimTime Read(uint64_t ppn, sim::SimTime ready, uint8_t* out, uint32_t offset, uint32_t len);
  // Programs erased page `ppn` with `image`; the page becomes valid. Returns completion.
  sim::SimTime Program(uint64_t ppn, PageImage image, sim::SimTime ready, bool by_collector);
  // Copies valid page `from` to erased page `to` (copy-back on one chip, else read, two
  // transfers and program); `from` becomes invalid. Returns completion.
  sim::SimTime Copy(uint64_t from, uint64_t to, sim::SimTime ready);
  // Erases `block` (all its pages become erased). Returns completion.
  sim::SimTime Erase(uint32_t block, sim::SimTime ready);
  // Marks a valid page invalid (its data is stale).
  void Invalidate(uint64_t ppn);

  PageState state(uint64_t ppn) const { return state_[ppn]; }
  const PageImage& image(uint64_t ppn) const { return images_[ppn]; }
  uint32_t valid_pages(uint32_t block) const { return valid_[block]; }
  uint32_t written_pages(uint32_t block) const { return next_page_[block]; }  // next programmable page
  uint32_t erase_count(uint32_t block) const { return erases_[block]; }

  // When chip `chip` is free of reserved work, and how much of that is collector/erase work.
  sim::SimTime chip_free(int chip) const { return chip_free_[chip]; }
  sim::SimTime chip_background_until(int chip) const { return chip_bg_until_[chip]; }
  // Marks work reserved on `chip` up to `until` as background (collector, erase).
  void MarkBackground(int chip, sim::SimTime until) {
    if (until > chip_bg_until_[chip]) chip_bg_until_[chip] = until;
  }
  // Total ns chips were busy (for energy).
  sim::SimDuration busy_ns() const { return busy_ns_; }
  uint64_t pages_programmed() const { return programmed_; }
  uint64_t pages_read() const { return read_; }
  uint64_t total_erases() const { return total_erases_; }
  uint64_t heap_bytes() const { return heap_; }

  // Forgets all reserved time and counters (after an untimed precondition fill).
  void ResetTimelines();

  void set_observer(NandObserver* o) { observer_ = o; }
  NandObserver* observer() const { return observer_; }

 private:
  sim::SimDuration TransferNs(uint32_t bytes) const {
    return static_cast<sim::SimDuration>((static_cast<double>(t_.transfer_ns_per_kb) * bytes) / 1024.0 + 0.5);
  }
  sim::SimTime ReserveChip(int chip, sim::SimTime ready, sim::SimDuration d);
  void Store(uint64_t ppn, PageImage image);

  NandGeometry g_;
  NandTiming t_;
  std::vector<PageState> state_;
  std::vector<PageImage> images_;
  std::vector<uint32_t> valid_, next_page_, erases_;
  std::vector<sim::SimTime> chip_free_, chip_bg_until_, channel_free_;
  sim::SimDuration busy_ns_ = 0;
  uint64_t programmed_ = 0, read_ = 0, heap_ = 0, total_erases_ = 0;
  NandObserver* observer_ = nullptr;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_NAND_H_
