#include "cona/manifest.h"

#include <cstring>
#include <string>

#include "base/coding.h"
#include "cona/layout.h"
#include "fawnds/record.h"

namespace fawnlab::cona {

namespace {
constexpr char kMagic[8] = {'C', 'O', 'N', 'A', 'M', 'F', 'S', '1'};
constexpr size_t kHeader = 4 + 8 + 8 + 4 + 4 + 8 + 8 + 4 + 2 * 20 + 4;  // through the cell count
constexpr size_t kCellBytes = 1 + 1 + 8 + 8 + 1 + 1 + 4;
}  // namespace

std::vector<uint8_t> EncodeManifest(const Manifest& m) {
  std::vector<uint8_t> b(kManifestBytes, 0);
  uint8_t* p = b.data() + 4;  // [0,4): CRC32C of [4, end of cells)
  std::memcpy(p, kMagic, 8); p += 8;
  PutLe64(p, m.seq); p += 8;
  PutLe32(p, m.key_bytes); p += 4;
  PutLe32(p, m.value_bytes); p += 4;
  PutLe64(p, m.buffer_entries); p += 8;
  PutLe64(p, m.next_id); p += 8;
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
  const size_t end = static_cast<size_t>(p - b.data());
  PutLe32(b.data(), fawnds::Crc32c(b.data() + 4, end - 4));
  return b;
}

StatusOr<Manifest> DecodeManifest(const uint8_t* b, uint64_t n) {
  if (n < kManifestBytes) return Status::Corruption("CONA manifest: short read");
  const uint8_t* p = b + 4;
  if (std::memcmp(p, kMagic, 8) != 0) return Status::Corruption("CONA manifest: bad magic (no manifest written here)");
  p += 8;
  Manifest m;
  m.seq = GetLe64(p); p += 8;
  m.key_bytes = GetLe32(p); p += 4;
  m.value_bytes = GetLe32(p); p += 4;
  m.buffer_entries = GetLe64(p); p += 8;
  m.next_id = GetLe64(p); p += 8;
  m.image_slot = static_cast<int>(GetLe32(p)) - 1; p += 4;
  for (ManifestImagePart* part : {&m.frozen, &m.active}) {
    part->start = GetLe64(p); p += 8;
    part->count = GetLe64(p); p += 8;
    part->crc = GetLe32(p); p += 4;
  }
  const uint32_t cells = GetLe32(p); p += 4;
  if (cells > kManifestMaxCells) return Status::Corruption("CONA manifest: cell count " + std::to_string(cells) + " is too large");
  const size_t end = kHeader + cells * kCellBytes;
  if (GetLe32(b) != fawnds::Crc32c(b + 4, end - 4)) return Status::Corruption("CONA manifest: CRC mismatch (torn or corrupt)");
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
