// StoreList: a node's durable datastore list — which file (slot) holds which key range's
// store. SOSP'09 §3.3.3 ends every split, merge and compact by "updating the FAWN-DS datastore
// list to point to the new log"; this is that list on the device, so a node can be reopened
// after a crash (Node::Recover) knowing which files are live.
//
// Two copies at the end of the device (the last 2 × kSlotBytes), written alternately (copy
// seq mod 2), each guarded by a CRC-32C; the valid copy with the highest sequence number is
// the list. A node writes it at creation and as the commit point of each maintenance
// operation (format: docs/formats/fawnds.md, "Datastore list").
#ifndef FAWNLAB_FAWNDS_STORE_LIST_H_
#define FAWNLAB_FAWNDS_STORE_LIST_H_

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "fawnds/key.h"

namespace fawnlab::fawnds {

struct StoreListEntry {
  uint64_t slot = 0;   // the file at device offset slot × file_bytes
  uint32_t nonce = 0;  // the store's nonce (checked against its superblock)
  KeyRange range;      // the range the node routes to it
};

struct StoreList {
  static constexpr uint64_t kSlotBytes = 64 * 1024;  // one copy; both take the device's last 128 KB
  static constexpr uint32_t kHeaderBytes = 48;
  static constexpr uint32_t kEntryBytes = 52;
  static constexpr size_t kMaxStores = (kSlotBytes - kHeaderBytes) / kEntryBytes;  // 1259

  uint64_t seq = 0;
  uint64_t file_bytes = 0;
  uint32_t next_nonce = 1;  // nonces below this may have been used
  uint64_t next_slot = 0;   // slots below this may hold files; the unlisted ones are free
  std::vector<StoreListEntry> entries;

  // Where copy `seq mod 2` lives on a device of `capacity` bytes.
  static uint64_t CopyOffset(uint64_t capacity, uint64_t seq) { return capacity - (2 - seq % 2) * kSlotBytes; }
  // The encoding, rounded up to 4 KB. REQUIRES: entries.size() <= kMaxStores.
  std::vector<uint8_t> Encode() const;
  // Decodes one copy; kCorruption (naming the problem) if it is not a valid list.
  static StatusOr<StoreList> Decode(const std::vector<uint8_t>& bytes);
  // Reads both copies (device time passes: SubmitAndWait) and returns the newest valid one.
  static StatusOr<StoreList> Read(device::Device* dev);
};

}  // namespace fawnlab::fawnds

#endif  // FAWNLAB_FAWNDS_STORE_LIST_H_
