// The Stores lab's store kinds and the one place that builds a store of a kind on a device
// region: cona, cona-1t, silt, lsm, fawnds, btree (in that order, the lab's order).
//
// StoreParams are the lab's knobs, the same for every kind (each kind reads the ones it has).
// FileBytesFor(kind, p, entries): the bytes of file (region) the kind needs for `entries`
// puts and deletes, duplicates included. MakeStore builds one in [region_offset,
// region_offset + region_bytes) of `dev` (its simulator is dev->sim()). Errors: an unknown
// kind (naming the known ones), a kind not built yet, bad parameters, a region too small.
#ifndef FAWNLAB_STORES_FACTORY_H_
#define FAWNLAB_STORES_FACTORY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "kv/kv_store.h"

namespace fawnlab::stores {

struct StoreInfo {
  std::string id, label;
  bool has_scan;
};
const std::vector<StoreInfo>& StoreKinds();  // cona, cona-1t, silt, lsm, fawnds, btree (in that order)
// The kind's entry, or InvalidArgument naming the known kinds.
StatusOr<StoreInfo> FindStoreKind(std::string_view kind);

struct StoreParams {
  uint32_t cona_buffer_kb = 64;  // CONA thesis §3.2.1
  int silt_block = 64;           // SILT as the CONA thesis configures it (§3.2.2)
  int bloom_bits = 10;           // the LSM's Bloom filter bits per key (LevelDB's common 10)
  double cpu_scale = 1.0;
  uint32_t key_bytes = 20, value_bytes = 200;
};

// 0 for an unknown kind or one not built yet.
uint64_t FileBytesFor(std::string_view kind, const StoreParams& p, uint64_t entries);
// The DRAM a store of `kind` will hold with `keys` live keys (the machine subtracts it from
// the page cache): exact where the structure is fixed (FAWN-DS's index, the B+tree's pool),
// an estimate where it grows (factory.cc says how); 0 for an unknown kind.
uint64_t DramEstimateFor(std::string_view kind, const StoreParams& p, uint64_t keys);
StatusOr<std::unique_ptr<kv::KvStore>> MakeStore(std::string_view kind, const StoreParams& p, device::Device* dev,
                                                 uint64_t region_offset, uint64_t region_bytes, int stream);

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_FACTORY_H_
