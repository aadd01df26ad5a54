// Width at scale (vector thesis §7.5, Fig 7.14): how many back-ends one client-side multiget
// of K keys must touch when every key lives on r servers out of N, and so how wide the vector
// each back-end sees is (K / servers touched).
//
// Contract:
// - A placement lists, for each of K <= 32 keys, the servers holding a replica (distinct ids).
//   A cover is a set of servers holding at least one replica of every key.
// - ExactMinCover returns the size of a minimum cover (bitmask branch and bound over the
//   lowest uncovered key, bounded by the greedy cover and by ⌈uncovered / best single cover⌉).
//   GreedyCover returns the classic greedy cover's size (largest new coverage first, ties to the
//   lowest server id), so GreedyCover >= ExactMinCover.
// - RandomPlacement draws K keys' replicas on r distinct uniformly random servers of N;
//   RingPlacement puts K uniformly random keys on a FAWN-KV ring (fawnkv::Ring chains).
// - Replication1Width is the closed form for r = 1: K / E[distinct servers] =
//   K / (N − N(1 − 1/N)^K) (thesis §7.5).
// Everything is deterministic given the Rng.
#ifndef FAWNLAB_VECIO_SETCOVER_H_
#define FAWNLAB_VECIO_SETCOVER_H_

#include <cstdint>
#include <vector>

#include "fawnkv/ring.h"
#include "sim/rng.h"

namespace fawnlab::vecio {

constexpr int kMaxCoverKeys = 32;

// placement[k] = the servers holding key k.
using Placement = std::vector<std::vector<int>>;

// REQUIRES: 1 <= placement.size() <= 32, every key has at least one server.
int ExactMinCover(const Placement& placement);
int GreedyCover(const Placement& placement);

// K keys, each on r distinct servers drawn uniformly from [0, servers). REQUIRES r <= servers.
Placement RandomPlacement(int keys, int servers, int r, sim::Rng& rng);

// A FAWN-KV ring of `servers` nodes with `vids` virtual IDs each, and each VID's chain of up to
// `max_r` distinct nodes precomputed, so keys can be placed quickly.
class RingPlacer {
 public:
  static StatusOr<RingPlacer> Create(int servers, int vids, int max_r);
  // K uniformly random 160-bit keys, each on the first min(r, servers) nodes of its chain.
  Placement Place(int keys, int r, sim::Rng& rng) const;

 private:
  std::vector<fawnkv::Key> ids_;           // VID positions, ring order
  std::vector<std::vector<int>> chains_;   // chain of the range each VID owns
};

double Replication1Width(int keys, int servers);

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_SETCOVER_H_
