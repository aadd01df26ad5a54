#include "btree/page.h"

#include <cassert>
#include <cstring>

#include "base/coding.h"
#include "fawnds/record.h"

namespace fawnlab::btree {
namespace {

constexpr uint32_t kNodeMagic = 0x31505442;  // "BTP1"
constexpr uint32_t kMetaMagic = 0x314d5442;  // "BTM1"
constexpr uint32_t kMetaBytes = 64;

Status Bad(uint32_t page, const std::string& what) {
  return Status::Corruption("btree: page " + std::to_string(page) + ": " + what);
}

bool AllZero(const uint8_t* p, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (p[i]) return false;
  }
  return true;
}

}  // namespace

void Node::Measure() {
  uint32_t b = kPageHeader;
  if (leaf()) {
    for (const auto& v : values) b += kLeafEntryOverhead + static_cast<uint32_t>(v.size());
  } else {
    b += kInternalEntryBytes * static_cast<uint32_t>(keys.size());
  }
  bytes = b;
}

uint32_t MaxValueBytes(uint32_t page_bytes) { return (page_bytes - kPageHeader) / 3 - kLeafEntryOverhead; }

bool ValidPageBytes(uint32_t page_bytes) {
  return page_bytes >= kMinPageBytes && page_bytes <= kMaxPageBytes && (page_bytes & (page_bytes - 1)) == 0;
}

void EncodeNode(const Node& node, uint32_t page_bytes, uint8_t* out) {
  assert(node.bytes <= page_bytes && node.type != PageType::kMeta);
  std::memset(out, 0, page_bytes);
  PutLe32(out + 4, kNodeMagic);
  out[8] = static_cast<uint8_t>(node.type);
  out[9] = node.level;
  PutLe16(out + 10, static_cast<uint32_t>(node.keys.size()));
  PutLe32(out + 12, node.page);
  PutLe32(out + 16, node.leaf() ? node.next : node.children[0]);
  uint8_t* p = out + kPageHeader;
  for (size_t i = 0; i < node.keys.size(); ++i) {
    std::memcpy(p, node.keys[i].bytes.data(), kKeyBytes);
    p += kKeyBytes;
    if (node.leaf()) {
      const std::string& v = node.values[i];
      PutLe16(p, static_cast<uint32_t>(v.size()));
      std::memcpy(p + 2, v.data(), v.size());
      p += 2 + v.size();
    } else {
      PutLe32(p, node.children[i + 1]);
      p += 4;
    }
  }
  const uint32_t used = static_cast<uint32_t>(p - out);
  assert(used == node.bytes);
  PutLe32(out + 20, used);
  PutLe32(out, fawnds::Crc32c(out + 4, page_bytes - 4));
}

Status DecodeNode(const uint8_t* in, uint32_t page_bytes, uint32_t page, Node* out) {
  if (AllZero(in, kPageHeader)) return Bad(page, "the page was never written (all zeros)");
  const uint32_t crc = fawnds::Crc32c(in + 4, page_bytes - 4);
  if (GetLe32(in) != crc) return Bad(page, "checksum mismatch");
  if (GetLe32(in + 4) != kNodeMagic) return Bad(page, "not a tree page (bad magic)");
  const uint8_t type = in[8];
  if (type != static_cast<uint8_t>(PageType::kInternal) && type != static_cast<uint8_t>(PageType::kLeaf)) {
    return Bad(page, "bad page type " + std::to_string(type));
  }
  if (GetLe32(in + 12) != page) {
    return Bad(page, "holds page " + std::to_string(GetLe32(in + 12)) + " (written to the wrong place)");
  }
  const uint32_t used = GetLe32(in + 20);
  if (used < kPageHeader || used > page_bytes) return Bad(page, "used bytes " + std::to_string(used) + " out of range");
  Node n;
  n.type = static_cast<PageType>(type);
  n.level = in[9];
  n.page = page;
  if (n.leaf() != (n.level == 0)) return Bad(page, "level " + std::to_string(n.level) + " does not match its type");
  const uint32_t count = GetLe16(in + 10);
  const uint32_t word = GetLe32(in + 16);
  if (n.leaf()) {
    n.next = word;
  } else {
    n.children.push_back(word);
  }
  const uint8_t* p = in + kPageHeader;
  const uint8_t* end = in + used;
  n.keys.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t need = n.leaf() ? kLeafEntryOverhead : kInternalEntryBytes;
    if (static_cast<uint32_t>(end - p) < need) return Bad(page, "entry " + std::to_string(i) + " is truncated");
    Key k;
    std::memcpy(k.bytes.data(), p, kKeyBytes);
    if (!n.keys.empty() && !(n.keys.back() < k)) return Bad(page, "keys out of order at entry " + std::to_string(i));
    n.keys.push_back(k);
    p += kKeyBytes;
    if (n.leaf()) {
      const uint32_t len = GetLe16(p);
      p += 2;
      if (static_cast<uint32_t>(end - p) < len) return Bad(page, "value of entry " + std::to_string(i) + " is truncated");
      n.values.emplace_back(reinterpret_cast<const char*>(p), len);
      p += len;
    } else {
      n.children.push_back(GetLe32(p));
      p += 4;
    }
  }
  if (p != end) return Bad(page, "used bytes do not match the entries");
  if (!n.leaf() && count == 0) return Bad(page, "an internal page without keys");
  n.bytes = used;
  *out = std::move(n);
  return Status::Ok();
}

void EncodeMeta(const Meta& m, uint8_t* out) {
  std::memset(out, 0, m.page_bytes);
  PutLe32(out + 4, kMetaMagic);
  out[8] = static_cast<uint8_t>(PageType::kMeta);
  PutLe32(out + 16, m.page_bytes);
  PutLe32(out + 20, m.root);
  PutLe32(out + 24, m.height);
  PutLe32(out + 28, m.pages);
  PutLe64(out + 32, m.entries);
  PutLe64(out + 40, m.sync_seq);
  PutLe32(out, fawnds::Crc32c(out + 4, kMetaBytes - 4));
}

Status DecodeMeta(const uint8_t* in, uint32_t length, uint32_t page_bytes, Meta* out) {
  if (length < kMetaBytes) return Bad(0, "meta page shorter than 64 bytes");
  if (AllZero(in, kMetaBytes)) return Bad(0, "no tree here: the meta page was never written");
  if (GetLe32(in) != fawnds::Crc32c(in + 4, kMetaBytes - 4)) return Bad(0, "meta page checksum mismatch");
  if (GetLe32(in + 4) != kMetaMagic || in[8] != static_cast<uint8_t>(PageType::kMeta)) {
    return Bad(0, "not a meta page (bad magic)");
  }
  Meta m;
  m.page_bytes = GetLe32(in + 16);
  m.root = GetLe32(in + 20);
  m.height = GetLe32(in + 24);
  m.pages = GetLe32(in + 28);
  m.entries = GetLe64(in + 32);
  m.sync_seq = GetLe64(in + 40);
  if (!ValidPageBytes(m.page_bytes)) return Bad(0, "page size " + std::to_string(m.page_bytes) + " is invalid");
  if (page_bytes != 0 && m.page_bytes != page_bytes) {
    return Status::InvalidArgument("btree: the tree on the device has " + std::to_string(m.page_bytes) +
                                   "-byte pages, not " + std::to_string(page_bytes));
  }
  if (m.height < 1 || m.height > 64 || m.root == 0 || m.root >= m.pages) return Bad(0, "meta page fields out of range");
  *out = m;
  return Status::Ok();
}

}  // namespace fawnlab::btree
