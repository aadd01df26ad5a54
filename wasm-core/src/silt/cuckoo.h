// CuckooTable: SILT's in-memory partial-key cuckoo hash table (Lim et al., SOSP'11 §3.1; the
// open-source SILT's HashTableCuckoo): two hash functions, 4-way buckets, each slot a 15-bit
// key tag and a valid bit (2 bytes) and, for a LogStore, a 4-byte log offset (6 bytes a slot).
// A HashStore keeps only the tags (2 bytes a slot): its entries sit on the device in slot order,
// so a slot's index is its offset.
//
// A key's two buckets and its tag come from the key's own bits (keys are uniform hashes, as
// SILT's): b1 from bytes [len-8, len-4), the tag from the low 15 bits of the last four bytes,
// b2 = b1 XOR d(tag) with d(tag) in [1, buckets) (docs/decisions.md "Stores: SILT tags"). The
// other bucket of a stored entry follows from its bucket and its tag alone, so displacing an
// entry needs no read of its key from flash (SILT's point in §3.1). Insert follows SILT: try a
// random one of the two buckets, then the other; while it is full, evict a random way's entry,
// put the newcomer there and move the victim to its other bucket, at most `max_displacements`
// times (SILT's MAX_CUCKOO_COUNT, 128); on failure every displacement is undone and the table
// is unchanged (the LogStore is then full). Deterministic given the seed and the call order.
#ifndef FAWNLAB_SILT_CUCKOO_H_
#define FAWNLAB_SILT_CUCKOO_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/rng.h"

namespace fawnlab::silt {

class CuckooTable {
 public:
  static constexpr int kWays = 4;        // SILT's ASSOCIATIVITY
  static constexpr int kTagBits = 15;    // SILT's KEYFRAGBITS
  static constexpr uint16_t kValid = 1u << kTagBits;

  struct KeyHash {
    uint32_t b1 = 0, b2 = 0;
    uint16_t tag = 0;
  };
  struct InsertResult {
    bool ok = false;
    uint32_t slot = 0;        // where the key went (valid when ok)
    int displacements = 0;    // entries moved (also on failure: the path tried, then undone)
  };

  CuckooTable() = default;
  // `buckets`: a power of two >= 1. with_offsets: a LogStore's table (6 B a slot), else tags only.
  CuckooTable(uint32_t buckets, bool with_offsets, int max_displacements, uint64_t seed);

  KeyHash Hash(std::string_view key) const;
  // Slots (bucket * kWays + way) holding the key's tag: b1's first, then b2's. Returns how many
  // were written to `out` (at most 2 * kWays).
  int Candidates(const KeyHash& h, uint32_t out[2 * kWays]) const;
  InsertResult Insert(const KeyHash& h, uint32_t offset);
  void SetOffset(uint32_t slot, uint32_t offset) { offsets_[slot] = offset; }

  bool valid(uint32_t slot) const { return (tags_[slot] & kValid) != 0; }
  uint16_t tag(uint32_t slot) const { return static_cast<uint16_t>(tags_[slot] & (kValid - 1)); }
  // A LogStore's log offset (in entries); a HashStore's entry is at its slot index.
  uint32_t offset(uint32_t slot) const { return offsets_.empty() ? slot : offsets_[slot]; }
  uint32_t buckets() const { return buckets_; }
  uint32_t slots() const { return buckets_ * kWays; }
  uint32_t used() const { return used_; }
  double occupancy() const { return slots() ? static_cast<double>(used_) / slots() : 0; }
  // What the table occupies in DRAM: 2 bytes a slot, 6 with offsets.
  uint64_t bytes() const { return uint64_t{tags_.size()} * 2 + uint64_t{offsets_.size()} * 4; }
  // The same tags without the offsets: the HashStore's table (the LogStore's is given up).
  CuckooTable TagsOnly() &&;

 private:
  uint32_t Alt(uint32_t bucket, uint16_t tag) const;
  int FreeWay(uint32_t bucket) const;

  uint32_t buckets_ = 0;
  int max_displacements_ = 0;
  uint32_t used_ = 0;
  std::vector<uint16_t> tags_;     // valid bit | 15-bit tag, per slot
  std::vector<uint32_t> offsets_;  // per slot (LogStore only)
  sim::Rng rng_{1};
};

}  // namespace fawnlab::silt

#endif  // FAWNLAB_SILT_CUCKOO_H_
