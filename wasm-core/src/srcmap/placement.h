// Replica placement (thesis §3.6.1, Fig 3.5): which mdisks' replica space holds a copy of which
// vdisk's (or sub-volume's) working set.
//
//  1. Initial vdisk ordering, Eq. 3.2:
//       P_i = w1·WS_min/WS_i + w2·PPR_min/PPR_i + w3·ρ_min/ρ_i + w4·m_min/m_i
//     (the text prints the last weight "w_f"). Misses enter add-one smoothed, (m_min+1)/(m_i+1),
//     so a volume with no misses is defined (docs/decisions.md, SRCMap: placement).
//  2. Bipartite graph: edge (unit u, mdisk j) for every j that is not u's primary, weight P of
//     u's vdisk. mdisk j's P is its vdisk's (mdisk i is vdisk i's primary).
//  3. Source-target mapping: targets in descending P (ties: lower index); each target once, its
//     replica space filled by the heaviest incident edges (ties: larger P, smaller working set,
//     lower index) whose replica (working set + scratch) still fits; a unit that does not fit is
//     skipped (greedy; the thesis does not say). No two sub-volumes of a vdisk on one target
//     (§3.6.3).
//  4. Re-calibration, Eq. 3.3: for each unit u just placed on target j, w(u, k) = P_j · P_u for
//     every k (overwriting: the formula as printed).
// Every step is recorded so a view can replay it.
#ifndef FAWNLAB_SRCMAP_PLACEMENT_H_
#define FAWNLAB_SRCMAP_PLACEMENT_H_

#include <cstdint>
#include <vector>

#include "base/status.h"

namespace fawnlab::srcmap {

struct PlacementWeights {  // Eq. 3.2's tunable weights (values: a choice, equal)
  double ws = 0.25, ppr = 0.25, rho = 0.25, miss = 0.25;
};

struct VdiskFacts {      // Eq. 3.2's inputs for one vdisk
  double ws_bytes = 0;   // WS_i: its working set
  double ppr = 1;        // PPR_i: its primary mdisk's peak IOPS / peak watts
  double rho = 0;        // ρ_i: long-term average IOPS
  double misses = 0;     // m_i: read misses against its working set, per spindle
};

struct PlacementUnit {   // a vdisk, or one of its N_SV sub-volumes
  int vdisk = 0;
  double ws_bytes = 0;   // this unit's working set
  double scratch_bytes = 0;
};

struct PlacementStep {   // one edge taken (or skipped for space) at one target
  int target, unit;
  double weight;
  bool placed;
};

struct Placement {
  std::vector<double> p;                       // Eq. 3.2 per vdisk
  std::vector<int> target_order;               // mdisks in the order their space was assigned
  std::vector<std::vector<int>> targets;       // per unit: the mdisks holding its replica, in placement order
  std::vector<std::vector<int>> hosted;        // per mdisk: the units it holds
  std::vector<double> used_bytes;              // per mdisk
  std::vector<PlacementStep> steps;
};

// Eq. 3.2 for every vdisk. Errors on empty input or non-positive PPR.
StatusOr<std::vector<double>> OrderingP(const std::vector<VdiskFacts>& v, const PlacementWeights& w);

// The placement. `replica_bytes[j]`: mdisk j's replica space. One mdisk per vdisk (same index).
StatusOr<Placement> PlaceReplicas(const std::vector<VdiskFacts>& vdisks, const std::vector<PlacementUnit>& units,
                                  const std::vector<double>& replica_bytes, const PlacementWeights& w);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_PLACEMENT_H_
