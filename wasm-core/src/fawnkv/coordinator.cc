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

void Coordinator::Watch(NodeId n) { last_seen_[n] = sim_->now(); }

void Coordinator::Beat() {
  ++beat_;
  std::vector<NodeId> dead;
  for (auto& [n, seen] : last_seen_) {
    if (sim_->now() - seen > o_.missed * o_.heartbeat_ns) {
      dead.push_back(n);
      continue;
    }
    Message h;
    h.kind = MsgKind::kHeartbeat;
    h.from = FrontEndpoint(0);
    h.to = static_cast<Endpoint>(n);
    h.seq = beat_;
    net_->Send(std::move(h));
  }
  for (NodeId n : dead) {
    last_seen_.erase(n);
    failed_.insert(n);
    Event("node " + std::to_string(n) + " failed: " + std::to_string(o_.missed) + " heartbeats missed");
    if (on_failed_) on_failed_(n);
    Request(Change{Change::kFail, n, {}});
  }
  sim_->Schedule(sim_->now() + o_.heartbeat_ns, [this]() { Beat(); });
}

// --- changes --------------------------------------------------------------------------------

void Coordinator::Request(Change c) {
  queue_.push_back(std::move(c));
  if (!current_) Next();
}

void Coordinator::Next() {
  while (!current_ && !queue_.empty()) {
    Change c = std::move(queue_.front());
    queue_.pop_front();
    current_ = std::make_unique<Change>(c);
    StartChange(c);
  }
}

void Coordinator::StartChange(const Change& c) {
  transitions_.clear();
  pending_joins_.clear();
  const bool join = c.kind == Change::kJoin;
  StatusOr<std::vector<RangeChange>> changes =
      !join ? ring_->RemoveNode(c.node) : c.positions.empty() ? ring_->AddNode(c.node, vids_) : ring_->AddNodeAt(c.node, c.positions);
  std::string what;
  if (join) {
    what = "joins";
    if (changes.ok()) Watch(c.node);
  } else {
    what = c.kind == Change::kLeave ? "leaves" : "is replaced";
    last_seen_.erase(c.node);
  }
  if (!changes.ok()) {
    Event("node " + std::to_string(c.node) + ": " + changes.status().message());
    current_.reset();
    return;
  }
  ++generation_;
  const Endpoint gone = c.kind == Change::kFail ? static_cast<Endpoint>(c.node) : kNobody;
  // A failure: first take the dead node out of every chain it was in, so puts flow again.
  if (gone != kNobody) {
    for (RouteEntry* e : routes_->All()) {
      if (!Has(e->spec->chain, gone)) continue;
      Transition t;
      t.range = e->range;
      t.old_chain = Nodes(e->spec->chain);
      auto spec = std::make_shared<ChainSpec>();
      for (Endpoint m : e->spec->chain) {
        if (m != gone) spec->chain.push_back(m);
      }
      t.new_chain = Nodes(spec->chain);
      t.phase = Phase::kRepair;
      if (spec->chain.empty()) {
        Event("range lost: its only replica failed (R = 1)");
        continue;
      }
      t.spec = spec;
      t.sealer = e->head == gone ? spec->chain.front() : e->head;
      transitions_.push_back(std::move(t));
    }
  }
  int joins = 0;
  for (const RangeChange& rc : changes.value()) {
    std::vector<Endpoint> next;
    for (const Vid& v : rc.new_chain) next.push_back(static_cast<Endpoint>(v.node));
    for (RouteEntry* e : routes_->Cover(rc.range)) {
      std::vector<Endpoint> cur;
      for (Endpoint m : e->spec->chain) {
        if (m != gone) cur.push_back(m);
      }
      if (cur == next) continue;
      Transition t;
      t.range = e->range;
      t.old_chain = Nodes(cur);
      t.new_chain = Nodes(next);
      for (Endpoint m : next) {
        if (!Has(cur, m)) t.joiner = m;
      }
      t.donor = cur.empty() ? kNobody : ReplierOf(ChainSpec{cur, kNobody, kNobody});
      t.phase = (t.joiner != kNobody && t.donor != kNobody) ? Phase::kPrecopy : Phase::kFinal;
      if (t.joiner != kNobody && t.donor != kNobody) ++joins;
      pending_joins_.push_back(std::move(t));
    }
  }
  Event("node " + std::to_string(c.node) + " " + what + ": " + std::to_string(pending_joins_.size()) + " range(s) change chain, " +
        std::to_string(joins) + " copied");
  if (transitions_.empty()) {
    transitions_.swap(pending_joins_);
  } else {
    repairing_ = true;
  }
  if (transitions_.empty()) return Finished(nullptr);
  for (Transition& t : transitions_) Advance(t);
}

