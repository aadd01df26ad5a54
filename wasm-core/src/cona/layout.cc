#include "cona/layout.h"

#include <cstring>

#include "base/coding.h"

namespace fawnlab::cona {

StatusOr<Layout> Layout::Make(uint32_t buffer_bytes, uint32_t key_bytes, uint32_t value_bytes,
                              uint64_t region_offset, uint64_t region_bytes) {
  if (key_bytes < 4 || key_bytes > 64)
    return Status::InvalidArgument("key_bytes = " + std::to_string(key_bytes) + " is out of range [4, 64]");
  if (value_bytes > 65535)
    return Status::InvalidArgument("value_bytes = " + std::to_string(value_bytes) + " is out of range [0, 65535]");
  Layout l;
  l.key_bytes = key_bytes;
  l.value_bytes = value_bytes;
  l.entry_bytes = key_bytes + 4 + value_bytes;
  if (buffer_bytes < 2 * l.entry_bytes || buffer_bytes > (64u << 20))
    return Status::InvalidArgument("buffer_bytes = " + std::to_string(buffer_bytes) + " must hold at least 2 entries of " +
                                   std::to_string(l.entry_bytes) + " B and be at most 64 MB");
  l.buffer_entries = buffer_bytes / l.entry_bytes;
  l.image_bytes = AlignUp(2 * l.buffer_entries * l.entry_bytes);
  l.region_offset = region_offset;
  l.region_bytes = region_bytes;
  l.max_levels = 0;
  while (l.max_levels < 40 && l.bytes_for_levels(l.max_levels + 1) <= region_bytes) ++l.max_levels;
  return l;
}

uint64_t Layout::cell_offset(int level, int slot) const {
  uint64_t off = levels_base();
  for (int i = 1; i < level; ++i) off += 3 * cell_bytes(i);
  return off + static_cast<uint64_t>(slot) * cell_bytes(level);
}

uint64_t Layout::bytes_for_levels(int levels) const {
  uint64_t b = 2 * kManifestBytes + 2 * image_bytes;
  for (int i = 1; i <= levels; ++i) b += 3 * cell_bytes(i);
  return b;
}

uint64_t Layout::max_entries() const {
  // Level K needs merging into K+1 only once 2^K buffers' worth reached it, so fewer than
  // 2^K induced buffers never need it (docs/formats/cona.md).
  if (max_levels <= 0) return 0;
  return buffer_entries * (uint64_t{1} << max_levels) - 1;
}

void EncodeEntry(const Layout& l, std::string_view key, uint8_t kind, std::string_view value, uint8_t* out) {
  std::memcpy(out, key.data(), l.key_bytes);
  uint8_t* h = out + l.key_bytes;
  h[0] = kind;
  h[1] = 0;
  PutLe16(h + 2, static_cast<uint32_t>(value.size()));
  if (!value.empty()) std::memcpy(h + 4, value.data(), value.size());
  if (value.size() < l.value_bytes) std::memset(h + 4 + value.size(), 0, l.value_bytes - value.size());
}

Status DecodeEntry(const Layout& l, const uint8_t* p, std::string_view* key, uint8_t* kind, std::string_view* value) {
  const uint8_t* h = p + l.key_bytes;
  const uint32_t len = GetLe16(h + 2);
  if ((h[0] != kKindPut && h[0] != kKindDelete) || h[1] != 0 || len > l.value_bytes)
    return Status::Corruption("CONA entry header is not valid (kind " + std::to_string(h[0]) + ", length " +
                              std::to_string(len) + ")");
  *key = std::string_view(reinterpret_cast<const char*>(p), l.key_bytes);
  *kind = h[0];
  *value = std::string_view(reinterpret_cast<const char*>(h + 4), len);
  return Status::Ok();
}

}  // namespace fawnlab::cona
