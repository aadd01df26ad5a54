// Coordinator: front-end 0's management of the back-ends (SOSP'09 §3.4.4): heartbeats, and
// the join, leave and failure protocols, one membership change at a time (as the prototype).
//
// A change updates the ring, which names every piece of it whose chain changes. For each
// route entry in such a piece (routes.h), with current chain C, new chain N and joiner J:
//   failure only — repair: an epoch whose chain is C without the failed node, started at the
//     head (or, if the head failed, the next member), so puts flow again at once;
//   pre-copy   — kPrecopyStart to the donor (C's tail, which answers gets), which streams its
//     log's live records of the range to J;
//   insert     — epoch e: N, with the donor kept at the end if N does not hold it, J logging
//     aside; the donor flushes what it appended since the pre-copy; J merges, says kReady;
//   final      — epoch e + 1: exactly N. The new tail says kReaderNow to every front-end; the
//     nodes that left the chain get kRelease.
// Entries with no joiner go straight to the final epoch. A node whose heartbeat replies stop
// for `missed` periods is declared failed. Changes asked for while one runs wait their turn.
#ifndef FAWNLAB_FAWNKV_COORDINATOR_H_
#define FAWNLAB_FAWNKV_COORDINATOR_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "fawnkv/transport.h"
#include "fawnkv/ring.h"
#include "fawnkv/routes.h"
#include "sim/simulator.h"

namespace fawnlab::fawnkv {

struct CoordOptions {
  sim::SimDuration heartbeat_ns = 500 * sim::kMs;  // not in the papers; the release uses 5 s (docs/decisions.md)
  int missed = 3;                                  // the release: 3 missed beats
};

enum class Phase { kRepair, kPrecopy, kInsert, kFinal, kDone };
const char* PhaseName(Phase p);

// One route entry's part of a change, for the lab's view.
struct Transition {
  KeyRange range;
  std::vector<NodeId> old_chain, new_chain;
  Endpoint joiner = kNobody, donor = kNobody;
  Phase phase = Phase::kPrecopy;
  uint64_t epoch = 0;          // the epoch being sealed or waited on
  std::shared_ptr<const ChainSpec> spec;  // of that epoch
  Endpoint sealer = kNobody;
  bool sealed = false;
};

struct Change {
  enum Kind { kJoin, kLeave, kFail } kind;
  NodeId node;
  std::vector<Key> positions;  // kJoin: explicit VID positions (empty: hashed)
};

class Coordinator {
 public:
  using EventFn = std::function<void(const std::string&)>;
  // `released(node)` is called when a leaving node holds nothing any more.
  Coordinator(sim::Simulator* sim, Transport* net, Ring* ring, Routes* routes, CoordOptions o, int vids);

  void set_events(EventFn f) { events_ = std::move(f); }
  void set_on_left(std::function<void(NodeId)> f) { on_left_ = std::move(f); }
  // Called when heartbeats declare a node failed (before its replacement is queued).
  void set_on_failed(std::function<void(NodeId)> f) { on_failed_ = std::move(f); }
  void StartHeartbeats(const std::vector<NodeId>& nodes);
  void Watch(NodeId n);

  // Queues a change (it starts at once when none runs).
  void Request(Change c);
  bool busy() const { return current_ != nullptr || !queue_.empty(); }
  const std::vector<Transition>& transitions() const { return transitions_; }
  const std::set<NodeId>& declared_failed() const { return failed_; }
  // Counts changes of the ring or of a route's chain/epoch (a host persisting them watches it).
  uint64_t generation() const { return generation_; }

  void Receive(Message& m);

 private:
  void Next();
  void StartChange(const Change& c);
  void Advance(Transition& t);
  void Seal(Transition& t, std::shared_ptr<const ChainSpec> spec, Endpoint sealer);
  void OnSealed(const Message& m);
  void Finished(Transition* t);  // null: nothing to release
  void Beat();
  void Event(const std::string& s);
  Transition* Find(const KeyRange& r);

  sim::Simulator* sim_;
  Transport* net_;
  Ring* ring_;
  Routes* routes_;
  CoordOptions o_;
  int vids_;
  EventFn events_;
  std::function<void(NodeId)> on_left_, on_failed_;
  std::deque<Change> queue_;
  std::unique_ptr<Change> current_;
  std::vector<Transition> transitions_;
  bool repairing_ = false;
  std::vector<Transition> pending_joins_;  // after a repair
  std::set<std::pair<Key, uint64_t>> ready_, reader_now_;  // (range end, epoch) reported early
  std::map<NodeId, sim::SimTime> last_seen_;
  std::set<NodeId> failed_;
  uint64_t beat_ = 0;
  uint64_t generation_ = 0;
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_COORDINATOR_H_
