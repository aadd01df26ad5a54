#include "fawnkv/coordinator.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace fawnlab::fawnkv {

namespace {

bool Has(const std::vector<Endpoint>& v, Endpoint e) { return std::find(v.begin(), v.end(), e) != v.end(); }

std::vector<NodeId> Nodes(const std::vector<Endpoint>& v) {
  std::vector<NodeId> n;
  for (Endpoint e : v) n.push_back(static_cast<NodeId>(e));
  return n;
}

std::string Seconds(sim::SimTime t) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f s", static_cast<double>(t) / 1e9);
  return b;
}

}  // namespace

const char* PhaseName(Phase p) {
  switch (p) {
    case Phase::kRepair: return "repair";
    case Phase::kPrecopy: return "precopy";
    case Phase::kInsert: return "insert";
    case Phase::kFinal: return "final";
    case Phase::kDone: return "done";
  }
  return "?";
}

Coordinator::Coordinator(sim::Simulator* sim, Transport* net, Ring* ring, Routes* routes, CoordOptions o, int vids)
    : sim_(sim), net_(net), ring_(ring), routes_(routes), o_(o), vids_(vids) {}

void Coordinator::Event(const std::string& s) {
  if (events_) events_(s);
}

// --- heartbeats -----------------------------------------------------------------------------

void Coordinator::StartHeartbeats(const std::vector<NodeId>& nodes) {
  for (NodeId n : nodes) Watch(n);
  sim_->Schedule(sim_->now() + o_.heartbeat_ns, [this]() { Beat(); });
}

void Coordinator::Watch(NodeId n) {
  last_seen_[n] = sim_->now();
  answered_.erase(n);
}

int Coordinator::MissedAllowed(NodeId n) const {
  return answered_.count(n) || o_.missed_first <= 0 ? o_.missed : o_.missed_first;
}

void Coordinator::Beat() {
  ++beat_;
  const auto ping = [this](NodeId n) {
    Message h;
    h.kind = MsgKind::kHeartbeat;
    h.from = FrontEndpoint(0);
    h.to = static_cast<Endpoint>(n);
    h.seq = beat_;
    net_->Send(std::move(h));
  };
  std::vector<NodeId> dead;
  for (auto& [n, seen] : last_seen_) {
    const int missed = MissedAllowed(n);
    if (sim_->now() - seen > missed * o_.heartbeat_ns) {
      dead.push_back(n);
      continue;
    }
    ping(n);
  }
  for (NodeId n : probation_) ping(n);
  for (NodeId n : dead) {
    const int missed = MissedAllowed(n);
    last_seen_.erase(n);
    answered_.erase(n);
    Event("node " + std::to_string(n) + " failed: " + std::to_string(missed) + " heartbeats missed" +
          (missed == o_.missed ? "" : " (it had not answered one since it was added)"));
    if (on_failed_) on_failed_(n);
    Fail(n);
  }
  sim_->Schedule(sim_->now() + o_.heartbeat_ns, [this]() { Beat(); });
}

// --- a node declared failed that comes back ------------------------------------------------

bool Coordinator::Readmit(NodeId n) {
  if (!on_alive_ || !failed_.count(n)) return false;
  probation_.insert(n);
  SendReset(n);
  return true;
}

void Coordinator::SendReset(NodeId n) {
  Reset& r = resetting_[n];
  r.id = ++reset_seq_;
  r.sent = sim_->now();
  Message m;
  m.kind = MsgKind::kReset;
  m.from = FrontEndpoint(0);
  m.to = static_cast<Endpoint>(n);
  m.req = r.id;
  net_->Send(std::move(m));
}

// --- changes --------------------------------------------------------------------------------

bool Coordinator::busy() const {
  if (!running_.empty() || !queue_.empty()) return true;
  return std::any_of(transitions_.begin(), transitions_.end(), [](const Transition& t) { return t.phase != Phase::kDone; });
}

void Coordinator::Request(Change c) {
  if (c.kind == Change::kFail) return Fail(c.node);
  queue_.push_back(std::move(c));
  Next();
}

void Coordinator::Next() {
  const auto idle = [this]() {
    return std::none_of(transitions_.begin(), transitions_.end(), [](const Transition& t) { return t.phase != Phase::kDone; });
  };
  while (running_.empty() && !queue_.empty() && idle()) {
    Change c = std::move(queue_.front());
    queue_.pop_front();
    if (Apply(c)) {
      running_.push_back(c);
      transitions_.clear();
      const size_t before = transitions_.size();
      Reconcile();
      int copied = 0;
      for (size_t i = before; i < transitions_.size(); ++i) copied += transitions_[i].joiner != kNobody ? 1 : 0;
      Event("node " + std::to_string(c.node) + (c.kind == Change::kJoin ? " joins: " : " leaves: ") +
            std::to_string(transitions_.size() - before) + " range(s) change chain, " + std::to_string(copied) + " copied");
      Pump();
    }
  }
}

