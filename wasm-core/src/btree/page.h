// The B+tree's pages: their in-memory form (Node, Meta) and their on-device encoding
// (docs/formats/btree.md). All integers are little-endian.
//
// Every page starts with a 32-byte header:
//    0 u32 crc32c of bytes [4, page_bytes)
//    4 u32 magic "BTP1" (tree pages) or "BTM1" (the meta page)
//    8 u8  type: 1 meta, 2 internal, 3 leaf
//    9 u8  level (0 = leaf; the root has level height − 1)
//   10 u16 count (entries; internal nodes: separator keys)
//   12 u32 the page's own number (a page read from the wrong place does not check out)
//   16 u32 leaves: right sibling page (0 = none); internal: child 0
//   20 u32 used bytes (header + entries)
//   24 u64 reserved, zero
// then the entries, packed in key order:
//   leaf      key[20] u16 value_length value[value_length]
//   internal  key[20] u32 child       (child i + 1 holds keys >= key i)
// The meta page (page 0) holds the tree's root, height, allocated pages and entry count.
//
// Decoding checks everything: the checksum, the magic, the type, the page number, the
// counts against the used bytes, and the key order. A page that fails is kCorruption with
// the page number and the problem; an all-zero page (never written) is named as such.
#ifndef FAWNLAB_BTREE_PAGE_H_
#define FAWNLAB_BTREE_PAGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "fawnds/key.h"

namespace fawnlab::btree {

using Key = fawnds::Key;

constexpr uint32_t kPageHeader = 32;
constexpr uint32_t kKeyBytes = 20;
constexpr uint32_t kLeafEntryOverhead = kKeyBytes + 2;  // key + u16 value length
constexpr uint32_t kInternalEntryBytes = kKeyBytes + 4;  // key + u32 child
constexpr uint32_t kMinPageBytes = 512;
constexpr uint32_t kMaxPageBytes = 65536;

enum class PageType : uint8_t { kMeta = 1, kInternal = 2, kLeaf = 3 };

// One tree page as the buffer pool holds it. `bytes` is its encoded size, kept current by
// the tree as entries change.
struct Node {
  PageType type = PageType::kLeaf;
  uint8_t level = 0;
  uint32_t page = 0;
  uint32_t next = 0;                // leaves: right sibling (0 = none)
  std::vector<Key> keys;            // sorted, distinct
  std::vector<std::string> values;  // leaves: one per key
  std::vector<uint32_t> children;   // internal: keys.size() + 1
  uint32_t bytes = kPageHeader;

  bool leaf() const { return type == PageType::kLeaf; }
  // Recomputes `bytes` from the entries.
  void Measure();
};

struct Meta {
  uint32_t page_bytes = 4096;
  uint32_t root = 1;
  uint32_t height = 1;       // levels, leaves included
  uint32_t pages = 2;        // pages allocated, the meta page included
  uint64_t entries = 0;
  uint64_t sync_seq = 0;     // +1 per sync
};

// The largest value a page of `page_bytes` accepts: a leaf entry is at most a third of the
// space after the header, so splitting an overflowing leaf always gives two that fit.
uint32_t MaxValueBytes(uint32_t page_bytes);
// Whether `page_bytes` is a valid page size: a power of two in [kMinPageBytes, kMaxPageBytes].
bool ValidPageBytes(uint32_t page_bytes);

// Encodes into `out` (page_bytes long). REQUIRES: node.bytes <= page_bytes.
void EncodeNode(const Node& node, uint32_t page_bytes, uint8_t* out);
void EncodeMeta(const Meta& meta, uint8_t* out);  // out is meta.page_bytes long
// Decodes page `page` from `in` (page_bytes long).
Status DecodeNode(const uint8_t* in, uint32_t page_bytes, uint32_t page, Node* out);
// Decodes the meta page; its page size is read from the page and must equal `page_bytes`
// when that is non-zero.
Status DecodeMeta(const uint8_t* in, uint32_t length, uint32_t page_bytes, Meta* out);

}  // namespace fawnlab::btree

#endif  // FAWNLAB_BTREE_PAGE_H_
