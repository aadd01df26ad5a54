// An entropy-coded trie over one CONA cell's sorted keys (thesis §3.2 after SILT): key -> the
// rank of the key among the cell's keys, in a few bits per key and no pointers.
//
// Keys are fixed-length byte strings, uniformly distributed (hashes; SILT hashes its keys), sorted
// and distinct. They are split into 2^k buckets by their leading k bits, k chosen so that a
// bucket holds about `block_size` keys on average (the thesis's "trie block size", 4/16/64,
// Table 3.2). Each bucket stores an 8-byte header (its bit offset and its first rank, 4 bytes
// each) and the trie of its keys: at every node of n > 1 keys, the number that go left (next bit
// 0), Huffman-coded against the binomial distribution of that count, then the left subtree, then
// the right (preorder). Memory is what that really occupies; a lookup decodes its bucket's trie
// from the start, skipping every left subtree it passes, so bigger blocks cost less memory and
// take longer to search. The trie cannot tell a present key from an absent one: for an absent
// key it returns some rank in [0, size()) (the cell's fragment array filters those, §3.2).
#ifndef FAWNLAB_CONA_TRIE_H_
#define FAWNLAB_CONA_TRIE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace fawnlab::cona {

class EntropyTrie {
 public:
  // `keys` sorted, distinct, all `key_bytes` long (4-64); block_size in [2, 1024].
  static StatusOr<EntropyTrie> Build(const std::vector<std::string>& keys, int block_size);

  // The rank of `key` if it is one of the keys; some rank in [0, size()) otherwise.
  // `steps`, when given, receives the Huffman symbols decoded (the lookup's work).
  uint64_t Rank(const std::string& key, uint64_t* steps = nullptr) const;

  uint64_t size() const { return size_; }
  int bucket_bits() const { return bucket_bits_; }
  // Bytes the index occupies: the bit stream (rounded up to bytes) and 8 bytes per bucket.
  uint64_t bytes() const { return (nbits_ + 7) / 8 + 8 * bucket_offset_.size(); }
  double bytes_per_key() const { return size_ == 0 ? 0 : static_cast<double>(bytes()) / static_cast<double>(size_); }

 private:
  EntropyTrie() = default;
  void Encode(const std::vector<std::string>& keys, size_t lo, size_t hi, int depth);
  void Put(uint64_t code, int len);
  int Bit(uint64_t pos) const { return static_cast<int>((bits_[pos >> 6] >> (pos & 63)) & 1); }
  uint64_t Decode(uint64_t* pos, uint64_t n) const;
  void Skip(uint64_t* pos, uint64_t n, uint64_t* steps) const;

  int key_bytes_ = 0;
  int bucket_bits_ = 0;
  uint64_t size_ = 0;
  std::vector<uint32_t> bucket_offset_;  // bit offset of each bucket's trie
  std::vector<uint32_t> bucket_first_;   // rank of each bucket's first key; one extra at the end
  std::vector<uint64_t> bits_;           // the preorder Huffman stream
  uint64_t nbits_ = 0;
};

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_TRIE_H_
