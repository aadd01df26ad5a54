// The Stores lab's experiments (issue 17: CONA, SILT, the LSM, FAWN-DS and the B+tree on one
// device model): the YCSB head-to-head, DRAM per key, write amplification and energy per
// operation, listed in order.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeStoresYcsb();
Experiment MakeStoresMemory();
Experiment MakeStoresAmplification();
Experiment MakeStoresEnergy();

void RegisterStoresExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeStoresYcsb());
  out->push_back(MakeStoresMemory());
  out->push_back(MakeStoresAmplification());
  out->push_back(MakeStoresEnergy());
}

}  // namespace fawnlab
