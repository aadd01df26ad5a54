// See trie.h.
#include "cona/trie.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <queue>
#include <utility>

namespace fawnlab::cona {
namespace {

int KeyBit(const std::string& key, int d) {
  return (static_cast<uint8_t>(key[static_cast<size_t>(d >> 3)]) >> (7 - (d & 7))) & 1;
}

// A canonical Huffman code for the count of n keys that go left, L in [0, n], with P(L) =
// C(n, L) / 2^n (uniform keys: each bit is a fair coin). Probabilities are floored at 2^-24 so
// no code is longer than ~26 bits. They are computed with + * / and ldexp only (correctly
// rounded everywhere), so the tables, and every trie's bytes, are the same natively and in WASM.
// Nodes of more than kMaxHuffman keys (rare: a bucket far above its block size) write L in
// fixed width instead.
constexpr uint64_t kMaxHuffman = 1000;

int FixedWidth(uint64_t n) {
  int w = 1;
  while ((uint64_t{1} << w) <= n) ++w;
  return w;
}
struct Code {
  std::vector<uint32_t> code;   // by symbol
  std::vector<uint8_t> len;     // by symbol
  std::vector<uint32_t> sorted;  // symbols by (len, symbol)
  std::vector<uint32_t> first_code, first_index, count;  // by length
};

std::unique_ptr<Code> MakeCode(uint64_t n) {
  const size_t m = static_cast<size_t>(n) + 1;
  std::vector<double> p(m);
  double choose = 1;  // C(n, l), below 2^996 for n <= kMaxHuffman
  for (size_t l = 0; l < m; ++l) {
    p[l] = std::max(std::ldexp(choose, -static_cast<int>(n)), std::ldexp(1.0, -24));
    choose = choose * static_cast<double>(n - l) / static_cast<double>(l + 1);
  }
  // Huffman code lengths (ties broken by node index: deterministic everywhere).
  using Node = std::pair<double, uint32_t>;
  std::priority_queue<Node, std::vector<Node>, std::greater<Node>> q;
  std::vector<int32_t> parent(2 * m, -1);
  for (size_t i = 0; i < m; ++i) q.push({p[i], static_cast<uint32_t>(i)});
  uint32_t next = static_cast<uint32_t>(m);
  while (q.size() > 1) {
    Node a = q.top();
    q.pop();
    Node b = q.top();
    q.pop();
    parent[a.second] = static_cast<int32_t>(next);
    parent[b.second] = static_cast<int32_t>(next);
    q.push({a.first + b.first, next++});
  }
  auto c = std::make_unique<Code>();
  c->len.resize(m);
  for (size_t i = 0; i < m; ++i) {
    int d = 0;
    for (int32_t v = static_cast<int32_t>(i); parent[static_cast<size_t>(v)] >= 0; v = parent[static_cast<size_t>(v)]) ++d;
    c->len[i] = static_cast<uint8_t>(std::max(d, 1));
  }
  c->sorted.resize(m);
  for (size_t i = 0; i < m; ++i) c->sorted[i] = static_cast<uint32_t>(i);
  std::stable_sort(c->sorted.begin(), c->sorted.end(), [&](uint32_t a, uint32_t b) { return c->len[a] < c->len[b]; });
  const int maxlen = c->len[c->sorted.back()];
  c->first_code.assign(static_cast<size_t>(maxlen) + 2, 0);
  c->first_index.assign(static_cast<size_t>(maxlen) + 2, 0);
  c->count.assign(static_cast<size_t>(maxlen) + 2, 0);
  for (uint8_t l : c->len) c->count[l]++;
  c->code.resize(m);
  uint32_t code = 0, index = 0;
  for (int l = 1; l <= maxlen; ++l) {
    c->first_code[static_cast<size_t>(l)] = code;
    c->first_index[static_cast<size_t>(l)] = index;
    for (uint32_t k = 0; k < c->count[static_cast<size_t>(l)]; ++k) c->code[c->sorted[index + k]] = code + k;
    code = (code + c->count[static_cast<size_t>(l)]) << 1;
    index += c->count[static_cast<size_t>(l)];
  }
  return c;
}

const Code& CodeFor(uint64_t n) {
  static std::vector<std::unique_ptr<Code>> codes;
  if (codes.size() <= n) codes.resize(static_cast<size_t>(n) + 1);
  auto& c = codes[static_cast<size_t>(n)];
  if (!c) c = MakeCode(n);
  return *c;
}

}  // namespace

StatusOr<EntropyTrie> EntropyTrie::Build(const std::vector<std::string>& keys, int block_size) {
  if (block_size < 2 || block_size > 1024) {
    return Status::InvalidArgument("trie block_size " + std::to_string(block_size) + " is out of range [2, 1024]");
  }
  if (keys.size() > UINT32_MAX / 2) return Status::InvalidArgument("too many keys for one trie");
  EntropyTrie t;
  t.key_bytes_ = keys.empty() ? 4 : static_cast<int>(keys[0].size());
  if (t.key_bytes_ < 4 || t.key_bytes_ > 64) {
    return Status::InvalidArgument("trie keys must be 4-64 bytes, got " + std::to_string(t.key_bytes_));
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (static_cast<int>(keys[i].size()) != t.key_bytes_) {
      return Status::InvalidArgument("trie key " + std::to_string(i) + " is " + std::to_string(keys[i].size()) +
                                     " bytes, not " + std::to_string(t.key_bytes_));
    }
    if (i > 0 && !(keys[i - 1] < keys[i])) {
      return Status::InvalidArgument("trie keys must be sorted and distinct (key " + std::to_string(i) + ")");
    }
  }
  t.size_ = keys.size();
  // 2^k buckets with about block_size keys each (at least 1 bucket, at most 2^24).
  while (t.bucket_bits_ < 24 && (static_cast<uint64_t>(block_size) << (t.bucket_bits_ + 1)) <= t.size_) ++t.bucket_bits_;
  const size_t buckets = size_t{1} << t.bucket_bits_;
  t.bucket_offset_.resize(buckets);
  t.bucket_first_.resize(buckets + 1);
  size_t lo = 0;
  for (size_t b = 0; b < buckets; ++b) {
    size_t hi = lo;
    while (hi < keys.size()) {
      uint32_t top = 0;
      for (int d = 0; d < t.bucket_bits_; ++d) top = (top << 1) | static_cast<uint32_t>(KeyBit(keys[hi], d));
      if (top != b) break;
      ++hi;
    }
    if (t.nbits_ > UINT32_MAX) return Status::ResourceExhausted("trie bit stream over 2^32 bits");
    t.bucket_offset_[b] = static_cast<uint32_t>(t.nbits_);
    t.bucket_first_[b] = static_cast<uint32_t>(lo);
    t.Encode(keys, lo, hi, t.bucket_bits_);
    lo = hi;
  }
  t.bucket_first_[buckets] = static_cast<uint32_t>(lo);
  return t;
}

void EntropyTrie::Put(uint64_t code, int len) {
  for (int i = len - 1; i >= 0; --i) {
    if ((nbits_ >> 6) >= bits_.size()) bits_.push_back(0);
    bits_[nbits_ >> 6] |= ((code >> i) & 1) << (nbits_ & 63);
    ++nbits_;
  }
}

void EntropyTrie::Encode(const std::vector<std::string>& keys, size_t lo, size_t hi, int depth) {
  const uint64_t n = hi - lo;
  if (n <= 1 || depth >= key_bytes_ * 8) return;
  size_t split = lo;
  while (split < hi && KeyBit(keys[split], depth) == 0) ++split;
  if (n > kMaxHuffman) {
    Put(split - lo, FixedWidth(n));
  } else {
    const Code& c = CodeFor(n);
    Put(c.code[split - lo], c.len[split - lo]);
  }
  Encode(keys, lo, split, depth + 1);
  Encode(keys, split, hi, depth + 1);
}

uint64_t EntropyTrie::Decode(uint64_t* pos, uint64_t n) const {
  if (n > kMaxHuffman) {
    uint64_t v = 0;
    for (int i = 0; i < FixedWidth(n); ++i) v = (v << 1) | static_cast<uint64_t>(Bit((*pos)++));
    return v;
  }
  const Code& c = CodeFor(n);
  uint32_t code = 0;
  for (size_t l = 1; l < c.count.size(); ++l) {
    code = (code << 1) | static_cast<uint32_t>(Bit((*pos)++));
    if (code - c.first_code[l] < c.count[l]) return c.sorted[c.first_index[l] + code - c.first_code[l]];
  }
  return 0;  // unreachable for a stream this class wrote
}

void EntropyTrie::Skip(uint64_t* pos, uint64_t n, uint64_t* steps) const {
  // Iterative preorder skip of a subtree of n keys (its depth is not needed: keys are distinct,
  // so a subtree of n > 1 keys always has a node here).
  std::vector<uint64_t> stack{n};
  while (!stack.empty()) {
    const uint64_t m = stack.back();
    stack.pop_back();
    if (m <= 1) continue;
    const uint64_t left = Decode(pos, m);
    if (steps) ++*steps;
    stack.push_back(m - left);  // right after left: preorder
    stack.push_back(left);
  }
}

uint64_t EntropyTrie::Rank(const std::string& key, uint64_t* steps) const {
  if (size_ == 0 || static_cast<int>(key.size()) != key_bytes_) return 0;
  uint32_t b = 0;
  for (int d = 0; d < bucket_bits_; ++d) b = (b << 1) | static_cast<uint32_t>(KeyBit(key, d));
  uint64_t rank = bucket_first_[b];
  uint64_t n = bucket_first_[b + 1] - bucket_first_[b];
  uint64_t pos = bucket_offset_[b];
  for (int depth = bucket_bits_; n > 1 && depth < key_bytes_ * 8; ++depth) {
    const uint64_t left = Decode(&pos, n);
    if (steps) ++*steps;
    if (KeyBit(key, depth) == 0) {
      n = left;
    } else {
      Skip(&pos, left, steps);
      rank += left;
      n -= left;
    }
  }
  if (n == 0) return std::min<uint64_t>(rank, size_ - 1);  // an absent key in an empty branch
  return rank;
}

}  // namespace fawnlab::cona
