// The Vector I/O lab's block experiments (vector I/O thesis Ch. 6), in order: the gap, the
// issue path, the completions, the block-size tables.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeVectorGap();
Experiment MakeVectorIssuePath();
Experiment MakeVectorCompletions();
Experiment MakeVectorBlockSize();

void RegisterVectorBlockExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeVectorGap());
  out->push_back(MakeVectorIssuePath());
  out->push_back(MakeVectorCompletions());
  out->push_back(MakeVectorBlockSize());
}

}  // namespace fawnlab
