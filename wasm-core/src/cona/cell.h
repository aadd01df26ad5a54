// CellIndex: one CONA cell's in-memory index (thesis §3.1.2, Fig 3.2): the entropy-coded trie
// over the cell's sorted keys (key -> rank) and the key-fragment array (the low-order
// `fragment_bits` bits of each key's last bytes, in rank order; 0 bits: none). Probe gives the
// rank the trie answers and whether the fragment there matches: a mismatch means the key is
// surely not in the cell (no flash read); a match means read entry `rank` to check.
#ifndef FAWNLAB_CONA_CELL_H_
#define FAWNLAB_CONA_CELL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "cona/trie.h"

namespace fawnlab::cona {

struct ProbeResult {
  uint64_t rank = 0;
  uint64_t trie_symbols = 0;
  int fragment = -1;  // -1 no fragment array, 0 mismatch, 1 match
};

class CellIndex {
 public:
  CellIndex() = default;
  // `keys` sorted and distinct; fragment_bits 0, 8 or 16.
  static StatusOr<CellIndex> Build(const std::vector<std::string>& keys, int block_size, int fragment_bits);
  // The low `bits` bits of the key (its last two bytes, big-endian).
  static uint32_t Fragment(std::string_view key, int bits);

  // REQUIRES: size() > 0.
  ProbeResult Probe(const std::string& key) const;
  uint64_t size() const { return size_; }
  int block_size() const { return block_size_; }
  int fragment_bits() const { return fragment_bits_; }
  uint64_t trie_bytes() const { return trie_ ? trie_->bytes() : 0; }
  uint64_t fragment_bytes() const { return fragment_bits_ == 16 ? frag16_.size() * 2 : frag8_.size(); }

 private:
  std::optional<EntropyTrie> trie_;
  std::vector<uint16_t> frag16_;
  std::vector<uint8_t> frag8_;
  uint64_t size_ = 0;
  int block_size_ = 0, fragment_bits_ = 0;
};

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_CELL_H_
