#include "silt/cuckoo.h"

#include <cassert>
#include <initializer_list>
#include <utility>

#include "base/coding.h"

namespace fawnlab::silt {

CuckooTable::CuckooTable(uint32_t buckets, bool with_offsets, int max_displacements, uint64_t seed)
    : buckets_(buckets), max_displacements_(max_displacements), rng_(seed) {
  assert(buckets >= 1 && (buckets & (buckets - 1)) == 0);
  tags_.assign(slots(), 0);
  if (with_offsets) offsets_.assign(slots(), 0);
}

CuckooTable::KeyHash CuckooTable::Hash(std::string_view key) const {
  assert(key.size() >= 8);
  const auto* p = reinterpret_cast<const uint8_t*>(key.data()) + key.size() - 8;
  KeyHash h;
  h.b1 = GetLe32(p) & (buckets_ - 1);
  h.tag = static_cast<uint16_t>(GetLe32(p + 4) & (kValid - 1));
  h.b2 = Alt(h.b1, h.tag);
  return h;
}

// d(tag) in [1, buckets): XOR with it is its own inverse, so either bucket gives the other.
uint32_t CuckooTable::Alt(uint32_t bucket, uint16_t tag) const {
  if (buckets_ == 1) return bucket;
  const uint32_t mix = (static_cast<uint32_t>(tag) + 1u) * 2654435761u;  // Knuth's multiplicative hash
  return bucket ^ (1u + (mix >> 7) % (buckets_ - 1));
}

int CuckooTable::FreeWay(uint32_t bucket) const {
  for (int w = 0; w < kWays; ++w)
    if (!(tags_[bucket * kWays + w] & kValid)) return w;
  return -1;
}

int CuckooTable::Candidates(const KeyHash& h, uint32_t out[2 * kWays]) const {
  int n = 0;
  const uint16_t want = static_cast<uint16_t>(kValid | h.tag);
  for (uint32_t b : {h.b1, h.b2}) {
    for (int w = 0; w < kWays; ++w)
      if (tags_[b * kWays + w] == want) out[n++] = b * kWays + w;
    if (h.b2 == h.b1) break;
  }
  return n;
}

CuckooTable::InsertResult CuckooTable::Insert(const KeyHash& h, uint32_t offset) {
  InsertResult r;
  const bool first_b2 = rng_.UniformU64(2) == 1;  // SILT: fn = rand() % NUMHASH
  uint32_t bucket = first_b2 ? h.b2 : h.b1;
  int way = FreeWay(bucket);
  if (way < 0) {
    bucket = first_b2 ? h.b1 : h.b2;
    way = FreeWay(bucket);
  }
  if (way >= 0) {
    r.ok = true;
    r.slot = bucket * kWays + static_cast<uint32_t>(way);
    tags_[r.slot] = static_cast<uint16_t>(kValid | h.tag);
    if (!offsets_.empty()) offsets_[r.slot] = offset;
    ++used_;
    return r;
  }
  // Both full: displace along a random path from `bucket` (the second one tried).
  struct Undo { uint32_t slot; uint16_t tag; uint32_t offset; };
  std::vector<Undo> path;
  path.reserve(static_cast<size_t>(max_displacements_));
  uint16_t cur_tag = h.tag;
  uint32_t cur_off = offset;
  uint32_t first_slot = 0;
  for (int n = 0; n < max_displacements_; ++n) {
    const uint32_t victim = bucket * kWays + static_cast<uint32_t>(rng_.UniformU64(kWays));
    path.push_back({victim, tags_[victim], offsets_.empty() ? 0 : offsets_[victim]});
    if (n == 0) first_slot = victim;
    const uint16_t vtag = tag(victim);
    const uint32_t voff = offsets_.empty() ? 0 : offsets_[victim];
    tags_[victim] = static_cast<uint16_t>(kValid | cur_tag);
    if (!offsets_.empty()) offsets_[victim] = cur_off;
    ++r.displacements;
    cur_tag = vtag;
    cur_off = voff;
    bucket = Alt(bucket, vtag);  // the victim's other bucket: from its tag, no flash read
    way = FreeWay(bucket);
    if (way >= 0) {
      const uint32_t s = bucket * kWays + static_cast<uint32_t>(way);
      tags_[s] = static_cast<uint16_t>(kValid | cur_tag);
      if (!offsets_.empty()) offsets_[s] = cur_off;
      ++used_;
      r.ok = true;
      // The new key went into the path's first victim slot (it may have moved on since, if the
      // path came back through it; then find it by its tag and offset).
      r.slot = first_slot;
      if (!offsets_.empty() && (offsets_[first_slot] != offset || tag(first_slot) != h.tag)) {
        for (uint32_t b : {h.b1, h.b2})
          for (int w = 0; w < kWays; ++w) {
            const uint32_t c = b * kWays + static_cast<uint32_t>(w);
            if (valid(c) && tag(c) == h.tag && offsets_[c] == offset) r.slot = c;
          }
      }
      return r;
    }
  }
  // No room within the bound: undo, newest change first (SILT undoes its cuckoo path too).
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    tags_[it->slot] = it->tag;
    if (!offsets_.empty()) offsets_[it->slot] = it->offset;
  }
  return r;
}

CuckooTable CuckooTable::TagsOnly() && {
  CuckooTable t = std::move(*this);
  t.offsets_.clear();
  t.offsets_.shrink_to_fit();
  return t;
}

}  // namespace fawnlab::silt
