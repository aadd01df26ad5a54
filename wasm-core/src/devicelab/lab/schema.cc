// The Devices lab's sessions in the registry (registry/sessions.h): the flash view and the
// disk view, each with its schema and factory. The page picks one by its config's "view".
#include "devicelab/lab/disk_session.h"
#include "devicelab/lab/flash_session.h"
#include "registry/sessions.h"

namespace fawnlab {

void RegisterDevicesSessions(std::vector<SessionInfo>* out) {
  using devices::DiskSession;
  using devices::FlashSession;
  SessionInfo flash;
  flash.id = "devices.flash";
  flash.lab = "devices";
  flash.view = "flash";
  flash.title = "Flash device";
  flash.summary = "A small flash device under a host write workload: every page's state, the FTL's collector and "
                  "erases, and the write amplification they cost.";
  flash.noun = "the flash device";
  flash.params = FlashSession::Schema(FlashSession::Config{});
  flash.live = {"workload", "streams", "queue_depth"};
  flash.create = FlashSession::New;
  out->push_back(std::move(flash));

  SessionInfo disk;
  disk.id = "devices.disk";
  disk.lab = "devices";
  disk.view = "disk";
  disk.title = "Disk";
  disk.summary = "One disk serving Poisson-arriving reads: the head's seek, the platter's rotation, the transfer, "
                 "and the power states when the reads stop.";
  disk.noun = "the disk";
  disk.params = DiskSession::Schema(DiskSession::Config{});
  disk.live = {"workload", "rate_per_s", "scheduler", "spin_down_s", "io_kb"};
  disk.create = DiskSession::New;
  out->push_back(std::move(disk));
}

}  // namespace fawnlab
