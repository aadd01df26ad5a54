#include "silt/layout.h"

#include <string>

namespace fawnlab::silt {

StatusOr<Layout> Layout::Make(uint32_t key_bytes, uint32_t value_bytes, uint32_t log_slots, int hash_regions,
                              uint64_t region_offset, uint64_t region_bytes) {
  if (key_bytes < 8 || key_bytes > 64)
    return Status::InvalidArgument("key_bytes = " + std::to_string(key_bytes) +
                                   " is out of range [8, 64] (SILT's tags and buckets come from the key's last 8 bytes)");
  const uint32_t buckets = log_slots / 4;
  if (log_slots < 8 || log_slots % 4 != 0 || (buckets & (buckets - 1)) != 0 || log_slots > (1u << 24))
    return Status::InvalidArgument("log_slots = " + std::to_string(log_slots) +
                                   " must be 4-way buckets times a power of two, in [8, 2^24]");
  if (hash_regions < 1 || hash_regions > 1024)
    return Status::InvalidArgument("max_hash_stores = " + std::to_string(hash_regions) + " is out of range [1, 1024]");
  auto e = cona::Layout::Make(2 * (key_bytes + 4 + value_bytes), key_bytes, value_bytes, 0, 0);
  if (!e.ok()) return e.status();
  Layout l;
  l.entry = e.value();
  l.log_slots = log_slots;
  l.log_entries = 2 * uint64_t{log_slots};
  l.hash_regions = hash_regions;
  l.region_offset = region_offset;
  l.region_bytes = region_bytes;
  if (region_bytes > 0) {
    const uint64_t fixed = l.fixed_bytes();
    const uint64_t e_bytes = l.entry.entry_bytes;
    if (region_bytes < fixed + 2 * cona::AlignUp(e_bytes))
      return Status::InvalidArgument("region of " + std::to_string(region_bytes) + " bytes is too small for SILT: its logs and " +
                                     std::to_string(hash_regions) + " HashStores take " + std::to_string(fixed) +
                                     " bytes, and the two SortedStore slots need more (SiltStore::FileBytes)");
    l.sorted_entries = (region_bytes - fixed) / 2 / cona::kAlign * cona::kAlign / e_bytes;
  }
  return l;
}

uint64_t Layout::fixed_bytes() const { return 2 * log_bytes() + static_cast<uint64_t>(hash_regions) * hash_bytes(); }

}  // namespace fawnlab::silt
