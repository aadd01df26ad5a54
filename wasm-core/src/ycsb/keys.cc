#include "ycsb/keys.h"

#include "sim/rng.h"

namespace fawnlab::ycsb {
namespace {

// SplitMix64's finalizer on n + golden ratio: a bijection of the 64-bit integers.
uint64_t Mix(uint64_t n) {
  uint64_t z = n + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Fills `bytes` bytes of *out: `first` big-endian, then SplitMix64 words seeded from it.
void Expand(uint64_t first, uint32_t bytes, std::string* out) {
  out->resize(bytes);
  uint64_t word = first, state = first;
  for (uint32_t i = 0; i < bytes; ++i) {
    if (i > 0 && i % 8 == 0) word = sim::SplitMix64(&state);
    (*out)[i] = static_cast<char>(static_cast<uint8_t>(word >> (56 - 8 * (i % 8))));
  }
}

}  // namespace

void KeyFor(uint64_t record, uint32_t key_bytes, std::string* out) { Expand(Mix(record), key_bytes, out); }

void ValueFor(uint64_t record, uint64_t version, uint32_t value_bytes, std::string* out) {
  Expand(Mix(Mix(record) ^ (version * 0xD1B54A32D192ED03ULL)), value_bytes, out);
}

void KeyForText(std::string_view text, uint32_t key_bytes, std::string* out) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (char c : text) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ULL;
  }
  Expand(Mix(h), key_bytes, out);
}

}  // namespace fawnlab::ycsb
