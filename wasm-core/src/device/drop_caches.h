// SyncAndDropCaches: `sync; echo 3 > /proc/sys/vm/drop_caches` for a store over a page cache,
// as the scaled thesis machines do it between a load and a cold run (cona::Machine,
// stores::Machine): runs the simulator until the store is idle (its background work done),
// syncs it, runs until the sync has completed, the store is idle again and the cache holds no
// dirty page, then empties the cache. Returns the sync's refusal or failure, or Internal when
// the simulator ran out of events before the sync completed.
// Store: any type with `bool idle() const` and `Status Sync(std::function<void(const Status&)>)`.
#ifndef FAWNLAB_DEVICE_DROP_CACHES_H_
#define FAWNLAB_DEVICE_DROP_CACHES_H_

#include "base/status.h"
#include "device/page_cache.h"
#include "sim/simulator.h"

namespace fawnlab::device {

template <class Store>
Status SyncAndDropCaches(sim::Simulator* sim, Store* store, PageCache* cache) {
  while (!store->idle() && sim->Step()) {
  }
  bool synced = false;
  Status result;
  Status s = store->Sync([&](const Status& st) {
    synced = true;
    result = st;
  });
  if (!s.ok()) return s;
  while (!(synced && store->idle() && cache->dirty_bytes() == 0) && sim->Step()) {
  }
  if (!synced) return Status::Internal("machine: the store's sync never completed");
  if (!result.ok()) return result;
  cache->DropAll();
  return Status::Ok();
}

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_DROP_CACHES_H_