bool Coordinator::Apply(const Change& c) {
  const bool join = c.kind == Change::kJoin;
  StatusOr<std::vector<RangeChange>> changes =
      !join ? ring_->RemoveNode(c.node) : c.positions.empty() ? ring_->AddNode(c.node, vids_) : ring_->AddNodeAt(c.node, c.positions);
  if (!changes.ok()) {
    Event("node " + std::to_string(c.node) + ": " + changes.status().message());
    return false;
  }
  ++generation_;
  if (join) {
    failed_.erase(c.node);  // a node declared failed may come back (reset first) and join afresh
    probation_.erase(c.node);
    resetting_.erase(c.node);
    Watch(c.node);
    for (const RangeChange& rc : changes.value()) routes_->Cover(rc.range);  // split the routes at the new VIDs
  }
  return true;
}

void Coordinator::Fail(NodeId n) {
  if (failed_.count(n)) return;
  failed_.insert(n);
  last_seen_.erase(n);
  answered_.erase(n);
  if (on_alive_) probation_.insert(n);
  const Endpoint gone = static_cast<Endpoint>(n);
  bool involved = false;
  const std::vector<NodeId> members = ring_->nodes();
  if (std::find(members.begin(), members.end(), n) != members.end()) {
    (void)ring_->RemoveNode(n);
    ++generation_;
    involved = true;
  }
  // A join of the failed node is abandoned; a leave of it becomes its failure; queued ones go.
  for (auto it = running_.begin(); it != running_.end();) {
    if (it->node != n) {
      ++it;
      continue;
    }
    if (it->kind == Change::kJoin) Event("node " + std::to_string(n) + " failed while joining: its join is abandoned");
    if (it->kind == Change::kLeave) Event("node " + std::to_string(n) + " failed while leaving: its leave becomes its failure");
    it = running_.erase(it);
    involved = true;
  }
  queue_.erase(std::remove_if(queue_.begin(), queue_.end(), [n](const Change& c) { return c.node == n; }), queue_.end());
  for (RouteEntry* e : routes_->All()) involved = involved || Has(e->spec->chain, gone);
  // Every running transition that needs the failed node is abandoned for a repair of its entry.
  const size_t count = transitions_.size();
  std::map<std::string, int> abandoned;  // phase → ranges
  for (size_t i = 0; i < count; ++i) {
    Transition& t = transitions_[i];
    if (t.phase == Phase::kDone) continue;
    RouteEntry& e = *routes_->Cover(t.range).front();
    const bool touches = Has(e.spec->chain, gone) || (t.spec && Has(t.spec->chain, gone)) || t.joiner == gone || t.donor == gone ||
                         t.sealer == gone || Has(std::vector<Endpoint>(t.old_chain.begin(), t.old_chain.end()), gone) ||
                         Has(std::vector<Endpoint>(t.new_chain.begin(), t.new_chain.end()), gone);
    if (touches) {
      ++abandoned[PhaseName(t.phase)];
      Abandon(transitions_[i]);
      involved = true;
    }
  }
  transitions_.erase(std::remove_if(transitions_.begin(), transitions_.end(), [](const Transition& t) { return t.abandoned; }),
                     transitions_.end());
  if (!abandoned.empty()) {
    std::string what;
    for (const auto& [phase, k] : abandoned) what += (what.empty() ? "" : ", ") + std::to_string(k) + " in " + phase;
    Event("node " + std::to_string(n) + " was part of a running change: its steps abandoned (" + what + "), their chains repaired first");
  }
  if (involved) running_.push_back(Change{Change::kFail, n, {}});
  Pump();
}

