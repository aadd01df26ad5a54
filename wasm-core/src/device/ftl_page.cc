#include "device/ftl_page.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <utility>

namespace fawnlab::device {

StatusOr<std::unique_ptr<PageMappedFtl>> PageMappedFtl::Create(Nand* nand, uint64_t logical_pages, int gc_low) {
  const NandGeometry& g = nand->geometry();
  if (gc_low < 1) return Status::InvalidArgument("page-mapped FTL: gc_low must be at least 1");
  if (logical_pages == 0 || logical_pages >= g.pages()) {
    return Status::InvalidArgument("page-mapped FTL: " + std::to_string(logical_pages) +
                                   " logical pages do not fit below the " + std::to_string(g.pages()) +
                                   " physical pages (over-provisioning must be positive)");
  }
  if (g.pages() > UINT32_MAX) return Status::InvalidArgument("page-mapped FTL: more than 2^32 physical pages");
  uint64_t blocks_per_chip = g.blocks / static_cast<uint32_t>(g.chips);
  uint64_t logical_blocks_per_chip = (logical_pages + uint64_t{g.pages_per_block} * g.chips - 1) /
                                     (uint64_t{g.pages_per_block} * g.chips);
  if (blocks_per_chip < logical_blocks_per_chip + static_cast<uint64_t>(gc_low) + 2) {
    return Status::InvalidArgument("page-mapped FTL: " + std::to_string(blocks_per_chip) +
                                   " blocks per chip leave fewer than " + std::to_string(gc_low + 2) +
                                   " spare blocks per chip for the collector; raise over-provisioning or capacity");
  }
  return std::unique_ptr<PageMappedFtl>(new PageMappedFtl(nand, logical_pages, gc_low));
}

PageMappedFtl::PageMappedFtl(Nand* nand, uint64_t logical_pages, int gc_low) : Ftl(nand), gc_low_(gc_low) {
  const NandGeometry& g = nand->geometry();
  l2p_.assign(logical_pages, kUnmapped);
  p2l_.assign(g.pages(), kUnmapped);
  free_.resize(g.chips);
  is_free_.assign(g.blocks, 1);
  for (uint32_t b = 0; b < g.blocks; ++b) free_[nand->ChipOf(b)].push_back(b);
  open_[0].assign(g.chips, -1);
  open_[1].assign(g.chips, -1);
}

bool PageMappedFtl::IsOpen(uint32_t block) const {
  int chip = nand_->ChipOf(block);
  return open_[0][chip] == block || open_[1][chip] == block;
}

uint64_t PageMappedFtl::NextPage(int chip, int kind) {
  int64_t& open = open_[kind][chip];
  if (open < 0 || nand_->written_pages(static_cast<uint32_t>(open)) == nand_->geometry().pages_per_block) {
    assert(!free_[chip].empty() && "page-mapped FTL: no free block (collector invariant broken)");
    open = free_[chip].front();
    free_[chip].pop_front();
    is_free_[open] = 0;
  }
  return nand_->Ppn(static_cast<uint32_t>(open), nand_->written_pages(static_cast<uint32_t>(open)));
}

sim::SimTime PageMappedFtl::Read(uint64_t lpn, sim::SimTime ready, uint8_t* out, uint32_t offset, uint32_t len) {
  uint32_t ppn = l2p_[lpn];
  if (ppn == kUnmapped) {
    if (out) PageImage().CopyTo(out, offset, len);
    return ready;
  }
  return nand_->Read(ppn, ready, out, offset, len);
}

sim::SimTime PageMappedFtl::Collect(int chip, sim::SimTime ready) {
  const NandGeometry& g = nand_->geometry();
  sim::SimTime t = ready;
  while (free_[chip].size() <= static_cast<size_t>(gc_low_)) {
    int64_t victim = -1;
    for (uint32_t b = static_cast<uint32_t>(chip); b < g.blocks; b += static_cast<uint32_t>(g.chips)) {
      if (is_free_[b] || IsOpen(b)) continue;
      if (victim < 0) {
        victim = b;
        continue;
      }
      uint32_t v = static_cast<uint32_t>(victim);
      if (nand_->valid_pages(b) < nand_->valid_pages(v) ||
          (nand_->valid_pages(b) == nand_->valid_pages(v) && nand_->erase_count(b) < nand_->erase_count(v))) {
        victim = b;
      }
    }
    if (victim < 0 || nand_->valid_pages(static_cast<uint32_t>(victim)) == g.pages_per_block) break;
    uint32_t v = static_cast<uint32_t>(victim);
    for (uint32_t p = 0; p < g.pages_per_block && nand_->valid_pages(v) > 0; ++p) {
      uint64_t from = nand_->Ppn(v, p);
      if (nand_->state(from) != PageState::kValid) continue;
      uint64_t to = NextPage(chip, 1);
      uint32_t lpn = p2l_[from];
      t = nand_->Copy(from, to, t);
      p2l_[from] = kUnmapped;
      p2l_[to] = lpn;
      l2p_[lpn] = static_cast<uint32_t>(to);
      ++stats_.gc_moves;
    }
    t = nand_->Erase(v, t);
    free_[chip].push_back(v);
    is_free_[v] = 1;
    ++stats_.gc_runs;
    stats_.last_victim = victim;
  }
  nand_->MarkBackground(chip, t);
  return t;
}

FtlWrite PageMappedFtl::Write(uint64_t lpn, PageImage image, sim::SimTime ready) {
  int chip = next_chip_;
  next_chip_ = (next_chip_ + 1) % nand_->geometry().chips;
  uint32_t old = l2p_[lpn];
  if (old != kUnmapped) {
    nand_->Invalidate(old);
    p2l_[old] = kUnmapped;
  }
  FtlWrite r{ready, 0};
  sim::SimTime t = ready;
  if (free_[chip].size() <= static_cast<size_t>(gc_low_)) {
    t = Collect(chip, ready);
    if (t > ready) r.gc_until = t;
  }
  uint64_t ppn = NextPage(chip, 0);
  r.done = nand_->Program(ppn, std::move(image), t, false);
  l2p_[lpn] = static_cast<uint32_t>(ppn);
  p2l_[ppn] = static_cast<uint32_t>(lpn);
  return r;
}

void PageMappedFtl::Trim(uint64_t lpn) {
  uint32_t old = l2p_[lpn];
  if (old == kUnmapped) return;
  nand_->Invalidate(old);
  p2l_[old] = kUnmapped;
  l2p_[lpn] = kUnmapped;
}

const PageImage* PageMappedFtl::Lookup(uint64_t lpn) const {
  uint32_t ppn = l2p_[lpn];
  return ppn == kUnmapped ? nullptr : &nand_->image(ppn);
}

const char* PageMappedFtl::RoleOf(uint32_t block) const {
  if (is_free_[block]) return "free";
  int chip = nand_->ChipOf(block);
  if (open_[0][chip] == block) return "host";
  if (open_[1][chip] == block) return "gc";
  return "full";
}

void PageMappedFtl::FillSequential(const std::function<PageImage(uint64_t lpn)>& content) {
  for (uint64_t lpn = 0; lpn < l2p_.size(); ++lpn) {
    assert(l2p_[lpn] == kUnmapped);
    int chip = next_chip_;
    next_chip_ = (next_chip_ + 1) % nand_->geometry().chips;
    uint64_t ppn = NextPage(chip, 0);
    nand_->Program(ppn, content(lpn), 0, false);
    l2p_[lpn] = static_cast<uint32_t>(ppn);
    p2l_[ppn] = static_cast<uint32_t>(lpn);
  }
  nand_->ResetTimelines();
}

std::string PageMappedFtl::CheckInvariants() const {
  const NandGeometry& g = nand_->geometry();
  uint64_t mapped = 0;
  for (uint64_t lpn = 0; lpn < l2p_.size(); ++lpn) {
    uint32_t ppn = l2p_[lpn];
    if (ppn == kUnmapped) continue;
    ++mapped;
    if (nand_->state(ppn) != PageState::kValid) return "logical page " + std::to_string(lpn) + " maps to a page that is not valid";
    if (p2l_[ppn] != lpn) return "reverse map disagrees for logical page " + std::to_string(lpn);
  }
  uint64_t valid = 0;
  for (uint32_t b = 0; b < g.blocks; ++b) {
    uint32_t v = 0;
    for (uint32_t p = 0; p < g.pages_per_block; ++p) {
      uint64_t ppn = nand_->Ppn(b, p);
      if (nand_->state(ppn) == PageState::kValid) {
        ++v;
        if (p2l_[ppn] == kUnmapped || l2p_[p2l_[ppn]] != ppn) return "valid page " + std::to_string(ppn) + " is not mapped";
      }
    }
    if (v != nand_->valid_pages(b)) return "block " + std::to_string(b) + " valid count is wrong";
    if (is_free_[b] && nand_->written_pages(b) != 0) return "free block " + std::to_string(b) + " is not erased";
    valid += v;
  }
  if (valid != mapped) return "valid pages (" + std::to_string(valid) + ") != mapped logical pages (" + std::to_string(mapped) + ")";
  for (int c = 0; c < g.chips; ++c) {
    if (free_[c].size() < 1) return "chip " + std::to_string(c) + " has no free block";
  }
  return "";
}

}  // namespace fawnlab::device
