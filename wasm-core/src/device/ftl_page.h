// PageMappedFtl: every logical page maps to any physical page; greedy garbage collection.
//
// Writes are striped round-robin over the chips; each chip has an open block for host
// writes and one for collector copies (so cold copied data is not mixed with new writes).
// When a chip's free blocks fall to `gc_low`, the collector runs in the foreground of the
// write that needs space: it picks the closed block with the fewest valid pages (greedy;
// ties to the less-erased, then lower-numbered block), copies its valid pages (copy-back on
// the chip) and erases it, until the chip has more than `gc_low` free blocks. Those copies
// are the write amplification; over-provisioning (physical pages beyond the logical ones)
// is what keeps victims mostly invalid.
#ifndef FAWNLAB_DEVICE_FTL_PAGE_H_
#define FAWNLAB_DEVICE_FTL_PAGE_H_

#include <deque>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/ftl.h"

namespace fawnlab::device {

class PageMappedFtl : public Ftl {
 public:
  static constexpr uint32_t kUnmapped = UINT32_MAX;
  // Errors when the spare space per chip is too small for the collector to work
  // (fewer than gc_low + 2 spare blocks per chip).
  static StatusOr<std::unique_ptr<PageMappedFtl>> Create(Nand* nand, uint64_t logical_pages, int gc_low = 2);

  uint64_t logical_pages() const override { return l2p_.size(); }
  sim::SimTime Read(uint64_t lpn, sim::SimTime ready, uint8_t* out, uint32_t offset, uint32_t len) override;
  FtlWrite Write(uint64_t lpn, PageImage image, sim::SimTime ready) override;
  void Trim(uint64_t lpn) override;
  const PageImage* Lookup(uint64_t lpn) const override;
  int64_t Locate(uint64_t lpn) const override { return l2p_[lpn] == kUnmapped ? -1 : l2p_[lpn]; }
  const char* RoleOf(uint32_t block) const override;
  void FillSequential(const std::function<PageImage(uint64_t lpn)>& content) override;
  std::string CheckInvariants() const override;

  uint32_t free_blocks(int chip) const { return static_cast<uint32_t>(free_[chip].size()); }

 private:
  PageMappedFtl(Nand* nand, uint64_t logical_pages, int gc_low);
  // Returns a page on `chip` in the open block of `kind` (0 host, 1 collector), opening a
  // free block when needed.
  uint64_t NextPage(int chip, int kind);
  // Reclaims blocks on `chip` until it has more than gc_low_ free; returns when that ends.
  sim::SimTime Collect(int chip, sim::SimTime ready);
  bool IsOpen(uint32_t block) const;

  int gc_low_;
  int next_chip_ = 0;
  std::vector<uint32_t> l2p_;  // logical page -> ppn
  std::vector<uint32_t> p2l_;  // ppn -> logical page (valid pages only)
  std::vector<std::deque<uint32_t>> free_;
  std::vector<int64_t> open_[2];
  std::vector<uint8_t> is_free_;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_FTL_PAGE_H_
