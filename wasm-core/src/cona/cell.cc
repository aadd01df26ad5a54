#include "cona/cell.h"

namespace fawnlab::cona {

uint32_t CellIndex::Fragment(std::string_view key, int bits) {
  const size_t n = key.size();
  const uint32_t low16 = (static_cast<uint32_t>(static_cast<uint8_t>(key[n - 2])) << 8) |
                         static_cast<uint8_t>(key[n - 1]);
  return bits >= 16 ? low16 : (low16 & ((1u << bits) - 1));
}

StatusOr<CellIndex> CellIndex::Build(const std::vector<std::string>& keys, int block_size, int fragment_bits) {
  if (fragment_bits != 0 && fragment_bits != 8 && fragment_bits != 16)
    return Status::InvalidArgument("fragment bits = " + std::to_string(fragment_bits) + " must be 0, 8 or 16");
  CellIndex c;
  c.size_ = keys.size();
  c.block_size_ = block_size;
  c.fragment_bits_ = fragment_bits;
  if (!keys.empty()) {
    auto t = EntropyTrie::Build(keys, block_size);
    if (!t.ok()) return t.status();
    c.trie_.emplace(std::move(t).value());
  }
  if (fragment_bits == 16) {
    c.frag16_.reserve(keys.size());
    for (const auto& k : keys) c.frag16_.push_back(static_cast<uint16_t>(Fragment(k, 16)));
  } else if (fragment_bits == 8) {
    c.frag8_.reserve(keys.size());
    for (const auto& k : keys) c.frag8_.push_back(static_cast<uint8_t>(Fragment(k, 8)));
  }
  return c;
}

ProbeResult CellIndex::Probe(const std::string& key) const {
  ProbeResult r;
  r.rank = trie_->Rank(key, &r.trie_symbols);
  if (fragment_bits_ == 16) r.fragment = frag16_[r.rank] == Fragment(key, 16) ? 1 : 0;
  else if (fragment_bits_ == 8) r.fragment = frag8_[r.rank] == Fragment(key, 8) ? 1 : 0;
  return r;
}

}  // namespace fawnlab::cona
