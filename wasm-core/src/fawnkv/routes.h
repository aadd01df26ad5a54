// Routes: the front-ends' membership list, per range of the ring (SOSP'09 §3.4.1: every
// front-end holds the whole VID list and forwards each request in one hop).
//
// Each entry is a piece of the ring with its current chain (the configuration of its newest
// epoch), the head puts go to, and, per front-end, the member gets go to. Ranges only ever
// split (Cover), so a range a membership change names is always a union of entries; the
// coordinator splits the table at every new VID before it configures anything.
#ifndef FAWNLAB_FAWNKV_ROUTES_H_
#define FAWNLAB_FAWNKV_ROUTES_H_

#include <map>
#include <memory>
#include <vector>

#include "fawnkv/message.h"

namespace fawnlab::fawnkv {

struct RouteEntry {
  KeyRange range;
  uint64_t epoch = 1;
  std::shared_ptr<const ChainSpec> spec;
  Endpoint head = kNobody;
  std::vector<Endpoint> readers;  // per front-end
};

class Routes {
 public:
  explicit Routes(int front_ends) : front_ends_(front_ends) {}
  void Add(const KeyRange& range, std::shared_ptr<const ChainSpec> spec);
  // The entry holding `key`; null when none does.
  RouteEntry* Find(const Key& key);
  // The entries that make up `range`, in ring order, after splitting the ones it cuts.
  std::vector<RouteEntry*> Cover(const KeyRange& range);
  std::vector<RouteEntry*> All();
  int front_ends() const { return front_ends_; }

 private:
  int front_ends_;
  std::map<Key, RouteEntry> entries_;  // by range end
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_ROUTES_H_
