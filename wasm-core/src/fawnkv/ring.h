// Ring: FAWN-KV's consistent-hashing ring of virtual IDs (SOSP'09 §3.4.1, §3.4.3).
//
// Contract:
// - One 160-bit circular ID space for keys and VIDs (fawnds::Key; ranges (start, end], wrapping).
// - A physical node `id` joins as V virtual IDs; VID j sits at SHA-1("<id>/<j>") (fawnds::Key::Hash;
//   the paper: "hashed identifiers derived from the node's address", no derivation given).
// - A VID owns (predecessor VID, VID]; a key's owner is its successor VID (Owner).
// - The replication chain of a range is its owner (head) followed clockwise by the first VID of
//   each further *distinct* physical node until there are R nodes (mid(s), tail). VIDs of a node
//   already in the chain are skipped (docs/decisions.md: the paper says "the R−1 following
//   virtual IDs"; its figures never put two VIDs of one node in a chain, and two replicas on one
//   node would not survive that node's failure).
// - AddNode/RemoveNode return every piece of the ring whose chain changed (ownership = the head),
//   with the old and new chains and the donor a joining replica pre-copies from: the last
//   surviving member of the old chain (the current tail, §3.4.4), using the ring's replication
//   factor (capped at the number of distinct nodes while the ring is smaller than R).
// - Front-ends own F equal wedges of the ring, front-end 0 the first (FrontEndOf, WedgeOf).
// - Every list comes out in a deterministic order: ring order of range ends, ascending node ids.
// - Bad input (unknown node or VID, duplicate id, V outside [1, kMaxVids], R < 1, R greater than
//   the distinct nodes, F outside [1, kMaxFrontEnds], an empty ring) returns a Status naming it.
#ifndef FAWNLAB_FAWNKV_RING_H_
#define FAWNLAB_FAWNKV_RING_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "fawnds/key.h"

namespace fawnlab::fawnkv {

// The largest replication factor the lab offers (sessions and experiments; the paper uses 3).
constexpr int kMaxReplication = 5;

using NodeId = uint32_t;
using fawnds::Key;
using fawnds::KeyRange;

// One virtual ID: physical node, index j in [0, V), and its position on the ring.
struct Vid {
  NodeId node = 0;
  int index = 0;
  Key id;
  bool operator==(const Vid& o) const { return node == o.node && index == o.index; }
  bool operator!=(const Vid& o) const { return !(*this == o); }
  std::string Name() const;  // "7/2"
};

// A range and the chain replicating it, as seen from one member.
struct ChainSlot {
  KeyRange range;
  std::vector<Vid> chain;  // head first, tail last
  int position = 0;        // of the member asked about: 0 = head, chain.size() − 1 = tail
  bool IsHead() const { return position == 0; }
  bool IsTail() const { return position + 1 == static_cast<int>(chain.size()); }
};

// A piece of the ring whose chain differs before and after a membership change.
struct RangeChange {
  KeyRange range;
  std::vector<Vid> old_chain, new_chain;  // head first; empty when the ring was/is empty
  std::vector<Vid> joined;                // in new_chain, not in old_chain: must pre-copy
  std::vector<Vid> left;                  // in old_chain, not in new_chain: may free the range
  std::optional<Vid> donor;               // last old-chain member still in the ring (the tail)
  bool OwnerChanged() const;
};

class Ring {
 public:
  static constexpr int kMaxVids = 4096;        // per physical node
  static constexpr int kMaxFrontEnds = 1 << 20;

  // `replication` (R ≥ 1) is the factor AddNode/RemoveNode report chain changes for.
  static StatusOr<Ring> Create(int replication);

  StatusOr<std::vector<RangeChange>> AddNode(NodeId id, int v);
  // The same with the VIDs at explicit positions (VID j at positions[j]; an operator's even
  // spacing instead of hashing). Two VIDs at one position are refused.
  StatusOr<std::vector<RangeChange>> AddNodeAt(NodeId id, const std::vector<Key>& positions);
  StatusOr<std::vector<RangeChange>> RemoveNode(NodeId id);

  StatusOr<Vid> Owner(const Key& key) const;
  // The chain for `key`'s range: R VIDs on R distinct physical nodes, head first.
  StatusOr<std::vector<Vid>> Chain(const Key& key, int r) const;
  // The range VID (node, index) owns: (predecessor, VID].
  StatusOr<KeyRange> RangeOf(NodeId node, int index) const;
  // The ranges node owns, one per VID, in VID-index order.
  StatusOr<std::vector<KeyRange>> RangesOf(NodeId node) const;
  // Every chain (of length r) VID (node, index) sits in, its own range (head) first, then its
  // predecessors' ranges counter-clockwise. Exactly r slots when no chain skips a VID; with
  // skips a VID can sit in more or fewer (see docs/decisions.md).
  StatusOr<std::vector<ChainSlot>> ChainsContaining(NodeId node, int index, int r) const;

  // Front-end f of F owns the wedge (c_f − 1, c_{f+1} − 1] with c_f = ⌈f·2^160 / F⌉; i.e.
  // FrontEndOf(key) = ⌊key·F / 2^160⌋.
  static StatusOr<int> FrontEndOf(const Key& key, int f_count);
  static StatusOr<KeyRange> WedgeOf(int front_end, int f_count);
  // The share of the 160-bit ring in `range` (1.0 for the whole ring).
  static double Fraction(const KeyRange& range);

  const std::vector<Vid>& vids() const { return vids_; }  // ring order
  std::vector<NodeId> nodes() const;                      // ascending ids
  int distinct_nodes() const { return static_cast<int>(nodes_.size()); }
  int replication() const { return replication_; }

 private:
  explicit Ring(int replication) : replication_(replication) {}
  Status CheckR(int r) const;
  StatusOr<size_t> Find(NodeId node, int index) const;

  int replication_;
  std::vector<Vid> vids_;       // sorted by id
  std::map<NodeId, int> nodes_;  // node → V
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_RING_H_
