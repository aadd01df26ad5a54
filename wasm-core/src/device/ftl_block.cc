#include "device/ftl_block.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace fawnlab::device {
namespace {
enum Role : uint8_t { kFree = 0, kData = 1, kUpdateRole = 2, kRetired = 3 };
}

StatusOr<std::unique_ptr<BlockMappedFtl>> BlockMappedFtl::Create(Nand* nand, uint64_t logical_pages, int update_blocks,
                                                                 int erase_batch) {
  const NandGeometry& g = nand->geometry();
  if (update_blocks < 1) return Status::InvalidArgument("block-mapped FTL: needs at least one update block");
  if (erase_batch < 1) return Status::InvalidArgument("block-mapped FTL: erase_batch must be at least 1");
  if (logical_pages == 0 || logical_pages % g.pages_per_block != 0) {
    return Status::InvalidArgument("block-mapped FTL: logical pages (" + std::to_string(logical_pages) +
                                   ") must be a positive multiple of the " + std::to_string(g.pages_per_block) +
                                   " pages in a block");
  }
  uint64_t logical_blocks = logical_pages / g.pages_per_block;
  uint64_t needed = logical_blocks + static_cast<uint64_t>(update_blocks) + static_cast<uint64_t>(erase_batch) + 2;
  if (g.blocks < needed) {
    return Status::InvalidArgument("block-mapped FTL: " + std::to_string(g.blocks) + " physical blocks; " +
                                   std::to_string(needed) + " are needed for " + std::to_string(logical_blocks) +
                                   " logical blocks, the update blocks, one erase batch and two spares");
  }
  return std::unique_ptr<BlockMappedFtl>(
      new BlockMappedFtl(nand, static_cast<uint32_t>(logical_blocks), update_blocks, erase_batch));
}

BlockMappedFtl::BlockMappedFtl(Nand* nand, uint32_t logical_blocks, int update_blocks, int erase_batch)
    : Ftl(nand),
      logical_blocks_(logical_blocks),
      ppb_(nand->geometry().pages_per_block),
      max_updates_(update_blocks),
      erase_batch_(erase_batch) {
  data_.assign(logical_blocks, kNone);
  role_.assign(nand->geometry().blocks, kFree);
  for (uint32_t b = 0; b < nand->geometry().blocks; ++b) free_.push_back(b);
}

int BlockMappedFtl::FindUpdate(uint32_t lb) const {
  for (size_t i = 0; i < updates_.size(); ++i) {
    if (updates_[i].lb == lb) return static_cast<int>(i);
  }
  return -1;
}

int64_t BlockMappedFtl::Current(uint32_t lb, uint32_t off) const {
  int u = FindUpdate(lb);
  if (u >= 0) {
    uint64_t ppn = nand_->Ppn(updates_[u].block, off);
    if (nand_->state(ppn) == PageState::kValid) return static_cast<int64_t>(ppn);
  }
  if (data_[lb] != kNone) {
    uint64_t ppn = nand_->Ppn(data_[lb], off);
    if (nand_->state(ppn) == PageState::kValid) return static_cast<int64_t>(ppn);
  }
  return -1;
}

int64_t BlockMappedFtl::Locate(uint64_t lpn) const {
  return Current(static_cast<uint32_t>(lpn / ppb_), static_cast<uint32_t>(lpn % ppb_));
}

sim::SimTime BlockMappedFtl::Read(uint64_t lpn, sim::SimTime ready, uint8_t* out, uint32_t offset, uint32_t len) {
  int64_t ppn = Locate(lpn);
  if (ppn < 0) {
    if (out) PageImage().CopyTo(out, offset, len);
    return ready;
  }
  return nand_->Read(static_cast<uint64_t>(ppn), ready, out, offset, len);
}

const PageImage* BlockMappedFtl::Lookup(uint64_t lpn) const {
  int64_t ppn = Locate(lpn);
  return ppn < 0 ? nullptr : &nand_->image(static_cast<uint64_t>(ppn));
}

