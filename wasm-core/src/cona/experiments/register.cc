// The CONA lab's experiments (CONA thesis Ch. 3), one registrar per part: the index and the
// structure's microbenchmarks (Tables 3.2-3.3, Figs 3.4-3.12: trie memory and speed, buffer
// size, merges) and the YCSB macrobenchmarks (Figs 3.13-3.27). Each part lists its own
// experiments in its *_register.cc.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

void RegisterConaIndexExperiments(std::vector<Experiment>* out);
void RegisterConaYcsbExperiments(std::vector<Experiment>* out);

void RegisterConaExperiments(std::vector<Experiment>* out) {
  RegisterConaIndexExperiments(out);
  RegisterConaYcsbExperiments(out);
}

}  // namespace fawnlab
