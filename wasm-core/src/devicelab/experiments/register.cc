// The Devices lab's experiments: flash behind an FTL, NVM, disk.
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

Experiment MakeDevicesTable1();
Experiment MakeDevicesNvm();
Experiment MakeDevicesWritePattern();
Experiment MakeDevicesDiskSeek();
Experiment MakeDevicesFillGc();

void RegisterDevicesExperiments(std::vector<Experiment>* out) {
  out->push_back(MakeDevicesTable1());
  out->push_back(MakeDevicesNvm());
  out->push_back(MakeDevicesWritePattern());
  out->push_back(MakeDevicesDiskSeek());
  out->push_back(MakeDevicesFillGc());
}

}  // namespace fawnlab