// Replaces `t` by a repair of its entry: the entry's sealed chain without the failed nodes and
// without a joiner that has not merged (in the final phase it has: it stays).
void Coordinator::Abandon(Transition& t) {
  RouteEntry& e = *routes_->Cover(t.range).front();
  epoch_floor_ = std::max(epoch_floor_, t.epoch);  // a seal of it may still be on its way: never reuse its epoch
  if (t.joiner != kNobody && t.donor != kNobody && Alive(t.donor) && (t.phase == Phase::kPrecopy || t.phase == Phase::kInsert)) {
    Send(MsgKind::kPrecopyStart, t.donor, t.range);  // no joiner named: stop the pre-copy or flush
  }
  const bool merged = t.phase == Phase::kFinal && t.joiner != kNobody && e.spec->joiner == t.joiner;
  Transition r;
  r.range = t.range;
  r.old_chain = Nodes(e.spec->chain);
  auto spec = std::make_shared<ChainSpec>();
  for (Endpoint m : e.spec->chain) {
    if (failed_.count(static_cast<NodeId>(m)) || (m == e.spec->joiner && !merged)) continue;
    spec->chain.push_back(m);
  }
  r.new_chain = Nodes(spec->chain);
  std::vector<Endpoint> out(e.spec->chain.begin(), e.spec->chain.end());
  for (NodeId m : t.old_chain) out.push_back(static_cast<Endpoint>(m));
  for (NodeId m : t.new_chain) out.push_back(static_cast<Endpoint>(m));
  out.push_back(t.joiner);
  out.push_back(t.donor);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  for (Endpoint m : out) {
    if (m != kNobody && !Has(spec->chain, m) && Alive(m)) r.release.push_back(m);
  }
  r.phase = Phase::kRepair;
  if (t.phase == Phase::kPrecopy && spec->chain == e.spec->chain) {  // nothing sealed, no member lost: just let go of the joiner
    for (Endpoint m : r.release) Send(MsgKind::kRelease, m, t.range);
    t.phase = Phase::kDone;
    t.abandoned = true;
    return;
  }
  r.sealer = Alive(e.head) && Has(e.spec->chain, e.head) ? e.head : spec->chain.empty() ? kNobody : spec->chain.front();
  r.spec = spec;
  t.phase = Phase::kDone;  // no reply to it is awaited any more (Find skips it)
  t.abandoned = true;
  if (spec->chain.empty()) {
    Event("range lost: every replica failed");
    e.spec = spec;
    e.head = kNobody;
    e.readers.assign(e.readers.size(), kNobody);
    ++generation_;
    return;
  }
  Start(std::move(r));
}

std::vector<Endpoint> Coordinator::Target(const KeyRange& r) const {
  std::vector<Endpoint> n;
  const int distinct = ring_->distinct_nodes();
  if (distinct == 0) return n;
  auto chain = ring_->Chain(r.end, std::min(ring_->replication(), distinct));
  if (!chain.ok()) return n;
  for (const Vid& v : chain.value()) n.push_back(static_cast<Endpoint>(v.node));
  return n;
}

// A transition replaces the finished one of its entry (the view shows one per range).
Transition& Coordinator::Start(Transition t) {
  for (Transition& x : transitions_) {
    if (x.phase == Phase::kDone && x.range.start == t.range.start && x.range.end == t.range.end) {
      x = std::move(t);
      Advance(x);
      return x;
    }
  }
  transitions_.push_back(std::move(t));
  Advance(transitions_.back());
  return transitions_.back();
}

void Coordinator::Reconcile() {
  for (RouteEntry* e : routes_->All()) {
    if (Find(e->range)) continue;  // one transition per entry at a time
    const std::vector<Endpoint>& cur = e->spec->chain;
    // A failed member, or a joiner left in the chain by an abandoned join: repair first.
    bool repair = e->spec->joiner != kNobody;
    for (Endpoint m : cur) repair = repair || failed_.count(static_cast<NodeId>(m)) > 0;
    if (repair) {
      Transition t;
      t.range = e->range;
      t.old_chain = Nodes(cur);
      auto spec = std::make_shared<ChainSpec>();
      for (Endpoint m : cur) {
        if (!failed_.count(static_cast<NodeId>(m)) && m != e->spec->joiner) spec->chain.push_back(m);
      }
      if (e->spec->joiner != kNobody && Alive(e->spec->joiner)) t.release.push_back(e->spec->joiner);
      t.new_chain = Nodes(spec->chain);
      t.phase = Phase::kRepair;
      if (spec->chain.empty()) {
        Event("range lost: its only replica failed (R = 1)");
        e->spec = spec;
        e->head = kNobody;
        e->readers.assign(e->readers.size(), kNobody);
        ++generation_;
      } else {
        t.spec = spec;
        t.sealer = Alive(e->head) && Has(cur, e->head) ? e->head : spec->chain.front();
        Start(std::move(t));
        continue;
      }
    }
    const std::vector<Endpoint> target = Target(e->range);
    if (target.empty() || e->spec->chain == target) continue;
    const std::vector<Endpoint>& now = e->spec->chain;
    // Several new members (a failure while another change ran): one at a time.
    Endpoint joiner = kNobody;
    std::vector<Endpoint> next;
    for (Endpoint m : target) {
      if (Has(now, m)) {
        next.push_back(m);
      } else if (joiner == kNobody) {
        joiner = m;
        next.push_back(m);
      }
    }
    Transition t;
    t.range = e->range;
    t.old_chain = Nodes(now);
    t.new_chain = Nodes(next);
    t.donor = now.empty() ? kNobody : ReplierOf(ChainSpec{now, kNobody, kNobody});
    t.joiner = t.donor != kNobody ? joiner : kNobody;
    t.phase = t.joiner != kNobody ? Phase::kPrecopy : Phase::kFinal;
    Start(std::move(t));
  }
}

