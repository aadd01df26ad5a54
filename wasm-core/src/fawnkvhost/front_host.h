// FrontHost: HostNode's front-end role (host_node.h): FAWN-KV's FrontEnd, Coordinator, Routes
// and Ring (fawnkv/) behind the polling API, talking through the Outbox. The ring starts
// empty, its whole key space one route with no chain; the first AddBackend gives it all.
#ifndef FAWNLAB_FAWNKVHOST_FRONT_HOST_H_
#define FAWNLAB_FAWNKVHOST_FRONT_HOST_H_

#include <memory>

#include "base/status.h"
#include "fawnkvhost/host_config.h"
#include "fawnkvhost/host_node.h"

namespace fawnlab::fawnkvhost {

StatusOr<std::unique_ptr<HostNode>> MakeFrontHost(const HostConfig& c);

}  // namespace fawnlab::fawnkvhost

#endif  // FAWNLAB_FAWNKVHOST_FRONT_HOST_H_
