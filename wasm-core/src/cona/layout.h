// Layout: where everything of a CONA store lives in its one file, and how an entry is encoded.
// (docs/formats/cona.md is the reference.)
//
// Entry (fixed size, so a cell is addressed by rank: entry r of a cell at cell_offset + r·E):
//   key[key_bytes] | u8 kind (1 put, 2 delete) | u8 0 | u16 value length (LE) | value[value_bytes]
// E = key_bytes + 4 + value_bytes (224 B at the thesis's 20 B keys and 200 B values).
// File: [manifest slot 0: 4 KB][manifest slot 1: 4 KB][buffer image slot 0][image slot 1]
//       [level 1: 3 cell slots][level 2: 3 slots]...[level K: 3 slots], each region 4 KB aligned.
// A buffer holds cap = floor(B / E) entries; a level-i cell cap·2^(i-1). An image slot holds
// both buffers (2·cap entries).
#ifndef FAWNLAB_CONA_LAYOUT_H_
#define FAWNLAB_CONA_LAYOUT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace fawnlab::cona {

constexpr uint64_t kAlign = 4096;
constexpr uint64_t kManifestBytes = 4096;
constexpr uint8_t kKindPut = 1, kKindDelete = 2;

inline uint64_t AlignUp(uint64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

struct Layout {
  uint32_t key_bytes = 20, value_bytes = 200;
  uint32_t entry_bytes = 224;
  uint64_t buffer_entries = 0;  // cap
  uint64_t image_bytes = 0;     // one image slot
  int max_levels = 0;           // K: levels the region holds
  uint64_t region_offset = 0, region_bytes = 0;

  // cap, E and the fixed offsets for a region; K from region_bytes (0 = compute nothing).
  static StatusOr<Layout> Make(uint32_t buffer_bytes, uint32_t key_bytes, uint32_t value_bytes,
                               uint64_t region_offset, uint64_t region_bytes);
  uint64_t cell_capacity(int level) const { return buffer_entries << (level - 1); }
  uint64_t cell_bytes(int level) const { return AlignUp(cell_capacity(level) * entry_bytes); }
  uint64_t manifest_offset(int slot) const { return region_offset + slot * kManifestBytes; }
  uint64_t image_offset(int slot) const { return region_offset + 2 * kManifestBytes + slot * image_bytes; }
  uint64_t levels_base() const { return region_offset + 2 * kManifestBytes + 2 * image_bytes; }
  // Offset of level `level`'s file slot `slot` (0..2).
  uint64_t cell_offset(int level, int slot) const;
  // Bytes from the region's start through level `levels`.
  uint64_t bytes_for_levels(int levels) const;
  // Most entries (puts and deletes, duplicates counted) K levels can take without needing level K+1.
  uint64_t max_entries() const;
};

void EncodeEntry(const Layout& l, std::string_view key, uint8_t kind, std::string_view value, uint8_t* out);
// Decodes in place: key and value views into `p`. Corruption on a bad kind or length.
Status DecodeEntry(const Layout& l, const uint8_t* p, std::string_view* key, uint8_t* kind, std::string_view* value);

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_LAYOUT_H_
