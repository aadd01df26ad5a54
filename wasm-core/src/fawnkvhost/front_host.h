// FrontHost: HostNode's front-end role (host_node.h): FAWN-KV's FrontEnd, Coordinator, Routes
// and Ring (fawnkv/) behind the polling API, talking through the Outbox. The ring starts
// empty, its whole key space one route with no chain; the first AddBackend gives it all.
// Whole-cluster restart: RingJson is the ring to persist (ring_state.h; RingVersion changes
// when it does); RestoreRing(json) rebuilds it in an empty front-end with its back-ends
// "recovering". AddBackend of a recovering node is its hello. When all have said hello or
// recoverMs passes, the missing ones are cut from every chain and failed, the others get
// kRestore per range (backend.h) and are "up" once every answer says their stores cover it,
// failed and added again (copied afresh) otherwise. docs/decisions.md, "Real cluster mode".
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