void Coordinator::Pump() {
  Reconcile();
  if (std::any_of(transitions_.begin(), transitions_.end(), [](const Transition& t) { return t.phase != Phase::kDone; })) return;
  std::vector<Change> done;
  done.swap(running_);
  for (const Change& c : done) {
    Event("node " + std::to_string(c.node) + (c.kind == Change::kJoin ? " joined" : c.kind == Change::kLeave ? " left" : " replaced") +
          " at " + Seconds(sim_->now()));
    if (c.kind == Change::kLeave) {
      last_seen_.erase(c.node);
      if (on_left_) on_left_(c.node);
    }
  }
  Next();
}

void Coordinator::Send(MsgKind kind, Endpoint to, const KeyRange& r) {
  Message m;
  m.kind = kind;
  m.from = FrontEndpoint(0);
  m.to = to;
  m.range = r;
  net_->Send(std::move(m));
}

void Coordinator::Advance(Transition& t) {
  RouteEntry& e = *routes_->Cover(t.range).front();
  switch (t.phase) {
    case Phase::kRepair:
      Seal(t, t.spec, t.sealer);
      return;
    case Phase::kPrecopy: {
      // The copy's id grows across front-end restarts too (time), so a joiner can tell an
      // abandoned copy's late batches from the current copy's.
      copy_seq_ = std::max<uint64_t>(copy_seq_ + 1, static_cast<uint64_t>(sim_->now()));
      t.copy = copy_seq_;
      Message m;
      m.kind = MsgKind::kPrecopyStart;
      m.from = FrontEndpoint(0);
      m.to = t.donor;
      m.range = t.range;
      m.peer = t.joiner;
      m.epoch = t.copy;
      net_->Send(std::move(m));
      return;
    }
    case Phase::kInsert: {
      auto spec = std::make_shared<ChainSpec>();
      for (NodeId n : t.new_chain) spec->chain.push_back(static_cast<Endpoint>(n));
      if (!Has(spec->chain, t.donor)) spec->chain.push_back(t.donor);  // the old tail answers until the joiner is whole
      spec->joiner = t.joiner;
      spec->donor = t.donor;
      Seal(t, spec, e.head);
      return;
    }
    case Phase::kFinal: {
      auto spec = std::make_shared<ChainSpec>();
      for (NodeId n : t.new_chain) spec->chain.push_back(static_cast<Endpoint>(n));
      Seal(t, spec, Alive(e.head) ? e.head : spec->chain.front());
      return;
    }
    case Phase::kDone: return;
  }
}

void Coordinator::Seal(Transition& t, std::shared_ptr<const ChainSpec> spec, Endpoint sealer) {
  RouteEntry& e = *routes_->Cover(t.range).front();
  t.epoch = std::max(e.epoch, epoch_floor_) + 1;
  t.spec = std::move(spec);
  t.sealer = sealer;
  t.sealed = false;
  Message m;
  m.kind = MsgKind::kSeal;
  m.from = FrontEndpoint(0);
  m.to = sealer;
  m.range = t.range;
  m.epoch = t.epoch;
  m.spec = t.spec;
  net_->Send(std::move(m));
}

Transition* Coordinator::Find(const KeyRange& r) {
  for (Transition& t : transitions_) {
    if (t.range.start == r.start && t.range.end == r.end && t.phase != Phase::kDone) return &t;
  }
  return nullptr;
}