sim::SimTime BlockMappedFtl::EraseRetired(sim::SimTime t) {
  if (retired_.size() > 1) ++stats_.bulk_erases;
  for (uint32_t b : retired_) {
    t = nand_->Erase(b, t);
    role_[b] = kFree;
    free_.push_back(b);
    nand_->MarkBackground(nand_->ChipOf(b), t);
  }
  retired_.clear();
  return t;
}

sim::SimTime BlockMappedFtl::Retire(uint32_t block, sim::SimTime t) {
  assert(nand_->valid_pages(block) == 0);
  role_[block] = kRetired;
  retired_.push_back(block);
  if (retired_.size() >= static_cast<size_t>(erase_batch_)) return EraseRetired(t);
  return t;
}

uint32_t BlockMappedFtl::Allocate(sim::SimTime* t) {
  if (free_.empty()) *t = EraseRetired(*t);
  assert(!free_.empty() && "block-mapped FTL: no free block");
  uint32_t b = free_.front();
  free_.pop_front();
  return b;
}

sim::SimTime BlockMappedFtl::Pad(Update& u, uint32_t upto, sim::SimTime t) {
  uint32_t data = data_[u.lb];
  for (uint32_t p = u.next; p < upto; ++p) {
    if (data == kNone) continue;
    uint64_t from = nand_->Ppn(data, p);
    if (nand_->state(from) != PageState::kValid) continue;
    t = nand_->Copy(from, nand_->Ppn(u.block, p), t);
    ++stats_.gc_moves;
  }
  u.next = std::max(u.next, upto);
  return t;
}

sim::SimTime BlockMappedFtl::Close(int i, sim::SimTime t) {
  Update u = updates_[static_cast<size_t>(i)];
  t = Pad(u, ppb_, t);
  updates_.erase(updates_.begin() + i);
  uint32_t old = data_[u.lb];
  data_[u.lb] = u.block;
  role_[u.block] = kData;
  if (old != kNone) t = Retire(old, t);
  return t;
}

sim::SimTime BlockMappedFtl::FullMerge(int i, uint32_t off, PageImage image, sim::SimTime t, sim::SimTime* host_done) {
  Update u = updates_[static_cast<size_t>(i)];
  int64_t stale = Current(u.lb, off);
  if (stale >= 0) nand_->Invalidate(static_cast<uint64_t>(stale));
  uint32_t nb = Allocate(&t);
  role_[nb] = kData;
  for (uint32_t p = 0; p < ppb_; ++p) {
    if (p == off) {
      t = nand_->Program(nand_->Ppn(nb, p), std::move(image), t, false);
      *host_done = t;
      continue;
    }
    int64_t from = Current(u.lb, p);
    if (from < 0) continue;
    t = nand_->Copy(static_cast<uint64_t>(from), nand_->Ppn(nb, p), t);
    ++stats_.gc_moves;
  }
  updates_.erase(updates_.begin() + i);
  uint32_t old = data_[u.lb];
  data_[u.lb] = nb;
  if (old != kNone) t = Retire(old, t);
  t = Retire(u.block, t);
  ++stats_.gc_runs;
  stats_.last_victim = u.block;
  return t;
}

