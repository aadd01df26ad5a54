#include "lsm/bloom.h"

#include "base/coding.h"

namespace fawnlab::lsm {

uint32_t LevelDbHash(const char* data, size_t n, uint32_t seed) {
  const uint32_t m = 0xc6a4a793;
  const uint32_t r = 24;
  const char* limit = data + n;
  uint32_t h = seed ^ static_cast<uint32_t>(n * m);
  while (data + 4 <= limit) {
    const uint32_t w = GetLe32(reinterpret_cast<const uint8_t*>(data));
    data += 4;
    h += w;
    h *= m;
    h ^= (h >> 16);
  }
  switch (limit - data) {
    case 3: h += static_cast<uint32_t>(static_cast<uint8_t>(data[2])) << 16; [[fallthrough]];
    case 2: h += static_cast<uint32_t>(static_cast<uint8_t>(data[1])) << 8; [[fallthrough]];
    case 1:
      h += static_cast<uint32_t>(static_cast<uint8_t>(data[0]));
      h *= m;
      h ^= (h >> r);
      break;
  }
  return h;
}

int BloomProbes(int bits_per_key) {
  // bits_per_key * 0.69 truncated, in integers (the same for every int bits_per_key).
  int k = bits_per_key * 69 / 100;
  if (k < 1) k = 1;
  if (k > 30) k = 30;
  return k;
}

void BloomCreate(const std::vector<std::string_view>& keys, int bits_per_key, std::string* dst) {
  const int k = BloomProbes(bits_per_key);
  size_t bits = keys.size() * static_cast<size_t>(bits_per_key);
  if (bits < 64) bits = 64;
  const size_t bytes = (bits + 7) / 8;
  bits = bytes * 8;
  const size_t init = dst->size();
  dst->resize(init + bytes, 0);
  dst->push_back(static_cast<char>(k));
  char* array = &(*dst)[init];
  for (std::string_view key : keys) {
    uint32_t h = BloomHash(key);
    const uint32_t delta = (h >> 17) | (h << 15);
    for (int j = 0; j < k; ++j) {
      const uint32_t bitpos = h % static_cast<uint32_t>(bits);
      array[bitpos / 8] = static_cast<char>(array[bitpos / 8] | (1 << (bitpos % 8)));
      h += delta;
    }
  }
}

bool BloomMayMatch(std::string_view key, std::string_view filter, int* probes) {
  if (probes) *probes = 0;
  const size_t len = filter.size();
  if (len < 2) return false;
  const char* array = filter.data();
  const size_t bits = (len - 1) * 8;
  const int k = static_cast<uint8_t>(array[len - 1]);
  if (k > 30) return true;  // reserved for new encodings: a match
  uint32_t h = BloomHash(key);
  const uint32_t delta = (h >> 17) | (h << 15);
  for (int j = 0; j < k; ++j) {
    const uint32_t bitpos = h % static_cast<uint32_t>(bits);
    if (probes) ++*probes;
    if ((array[bitpos / 8] & (1 << (bitpos % 8))) == 0) return false;
    h += delta;
  }
  return true;
}

}  // namespace fawnlab::lsm
