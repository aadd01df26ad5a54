#include "fawnkv/ring.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace fawnlab::fawnkv {
namespace {

// Index of the successor VID of `key` in a sorted, non-empty `vids`: first id ≥ key, wrapping.
size_t SuccessorIndex(const std::vector<Vid>& vids, const Key& key) {
  auto it = std::lower_bound(vids.begin(), vids.end(), key,
                             [](const Vid& v, const Key& k) { return v.id < k; });
  return it == vids.end() ? 0 : static_cast<size_t>(it - vids.begin());
}

size_t Pred(size_t i, size_t n) { return i == 0 ? n - 1 : i - 1; }

KeyRange RangeAt(const std::vector<Vid>& vids, size_t i) {
  return KeyRange{vids[Pred(i, vids.size())].id, vids[i].id};
}

bool HasNode(const std::vector<Vid>& chain, NodeId node) {
  for (const Vid& v : chain) {
    if (v.node == node) return true;
  }
  return false;
}

bool HasVid(const std::vector<Vid>& chain, const Vid& vid) {
  return std::find(chain.begin(), chain.end(), vid) != chain.end();
}

// The chain whose head is vids[head]: the first VID of each distinct node clockwise, up to r.
std::vector<Vid> ChainAt(const std::vector<Vid>& vids, size_t head, int r) {
  std::vector<Vid> chain;
  const size_t n = vids.size();
  for (size_t step = 0; step < n && static_cast<int>(chain.size()) < r; ++step) {
    const Vid& v = vids[(head + step) % n];
    if (!HasNode(chain, v.node)) chain.push_back(v);
  }
  return chain;
}

int DistinctNodes(const std::vector<Vid>& vids) {
  std::vector<NodeId> ids;
  for (const Vid& v : vids) ids.push_back(v.node);
  std::sort(ids.begin(), ids.end());
  return static_cast<int>(std::unique(ids.begin(), ids.end()) - ids.begin());
}

// Every piece of the common refinement of the old and new partitions whose chain changed.
std::vector<RangeChange> Diff(const std::vector<Vid>& before, const std::vector<Vid>& after, int r) {
  std::vector<Key> bounds;
  for (const Vid& v : before) bounds.push_back(v.id);
  for (const Vid& v : after) bounds.push_back(v.id);
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  const int r_before = std::min(r, DistinctNodes(before));
  const int r_after = std::min(r, DistinctNodes(after));
  std::vector<RangeChange> out;
  for (size_t i = 0; i < bounds.size(); ++i) {
    RangeChange c;
    c.range = KeyRange{bounds[Pred(i, bounds.size())], bounds[i]};
    if (!before.empty()) c.old_chain = ChainAt(before, SuccessorIndex(before, bounds[i]), r_before);
    if (!after.empty()) c.new_chain = ChainAt(after, SuccessorIndex(after, bounds[i]), r_after);
    if (c.old_chain == c.new_chain) continue;
    for (const Vid& v : c.new_chain) {
      if (!HasVid(c.old_chain, v)) c.joined.push_back(v);
    }
    for (const Vid& v : c.old_chain) {
      if (!HasVid(c.new_chain, v)) c.left.push_back(v);
    }
    for (auto it = c.old_chain.rbegin(); it != c.old_chain.rend(); ++it) {
      if (HasNode(after, it->node)) {
        c.donor = *it;
        break;
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::string NodeName(NodeId id) { return "node " + std::to_string(id); }

}  // namespace

std::string Vid::Name() const { return std::to_string(node) + "/" + std::to_string(index); }

bool RangeChange::OwnerChanged() const {
  if (old_chain.empty() || new_chain.empty()) return old_chain.size() != new_chain.size();
  return old_chain.front() != new_chain.front();
}

StatusOr<Ring> Ring::Create(int replication) {
  if (replication < 1) {
    return Status::InvalidArgument("replication factor R = " + std::to_string(replication) +
                                   " must be at least 1");
  }
  return Ring(replication);
}

Status Ring::CheckR(int r) const {
  if (vids_.empty()) return Status::NotFound("the ring has no nodes");
  if (r < 1) return Status::InvalidArgument("R = " + std::to_string(r) + " must be at least 1");
  if (r > distinct_nodes()) {
    return Status::InvalidArgument("R = " + std::to_string(r) + " exceeds the " +
                                   std::to_string(distinct_nodes()) +
                                   " distinct physical nodes in the ring");
  }
  return Status::Ok();
}

StatusOr<size_t> Ring::Find(NodeId node, int index) const {
  auto it = nodes_.find(node);
  if (it == nodes_.end()) return Status::NotFound(NodeName(node) + " is not in the ring");
  if (index < 0 || index >= it->second) {
    return Status::NotFound(NodeName(node) + " has no VID " + std::to_string(index) + " (V = " +
                            std::to_string(it->second) + ")");
  }
  const Key id = Key::Hash(Vid{node, index, {}}.Name());
  const size_t i = SuccessorIndex(vids_, id);
  assert(vids_[i].node == node && vids_[i].index == index);
  return i;
}

StatusOr<std::vector<RangeChange>> Ring::AddNode(NodeId id, int v) {
  if (nodes_.count(id)) return Status::InvalidArgument(NodeName(id) + " is already in the ring");
  if (v < 1 || v > kMaxVids) {
    return Status::InvalidArgument("V = " + std::to_string(v) + " virtual IDs for " + NodeName(id) +
                                   " is out of range [1, " + std::to_string(kMaxVids) + "]");
  }
  std::vector<Key> at;
  for (int j = 0; j < v; ++j) at.push_back(Key::Hash(Vid{id, j, {}}.Name()));
  return AddNodeAt(id, at);
}

StatusOr<std::vector<RangeChange>> Ring::AddNodeAt(NodeId id, const std::vector<Key>& positions) {
  if (nodes_.count(id)) return Status::InvalidArgument(NodeName(id) + " is already in the ring");
  const int v = static_cast<int>(positions.size());
  if (v < 1 || v > kMaxVids) {
    return Status::InvalidArgument("V = " + std::to_string(v) + " virtual IDs for " + NodeName(id) +
                                   " is out of range [1, " + std::to_string(kMaxVids) + "]");
  }
  std::vector<Vid> after = vids_;
  for (int j = 0; j < v; ++j) after.push_back(Vid{id, j, positions[static_cast<size_t>(j)]});
  std::sort(after.begin(), after.end(), [](const Vid& a, const Vid& b) { return a.id < b.id; });
  for (size_t i = 1; i < after.size(); ++i) {
    if (after[i].id == after[i - 1].id) {  // a SHA-1 collision (never seen) or a repeated position
      return Status::InvalidArgument("VIDs " + after[i - 1].Name() + " and " + after[i].Name() +
                                     " hash to the same position " + after[i].id.Hex());
    }
  }
  std::vector<RangeChange> changes = Diff(vids_, after, replication_);
  vids_ = std::move(after);
  nodes_[id] = v;
  return changes;
}

StatusOr<std::vector<RangeChange>> Ring::RemoveNode(NodeId id) {
  if (!nodes_.count(id)) return Status::NotFound(NodeName(id) + " is not in the ring");
  std::vector<Vid> after;
  for (const Vid& v : vids_) {
    if (v.node != id) after.push_back(v);
  }
  std::vector<RangeChange> changes = Diff(vids_, after, replication_);
  vids_ = std::move(after);
  nodes_.erase(id);
  return changes;
}

StatusOr<Vid> Ring::Owner(const Key& key) const {
  if (vids_.empty()) return Status::NotFound("the ring has no nodes");
  return vids_[SuccessorIndex(vids_, key)];
}

StatusOr<std::vector<Vid>> Ring::Chain(const Key& key, int r) const {
  Status s = CheckR(r);
  if (!s.ok()) return s;
  return ChainAt(vids_, SuccessorIndex(vids_, key), r);
}

StatusOr<KeyRange> Ring::RangeOf(NodeId node, int index) const {
  StatusOr<size_t> i = Find(node, index);
  if (!i.ok()) return i.status();
  return RangeAt(vids_, i.value());
}

StatusOr<std::vector<KeyRange>> Ring::RangesOf(NodeId node) const {
  auto it = nodes_.find(node);
  if (it == nodes_.end()) return Status::NotFound(NodeName(node) + " is not in the ring");
  std::vector<KeyRange> out;
  for (int j = 0; j < it->second; ++j) out.push_back(RangeOf(node, j).value());
  return out;
}

StatusOr<std::vector<ChainSlot>> Ring::ChainsContaining(NodeId node, int index, int r) const {
  StatusOr<size_t> found = Find(node, index);
  if (!found.ok()) return found.status();
  Status s = CheckR(r);
  if (!s.ok()) return s;
  // Walking counter-clockwise from the VID, `seen` holds the distinct nodes of the VIDs from the
  // candidate head up to (not including) the VID. The VID is in the candidate's chain, at
  // position |seen|, while its own node is not in `seen` and |seen| < r.
  const size_t n = vids_.size();
  const size_t p = found.value();
  std::vector<ChainSlot> out;
  std::vector<Vid> seen;
  size_t w = p;
  for (size_t step = 0; step < n; ++step) {
    if (HasNode(seen, node) || static_cast<int>(seen.size()) >= r) break;
    ChainSlot slot;
    slot.range = RangeAt(vids_, w);
    slot.chain = ChainAt(vids_, w, r);
    slot.position = static_cast<int>(seen.size());
    assert(slot.chain[static_cast<size_t>(slot.position)] == vids_[p]);
    out.push_back(std::move(slot));
    w = Pred(w, n);
    if (!HasNode(seen, vids_[w].node)) seen.push_back(vids_[w]);
  }
  return out;
}

StatusOr<int> Ring::FrontEndOf(const Key& key, int f_count) {
  if (f_count < 1 || f_count > kMaxFrontEnds) {
    return Status::InvalidArgument("front-end count F = " + std::to_string(f_count) +
                                   " is out of range [1, " + std::to_string(kMaxFrontEnds) + "]");
  }
  // ⌊key·F / 2^160⌋: the carry out of the top byte when multiplying the 160-bit key by F.
  uint64_t carry = 0;
  for (int i = 19; i >= 0; --i) {
    carry = (uint64_t{key.bytes[static_cast<size_t>(i)]} * static_cast<uint64_t>(f_count) + carry) >> 8;
  }
  return static_cast<int>(carry);
}

StatusOr<KeyRange> Ring::WedgeOf(int front_end, int f_count) {
  StatusOr<int> check = FrontEndOf(Key{}, f_count);
  if (!check.ok()) return check.status();
  if (front_end < 0 || front_end >= f_count) {
    return Status::InvalidArgument("front-end " + std::to_string(front_end) + " is out of range [0, " +
                                   std::to_string(f_count) + ")");
  }
  // c_a − 1 = ⌊(a·2^160 − 1) / F⌋ for a ≥ 1: long division of the digits (a − 1, 0xff × 20).
  auto bound = [f_count](int a) {
    Key k;
    if (a == 0) {
      k.bytes.fill(0xff);  // c_0 − 1 = −1 ≡ 2^160 − 1
      return k;
    }
    uint64_t rem = static_cast<uint64_t>(a - 1);
    for (size_t i = 0; i < 20; ++i) {
      const uint64_t cur = rem * 256 + 0xff;
      k.bytes[i] = static_cast<uint8_t>(cur / static_cast<uint64_t>(f_count));
      rem = cur % static_cast<uint64_t>(f_count);
    }
    return k;
  };
  return KeyRange{bound(front_end), bound(front_end + 1)};
}

double Ring::Fraction(const KeyRange& range) {
  if (range.start == range.end) return 1.0;
  double width = 0;  // (end − start) mod 2^160, as a share of 2^160
  int borrow = 0;
  for (int i = 19; i >= 0; --i) {
    int d = range.end.bytes[static_cast<size_t>(i)] - range.start.bytes[static_cast<size_t>(i)] - borrow;
    borrow = d < 0 ? 1 : 0;
    if (d < 0) d += 256;
    width += std::ldexp(static_cast<double>(d), 8 * (19 - i) - 160);
  }
  return width;
}

std::vector<NodeId> Ring::nodes() const {
  std::vector<NodeId> out;
  for (const auto& [id, v] : nodes_) out.push_back(id);
  return out;
}

}  // namespace fawnlab::fawnkv
