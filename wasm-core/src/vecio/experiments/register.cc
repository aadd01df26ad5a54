// The Vector I/O lab's experiments (vector thesis Ch. 6-7, SoCC'12 paper), one registrar per
// part of the lab: the networked back-end (multiget × multiread, Figs 7.2, 7.8-7.13), the
// Linux block layer (Ch. 6), and the device, the local store and width at scale (Figs
// 7.3-7.7, 7.14). Each part lists its own experiments in its *_register.cc.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

void RegisterVectorNetExperiments(std::vector<Experiment>* out);
void RegisterVectorBlockExperiments(std::vector<Experiment>* out);
void RegisterVectorDeviceExperiments(std::vector<Experiment>* out);

void RegisterVectorExperiments(std::vector<Experiment>* out) {
  RegisterVectorBlockExperiments(out);
  RegisterVectorDeviceExperiments(out);
  RegisterVectorNetExperiments(out);
}

}  // namespace fawnlab
