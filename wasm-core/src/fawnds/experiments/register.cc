// The FAWN-DS lab's experiments: the single-node store on the emulated flash card.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeFawndsBulkInsert();
Experiment MakeFawndsTable2();
Experiment MakeFawndsSemiRandom();
Experiment MakeFawndsMix();
Experiment MakeFawndsMaintenance();
Experiment MakeFawndsVsBtree();

void RegisterFawndsExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeFawndsTable2());
  out->push_back(MakeFawndsBulkInsert());
  out->push_back(MakeFawndsVsBtree());
  out->push_back(MakeFawndsSemiRandom());
  out->push_back(MakeFawndsMix());
  out->push_back(MakeFawndsMaintenance());
}

}  // namespace fawnlab
