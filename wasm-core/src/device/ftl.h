// Ftl: a flash translation layer — the firmware that maps logical pages onto NAND pages,
// writes out of place and reclaims space. Two are provided:
//
//   PageMappedFtl (ftl_page.h): any logical page anywhere; greedy garbage collection per
//     chip; the SSD design (Intel X25-M/E).
//   BlockMappedFtl (ftl_block.h): a logical block lives in one physical block, with a few
//     sequential update blocks and read-modify-write merges; the cheap-card design (FAWN's
//     CompactFlash).
//
// The FTL works on whole logical pages; the controller (flash_device.h) turns byte ranges
// into page operations and buffers partial pages. Every call takes the instant its work may
// start and returns when it ends, reserving time on the NAND's chips.
#ifndef FAWNLAB_DEVICE_FTL_H_
#define FAWNLAB_DEVICE_FTL_H_

#include <cstdint>
#include <functional>

#include "device/nand.h"
#include "device/page_image.h"
#include "sim/time.h"

namespace fawnlab::device {

struct FtlStats {
  uint64_t gc_moves = 0;    // valid pages copied by the collector or a merge
  uint64_t gc_runs = 0;     // victim blocks reclaimed (page-mapped) or merges (block-mapped)
  uint64_t bulk_erases = 0; // erase batches of more than one block
  int64_t last_victim = -1; // the block most recently reclaimed
};

struct FtlWrite {
  sim::SimTime done;      // the page is programmed (and any merge it caused is finished)
  sim::SimTime gc_until;  // collector/erase work this write caused ends here (<= done), or 0
};

class Ftl {
 public:
  explicit Ftl(Nand* nand) : nand_(nand) {}
  virtual ~Ftl() = default;

  virtual uint64_t logical_pages() const = 0;
  // Reads bytes [offset, offset+len) of logical page `lpn` into `out` (if non-null); an
  // unmapped page reads as zeros without touching the media. Returns when the data is at
  // the controller.
  virtual sim::SimTime Read(uint64_t lpn, sim::SimTime ready, uint8_t* out, uint32_t offset, uint32_t len) = 0;
  // Writes a whole logical page.
  virtual FtlWrite Write(uint64_t lpn, PageImage image, sim::SimTime ready) = 0;
  // Discards a logical page (it reads back as zeros).
  virtual void Trim(uint64_t lpn) = 0;
  // The logical page's current image, or nullptr when unmapped.
  virtual const PageImage* Lookup(uint64_t lpn) const = 0;
  // The physical page holding `lpn`, or -1.
  virtual int64_t Locate(uint64_t lpn) const = 0;
  // What block `block` is used for: "free", "host", "gc", "full", "data", "update".
  virtual const char* RoleOf(uint32_t block) const = 0;
  // Maps every logical page as if the device had been written sequentially once, taking no
  // virtual time (preconditioning an experiment's device). REQUIRES: nothing written yet.
  virtual void FillSequential(const std::function<PageImage(uint64_t lpn)>& content) = 0;
  // Checks the FTL's invariants (mapping is a bijection onto valid pages, counts agree);
  // returns an empty string or a description of the first violation.
  virtual std::string CheckInvariants() const = 0;

  Nand& nand() { return *nand_; }
  const Nand& nand() const { return *nand_; }
  const FtlStats& stats() const { return stats_; }

 protected:
  Nand* nand_;
  FtlStats stats_;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_FTL_H_
