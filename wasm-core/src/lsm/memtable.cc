#include "lsm/memtable.h"

namespace fawnlab::lsm {

namespace {
constexpr uint64_t kArenaBlock = 4096;
constexpr int kMaxHeight = 12;
}  // namespace

MemTable::MemTable() {
  // The skiplist's head node: kMaxHeight pointers.
  Allocate(8 + 8 * kMaxHeight, true);
}

void MemTable::Allocate(uint64_t bytes, bool aligned) {
  const uint64_t slop = aligned ? (8 - (used_ & 7)) & 7 : 0;
  const uint64_t needed = bytes + slop;
  if (needed <= remaining_) {
    remaining_ -= needed;
    used_ += needed;
    return;
  }
  if (bytes > kArenaBlock / 4) {  // its own block; the current one stays
    memory_usage_ += bytes + 8;
    return;
  }
  memory_usage_ += kArenaBlock + 8;
  used_ = bytes;
  remaining_ = kArenaBlock - bytes;
}

int MemTable::RandomHeight() {
  int height = 1;
  while (height < kMaxHeight) {
    // LevelDB's Random::Next (Park-Miller, A = 16807, M = 2^31 - 1) and OneIn(4).
    const uint64_t product = uint64_t{seed_} * 16807;
    uint64_t s = (product >> 31) + (product & 2147483647u);
    if (s > 2147483647u) s -= 2147483647u;
    seed_ = static_cast<uint32_t>(s);
    if (seed_ % 4 != 0) break;
    ++height;
  }
  return height;
}

int MemTable::Add(uint64_t seq, ValueType type, std::string_view user_key, std::string_view value) {
  std::string ikey;
  AppendInternalKey(&ikey, user_key, seq, type);
  const uint64_t encoded = VarintLength(ikey.size()) + ikey.size() + VarintLength(value.size()) + value.size();
  Allocate(encoded, false);
  const int h = RandomHeight();
  Allocate(8 + 8 * static_cast<uint64_t>(h), true);
  if (h > max_height_) max_height_ = h;
  map_.emplace(std::move(ikey), std::string(value));
  return max_height_;
}

bool MemTable::Get(std::string_view user_key, std::string* value, bool* deleted) const {
  std::string lookup;
  AppendInternalKey(&lookup, user_key, kMaxSequence, kTypeValue);
  auto it = map_.lower_bound(lookup);
  if (it == map_.end() || UserKey(it->first) != user_key) return false;
  *deleted = TypeOf(it->first) == kTypeDeletion;
  if (!*deleted) *value = it->second;
  return true;
}

}  // namespace fawnlab::lsm
