#include "fawnds/store_list.h"

#include <cstring>
#include <set>
#include <string>

#include "fawnds/record.h"

namespace fawnlab::fawnds {
namespace {

constexpr char kMagic[8] = {'F', 'A', 'W', 'N', 'D', 'L', '1', 0};

// Little-endian integers of `n` bytes.
void PutLe(uint8_t* p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint64_t GetLe(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

// CRC-32C of the header's first 44 bytes followed by the entries.
uint32_t ListCrc(const uint8_t* b, size_t count) {
  return Crc32c(b + StoreList::kHeaderBytes, count * StoreList::kEntryBytes, Crc32c(b, 44));
}

}  // namespace

std::vector<uint8_t> StoreList::Encode() const {
  const size_t used = kHeaderBytes + entries.size() * kEntryBytes;
  std::vector<uint8_t> b((used + 4095) / 4096 * 4096, 0);
  std::memcpy(b.data(), kMagic, 8);
  PutLe(&b[8], 1, 4);
  PutLe(&b[12], entries.size(), 4);
  PutLe(&b[16], seq, 8);
  PutLe(&b[24], file_bytes, 8);
  PutLe(&b[32], next_slot, 8);
  PutLe(&b[40], next_nonce, 4);
  for (size_t i = 0; i < entries.size(); ++i) {
    uint8_t* e = &b[kHeaderBytes + i * kEntryBytes];
    PutLe(e, entries[i].slot, 8);
    PutLe(e + 8, entries[i].nonce, 4);
    std::memcpy(e + 12, entries[i].range.start.bytes.data(), 20);
    std::memcpy(e + 32, entries[i].range.end.bytes.data(), 20);
  }
  PutLe(&b[44], ListCrc(b.data(), entries.size()), 4);
  return b;
}

StatusOr<StoreList> StoreList::Decode(const std::vector<uint8_t>& b) {
  auto bad = [](const std::string& why) { return Status::Corruption("FAWN-DS datastore list: " + why); };
  if (b.size() < kHeaderBytes || std::memcmp(b.data(), kMagic, 8) != 0) return bad("no list (bad magic)");
  if (GetLe(&b[8], 4) != 1) return bad("unknown version " + std::to_string(GetLe(&b[8], 4)));
  const uint64_t count = GetLe(&b[12], 4);
  if (count > kMaxStores || b.size() < kHeaderBytes + count * kEntryBytes) {
    return bad(std::to_string(count) + " entries do not fit the list's slot");
  }
  if (GetLe(&b[44], 4) != ListCrc(b.data(), count)) return bad("checksum mismatch (torn or damaged copy)");
  StoreList l;
  l.seq = GetLe(&b[16], 8);
  l.file_bytes = GetLe(&b[24], 8);
  l.next_slot = GetLe(&b[32], 8);
  l.next_nonce = static_cast<uint32_t>(GetLe(&b[40], 4));
  if (l.file_bytes == 0) return bad("file size 0");
  std::set<uint64_t> slots;
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* e = &b[kHeaderBytes + i * kEntryBytes];
    StoreListEntry s;
    s.slot = GetLe(e, 8);
    s.nonce = static_cast<uint32_t>(GetLe(e + 8, 4));
    std::memcpy(s.range.start.bytes.data(), e + 12, 20);
    std::memcpy(s.range.end.bytes.data(), e + 32, 20);
    if (s.slot >= l.next_slot || s.nonce >= l.next_nonce || !slots.insert(s.slot).second) {
      return bad("entry " + std::to_string(i) + " names slot " + std::to_string(s.slot) + " or nonce " +
                 std::to_string(s.nonce) + " outside the list's bounds or twice");
    }
    l.entries.push_back(s);
  }
  return l;
}

StatusOr<StoreList> StoreList::Read(device::Device* dev) {
  const uint64_t cap = dev->info().capacity_bytes;
  if (cap < 2 * kSlotBytes) return Status::InvalidArgument("FAWN-DS datastore list: the device is too small to hold one");
  StatusOr<StoreList> best = Status::Corruption("FAWN-DS datastore list: no valid copy at the end of the device");
  for (uint64_t copy = 0; copy < 2; ++copy) {
    std::vector<uint8_t> b(kSlotBytes);
    auto r = device::SubmitAndWait(
        dev, device::IoCommand::Single(device::IoEntry::Read(CopyOffset(cap, copy), kSlotBytes, b.data())));
    if (!r.ok()) return r.status();
    auto l = Decode(b);
    if (l.ok() && (!best.ok() || l.value().seq > best.value().seq)) best = std::move(l);
  }
  return best;
}

}  // namespace fawnlab::fawnds
