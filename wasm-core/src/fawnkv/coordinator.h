// Coordinator: front-end 0's management of the back-ends (SOSP'09 §3.4.4): heartbeats, and
// the join, leave and failure protocols (docs/decisions.md, "FAWN-KV membership").
//
// The ring (ring.h) is the membership wanted; the routes (routes.h) are the chains the
// back-ends run, one configuration epoch per route entry. A join or a leave changes the ring
// (one at a time, as the prototype; later ones wait); a failure changes it at once. After
// each, the coordinator reconciles: every route entry whose chain C differs from the ring's
// chain N gets one transition (at most one per entry at a time):
//   repair     — C holds a failed node (or a joiner whose join was abandoned): an epoch whose
//     chain is C without it, sealed at the head (or, if the head failed, the next member), so
//     puts flow again at once; nodes it drops that are alive get kRelease once it is sealed;
//   pre-copy   — N adds a node J: kPrecopyStart (with a copy id) to the donor (C's tail, which
//     answers gets), which streams its log's live records of the range to J;
//   insert     — epoch e: N (restricted to C and J when N adds several), with the donor kept
//     at the end if N does not hold it, J logging aside; the donor flushes what it appended
//     since the pre-copy; J merges, says kReady;
//   final      — epoch e + 1: exactly that chain. The new tail says kReaderNow to every
//     front-end; the nodes that left the chain get kRelease.
// Entries with no joiner go straight to the final epoch; an entry that still differs after
// its transition gets the next one. A node whose heartbeat replies stop for `missed` periods
// is declared failed (a node that has not answered once since it was added gets
// `missed_first` periods: a process that is still starting), and so is one the host reports
// failed (Request(kFail)). A failure never
// waits: every running transition that involves the failed node (its joiner, donor, sealer,
// a member of its old, new or current chain) is abandoned and replaced by a repair of its
// entry (the joiner kept only if it had merged), the ring drops the node, and the
// reconciliation re-plans what remains — an interrupted join or leave of another node goes
// on, a join of the failed node is abandoned, a leave of it becomes its failure. Epochs of
// abandoned seals are never reused, so their late replies and configurations lose.
//
// A node declared failed never comes back as it was (fail-stop, SOSP'09 §3.4.4): with a host
// that takes such nodes back (set_on_alive), they stay on probation — still pinged — and one
// that answers (it was starved, not dead), or that the host asks to readmit (Readmit: a
// restarted process said hello), is first sent kReset: it drops every range, store, scan and
// chain state it holds. Only its kResetDone to the newest reset sent to it (a lost one is
// sent again when it answers a heartbeat `missed` periods later) hands it to the host, which
// requests an ordinary join: its ranges are copied afresh from the current tails
// (docs/decisions.md, "A node declared failed that comes back").
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
  // Beats a node may miss before its first answer since it was added (0: `missed`); not in
  // the papers (docs/decisions.md, "A node declared failed that comes back").
  int missed_first = 0;
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
  uint64_t copy = 0;              // the pre-copy's id (its messages carry it; late ones of an abandoned copy lose)
  std::vector<Endpoint> release;  // a repair: nodes to release once it is sealed
  bool abandoned = false;         // a failure ended it (it leaves the list at once)
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
  // With this set, nodes declared failed keep getting heartbeats; one that answers (it was
  // alive: a false detection, e.g. a starved process) is reset, then reported once, so the
  // host can add it again (it joins afresh; its ranges are copied anew).
  void set_on_alive(std::function<void(NodeId)> f) { on_alive_ = std::move(f); }
  // The host's way back for a node declared failed (with on_alive set): it is reset (again:
  // the newest reset counts), then reported to on_alive like one that answered again. False
  // when `n` is not a node declared failed (nothing to reset: the host adds it as it is).
  bool Readmit(NodeId n);
  void StartHeartbeats(const std::vector<NodeId>& nodes);
  void Watch(NodeId n);

  // Queues a join or leave (it starts at once when none runs); a kFail is handled at once.
  void Request(Change c);
  bool busy() const;
  const std::vector<Transition>& transitions() const { return transitions_; }
  const std::set<NodeId>& declared_failed() const { return failed_; }
  // Counts changes of the ring or of a route's chain/epoch (a host persisting them watches it).
  uint64_t generation() const { return generation_; }

  void Receive(Message& m);

 private:
  void Next();
  bool Apply(const Change& c);  // changes the ring for a join or leave; false: refused
  void Fail(NodeId n);
  void Abandon(Transition& t);
  // Starts transitions where routes differ from the ring; then reports the changes that are
  // complete once nothing runs, and starts the next.
  void Pump();
  void Reconcile();
  std::vector<Endpoint> Target(const KeyRange& r) const;
  Transition& Start(Transition t);
  bool Alive(Endpoint n) const { return n != kNobody && !failed_.count(static_cast<NodeId>(n)) && net_->up(n); }
  void Advance(Transition& t);
  void Seal(Transition& t, std::shared_ptr<const ChainSpec> spec, Endpoint sealer);
  void OnSealed(const Message& m);
  void Finished(Transition* t);
  void Send(MsgKind kind, Endpoint to, const KeyRange& r);
  void Beat();
  // Beats `n` may miss before it is declared failed: `missed_first` until its first answer.
  int MissedAllowed(NodeId n) const;
  void SendReset(NodeId n);
  void Event(const std::string& s);
  Transition* Find(const KeyRange& r);

  sim::Simulator* sim_;
  Transport* net_;
  Ring* ring_;
  Routes* routes_;
  CoordOptions o_;
  int vids_;
  EventFn events_;
  std::function<void(NodeId)> on_left_, on_failed_, on_alive_;
  std::set<NodeId> probation_;  // declared failed, still pinged (on_alive_ set)
  struct Reset {
    uint64_t id = 0;          // the newest kReset sent (its kResetDone readmits the node)
    sim::SimTime sent = 0;
  };
  std::map<NodeId, Reset> resetting_;  // on probation, a kReset sent, its answer awaited
  uint64_t reset_seq_ = 0;
  std::set<NodeId> answered_;  // watched nodes that have answered since they were added
  std::deque<Change> queue_;
  std::vector<Change> running_;  // applied to the ring, being reconciled
  std::vector<Transition> transitions_;
  uint64_t epoch_floor_ = 0;     // the newest epoch of an abandoned seal: later seals go past it
  uint64_t copy_seq_ = 0;
  std::set<std::pair<Key, uint64_t>> ready_, reader_now_;  // (range end, epoch) reported early
  std::map<NodeId, sim::SimTime> last_seen_;
  std::set<NodeId> failed_;
  uint64_t beat_ = 0;
  uint64_t generation_ = 0;
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_COORDINATOR_H_
