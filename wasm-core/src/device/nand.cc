#include "device/nand.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace fawnlab::device {

Nand::Nand(NandGeometry g, NandTiming t) : g_(g), t_(t) {
  assert(g_.channels >= 1 && g_.chips >= g_.channels && g_.blocks >= static_cast<uint32_t>(g_.chips));
  assert(g_.pages_per_block >= 1 && g_.page_bytes >= 8 && g_.page_bytes % 8 == 0);
  state_.assign(g_.pages(), PageState::kErased);
  images_.resize(g_.pages());
  valid_.assign(g_.blocks, 0);
  next_page_.assign(g_.blocks, 0);
  erases_.assign(g_.blocks, 0);
  chip_free_.assign(g_.chips, 0);
  chip_bg_until_.assign(g_.chips, 0);
  channel_free_.assign(g_.channels, 0);
}

sim::SimTime Nand::ReserveChip(int chip, sim::SimTime ready, sim::SimDuration d) {
  sim::SimTime start = std::max(ready, chip_free_[chip]);
  chip_free_[chip] = start + d;
  busy_ns_ += d;
  return start + d;
}

void Nand::Store(uint64_t ppn, PageImage image) {
  heap_ -= images_[ppn].heap_bytes();
  images_[ppn] = std::move(image);
  heap_ += images_[ppn].heap_bytes();
}

sim::SimTime Nand::Read(uint64_t ppn, sim::SimTime ready, uint8_t* out, uint32_t offset, uint32_t len) {
  assert(ppn < g_.pages());
  if (out != nullptr) images_[ppn].CopyTo(out, offset, len);
  ++read_;
  int chip = ChipOf(BlockOf(ppn));
  int ch = ChannelOf(chip);
  sim::SimTime array_done = ReserveChip(chip, ready, t_.read_ns);
  // The page register holds the data until it has crossed the channel.
  sim::SimDuration x = TransferNs(g_.page_bytes);
  sim::SimTime xs = std::max(array_done, channel_free_[ch]);
  channel_free_[ch] = xs + x;
  if (xs + x > chip_free_[chip]) {
    busy_ns_ += xs + x - chip_free_[chip];
    chip_free_[chip] = xs + x;
  }
  return xs + x;
}

sim::SimTime Nand::Program(uint64_t ppn, PageImage image, sim::SimTime ready, bool by_collector) {
  assert(ppn < g_.pages());
  uint32_t block = BlockOf(ppn);
  uint32_t page = static_cast<uint32_t>(ppn % g_.pages_per_block);
  assert(state_[ppn] == PageState::kErased && "NAND: program of a page that is not erased");
  assert(page >= next_page_[block] && "NAND: pages of a block are programmed in order");
  next_page_[block] = page + 1;
  state_[ppn] = PageState::kValid;
  ++valid_[block];
  ++programmed_;
  Store(ppn, std::move(image));
  int chip = ChipOf(block);
  int ch = ChannelOf(chip);
  sim::SimDuration x = TransferNs(g_.page_bytes);
  sim::SimTime xs = std::max({ready, channel_free_[ch], chip_free_[chip]});
  channel_free_[ch] = xs + x;
  sim::SimTime done = xs + x + t_.program_ns;
  busy_ns_ += done - std::max(chip_free_[chip], xs);
  chip_free_[chip] = done;
  if (observer_) observer_->OnProgram(ppn, by_collector);
  return done;
}

sim::SimTime Nand::Copy(uint64_t from, uint64_t to, sim::SimTime ready) {
  assert(state_[from] == PageState::kValid);
  uint32_t to_block = BlockOf(to);
  uint32_t to_page = static_cast<uint32_t>(to % g_.pages_per_block);
  assert(state_[to] == PageState::kErased && to_page >= next_page_[to_block]);
  int from_chip = ChipOf(BlockOf(from));
  int to_chip = ChipOf(to_block);
  sim::SimTime done;
  if (from_chip == to_chip && t_.copy_back) {
    done = ReserveChip(from_chip, ready, t_.read_ns + t_.program_ns);  // copy-back
    ++read_;
    ++programmed_;
  } else {
    sim::SimTime have = Read(from, ready, nullptr, 0, 0);
    int ch = ChannelOf(to_chip);
    sim::SimDuration x = TransferNs(g_.page_bytes);
    sim::SimTime xs = std::max({have, channel_free_[ch], chip_free_[to_chip]});
    channel_free_[ch] = xs + x;
    done = xs + x + t_.program_ns;
    busy_ns_ += done - std::max(chip_free_[to_chip], xs);
    chip_free_[to_chip] = done;
    ++programmed_;
  }
  next_page_[to_block] = to_page + 1;
  state_[to] = PageState::kValid;
  ++valid_[to_block];
  heap_ -= images_[from].heap_bytes();
  PageImage moved = std::move(images_[from]);  // leaves the zero page behind
  Store(to, std::move(moved));
  Invalidate(from);
  if (observer_) observer_->OnCopy(from, to);
  return done;
}

sim::SimTime Nand::Erase(uint32_t block, sim::SimTime ready) {
  assert(block < g_.blocks);
  uint64_t first = Ppn(block, 0);
  for (uint32_t p = 0; p < g_.pages_per_block; ++p) {
    state_[first + p] = PageState::kErased;
    Store(first + p, PageImage());
  }
  valid_[block] = 0;
  next_page_[block] = 0;
  ++erases_[block];
  ++total_erases_;
  sim::SimTime done = ReserveChip(ChipOf(block), ready, t_.erase_ns);
  if (observer_) observer_->OnErase(block);
  return done;
}

void Nand::ResetTimelines() {
  std::fill(chip_free_.begin(), chip_free_.end(), 0);
  std::fill(chip_bg_until_.begin(), chip_bg_until_.end(), 0);
  std::fill(channel_free_.begin(), channel_free_.end(), 0);
  busy_ns_ = 0;
  programmed_ = 0;
  read_ = 0;
}

void Nand::Invalidate(uint64_t ppn) {
  if (state_[ppn] != PageState::kValid) return;
  state_[ppn] = PageState::kInvalid;
  --valid_[BlockOf(ppn)];
}

}  // namespace fawnlab::device
