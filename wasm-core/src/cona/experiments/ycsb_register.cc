// The CONA lab's YCSB macrobenchmarks (thesis §3.2.2), listed in order (see register.cc).
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeConaYcsb();
Experiment MakeConaTimeseries();

void RegisterConaYcsbExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeConaYcsb());
  out->push_back(MakeConaTimeseries());
}

}  // namespace fawnlab