FtlWrite BlockMappedFtl::Write(uint64_t lpn, PageImage image, sim::SimTime ready) {
  uint32_t lb = static_cast<uint32_t>(lpn / ppb_);
  uint32_t off = static_cast<uint32_t>(lpn % ppb_);
  FtlWrite r{ready, 0};
  sim::SimTime t = ready;
  int i = FindUpdate(lb);
  if (i >= 0 && updates_[static_cast<size_t>(i)].next > off) {
    sim::SimTime host_done = t;
    t = FullMerge(i, off, std::move(image), t, &host_done);
    r.done = t;
    r.gc_until = t;
    return r;
  }
  bool background = false;
  if (i < 0) {
    if (static_cast<int>(updates_.size()) >= max_updates_) {
      t = Close(0, t);
      ++stats_.gc_runs;
      stats_.last_victim = data_[lb] == kNone ? -1 : data_[lb];
      background = true;
    }
    uint32_t nb = Allocate(&t);
    role_[nb] = kUpdateRole;
    updates_.push_back(Update{lb, nb, 0});
    i = static_cast<int>(updates_.size()) - 1;
  } else {
    // Most recently used goes to the back.
    Update u = updates_[static_cast<size_t>(i)];
    updates_.erase(updates_.begin() + i);
    updates_.push_back(u);
    i = static_cast<int>(updates_.size()) - 1;
  }
  Update& u = updates_[static_cast<size_t>(i)];
  if (u.next < off) {
    sim::SimTime before = t;
    t = Pad(u, off, t);
    if (t > before) background = true;
  }
  int64_t stale = Current(lb, off);
  if (stale >= 0) nand_->Invalidate(static_cast<uint64_t>(stale));
  if (background) r.gc_until = t;
  t = nand_->Program(nand_->Ppn(u.block, off), std::move(image), t, false);
  u.next = off + 1;
  r.done = t;
  if (u.next == ppb_) {
    sim::SimTime after = Close(i, t);
    if (after > t) r.gc_until = std::max(r.gc_until, after);
  }
  return r;
}

void BlockMappedFtl::Trim(uint64_t lpn) {
  int64_t ppn = Locate(lpn);
  if (ppn >= 0) nand_->Invalidate(static_cast<uint64_t>(ppn));
}

const char* BlockMappedFtl::RoleOf(uint32_t block) const {
  switch (role_[block]) {
    case kFree: return "free";
    case kData: return "data";
    case kUpdateRole: return "update";
    default: return "full";
  }
}

void BlockMappedFtl::FillSequential(const std::function<PageImage(uint64_t lpn)>& content) {
  for (uint32_t lb = 0; lb < logical_blocks_; ++lb) {
    assert(data_[lb] == kNone);
    sim::SimTime t = 0;
    uint32_t b = Allocate(&t);
    role_[b] = kData;
    data_[lb] = b;
    for (uint32_t p = 0; p < ppb_; ++p) nand_->Program(nand_->Ppn(b, p), content(uint64_t{lb} * ppb_ + p), 0, false);
  }
  nand_->ResetTimelines();
}

std::string BlockMappedFtl::CheckInvariants() const {
  const NandGeometry& g = nand_->geometry();
  std::vector<uint8_t> seen(g.blocks, 0);
  for (uint32_t lb = 0; lb < logical_blocks_; ++lb) {
    if (data_[lb] == kNone) continue;
    if (role_[data_[lb]] != kData) return "data block of logical block " + std::to_string(lb) + " has the wrong role";
    if (seen[data_[lb]]++) return "physical block " + std::to_string(data_[lb]) + " is used twice";
  }
  for (const Update& u : updates_) {
    if (role_[u.block] != kUpdateRole) return "update block has the wrong role";
    if (seen[u.block]++) return "update block " + std::to_string(u.block) + " is used twice";
    if (u.next > ppb_ || nand_->written_pages(u.block) > u.next) return "update block write pointer is wrong";
    // Each page of L is valid in at most one place.
    for (uint32_t p = 0; p < ppb_; ++p) {
      if (data_[u.lb] == kNone) break;
      if (nand_->state(nand_->Ppn(u.block, p)) == PageState::kValid &&
          nand_->state(nand_->Ppn(data_[u.lb], p)) == PageState::kValid) {
        return "page " + std::to_string(p) + " of logical block " + std::to_string(u.lb) + " is valid twice";
      }
    }
  }
  for (uint32_t b : retired_) {
    if (seen[b]++) return "retired block " + std::to_string(b) + " is also in use";
    if (nand_->valid_pages(b) != 0) return "retired block " + std::to_string(b) + " still holds valid pages";
  }
  for (uint32_t b : free_) {
    if (seen[b]++) return "free block " + std::to_string(b) + " is also in use";
    if (nand_->written_pages(b) != 0) return "free block " + std::to_string(b) + " is not erased";
  }
  for (uint32_t b = 0; b < g.blocks; ++b) {
    if (!seen[b]) return "physical block " + std::to_string(b) + " is lost";
  }
  return "";
}

}  // namespace fawnlab::device
