// HostConfig: the JSON configuration of one real-cluster process's FAWN-KV node (host_node.h).
//
//   {"role": "backend" | "frontend", "id": i, "dataDir": "...", "replicas": 3, "vids": 2,
//    "fileBytes": 16777216, "indexBits": 14, "heartbeatMs": 500, "missed": 3,
//    "cacheEntries": 0, "timeoutMs": 2000, "checkpointMs": 5000, "recoverMs": 10000}
//
// Every member but "role" has a default (below); "id" is the back-end's (0 … 2^20 − 1; the
// front-end is endpoint −1 and ignores it); "dataDir" is required for a back-end (its card is
// dataDir/card.img). Unknown members, wrong types, non-integers and values out of range are
// refused with a message naming the member and its range.
#ifndef FAWNLAB_FAWNKVHOST_HOST_CONFIG_H_
#define FAWNLAB_FAWNKVHOST_HOST_CONFIG_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace fawnlab::fawnkvhost {

struct HostConfig {
  bool frontend = false;
  int id = 0;
  std::string data_dir;
  int replicas = 3;
  int vids = 2;
  uint64_t file_bytes = 16u << 20;  // each FAWN-DS store's file
  int index_bits = 14;              // each store's hash index: 2^14 buckets
  int64_t heartbeat_ms = 500;       // as the simulation's default (docs/decisions.md)
  int missed = 3;
  uint64_t cache_entries = 0;
  int64_t timeout_ms = 2000;
  int64_t checkpoint_ms = 5000;     // back-end: checkpoint every store this often (0: never)
  int64_t recover_ms = 10000;       // front-end: how long a restored ring waits for its back-ends
};

StatusOr<HostConfig> ParseHostConfig(std::string_view json);

}  // namespace fawnlab::fawnkvhost

#endif  // FAWNLAB_FAWNKVHOST_HOST_CONFIG_H_
