// Manifest: the small record that names a CONA store's durable state (docs/formats/cona.md):
// the visible cells (level, file slot, id, entries, index parameters, CRC of their bytes) and
// the synced buffer image's parts. Written at every induce, link, flip and sync into one of two
// 4 KB slots, alternating, with a sequence number and a CRC32C over the record; recovery takes
// the valid slot with the highest sequence number.
#ifndef FAWNLAB_CONA_MANIFEST_H_
#define FAWNLAB_CONA_MANIFEST_H_

#include <cstdint>
#include <vector>

#include "base/status.h"

namespace fawnlab::cona {

struct ManifestCell {
  uint8_t level = 0, file_slot = 0;
  uint64_t id = 0;        // creation order (newer is higher)
  uint64_t entries = 0;
  uint8_t block_size = 0, fragment_bits = 0;
  uint32_t crc = 0;       // CRC32C of the cell's entries bytes
};

struct ManifestImagePart {
  uint64_t start = 0, count = 0;  // entries within the image slot
  uint32_t crc = 0;
};

struct Manifest {
  uint64_t seq = 0;
  uint32_t key_bytes = 0, value_bytes = 0;
  uint64_t buffer_entries = 0;
  uint64_t next_id = 1;
  // The newest manifest a completed (or this) Sync made durable: recovery may fall back from
  // this manifest to the other slot's only if that one is at least this new.
  uint64_t synced_seq = 0;
  int image_slot = -1;            // -1: no synced buffer image
  ManifestImagePart frozen, active;
  std::vector<ManifestCell> cells;
};

constexpr uint32_t kManifestMaxCells = 120;

// Encodes into exactly 4096 bytes. REQUIRES: cells.size() <= kManifestMaxCells.
std::vector<uint8_t> EncodeManifest(const Manifest& m);
// Corruption naming the problem (magic, CRC, counts) when the bytes are not a manifest.
StatusOr<Manifest> DecodeManifest(const uint8_t* p, uint64_t n);

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_MANIFEST_H_
