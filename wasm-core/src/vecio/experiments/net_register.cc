// The Vector I/O lab's networked experiments (thesis Ch. 7 §7.4, SoCC'12 §5), in order.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeVectorMultiget();
Experiment MakeVectorMultiread();
Experiment MakeVectorCombined();
Experiment MakeVectorPeakWidth();
Experiment MakeVectorUnequal();

void RegisterVectorNetExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeVectorMultiget());
  out->push_back(MakeVectorMultiread());
  out->push_back(MakeVectorCombined());
  out->push_back(MakeVectorPeakWidth());
  out->push_back(MakeVectorUnequal());
}

}  // namespace fawnlab
