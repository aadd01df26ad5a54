// Layout: where a SILT store's files live in its region of the device (docs/stores/silt.md).
// Entries are CONA's fixed-size entry (cona/layout.h: key | kind | 0 | u16 length | value), so a
// HashStore's entry is found at its slot index and a SortedStore's at its rank.
//   [log 0][log 1]                      two LogStore logs (the active and the frozen one), each
//                                       log_entries = 2 x log_slots entries (updates append too)
//   [hash 0]..[hash H-1]                the HashStore pool: each log_slots entries in slot order
//   [sorted 0][sorted 1]                the SortedStore and the next one a merge writes
// Every part is 4 KB aligned. The SortedStore slots take what the region has left (halved).
#ifndef FAWNLAB_SILT_LAYOUT_H_
#define FAWNLAB_SILT_LAYOUT_H_

#include <cstdint>

#include "base/status.h"
#include "cona/layout.h"

namespace fawnlab::silt {

struct Layout {
  cona::Layout entry;            // key_bytes, value_bytes, entry_bytes (E) of the entry format
  uint32_t log_slots = 0;        // cuckoo slots of a LogStore (and a HashStore)
  uint64_t log_entries = 0;      // a log's capacity in entries
  int hash_regions = 0;          // HashStores the pool holds
  uint64_t sorted_entries = 0;   // a SortedStore slot's capacity in entries
  uint64_t region_offset = 0, region_bytes = 0;

  // log_slots: buckets x 4, buckets a power of two. region_bytes 0: to the device's end is
  // resolved by the caller. Errors name the parameter.
  static StatusOr<Layout> Make(uint32_t key_bytes, uint32_t value_bytes, uint32_t log_slots, int hash_regions,
                               uint64_t region_offset, uint64_t region_bytes);
  // Bytes of the logs and the pool (everything but the SortedStore slots).
  uint64_t fixed_bytes() const;
  uint64_t log_bytes() const { return cona::AlignUp(log_entries * entry.entry_bytes); }
  uint64_t hash_bytes() const { return cona::AlignUp(uint64_t{log_slots} * entry.entry_bytes); }
  uint64_t sorted_bytes() const { return cona::AlignUp(sorted_entries * entry.entry_bytes); }
  uint64_t log_offset(int i) const { return region_offset + static_cast<uint64_t>(i) * log_bytes(); }
  uint64_t hash_offset(int i) const { return region_offset + 2 * log_bytes() + static_cast<uint64_t>(i) * hash_bytes(); }
  uint64_t sorted_offset(int i) const { return region_offset + fixed_bytes() + static_cast<uint64_t>(i) * sorted_bytes(); }
};

}  // namespace fawnlab::silt

#endif  // FAWNLAB_SILT_LAYOUT_H_
