// Cluster: a simulated FAWN-KV cluster (SOSP'09 §3.4, §4) — back-ends (backend.h) on a
// consistent-hashing ring (ring.h), front-ends owning wedges of it (frontend.h), front-end 0
// coordinating membership (coordinator.h), one switched network (network.h) — in one
// simulator's virtual time, with its power and energy.
//
// Clients call Get/Put/Delete; each request enters at the front-end owning the key's wedge;
// MultiGet splits its keys among their front-ends and answers when all have (a delete and
// each key of a multiget go into the history as well). The
// cluster starts with `nodes` back-ends, ids 0 … nodes−1, each with V VIDs hashed from its id
// (or evenly spaced: `even`), every range replicated on R nodes; AddNode/RemoveNode/FailNode
// change membership while requests continue. Load() populates every replica directly (no
// chain traffic) before a run. With record_history every client operation goes into
// history() for the linearizability checker (checker.h).
//
// Power (SOSP'09 §4.2, Figure 12): a back-end draws its idle 3 W while up, plus its CPU's,
// card's and network interface's extra power for the time each is busy; switches (16-port
// GigE, 10 W each, as many as the nodes need) and front-ends (27 W Atom) draw constant power.
// Deterministic: a seed and a sequence of calls give the same run.
#ifndef FAWNLAB_FAWNKV_CLUSTER_H_
#define FAWNLAB_FAWNKV_CLUSTER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "fawnkv/backend.h"
#include "fawnkv/checker.h"
#include "fawnkv/coordinator.h"
#include "fawnkv/frontend.h"
#include "fawnkv/network.h"
#include "fawnkv/ring.h"
#include "fawnkv/routes.h"
#include "sim/simulator.h"

namespace fawnlab::fawnkv {

struct PowerOptions {
  double node_idle_w = 3;     // SOSP'09 §4: the Alix 3c2 idles at 3 W (6 W at full load)
  double cpu_active_w = 1.3;  // the Geode LX's extra draw when busy (datasheet estimate, docs/decisions.md)
  double nic_active_w = 0.3;  // the Ethernet interface's extra draw while it moves bytes (estimate)
  double switch_w = 10;       // SOSP'09 §4.2: Netgear GS116, 10 W each
  int switch_ports = 16;      // 15 for nodes, 1 to the next switch
  double frontend_w = 27;     // SOSP'09 §4.2: the Intel Atom front-end
};

struct ClusterOptions {
  int nodes = 6;
  int vids = 2;
  int replication = 3;
  int front_ends = 1;
  bool even = false;  // VIDs evenly spaced instead of hashed
  BackendOptions backend;
  NetOptions net;
  FrontOptions front;
  CoordOptions coord;
  PowerOptions power;
  bool record_history = false;
};

class Cluster {
 public:
  static constexpr int kMaxNodes = 256;
  static StatusOr<std::unique_ptr<Cluster>> Create(const ClusterOptions& o);

  // A client request at the front-end owning the key's wedge. `name` names the key in the
  // history (default: its hex).
  void Get(const Key& key, FrontEnd::Done done, const std::string& name = "");
  void Put(const Key& key, std::string value, FrontEnd::Done done, const std::string& name = "");
  void Delete(const Key& key, FrontEnd::Done done, const std::string& name = "");
  // `names` (if given) name the keys in the history, one per key.
  void MultiGet(const std::vector<Key>& keys, FrontEnd::Done done, const std::vector<std::string>& names = {});

  // Writes keys key(0) … key(n−1) with value(i) into every replica of their ranges directly,
  // up to `window` at a time per back-end, running the simulator until all are stored.
  Status Load(uint64_t n, const std::function<Key(uint64_t)>& key, const std::function<std::string(uint64_t)>& value,
              const std::function<bool(double)>& progress = nullptr);

  // Membership changes (one runs at a time; later ones wait). AddNode returns the new id.
  StatusOr<NodeId> AddNode(std::optional<NodeId> id = std::nullopt);
  Status RemoveNode(NodeId id);
  Status FailNode(NodeId id);
  bool changing() const { return coord_->busy(); }

  // Energy since the start, in joules: one back-end; all back-ends; switches; front-ends.
  double BackendJoules(NodeId id) const;
  double BackendsJoules() const;
  double SwitchJoules() const;
  double FrontJoules() const;
  int switches() const;

  sim::Simulator& sim() { return sim_; }
  Network& net() { return *net_; }
  const Ring& ring() const { return ring_; }
  Routes& routes() { return *routes_; }
  Coordinator& coordinator() { return *coord_; }
  // Back-end `id` (null if it never existed).
  Backend* backend(NodeId id) const { return id < backends_.size() ? backends_[id].get() : nullptr; }
  size_t backend_slots() const { return backends_.size(); }
  bool gone(NodeId id) const { return id < gone_.size() && gone_[id]; }
  FrontEnd& front(int f) { return *fronts_[static_cast<size_t>(f)]; }
  int front_ends() const { return static_cast<int>(fronts_.size()); }
  History& history() { return history_; }
  const ClusterOptions& options() const { return o_; }
  void set_events(Coordinator::EventFn f);

 private:
  explicit Cluster(const ClusterOptions& o) : o_(o) {}
  StatusOr<Backend*> NewBackend(NodeId id);
  std::vector<Key> EvenPositions(NodeId id, int count) const;
  void OnFrontMessage(int f, Message& m);

  ClusterOptions o_;
  sim::Simulator sim_;
  std::unique_ptr<Network> net_;
  Ring ring_ = Ring::Create(1).value();
  std::unique_ptr<Routes> routes_;
  std::vector<std::unique_ptr<Backend>> backends_;
  std::vector<bool> gone_;
  std::vector<sim::SimTime> down_at_;
  std::vector<sim::SimTime> born_at_;
  std::vector<std::unique_ptr<FrontEnd>> fronts_;
  std::unique_ptr<Coordinator> coord_;
  History history_;
  double card_idle_w_ = 0;
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_CLUSTER_H_
