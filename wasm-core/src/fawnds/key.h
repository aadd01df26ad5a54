// Key: FAWN-DS's 160-bit key (SOSP'09 §3.3: keys are 160 bits; FAWN-KV uses one 160-bit ID
// space for keys and virtual IDs, §3.4.1).
//
// A key is 20 bytes read as one big-endian 160-bit integer, so "the i low-order bits" of the
// paper (S-Fig 3: INDEX = KEY & 0xffff) are the last bytes. Application keys (strings) become
// keys through SHA-1, the 160-bit hash the width suggests (the papers name none; the choice is
// in docs/decisions.md). Ranges on the ring are (start, end], wrapping past 2^160 − 1.
#ifndef FAWNLAB_FAWNDS_KEY_H_
#define FAWNLAB_FAWNDS_KEY_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace fawnlab::fawnds {

struct Key {
  std::array<uint8_t, 20> bytes{};

  // Bits [start, start + count) counted from the least significant bit. REQUIRES: count <= 32,
  // start + count <= 160.
  uint32_t LowBits(int start, int count) const;
  // 40 lower-case hex digits.
  std::string Hex() const;
  // Parses 40 hex digits (or fewer, left-padded with zeros). False on anything else.
  static bool FromHex(std::string_view hex, Key* out);
  // SHA-1 of an application key.
  static Key Hash(std::string_view app_key);
  // A key whose low 64 bits are `v` (tests and experiments that want dense keys).
  static Key FromU64(uint64_t v);

  bool operator==(const Key& o) const { return bytes == o.bytes; }
  bool operator!=(const Key& o) const { return bytes != o.bytes; }
  bool operator<(const Key& o) const { return bytes < o.bytes; }
};

// A key range (start, end] on the 160-bit ring; start == end means the whole ring.
struct KeyRange {
  Key start, end;
  bool Contains(const Key& k) const;
  static KeyRange All() { return KeyRange{}; }
};

// SHA-1 (FIPS 180-4) of `data`.
std::array<uint8_t, 20> Sha1(std::string_view data);

}  // namespace fawnlab::fawnds

#endif  // FAWNLAB_FAWNDS_KEY_H_
