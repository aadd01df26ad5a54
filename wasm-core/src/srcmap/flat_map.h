// FlatMap: a uint64_t-keyed hash map with open addressing (linear probing, power-of-two
// table, backward-shift deletion), for the per-extent maps the day driver touches on every
// request; several times faster than std::unordered_map there. Iteration order is the table's,
// a function of the inserted keys and their order only (deterministic). Key UINT64_MAX is
// reserved. Pointers returned are invalidated by the next insertion or erasure.
#ifndef FAWNLAB_SRCMAP_FLAT_MAP_H_
#define FAWNLAB_SRCMAP_FLAT_MAP_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fawnlab::srcmap {

template <typename V>
class FlatMap {
 public:
  static constexpr uint64_t kEmpty = UINT64_MAX;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  V* Find(uint64_t k) {
    if (size_ == 0) return nullptr;
    for (size_t i = Slot(k);; i = (i + 1) & mask_) {
      if (keys_[i] == k) return &vals_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  const V* Find(uint64_t k) const { return const_cast<FlatMap*>(this)->Find(k); }

  // The value of `k`, inserted as V{} when absent.
  V& operator[](uint64_t k) {
    assert(k != kEmpty);
    if ((size_ + 1) * 4 > keys_.size() * 3) Grow();
    size_t i = Slot(k);
    for (; keys_[i] != kEmpty; i = (i + 1) & mask_) {
      if (keys_[i] == k) return vals_[i];
    }
    keys_[i] = k;
    vals_[i] = V{};
    ++size_;
    return vals_[i];
  }

  bool Erase(uint64_t k) {
    if (size_ == 0) return false;
    size_t i = Slot(k);
    while (keys_[i] != k) {
      if (keys_[i] == kEmpty) return false;
      i = (i + 1) & mask_;
    }
    // Backward shift: move later entries of the run into the hole when their home allows.
    size_t j = i;
    while (true) {
      j = (j + 1) & mask_;
      if (keys_[j] == kEmpty) break;
      size_t home = Slot(keys_[j]);
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        keys_[i] = keys_[j];
        vals_[i] = std::move(vals_[j]);
        i = j;
      }
    }
    keys_[i] = kEmpty;
    --size_;
    return true;
  }

  // f(key, value&) for every entry.
  template <typename F>
  void ForEach(F f) {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != kEmpty) f(keys_[i], vals_[i]);
  }
  template <typename F>
  void ForEach(F f) const {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != kEmpty) f(keys_[i], vals_[i]);
  }

 private:
  size_t Slot(uint64_t k) const {
    uint64_t h = k * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h >> 20) & mask_;
  }
  void Grow() {
    std::vector<uint64_t> keys;
    std::vector<V> vals;
    keys.swap(keys_);
    vals.swap(vals_);
    size_t n = keys.empty() ? 16 : keys.size() * 2;
    keys_.assign(n, kEmpty);
    vals_.assign(n, V{});
    mask_ = n - 1;
    size_ = 0;
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] != kEmpty) (*this)[keys[i]] = std::move(vals[i]);
  }

  std::vector<uint64_t> keys_;
  std::vector<V> vals_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_FLAT_MAP_H_
