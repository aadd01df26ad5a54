#include "fawnds/key.h"

#include <cassert>
#include <cstring>

namespace fawnlab::fawnds {
namespace {

uint32_t Rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

}  // namespace

std::array<uint8_t, 20> Sha1(std::string_view data) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  const uint64_t bit_len = static_cast<uint64_t>(data.size()) * 8;
  std::string msg(data);
  msg.push_back(static_cast<char>(0x80));
  while (msg.size() % 64 != 56) msg.push_back('\0');
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bit_len >> (8 * i)) & 0xff));
  for (size_t chunk = 0; chunk < msg.size(); chunk += 64) {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i) {
      const auto* p = reinterpret_cast<const uint8_t*>(msg.data() + chunk + 4 * i);
      w[i] = (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
    }
    for (int i = 16; i < 80; ++i) w[i] = Rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
      uint32_t f, k;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5A827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ED9EBA1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8F1BBCDC;
      } else {
        f = b ^ c ^ d;
        k = 0xCA62C1D6;
      }
      uint32_t t = Rol(a, 5) + f + e + k + w[i];
      e = d;
      d = c;
      c = Rol(b, 30);
      b = a;
      a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
  }
  std::array<uint8_t, 20> out{};
  for (int i = 0; i < 5; ++i) {
    out[4 * i] = static_cast<uint8_t>(h[i] >> 24);
    out[4 * i + 1] = static_cast<uint8_t>(h[i] >> 16);
    out[4 * i + 2] = static_cast<uint8_t>(h[i] >> 8);
    out[4 * i + 3] = static_cast<uint8_t>(h[i]);
  }
  return out;
}

uint32_t Key::LowBits(int start, int count) const {
  assert(count >= 0 && count <= 32 && start >= 0 && start + count <= 160);
  uint64_t v = 0;
  int got = 0;
  // Byte 19 holds bits 0..7, byte 18 bits 8..15, ...
  int byte = 19 - start / 8;
  int shift = start % 8;
  while (got < count + shift && byte >= 0) {
    v |= uint64_t{bytes[static_cast<size_t>(byte)]} << got;
    got += 8;
    --byte;
  }
  v >>= shift;
  return static_cast<uint32_t>(count == 32 ? v & 0xffffffffu : v & ((uint64_t{1} << count) - 1));
}

std::string Key::Hex() const {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

bool Key::FromHex(std::string_view hex, Key* out) {
  if (hex.empty() || hex.size() > 40) return false;
  Key k;
  for (size_t i = 0; i < hex.size(); ++i) {
    char c = hex[hex.size() - 1 - i];
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0) return false;
    k.bytes[19 - i / 2] |= static_cast<uint8_t>(i % 2 == 0 ? v : v << 4);
  }
  *out = k;
  return true;
}

Key Key::Hash(std::string_view app_key) {
  Key k;
  k.bytes = Sha1(app_key);
  return k;
}

Key Key::FromU64(uint64_t v) {
  Key k;
  for (int i = 0; i < 8; ++i) k.bytes[19 - i] = static_cast<uint8_t>(v >> (8 * i));
  return k;
}

bool KeyRange::Contains(const Key& k) const {
  if (start == end) return true;
  if (start < end) return start < k && (k < end || k == end);
  return start < k || k < end || k == end;  // wraps past the top of the ring
}

}  // namespace fawnlab::fawnds
