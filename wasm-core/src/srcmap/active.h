// Active disk identification (thesis §3.6.2, Algorithm 1, Fig 3.6), run at the start of each
// consolidation interval:
//  I.   Active mdisk selection: the predicted aggregate load (Σ of each unit's predicted IOPS)
//       picks the fewest mdisks, taken in ascending P ("ordered by reverse of P_i": the
//       stay-active disks first), whose summed IOPS capacity exceeds it.
//  II.  Active replica identification (Algorithm 1): the inactive mdisks S in ascending P,
//       the active ones A in descending P; each unit of each D_i in S takes the first D_j in A
//       that hosts its replica and has spare bandwidth for its load. Spare bandwidth = capacity
//       − the load of D_j's own vdisk − the loads already sent to it (docs/decisions.md).
//       With sub-volumes a primary spins down only if all its units find a target.
//  III. Iterate: on failure, one more mdisk becomes active (the next in ascending P) and II
//       runs again; with every mdisk active it trivially succeeds.
#ifndef FAWNLAB_SRCMAP_ACTIVE_H_
#define FAWNLAB_SRCMAP_ACTIVE_H_

#include <vector>

namespace fawnlab::srcmap {

struct ActiveInput {
  std::vector<double> p;          // per mdisk: P of its vdisk (Eq. 3.2)
  std::vector<double> capacity;   // per mdisk: IOPS at the level (Table 3.3(a))
  std::vector<int> unit_vdisk;    // per unit: its vdisk (= its primary mdisk)
  std::vector<double> unit_load;  // per unit: predicted IOPS
  std::vector<std::vector<int>> unit_targets;  // per unit: mdisks holding its replica
};

struct ActiveResult {
  std::vector<bool> active;     // per mdisk
  std::vector<int> serve;       // per unit: the mdisk serving it (its primary when active)
  int selected = 0;             // mdisks step I chose
  int added = 0;                // mdisks step III added
};

ActiveResult IdentifyActive(const ActiveInput& in);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_ACTIVE_H_
