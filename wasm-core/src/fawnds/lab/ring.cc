#include "fawnds/lab/ring.h"

#include <cassert>
#include <cmath>
#include <vector>

namespace fawnlab::fawndslab {
namespace {

using fawnds::Key;
using fawnds::KeyRange;

// a - b mod 2^160.
Key Sub(const Key& a, const Key& b) {
  Key out;
  int borrow = 0;
  for (int i = 19; i >= 0; --i) {
    int d = static_cast<int>(a.bytes[i]) - static_cast<int>(b.bytes[i]) - borrow;
    borrow = d < 0 ? 1 : 0;
    out.bytes[i] = static_cast<uint8_t>(d + (borrow ? 256 : 0));
  }
  return out;
}

Key Add(const Key& a, const Key& b) {
  Key out;
  int carry = 0;
  for (int i = 19; i >= 0; --i) {
    int s = static_cast<int>(a.bytes[i]) + static_cast<int>(b.bytes[i]) + carry;
    carry = s >> 8;
    out.bytes[i] = static_cast<uint8_t>(s & 0xff);
  }
  return out;
}

// (width × f) >> 32 where width is the range's width (2^160 for the whole ring).
Key Scale(const Key& width, bool whole, uint32_t f) {
  // Multiply a 168-bit value (whole: 1 followed by 160 zero bits) by f, keep bits [32, 192).
  std::vector<uint64_t> limbs(21, 0);  // bytes, little-endian, of the 168-bit multiplicand
  for (int i = 0; i < 20; ++i) limbs[i] = width.bytes[19 - i];
  if (whole) limbs[20] = 1;
  std::vector<uint64_t> prod(26, 0);
  uint64_t carry = 0;
  for (int i = 0; i < 21; ++i) {
    uint64_t v = limbs[i] * f + carry;  // < 2^8 · 2^32 + 2^40
    prod[i] = v & 0xff;
    carry = v >> 8;
  }
  for (int i = 21; i < 26; ++i) {
    prod[i] = carry & 0xff;
    carry >>= 8;
  }
  Key out;
  for (int i = 0; i < 20; ++i) out.bytes[19 - i] = static_cast<uint8_t>(prod[i + 4]);  // >> 32
  return out;
}

}  // namespace

double RingFraction(const Key& k) {
  uint64_t top = 0;
  for (int i = 0; i < 8; ++i) top = (top << 8) | k.bytes[i];
  return static_cast<double>(top >> 11) / 9007199254740992.0;  // 2^53
}

Key RingAt(const KeyRange& r, double fraction) {
  assert(fraction >= 0 && fraction < 1);
  const bool whole = r.start == r.end;
  const uint32_t f = static_cast<uint32_t>(std::floor(fraction * 4294967296.0));
  return Add(r.start, Scale(Sub(r.end, r.start), whole, f));
}

std::vector<KeyRange> EvenRanges(int n) {
  std::vector<KeyRange> out;
  if (n <= 1) {
    out.push_back(KeyRange::All());
    return out;
  }
  std::vector<Key> points;
  for (int i = 0; i < n; ++i) points.push_back(RingAt(KeyRange::All(), static_cast<double>(i) / n));
  for (int i = 0; i < n; ++i) out.push_back(KeyRange{points[i], points[(i + 1) % n]});
  return out;
}

std::string RangeLabel(const KeyRange& r, int digits) {
  if (r.start == r.end) return "the whole ring";
  const std::string s = r.start.Hex().substr(0, static_cast<size_t>(digits));
  const std::string e = r.end.Hex().substr(0, static_cast<size_t>(digits));
  return "(" + s + "\u2026, " + e + "\u2026]";
}

}  // namespace fawnlab::fawndslab
