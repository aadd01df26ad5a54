#include "cona/manifest.h"

#include <cstring>
#include <string>

#include "base/coding.h"
#include "cona/layout.h"
#include "fawnds/record.h"

namespace fawnlab::cona {

namespace {
constexpr char kMagic[8] = {'C', 'O', 'N', 'A', 'M', 'F', 'S', '1'};
}  // namespace

std::vector<uint8_t> EncodeManifest(const Manifest& m) {
  std::vector<uint8_t> b(kManifestBytes, 0);
  uint8_t* p = b.data() + 4;  // [0,4): zero; the CRC32C of [0, 4092) is the block's last 4 bytes
  std::memcpy(p, kMagic, 8); p += 8;
  PutLe64(p, m.seq); p += 8;
  PutLe32(p, m.key_bytes); p += 4;
  PutLe32(p, m.value_bytes); p += 4;
  PutLe64(p, m.buffer_entries); p += 8;
  PutLe64(p, m.next_id); p += 8;
  PutLe64(p, m.synced_seq); p += 8;
  PutLe32(p, static_cast<uint32_t>(m.image_slot + 1)); p += 4;
  for (const ManifestImagePart* part : {&m.frozen, &m.active}) {
    PutLe64(p, part->start); p += 8;
    PutLe64(p, part->count); p += 8;
    PutLe32(p, part->crc); p += 4;
  }
  PutLe32(p, static_cast<uint32_t>(m.cells.size())); p += 4;
  for (const auto& c : m.cells) {
    *p++ = c.level;
    *p++ = c.file_slot;
    PutLe64(p, c.id); p += 8;
    PutLe64(p, c.entries); p += 8;
    *p++ = c.block_size;
    *p++ = c.fragment_bits;
    PutLe32(p, c.crc); p += 4;
  }
  // At the end, so a torn write (the block's last unit lost) is always caught.
  PutLe32(b.data() + kManifestBytes - 4, fawnds::Crc32c(b.data(), kManifestBytes - 4));
  return b;
}

StatusOr<Manifest> DecodeManifest(const uint8_t* b, uint64_t n) {
  if (n < kManifestBytes) return Status::Corruption("CONA manifest: short read");
  const uint8_t* p = b + 4;
  if (std::memcmp(p, kMagic, 8) != 0) return Status::Corruption("CONA manifest: bad magic (no manifest written here)");
  if (GetLe32(b + kManifestBytes - 4) != fawnds::Crc32c(b, kManifestBytes - 4))
    return Status::Corruption("CONA manifest: CRC mismatch (torn or corrupt)");
  p += 8;
  Manifest m;
  m.seq = GetLe64(p); p += 8;
  m.key_bytes = GetLe32(p); p += 4;
  m.value_bytes = GetLe32(p); p += 4;
  m.buffer_entries = GetLe64(p); p += 8;
  m.next_id = GetLe64(p); p += 8;
  m.synced_seq = GetLe64(p); p += 8;
  m.image_slot = static_cast<int>(GetLe32(p)) - 1; p += 4;
  for (ManifestImagePart* part : {&m.frozen, &m.active}) {
    part->start = GetLe64(p); p += 8;
    part->count = GetLe64(p); p += 8;
    part->crc = GetLe32(p); p += 4;
  }
  const uint32_t cells = GetLe32(p); p += 4;
  if (cells > kManifestMaxCells) return Status::Corruption("CONA manifest: cell count " + std::to_string(cells) + " is too large");
  for (uint32_t i = 0; i < cells; ++i) {
    ManifestCell c;
    c.level = *p++;
    c.file_slot = *p++;
    c.id = GetLe64(p); p += 8;
    c.entries = GetLe64(p); p += 8;
    c.block_size = *p++;
    c.fragment_bits = *p++;
    c.crc = GetLe32(p); p += 4;
    m.cells.push_back(c);
  }
  return m;
}

}  // namespace fawnlab::cona
