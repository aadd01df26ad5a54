// RingState: the front-end's persisted ring membership (DIR/frontend/ring.json; docs/cluster.md,
// "Restarting the whole cluster"), so a stopped cluster can be started again on its data.
//
//   {"fawnlab": "ring", "version": 1, "replicas": R, "vids": V,
//    "nodes":  [{"id": i, "vids": ["<40 hex digits>", ...V]}, ...],
//    "chains": [{"range": ["<start hex>", "<end hex>"], "chain": [ids, head first], "epoch": e}, ...]}
//
// `nodes` are the ring's back-ends with their VID positions (index order); `chains` tile the
// ring (each range starts where the previous one ends, in ring order; one entry whose start
// equals its end is the whole ring) and name only members that hold every acknowledged write
// of their range. ParseRingState refuses anything else — bad JSON, another "fawnlab" tag or
// version, wrong types, ids out of range or repeated, a VID count other than V, bad hex,
// ranges that do not tile, a chain member that is not a node, repeated members, a chain longer
// than R, an epoch < 1 — with a message naming the problem. RingStateJson writes the format.
#ifndef FAWNLAB_FAWNKVHOST_RING_STATE_H_
#define FAWNLAB_FAWNKVHOST_RING_STATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "fawnkv/ring.h"

namespace fawnlab::fawnkvhost {

constexpr int kRingStateVersion = 1;

struct RingState {
  int replicas = 0, vids = 0;
  struct Node {
    int id = 0;
    std::vector<fawnkv::Key> vids;  // VID j at vids[j]
  };
  struct Chain {
    fawnkv::KeyRange range;
    std::vector<int> chain;  // head first
    uint64_t epoch = 1;
  };
  std::vector<Node> nodes;    // ascending ids
  std::vector<Chain> chains;  // ring order of range ends
};

std::string RingStateJson(const RingState& s);
StatusOr<RingState> ParseRingState(std::string_view json);

}  // namespace fawnlab::fawnkvhost

#endif  // FAWNLAB_FAWNKVHOST_RING_STATE_H_
