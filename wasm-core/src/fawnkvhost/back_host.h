// BackHost: HostNode's back-end role (host_node.h): one fawnkv::Backend whose FAWN-DS stores
// live on dataDir/card.img (a device::FileDevice; the directory is created if missing),
// recovered at start when the file holds a node, checkpointed every checkpointMs when its
// logs have grown (each checkpoint ends with fsync).
#ifndef FAWNLAB_FAWNKVHOST_BACK_HOST_H_
#define FAWNLAB_FAWNKVHOST_BACK_HOST_H_

#include <memory>

#include "base/status.h"
#include "fawnkvhost/host_config.h"
#include "fawnkvhost/host_node.h"

namespace fawnlab::fawnkvhost {

StatusOr<std::unique_ptr<HostNode>> MakeBackHost(const HostConfig& c);

}  // namespace fawnlab::fawnkvhost

#endif  // FAWNLAB_FAWNKVHOST_BACK_HOST_H_
