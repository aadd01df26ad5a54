#include "fawnds/hash_index.h"

#include <cassert>
#include <algorithm>

namespace fawnlab::fawnds {

HashIndex::HashIndex(int index_bits) : bits_(index_bits) {
  assert(index_bits >= kMinBits && index_bits <= kMaxBits);
  raw_.assign(static_cast<size_t>(kBucketBytes) << index_bits, 0);
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
