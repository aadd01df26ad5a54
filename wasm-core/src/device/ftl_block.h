// BlockMappedFtl: the cheap-card FTL. Logical block L (pages_per_block logical pages) lives
// in one physical data block; changes go to a sequential update block, and anything else is
// a read-modify-write merge.
//
// A write of page o of L:
//   - L has an update block whose next page is <= o: copy the data block's pages in between
//     into it ("padding"), then program o there (a sequential append costs one program);
//     when the update block is full it becomes L's data block and the old one is retired
//     (a "switch merge": no copies).
//   - L has an update block already past o (a rewrite): full merge — a fresh block receives
//     every page of L (from the update block, the data block, or the new data), and both old
//     blocks are retired.
//   - L has no update block: if all `update_blocks` are in use, the least recently used one
//     is closed (its remaining pages copied from its data block, then switched); a fresh
//     block becomes L's update block, padded up to o.
// So a random small write costs about a whole block of copies plus an erase — the reason
// FAWN's CompactFlash card does 110 random writes/s against 24 MB/s sequential (Table 1) —
// and appending to more streams than there are update blocks degrades toward that cost
// (semi-random writes, FAWN Fig 9).
//
// Retired blocks are erased `erase_batch` at a time: 1 erases each at once; more collects
// them and erases them together, stalling the chip for erase_batch × t_BERS (the bulk
// erasure of hundreds of milliseconds in FAWN thesis §4.2.1).
#ifndef FAWNLAB_DEVICE_FTL_BLOCK_H_
#define FAWNLAB_DEVICE_FTL_BLOCK_H_

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/ftl.h"

namespace fawnlab::device {

class BlockMappedFtl : public Ftl {
 public:
  // Errors unless logical_pages is a whole number of blocks and the spare blocks cover the
  // update blocks, one erase batch and two more.
  static StatusOr<std::unique_ptr<BlockMappedFtl>> Create(Nand* nand, uint64_t logical_pages, int update_blocks,
                                                          int erase_batch);

  uint64_t logical_pages() const override { return uint64_t{logical_blocks_} * ppb_; }
  sim::SimTime Read(uint64_t lpn, sim::SimTime ready, uint8_t* out, uint32_t offset, uint32_t len) override;
  FtlWrite Write(uint64_t lpn, PageImage image, sim::SimTime ready) override;
  void Trim(uint64_t lpn) override;
  const PageImage* Lookup(uint64_t lpn) const override;
  int64_t Locate(uint64_t lpn) const override;
  const char* RoleOf(uint32_t block) const override;
  void FillSequential(const std::function<PageImage(uint64_t lpn)>& content) override;
  std::string CheckInvariants() const override;

  int update_blocks_in_use() const { return static_cast<int>(updates_.size()); }
  size_t retired_blocks() const { return retired_.size(); }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Update {
    uint32_t lb;
    uint32_t block;
    uint32_t next;  // next programmable page
  };
  BlockMappedFtl(Nand* nand, uint32_t logical_blocks, int update_blocks, int erase_batch);

  int FindUpdate(uint32_t lb) const;
  // Copies L's valid data-block pages [u.next, upto) into the update block.
  sim::SimTime Pad(Update& u, uint32_t upto, sim::SimTime t);
  // Makes update `i` L's data block (padding it to the end first); retires the old one.
  sim::SimTime Close(int i, sim::SimTime t);
  sim::SimTime FullMerge(int i, uint32_t off, PageImage image, sim::SimTime t, sim::SimTime* host_done);
  uint32_t Allocate(sim::SimTime* t);
  sim::SimTime Retire(uint32_t block, sim::SimTime t);
  sim::SimTime EraseRetired(sim::SimTime t);
  // The physical page currently holding page `off` of logical block `lb`, or -1.
  int64_t Current(uint32_t lb, uint32_t off) const;

  uint32_t logical_blocks_;
  uint32_t ppb_;
  int max_updates_;
  int erase_batch_;
  std::vector<uint32_t> data_;      // logical block -> data block
  std::vector<Update> updates_;     // least recently used first
  std::deque<uint32_t> free_;
  std::vector<uint32_t> retired_;
  std::vector<uint8_t> role_;       // per physical block
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_FTL_BLOCK_H_