void Coordinator::OnSealed(const Message& m) {
  Transition* t = Find(m.range);
  if (!t || t->epoch != m.epoch || t->sealed) return;
  t->sealed = true;
  RouteEntry& e = *routes_->Cover(t->range).front();
  const std::shared_ptr<const ChainSpec> prev = e.spec;
  e.epoch = m.epoch;
  e.spec = t->spec;
  e.head = t->spec->chain.front();
  ++generation_;
  // Members ahead of the sealer are not on any path its configuration travels: tell them.
  const bool sealer_in = std::find(t->spec->chain.begin(), t->spec->chain.end(), t->sealer) != t->spec->chain.end();
  for (Endpoint member : t->spec->chain) {
    if (!sealer_in) break;
    if (member == t->sealer) break;
    Message c;
    c.kind = MsgKind::kConfig;
    c.from = FrontEndpoint(0);
    c.to = member;
    c.range = t->range;
    c.epoch = m.epoch;
    c.seq = m.seq;
    c.spec = t->spec;
    net_->Send(std::move(c));
  }
  const auto key = std::make_pair(t->range.end, t->epoch);
  switch (t->phase) {
    case Phase::kRepair:
      t->phase = Phase::kDone;
      for (Endpoint n : t->release) {
        if (Alive(n)) Send(MsgKind::kRelease, n, t->range);
      }
      return Pump();
    case Phase::kInsert:
      if (ready_.count(key)) {
        t->phase = Phase::kFinal;
        Advance(*t);
      }
      return;
    case Phase::kFinal:
      if (ReplierOf(*t->spec) == ReplierOf(*prev) || reader_now_.count(key)) Finished(t);
      return;
    default: return;
  }
}

void Coordinator::Finished(Transition* t) {
  std::vector<Endpoint> keep;
  for (NodeId n : t->new_chain) keep.push_back(static_cast<Endpoint>(n));
  std::vector<Endpoint> out;
  for (NodeId n : t->old_chain) out.push_back(static_cast<Endpoint>(n));
  if (t->donor != kNobody) out.push_back(t->donor);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  for (Endpoint n : out) {
    if (Has(keep, n) || !Alive(n)) continue;
    Send(MsgKind::kRelease, n, t->range);
  }
  t->phase = Phase::kDone;
  if (t->joiner != kNobody && t->donor != kNobody) Event("range copied to node " + std::to_string(t->joiner) + "; chain now complete");
  Pump();
}

void Coordinator::Receive(Message& m) {
  switch (m.kind) {
    case MsgKind::kHeartbeatReply: {
      const NodeId n = static_cast<NodeId>(m.from);
      auto it = last_seen_.find(n);
      if (it != last_seen_.end()) {
        it->second = sim_->now();
        answered_.insert(n);
      }
      if (!on_alive_ || !probation_.count(n)) return;
      auto r = resetting_.find(n);
      if (r == resetting_.end()) {
        Event("node " + std::to_string(n) + " answers heartbeats again after it was declared failed: reset, it joins afresh");
        SendReset(n);
      } else if (sim_->now() - r->second.sent > o_.missed * o_.heartbeat_ns) {
        // The last one (or its answer) may be lost: a broken link drops what it held.
        Event("node " + std::to_string(n) + " answers heartbeats but not its reset: reset again");
        SendReset(n);
      }
      return;
    }
    case MsgKind::kResetDone: {
      const NodeId n = static_cast<NodeId>(m.from);
      auto r = resetting_.find(n);
      // Only the newest reset's answer: an older one's may come while a newer reset is on its
      // way, and that one would wipe the join begun here.
      if (r == resetting_.end() || r->second.id != m.req) return;
      resetting_.erase(r);
      probation_.erase(n);
      Event("node " + std::to_string(n) + " dropped what it held");
      on_alive_(n);
      return;
    }
    case MsgKind::kSealed: return OnSealed(m);
    case MsgKind::kPrecopyDone: {
      Transition* t = Find(m.range);
      if (t && t->phase == Phase::kPrecopy && t->copy == m.epoch) {
        t->phase = Phase::kInsert;
        Advance(*t);
      }
      return;
    }
    case MsgKind::kReady: {
      Transition* t = Find(m.range);
      if (t && t->phase == Phase::kInsert && t->epoch == m.epoch && t->sealed) {
        t->phase = Phase::kFinal;
        Advance(*t);
      } else {
        ready_.insert({m.range.end, m.epoch});
      }
      return;
    }
    case MsgKind::kReaderNow: {
      Transition* t = Find(m.range);
      if (t && t->phase == Phase::kFinal && t->epoch == m.epoch && t->sealed) {
        Finished(t);
      } else {
        reader_now_.insert({m.range.end, m.epoch});
      }
      return;
    }
    default: return;
  }
}

}  // namespace fawnlab::fawnkv
