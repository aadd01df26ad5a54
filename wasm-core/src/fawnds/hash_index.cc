#include "fawnds/hash_index.h"

#include <cassert>
#include <algorithm>

namespace fawnlab::fawnds {

HashIndex::HashIndex(int index_bits) : bits_(index_bits) {
  assert(index_bits >= kMinBits && index_bits <= kMaxBits);
  raw_.assign(static_cast<size_t>(kBucketBytes) << index_bits, 0);
}

uint64_t HashIndex::Probe(uint32_t index, int j) const {
  uint32_t h = index * 0x9E3779B1u;
  h ^= h >> 15;
  h *= 0x85EBCA77u;
  h ^= h >> 13;
  uint64_t step = (uint64_t{h} << 1) | 1;  // odd: the probes are distinct modulo 2^i
  return (uint64_t{index} + static_cast<uint64_t>(j) * step) & (buckets() - 1);
}

HashIndex::Bucket HashIndex::Get(uint64_t bucket) const {
  const uint8_t* p = raw_.data() + bucket * kBucketBytes;
  uint16_t head = static_cast<uint16_t>(p[0] | (p[1] << 8));
  Bucket b;
  b.valid = (head >> 15) != 0;
  b.fragment = head & 0x7fff;
  b.offset = uint32_t{p[2]} | (uint32_t{p[3]} << 8) | (uint32_t{p[4]} << 16) | (uint32_t{p[5]} << 24);
  return b;
}

void HashIndex::Set(uint64_t bucket, Bucket b) {
  bool was = Get(bucket).valid;
  uint8_t* p = raw_.data() + bucket * kBucketBytes;
  uint16_t head = static_cast<uint16_t>((b.valid ? 0x8000 : 0) | (b.fragment & 0x7fff));
  p[0] = static_cast<uint8_t>(head);
  p[1] = static_cast<uint8_t>(head >> 8);
  for (int i = 0; i < 4; ++i) p[2 + i] = static_cast<uint8_t>(b.offset >> (8 * i));
  valid_ += (b.valid ? 1 : 0) - (was ? 1 : 0);
}

void HashIndex::Load(const std::vector<uint8_t>& raw) {
  assert(raw.size() == raw_.size());
  raw_ = raw;
  valid_ = 0;
  for (uint64_t b = 0; b < buckets(); ++b) valid_ += Get(b).valid ? 1 : 0;
}

void HashIndex::Clear() {
  std::fill(raw_.begin(), raw_.end(), 0);
  valid_ = 0;
}

}  // namespace fawnlab::fawnds