void Coordinator::Advance(Transition& t) {
  RouteEntry& e = *routes_->Cover(t.range).front();
  switch (t.phase) {
    case Phase::kRepair:
      Seal(t, t.spec, t.sealer);
      return;
    case Phase::kPrecopy: {
      Message m;
      m.kind = MsgKind::kPrecopyStart;
      m.from = FrontEndpoint(0);
      m.to = t.donor;
      m.range = t.range;
      m.peer = t.joiner;
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
      Seal(t, spec, e.head != kNobody && net_->up(e.head) ? e.head : spec->chain.front());
      return;
    }
    case Phase::kDone: return;
  }
}

void Coordinator::Seal(Transition& t, std::shared_ptr<const ChainSpec> spec, Endpoint sealer) {
  RouteEntry& e = *routes_->Cover(t.range).front();
  t.epoch = e.epoch + 1;
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
      if (std::all_of(transitions_.begin(), transitions_.end(), [](const Transition& x) { return x.phase == Phase::kDone; })) {
        repairing_ = false;
        transitions_.swap(pending_joins_);
        pending_joins_.clear();
        if (transitions_.empty()) return Finished(nullptr);
        for (Transition& x : transitions_) Advance(x);
      }
      return;
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
  if (t && t->phase != Phase::kRepair) {
    std::vector<Endpoint> keep;
    for (NodeId n : t->new_chain) keep.push_back(static_cast<Endpoint>(n));
    std::vector<Endpoint> out;
    for (NodeId n : t->old_chain) out.push_back(static_cast<Endpoint>(n));
    if (t->donor != kNobody) out.push_back(t->donor);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    for (Endpoint n : out) {
      if (Has(keep, n) || !net_->up(n)) continue;
      Message r;
      r.kind = MsgKind::kRelease;
      r.from = FrontEndpoint(0);
      r.to = n;
      r.range = t->range;
      net_->Send(std::move(r));
    }
    t->phase = Phase::kDone;
    if (t->joiner != kNobody && t->donor != kNobody) Event("range copied to node " + std::to_string(t->joiner) + "; chain now complete");
  }
  for (const Transition& x : transitions_) {
    if (x.phase != Phase::kDone) return;
  }
  if (!current_) return;
  const Change c = *current_;
  current_.reset();
  Event("node " + std::to_string(c.node) + (c.kind == Change::kJoin ? " joined" : c.kind == Change::kLeave ? " left" : " replaced") +
        " at " + Seconds(sim_->now()));
  if (c.kind == Change::kLeave && on_left_) on_left_(c.node);
  Next();
}

void Coordinator::Receive(Message& m) {
  switch (m.kind) {
    case MsgKind::kHeartbeatReply: {
      auto it = last_seen_.find(static_cast<NodeId>(m.from));
      if (it != last_seen_.end()) it->second = sim_->now();
      return;
    }
    case MsgKind::kSealed: return OnSealed(m);
    case MsgKind::kPrecopyDone: {
      Transition* t = Find(m.range);
      if (t && t->phase == Phase::kPrecopy) {
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
