// Minimum and greedy set covers of a multiget's keys, and the placements they are run on.
#include "vecio/setcover.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>

namespace fawnlab::vecio {
namespace {

// Bits set, branch-free (SWAR): a few arithmetic steps natively without -mpopcnt, where a
// loop over the bits was 81% of vector.scale; LLVM recognises the idiom as WASM's i32.popcnt.
int Popcount(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
}

int LowestBit(uint32_t x) {
  int i = 0;
  while (!(x & 1u)) {
    x >>= 1;
    ++i;
  }
  return i;
}

// The servers as key masks, in ascending server id, plus each key's list of server indices.
struct Masks {
  std::vector<uint32_t> server;              // mask of keys each (touched) server holds
  std::vector<std::vector<int>> key_servers; // indices into `server`
  std::vector<uint32_t> neighbours;          // keys sharing a server with each key (itself included)
  uint32_t all = 0;
};

Masks BuildMasks(const Placement& p) {
  assert(!p.empty() && p.size() <= static_cast<size_t>(kMaxCoverKeys));
  std::map<int, uint32_t> by_id;
  for (size_t k = 0; k < p.size(); ++k) {
    assert(!p[k].empty());
    for (int s : p[k]) by_id[s] |= 1u << k;
  }
  Masks m;
  std::map<int, int> index;
  for (const auto& [id, mask] : by_id) {
    index[id] = static_cast<int>(m.server.size());
    m.server.push_back(mask);
  }
  m.key_servers.resize(p.size());
  for (size_t k = 0; k < p.size(); ++k) {
    for (int s : p[k]) m.key_servers[k].push_back(index[s]);
  }
  m.neighbours.assign(p.size(), 0);
  for (size_t k = 0; k < p.size(); ++k) {
    for (int s : m.key_servers[k]) m.neighbours[k] |= m.server[static_cast<size_t>(s)];
  }
  m.all = p.size() == 32 ? ~0u : ((1u << p.size()) - 1);
  return m;
}

int Greedy(const Masks& m, uint32_t uncovered) {
  int n = 0;
  while (uncovered) {
    int best = -1, best_gain = 0;
    for (size_t s = 0; s < m.server.size(); ++s) {
      int gain = Popcount(m.server[s] & uncovered);
      if (gain > best_gain) {
        best_gain = gain;
        best = static_cast<int>(s);
      }
    }
    uncovered &= ~m.server[static_cast<size_t>(best)];
    ++n;
  }
  return n;
}

// A lower bound on the servers still needed: keys no two of which share a server each need
// their own (a greedy packing), and no server covers more than the best one does now.
int LowerBound(const Masks& m, uint32_t uncovered) {
  int max_gain = 0;
  for (uint32_t mask : m.server) max_gain = std::max(max_gain, Popcount(mask & uncovered));
  const int by_size = (Popcount(uncovered) + max_gain - 1) / max_gain;
  int packed = 0;
  for (uint32_t avail = uncovered; avail; ++packed) avail &= ~m.neighbours[static_cast<size_t>(LowestBit(avail))];
  return std::max(by_size, packed);
}

// Depth-first: cover the uncovered key held by the fewest servers by each of them in turn.
void Search(const Masks& m, uint32_t uncovered, int depth, int* best) {
  if (!uncovered) {
    *best = std::min(*best, depth);
    return;
  }
  if (depth + LowerBound(m, uncovered) >= *best) return;
  int key = -1;
  for (uint32_t left = uncovered; left; left &= left - 1) {
    const int k = LowestBit(left);
    if (key < 0 || m.key_servers[static_cast<size_t>(k)].size() < m.key_servers[static_cast<size_t>(key)].size()) key = k;
  }
  std::vector<int> order = m.key_servers[static_cast<size_t>(key)];
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    int ga = Popcount(m.server[static_cast<size_t>(a)] & uncovered);
    int gb = Popcount(m.server[static_cast<size_t>(b)] & uncovered);
    return ga != gb ? ga > gb : a < b;
  });
  for (int s : order) {
    Search(m, uncovered & ~m.server[static_cast<size_t>(s)], depth + 1, best);
    if (depth + 1 >= *best) return;
  }
}

}  // namespace

int GreedyCover(const Placement& placement) {
  Masks m = BuildMasks(placement);
  return Greedy(m, m.all);
}

// Keys that share no server with the rest are covered independently: the minimum is the sum
// over connected components (which keeps sparse placements, most keys alone, cheap).
int ExactMinCover(const Placement& placement) {
  Masks m = BuildMasks(placement);
  int total = 0;
  for (uint32_t left = m.all; left;) {
    uint32_t comp = 1u << LowestBit(left), grown = 0;
    while (grown != comp) {
      grown = comp;
      for (uint32_t it = comp; it; it &= it - 1) comp |= m.neighbours[static_cast<size_t>(LowestBit(it))];
    }
    left &= ~comp;
    int best = Greedy(m, comp);
    Search(m, comp, 0, &best);
    total += best;
  }
  return total;
}

Placement RandomPlacement(int keys, int servers, int r, sim::Rng& rng) {
  assert(r >= 1 && r <= servers);
  Placement p(static_cast<size_t>(keys));
  for (auto& list : p) {
    while (static_cast<int>(list.size()) < r) {
      int s = static_cast<int>(rng.UniformU64(static_cast<uint64_t>(servers)));
      if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
    }
  }
  return p;
}

StatusOr<RingPlacer> RingPlacer::Create(int servers, int vids, int max_r) {
  StatusOr<fawnkv::Ring> ring = fawnkv::Ring::Create(1);
  if (!ring.ok()) return ring.status();
  for (int n = 0; n < servers; ++n) {
    auto added = ring.value().AddNode(static_cast<fawnkv::NodeId>(n), vids);
    if (!added.ok()) return added.status();
  }
  RingPlacer out;
  const int r = std::min(max_r, servers);
  for (const fawnkv::Vid& v : ring.value().vids()) {
    auto chain = ring.value().Chain(v.id, r);
    if (!chain.ok()) return chain.status();
    out.ids_.push_back(v.id);
    std::vector<int> nodes;
    for (const fawnkv::Vid& c : chain.value()) nodes.push_back(static_cast<int>(c.node));
    out.chains_.push_back(nodes);
  }
  return out;
}

Placement RingPlacer::Place(int keys, int r, sim::Rng& rng) const {
  Placement p(static_cast<size_t>(keys));
  for (auto& list : p) {
    fawnkv::Key k;
    for (size_t i = 0; i < k.bytes.size(); i += 4) {
      uint64_t v = rng.NextU64();
      for (size_t j = 0; j < 4; ++j) k.bytes[i + j] = static_cast<uint8_t>(v >> (8 * j));
    }
    // The key's owner is its successor VID (wrapping to the first).
    auto it = std::lower_bound(ids_.begin(), ids_.end(), k);
    size_t i = it == ids_.end() ? 0 : static_cast<size_t>(it - ids_.begin());
    const auto& chain = chains_[i];
    list.assign(chain.begin(), chain.begin() + std::min<size_t>(chain.size(), static_cast<size_t>(r)));
  }
  return p;
}

double Replication1Width(int keys, int servers) {
  const double n = servers;
  return keys / (n - n * std::pow(1.0 - 1.0 / n, keys));
}

}  // namespace fawnlab::vecio
