#include "silt/direct_reads.h"

#include <algorithm>
#include <cstring>

namespace fawnlab::silt {

DirectReads::DirectReads(uint64_t region_offset, uint64_t region_bytes)
    : base_(region_offset), written_at_((region_bytes + kTrackBytes - 1) / kTrackBytes, 0), cache_(kCacheSectors) {}

void DirectReads::Written(uint64_t off, uint64_t len) {
  if (len == 0) return;
  ++seq_;
  const uint64_t first = (off - base_) / kTrackBytes, last = (off - base_ + len - 1) / kTrackBytes;
  for (uint64_t p = first; p <= last && p < written_at_.size(); ++p) written_at_[p] = seq_;
  uint64_t s_off = 0, s_len = 0;
  Sectors(off, len, &s_off, &s_len);
  for (uint64_t s = s_off; s < s_off + s_len; s += kSector) {
    Sector& c = cache_[(s / kSector) % kCacheSectors];
    if (c.valid && c.offset == s) c.valid = false;
  }
}

void DirectReads::SyncDone(uint64_t mark) {
  for (uint64_t& w : written_at_)
    if (w != 0 && w <= mark) w = 0;
}

bool DirectReads::Clean(uint64_t off, uint64_t len) const {
  const uint64_t first = (off - base_) / kTrackBytes, last = (off - base_ + std::max<uint64_t>(len, 1) - 1) / kTrackBytes;
  for (uint64_t p = first; p <= last && p < written_at_.size(); ++p)
    if (written_at_[p] != 0) return false;
  return true;
}

void DirectReads::Sectors(uint64_t off, uint64_t len, uint64_t* s_off, uint64_t* s_len) {
  *s_off = off / kSector * kSector;
  *s_len = (off + len + kSector - 1) / kSector * kSector - *s_off;
}

bool DirectReads::Lookup(uint64_t off, uint64_t len, uint8_t* out) const {
  uint64_t s_off = 0, s_len = 0;
  Sectors(off, len, &s_off, &s_len);
  if (s_len > kSector * kCacheSectors) return false;
  for (uint64_t s = s_off; s < s_off + s_len; s += kSector) {
    const Sector& c = cache_[(s / kSector) % kCacheSectors];
    if (!c.valid || c.offset != s) return false;
  }
  for (uint64_t s = s_off; s < s_off + s_len; s += kSector) {
    const Sector& c = cache_[(s / kSector) % kCacheSectors];
    const uint64_t lo = std::max(s, off), hi = std::min(s + kSector, off + len);
    if (lo < hi) std::memcpy(out + (lo - off), c.data.data() + (lo - s), hi - lo);
  }
  return true;
}

void DirectReads::Fill(uint64_t s_off, uint64_t s_len, const uint8_t* data, uint64_t issued) {
  if (s_len > kSector * kCacheSectors) return;
  for (uint64_t s = s_off; s < s_off + s_len; s += kSector) {
    const uint64_t page = (s - base_) / kTrackBytes;
    if (page < written_at_.size() && written_at_[page] > issued) continue;
    Sector& c = cache_[(s / kSector) % kCacheSectors];
    c.valid = true;
    c.offset = s;
    std::memcpy(c.data.data(), data + (s - s_off), kSector);
  }
}

uint64_t DirectReads::dirty_pages() const {
  return static_cast<uint64_t>(std::count_if(written_at_.begin(), written_at_.end(), [](uint64_t w) { return w != 0; }));
}

}  // namespace fawnlab::silt
