// HashIndex: FAWN-DS's in-DRAM hash index (SOSP'09 §3.3.1, Fig 3).
//
// 2^i buckets of exactly 6 bytes: a 15-bit key fragment, a valid bit and a 32-bit offset into
// the data log. INDEX = the key's i low-order bits, KEYFRAG = the next 15 bits. A key may sit
// in any bucket of its probe sequence hash[0..kProbes−1](INDEX) (the paper's "hash chain";
// it gives no NUM_HASHES): bucket_j = (INDEX + j·step) mod 2^i with an odd step derived from
// INDEX (double hashing, so the kProbes buckets are distinct when 2^i >= kProbes). Size an
// index at twice the keys it will hold (the released FAWN code's rule). Lookups check every probe — a
// cleared valid bit (a delete) does not end the chain. A fragment match is only a candidate:
// the store reads the record and compares the full key (1 in 32,768 matches is false).
#ifndef FAWNLAB_FAWNDS_HASH_INDEX_H_
#define FAWNLAB_FAWNDS_HASH_INDEX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fawnds/key.h"

namespace fawnlab::fawnds {

class HashIndex {
 public:
  static constexpr int kFragmentBits = 15;
  static constexpr int kProbes = 32;
  static constexpr int kBucketBytes = 6;
  static constexpr int kMinBits = 4, kMaxBits = 28;

  struct Bucket {
    bool valid = false;
    uint16_t fragment = 0;
    uint32_t offset = 0;
  };

  // REQUIRES: kMinBits <= index_bits <= kMaxBits.
  explicit HashIndex(int index_bits);

  int index_bits() const { return bits_; }
  uint64_t buckets() const { return uint64_t{1} << bits_; }
  size_t bytes() const { return raw_.size(); }  // = 6 × buckets, the DRAM the index takes
  uint64_t valid_buckets() const { return valid_; }

  uint32_t IndexOf(const Key& k) const { return k.LowBits(0, bits_); }
  uint16_t FragmentOf(const Key& k) const { return static_cast<uint16_t>(k.LowBits(bits_, kFragmentBits)); }
  // The bucket at chain position j of `index`: (index + j · ProbeStep(index)) mod 2^i.
  uint64_t Probe(uint32_t index, int j) const {
    return (uint64_t{index} + static_cast<uint64_t>(j) * ProbeStep(index)) & (buckets() - 1);
  }
  // The odd stride of `index`'s probe sequence (so its kProbes buckets are distinct).
  static uint64_t ProbeStep(uint32_t index) {
    uint32_t h = index * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    return (uint64_t{h} << 1) | 1;
  }

  Bucket Get(uint64_t bucket) const {
    const uint8_t* p = raw_.data() + bucket * kBucketBytes;
    const uint16_t head = static_cast<uint16_t>(p[0] | (p[1] << 8));
    Bucket b;
    b.valid = (head >> 15) != 0;
    b.fragment = head & 0x7fff;
    b.offset = uint32_t{p[2]} | (uint32_t{p[3]} << 8) | (uint32_t{p[4]} << 16) | (uint32_t{p[5]} << 24);
    return b;
  }
  // The bucket's first two bytes: valid bit (0x8000) | fragment, without decoding the offset.
  uint16_t Head(uint64_t bucket) const {
    const uint8_t* p = raw_.data() + bucket * kBucketBytes;
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
  }
  void Set(uint64_t bucket, Bucket b);

  // The raw 6-byte buckets (little-endian: u16 valid<<15 | fragment, u32 offset), for
  // checkpoints; Load replaces them. REQUIRES: raw.size() == bytes().
  const std::vector<uint8_t>& raw() const { return raw_; }
  void Load(const std::vector<uint8_t>& raw);
  void Clear();

 private:
  int bits_;
  std::vector<uint8_t> raw_;
  uint64_t valid_ = 0;
};

}  // namespace fawnlab::fawnds

#endif  // FAWNLAB_FAWNDS_HASH_INDEX_H_
