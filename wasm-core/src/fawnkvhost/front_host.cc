#include "fawnkvhost/front_host.h"

#include <algorithm>
#include <map>
#include <utility>

#include "base/json_writer.h"
#include "fawnkv/codec.h"
#include "fawnkv/coordinator.h"
#include "fawnkv/frontend.h"
#include "fawnkv/ring.h"
#include "fawnkv/routes.h"
#include "fawnkvhost/ring_state.h"

namespace fawnlab::fawnkvhost {

namespace {

using fawnkv::Change;
using fawnkv::Endpoint;
using fawnkv::Key;
using fawnkv::Message;
using fawnkv::MsgKind;
using fawnkv::NodeId;
using fawnkv::Outcome;

constexpr size_t kMaxEvents = 1000;  // kept between StatusJson calls
// A back-end that has not answered a heartbeat since it was added (a process still starting:
// loading the core, opening its card) may miss this many times `missed` beats before it is
// declared failed; not in the papers (docs/decisions.md, "A node declared failed that comes back").
constexpr int kMissedFirstFactor = 4;

void WriteRange(JsonWriter& w, const fawnkv::KeyRange& r) {
  w.BeginArray(true);
  w.String(r.start.Hex());
  w.String(r.end.Hex());
  w.EndArray();
}

void WriteIds(JsonWriter& w, const std::vector<NodeId>& ids) {
  w.BeginArray(true);
  for (NodeId n : ids) w.Int(n);
  w.EndArray();
}

class FrontHost : public HostNode {
 public:
  explicit FrontHost(const HostConfig& c)
      : HostNode(c, fawnkv::FrontEndpoint(0)), ring_(fawnkv::Ring::Create(c.replicas).value()), routes_(1) {
    routes_.Add(fawnkv::KeyRange::All(), std::make_shared<fawnkv::ChainSpec>());
    fawnkv::FrontOptions fo;
    fo.cpu_ns = 0;  // real time is the host's
    fo.timeout_ns = c.timeout_ms * sim::kMs;
    fo.cache_entries = c.cache_entries;
    front_ = std::make_unique<fawnkv::FrontEnd>(&sim_, &out_, &routes_, 0, fo);
    fawnkv::CoordOptions co;
    co.heartbeat_ns = c.heartbeat_ms * sim::kMs;
    co.missed = c.missed;
    co.missed_first = kMissedFirstFactor * c.missed;
    coord_ = std::make_unique<fawnkv::Coordinator>(&sim_, &out_, &ring_, &routes_, co, c.vids);
    coord_->set_events([this](const std::string& e) {
      if (events_.size() < kMaxEvents) events_.emplace_back(sim_.now(), e);
    });
    coord_->set_on_failed([this](NodeId n) {
      out_.SetUp(static_cast<Endpoint>(n), false);
      nodes_[static_cast<int>(n)].state = "failed";
    });
    // A node declared failed that answers again (it was starved, not dead), or that said hello
    // again (AddBackend), has been reset by the coordinator (it holds nothing now) and joins
    // afresh: it missed writes while it was out of the chains.
    coord_->set_on_alive([this](NodeId n) {
      auto it = nodes_.find(static_cast<int>(n));
      if (it == nodes_.end() || (it->second.state != "failed" && it->second.state != "joining")) return;
      const std::vector<NodeId> in_ring = ring_.nodes();
      if (std::find(in_ring.begin(), in_ring.end(), n) != in_ring.end()) return;
      out_.SetUp(static_cast<Endpoint>(n), true);
      it->second.state = "joining";
      coord_->Request(Change{Change::kJoin, n, {}});
    });
    coord_->set_on_left([this](NodeId n) {
      out_.SetUp(static_cast<Endpoint>(n), false);
      nodes_.erase(static_cast<int>(n));
    });
    coord_->StartHeartbeats({});
  }

  StatusOr<uint64_t> Put(std::string_view key, std::string_view value) override {
    const uint64_t req = next_req_++;
    if (!CheckKey(req, "put", key)) return req;
    if (value.size() > fawnkv::codec::kMaxValue) {
      Refuse(req, "put", "value of " + std::to_string(value.size()) + " bytes is over the limit " + std::to_string(fawnkv::codec::kMaxValue),
             "too-large");
      return req;
    }
    front_->Put(Key::Hash(key), std::string(value), [this, req](const Outcome& o) { Finish(req, "put", o); });
    RunDue();
    return req;
  }

  StatusOr<uint64_t> Get(std::string_view key) override {
    const uint64_t req = next_req_++;
    if (!CheckKey(req, "get", key)) return req;
    front_->Get(Key::Hash(key), [this, req](const Outcome& o) { Finish(req, "get", o); });
    RunDue();
    return req;
  }

  StatusOr<uint64_t> Del(std::string_view key) override {
    const uint64_t req = next_req_++;
    if (!CheckKey(req, "del", key)) return req;
    front_->Delete(Key::Hash(key), [this, req](const Outcome& o) { Finish(req, "del", o); });
    RunDue();
    return req;
  }

  StatusOr<uint64_t> MultiGet(const std::vector<std::string>& keys) override {
    const uint64_t req = next_req_++;
    if (keys.size() > kMaxMultiGet) {
      Refuse(req, "multiget", std::to_string(keys.size()) + " keys is over the limit " + std::to_string(kMaxMultiGet));
      return req;
    }
    std::vector<Key> hashed;
    for (const std::string& k : keys) {
      if (!CheckKey(req, "multiget", k)) return req;
      hashed.push_back(Key::Hash(k));
    }
    front_->MultiGet(std::move(hashed), [this, req](const Outcome& o) { Finish(req, "multiget", o); });
    RunDue();
    return req;
  }

  std::vector<DoneOp> TakeDone() override {
    std::vector<DoneOp> d;
    d.swap(done_);
    return d;
  }

  Status AddBackend(int id) override {
    if (id < 0 || id > fawnkv::codec::kMaxBackendId) {
      return Status::InvalidArgument("addBackend: id " + std::to_string(id) + " is out of range [0, " + std::to_string(fawnkv::codec::kMaxBackendId) + "]");
    }
    auto it = nodes_.find(id);
    if (it != nodes_.end() && it->second.state == "recovering") return Back(id);
    if (restoring_ && it == nodes_.end()) {  // a new node joins once the restored ring serves
      out_.SetUp(id, true);
      nodes_[id].state = "joining";
      deferred_joins_.push_back(id);
      return Status::Ok();
    }
    if (it != nodes_.end() && it->second.state != "failed") {
      return Status::InvalidArgument("addBackend: node " + std::to_string(id) + " is already " + it->second.state +
                                     " (fail a restarted node first, then add it)");
    }
    out_.SetUp(id, true);
    const bool was_failed = it != nodes_.end();
    nodes_[id].state = "joining";
    // A node declared failed is reset first, whether its process restarted or not: whatever
    // it still holds is stale (the coordinator requests its join once it has dropped it).
    if (!was_failed || !coord_->Readmit(static_cast<NodeId>(id))) coord_->Request(Change{Change::kJoin, static_cast<NodeId>(id), {}});
    RunDue();
    return Status::Ok();
  }

  Status RemoveBackend(int id) override {
    auto it = nodes_.find(id);
    if (it == nodes_.end() || it->second.state != "up") {
      return Status::InvalidArgument("removeBackend: node " + std::to_string(id) + " is not an up member of the ring" +
                                     (it == nodes_.end() ? std::string() : " (it is " + it->second.state + ")"));
    }
    it->second.state = "leaving";
    coord_->Request(Change{Change::kLeave, static_cast<NodeId>(id), {}});
    RunDue();
    return Status::Ok();
  }

  Status FailBackend(int id) override {
    auto it = nodes_.find(id);
    if (it == nodes_.end()) return Status::InvalidArgument("failBackend: node " + std::to_string(id) + " is not in the ring");
    if (it->second.state == "failed") return Status::Ok();  // already declared
    it->second.state = "failed";
    out_.SetUp(id, false);
    coord_->Request(Change{Change::kFail, static_cast<NodeId>(id), {}});
    RunDue();
    return Status::Ok();
  }

  std::string StatusJson() override;
  Status RestoreRing(std::string_view json) override;
  std::string RingJson() const override;
  uint64_t RingVersion() const override { return coord_->generation() + restore_gen_; }

 protected:
  void Receive(Message& m) override {
    switch (m.kind) {
      case MsgKind::kRestored:
        return OnRestored(m);
      case MsgKind::kReply:
      case MsgKind::kRetry:
      case MsgKind::kMultiReply:
        return front_->Receive(m);
      case MsgKind::kReaderNow:
        front_->Receive(m);
        return coord_->Receive(m);
      default:
        return coord_->Receive(m);
    }
  }

 private:
  struct NodeView {
    std::string state = "joining";  // joining, up, leaving, failed
    uint64_t served = 0;
  };

  bool CheckKey(uint64_t req, const char* op, std::string_view key) {
    if (!key.empty() && key.size() <= kMaxKeyBytes) return true;
    Refuse(req, op, "key of " + std::to_string(key.size()) + " bytes: keys must be 1 to " + std::to_string(kMaxKeyBytes) + " bytes");
    return false;
  }
  void Refuse(uint64_t req, const char* op, std::string why, const char* status = "bad-request") {
    DoneOp d;
    d.req = req;
    d.op = op;
    d.error = std::move(why);
    d.status = status;
    done_.push_back(std::move(d));
  }
  void Finish(uint64_t req, const char* op, const Outcome& o) {
    DoneOp d;
    d.req = req;
    d.op = op;
    d.ok = o.ok;
    d.found = o.found;
    d.value = o.value;
    d.values = o.answers;
    d.latency_ns = o.latency_ns;
    d.cache_hit = o.cache_hit;
    if (o.served_by != fawnkv::kNobody && !fawnkv::IsFrontEnd(o.served_by)) d.served_by = o.served_by;
    if (!o.ok && o.status == fawnkv::ReplyStatus::kNoSpace) {
      d.status = "no-space";
      d.error = std::string("out of memory: the back-end's store has no room for it (the ") + (d.op == "del" ? "delete" : "put") +
                " was not applied)";
    } else if (!o.ok) {
      d.status = "timeout";
      d.error = "no answer within " + std::to_string(config_.timeout_ms) + " ms" +
                (d.op == "put" || d.op == "del" ? std::string(" (it may or may not have taken effect)") : std::string());
    }
    if (o.served_by != fawnkv::kNobody) {
      auto it = nodes_.find(static_cast<int>(o.served_by));
      if (it != nodes_.end()) ++it->second.served;
    }
    done_.push_back(std::move(d));
  }
  // A joining node is up once the ring holds it and none of the running change's ranges
  // still waits for it.
  void Settle() {
    const std::vector<NodeId> in_ring = ring_.nodes();
    for (auto& [id, v] : nodes_) {
      if (v.state != "joining") continue;
      if (std::find(in_ring.begin(), in_ring.end(), static_cast<NodeId>(id)) == in_ring.end()) continue;
      bool waiting = false;
      for (const fawnkv::Transition& t : coord_->transitions()) {
        waiting = waiting || (t.joiner == id && t.phase != fawnkv::Phase::kDone);
      }
      if (!waiting) v.state = "up";
    }
  }

  // Whole-cluster restart (RestoreRing): back-ends are "recovering" until they say hello
  // (AddBackend) or recover_ms passes; then the missing ones are cut out of every chain and
  // failed, and the others are sent kRestore per range they hold; a node whose stores do not
  // cover its ranges is failed and added again (copied afresh).
  Status Back(int id);
  void SendRestore(int id);
  void StartRestore();
  void OnRestored(const Message& m);
  void Event(std::string e) {
    if (events_.size() < kMaxEvents) events_.emplace_back(sim_.now(), std::move(e));
  }

  fawnkv::Ring ring_;
  fawnkv::Routes routes_;
  bool restoring_ = false;                 // waiting for the restored ring's back-ends
  std::map<int, bool> back_;               // recovering node → said hello
  std::map<int, int> restore_pending_;     // node → kRestored answers still due
  std::map<int, bool> restore_bad_;        // node → some range was not covered
  std::vector<int> deferred_joins_;        // new nodes that said hello while restoring
  uint64_t restore_gen_ = 0;
  std::unique_ptr<fawnkv::FrontEnd> front_;
  std::unique_ptr<fawnkv::Coordinator> coord_;
  uint64_t next_req_ = 1;
  std::vector<DoneOp> done_;
  std::map<int, NodeView> nodes_;
  std::vector<std::pair<int64_t, std::string>> events_;
};

Status FrontHost::RestoreRing(std::string_view json) {
  if (!ring_.vids().empty() || !nodes_.empty()) return Status::InvalidArgument("restoreRing: the ring is not empty");
  StatusOr<RingState> parsed = ParseRingState(json);
  if (!parsed.ok()) return parsed.status();
  const RingState& st = parsed.value();
  if (st.replicas != config_.replicas || st.vids != config_.vids) {
    return Status::InvalidArgument("it was written with replicas = " + std::to_string(st.replicas) + " and vids = " + std::to_string(st.vids) +
                                   ", but this cluster runs with replicas = " + std::to_string(config_.replicas) + " and vids = " +
                                   std::to_string(config_.vids) + " (give the same --replicas/--vids)");
  }
  fawnkv::Ring ring = fawnkv::Ring::Create(config_.replicas).value();
  for (const RingState::Node& n : st.nodes) {
    auto added = ring.AddNodeAt(static_cast<NodeId>(n.id), n.vids);
    if (!added.ok()) return Status::InvalidArgument("node " + std::to_string(n.id) + ": " + added.status().message());
  }
  ring_ = std::move(ring);
  routes_ = fawnkv::Routes(1);
  for (const RingState::Chain& c : st.chains) {
    auto spec = std::make_shared<fawnkv::ChainSpec>();
    for (int id : c.chain) spec->chain.push_back(static_cast<Endpoint>(id));
    routes_.Add(c.range, spec);
    // Two above the persisted epoch: a back-end may have sealed one more before the stop, and
    // anything stamped with an older epoch is then ignored.
    routes_.Find(c.range.end)->epoch = c.epoch + 2;
  }
  for (const RingState::Node& n : st.nodes) {
    nodes_[n.id].state = "recovering";
    back_[n.id] = false;
  }
  restoring_ = !st.nodes.empty();
  ++restore_gen_;
  Event("ring restored: " + std::to_string(st.nodes.size()) + " back-end(s), " + std::to_string(st.chains.size()) +
        " range(s); waiting up to " + std::to_string(config_.recover_ms / 1000.0).substr(0, 4) + " s for the back-ends");
  if (restoring_) sim_.Schedule(sim_.now() + config_.recover_ms * sim::kMs, [this]() { StartRestore(); });
  return Status::Ok();
}

Status FrontHost::Back(int id) {
  out_.SetUp(id, true);
  if (restoring_) {
    back_[id] = true;
    bool all = true;
    for (const auto& [n, b] : back_) all = all && b;
    if (all) StartRestore();
  } else {
    SendRestore(id);  // came back after the restore started (e.g. its connection broke): ask again
  }
  RunDue();
  return Status::Ok();
}

void FrontHost::SendRestore(int id) {
  restore_pending_[id] = 0;
  for (fawnkv::RouteEntry* e : routes_.All()) {
    if (std::find(e->spec->chain.begin(), e->spec->chain.end(), id) == e->spec->chain.end()) continue;
    Message m;
    m.kind = MsgKind::kRestore;
    m.from = fawnkv::FrontEndpoint(0);
    m.to = id;
    m.range = e->range;
    m.epoch = e->epoch;
    m.spec = e->spec;
    out_.Send(std::move(m));
    ++restore_pending_[id];
  }
  if (restore_pending_[id] == 0) {
    nodes_[id].state = "up";
    coord_->Watch(static_cast<NodeId>(id));
  }
}

void FrontHost::StartRestore() {
  if (!restoring_) return;
  restoring_ = false;
  std::vector<int> missing, present;
  for (const auto& [id, b] : back_) (b ? present : missing).push_back(id);
  // The missing cannot have taken writes since: cut them out of every chain at once (no seal
  // needed — the survivors are bootstrapped with these chains), then fail them below.
  for (fawnkv::RouteEntry* e : routes_.All()) {
    auto spec = std::make_shared<fawnkv::ChainSpec>();
    for (Endpoint m : e->spec->chain) {
      if (!back_[static_cast<int>(m)]) continue;
      spec->chain.push_back(m);
    }
    if (spec->chain.empty() && !e->spec->chain.empty()) Event("range lost: none of its replicas came back");
    e->head = spec->chain.empty() ? fawnkv::kNobody : spec->chain.front();
    e->readers.assign(e->readers.size(), fawnkv::ReplierOf(*spec));
    e->spec = spec;
  }
  ++restore_gen_;
  back_.clear();
  for (int id : present) {
    restore_bad_[id] = false;
    nodes_[id].state = "recovering";
    SendRestore(id);
  }
  for (int id : missing) {
    Event("node " + std::to_string(id) + " did not come back within " + std::to_string(config_.recover_ms) + " ms: failed");
    nodes_[id].state = "failed";
    out_.SetUp(id, false);
    coord_->Request(Change{Change::kFail, static_cast<NodeId>(id), {}});
  }
  for (int id : deferred_joins_) coord_->Request(Change{Change::kJoin, static_cast<NodeId>(id), {}});
  deferred_joins_.clear();
}

void FrontHost::OnRestored(const Message& m) {
  const int id = static_cast<int>(m.from);
  auto it = restore_pending_.find(id);
  if (it == restore_pending_.end() || it->second == 0 || nodes_[id].state != "recovering") return;
  if (!m.found) restore_bad_[id] = true;
  if (--it->second > 0) return;
  if (!restore_bad_[id]) {
    nodes_[id].state = "up";
    coord_->Watch(static_cast<NodeId>(id));
    Event("node " + std::to_string(id) + " recovered: serving its ranges from its stores");
    return;
  }
  Event("node " + std::to_string(id) + " could not serve its ranges from its stores: failed, joining afresh");
  nodes_[id].state = "up";  // so FailBackend takes it
  (void)FailBackend(id);
  (void)AddBackend(id);
}

std::string FrontHost::RingJson() const {
  RingState st;
  st.replicas = config_.replicas;
  st.vids = config_.vids;
  std::map<int, std::vector<fawnkv::Vid>> by_node;
  for (const fawnkv::Vid& v : ring_.vids()) by_node[static_cast<int>(v.node)].push_back(v);
  for (auto& [id, vids] : by_node) {
    std::sort(vids.begin(), vids.end(), [](const fawnkv::Vid& a, const fawnkv::Vid& b) { return a.index < b.index; });
    RingState::Node n;
    n.id = id;
    for (const fawnkv::Vid& v : vids) n.vids.push_back(v.id);
    st.nodes.push_back(std::move(n));
  }
  for (fawnkv::RouteEntry* e : const_cast<fawnkv::Routes&>(routes_).All()) {
    RingState::Chain c;
    c.range = e->range;
    c.epoch = e->epoch;
    // A joiner that has not merged does not hold the range's earlier writes, and a node the
    // ring no longer holds (failing or leaving, its repair not sealed yet) is on its way out:
    // neither is named. The others each hold every acknowledged write of the range.
    for (Endpoint m : e->spec->chain) {
      if (m != e->spec->joiner && by_node.count(static_cast<int>(m))) c.chain.push_back(static_cast<int>(m));
    }
    st.chains.push_back(std::move(c));
  }
  return RingStateJson(st);
}

std::string FrontHost::StatusJson() {
  Settle();
  JsonWriter w;
  w.BeginObject();
  w.Key("role");
  w.String("frontend");
  w.Key("nowNs");
  w.Int(sim_.now());
  w.Key("nodes");
  w.BeginArray();
  std::map<int, int> vids;
  for (const fawnkv::Vid& v : ring_.vids()) ++vids[static_cast<int>(v.node)];
  for (const auto& [id, v] : nodes_) {
    w.BeginObject();
    w.Key("id");
    w.Int(id);
    w.Key("state");
    w.String(v.state);
    w.Key("vids");
    w.Int(vids[id]);
    w.Key("served");
    w.Int(static_cast<int64_t>(v.served));
    w.EndObject();
  }
  w.EndArray();
  w.Key("ring");
  w.BeginArray();
  for (const fawnkv::Vid& v : ring_.vids()) {
    w.BeginObject();
    w.Key("vid");
    w.String(v.id.Hex());
    w.Key("node");
    w.Int(v.node);
    w.Key("index");
    w.Int(v.index);
    w.EndObject();
  }
  w.EndArray();
  w.Key("chains");
  w.BeginArray();
  for (fawnkv::RouteEntry* e : routes_.All()) {
    w.BeginObject();
    w.Key("range");
    WriteRange(w, e->range);
    w.Key("chain");
    std::vector<NodeId> chain;
    for (Endpoint m : e->spec->chain) chain.push_back(static_cast<NodeId>(m));
    WriteIds(w, chain);
    w.Key("epoch");
    w.Int(static_cast<int64_t>(e->epoch));
    w.Key("reader");
    w.Int(e->readers[0] == fawnkv::kNobody ? -1 : e->readers[0]);
    w.EndObject();
  }
  w.EndArray();
  w.Key("changes");
  w.BeginArray();
  for (const fawnkv::Transition& t : coord_->transitions()) {
    w.BeginObject();
    w.Key("range");
    WriteRange(w, t.range);
    w.Key("phase");
    w.String(fawnkv::PhaseName(t.phase));
    w.Key("oldChain");
    WriteIds(w, t.old_chain);
    w.Key("newChain");
    WriteIds(w, t.new_chain);
    w.Key("joiner");
    w.Int(t.joiner == fawnkv::kNobody ? -1 : t.joiner);
    w.Key("donor");
    w.Int(t.donor == fawnkv::kNobody ? -1 : t.donor);
    w.EndObject();
  }
  w.EndArray();
  w.Key("busy");
  w.Bool(coord_->busy());
  const fawnkv::FrontStats& s = front_->stats();
  w.Key("stats");
  w.BeginObject();
  const std::pair<const char*, uint64_t> counters[] = {
      {"gets", s.gets}, {"puts", s.puts}, {"deletes", s.deletes}, {"multigets", s.multigets}, {"answered", s.answered},
      {"failed", s.failed}, {"retries", s.retries}, {"cacheHits", s.cache_hits}, {"framesSent", out_.frames_sent()},
      {"bytesSent", out_.bytes_sent()}, {"dropped", out_.dropped()}};
  for (const auto& [name, value] : counters) {
    w.Key(name);
    w.Int(static_cast<int64_t>(value));
  }
  w.EndObject();
  w.Key("events");
  w.BeginArray();
  for (const auto& [t, text] : events_) {
    w.BeginObject();
    w.Key("tNs");
    w.Int(t);
    w.Key("text");
    w.String(text);
    w.EndObject();
  }
  w.EndArray();
  events_.clear();
  w.EndObject();
  return w.str();
}

}  // namespace

StatusOr<std::unique_ptr<HostNode>> MakeFrontHost(const HostConfig& c) {
  return std::unique_ptr<HostNode>(new FrontHost(c));
}

}  // namespace fawnlab::fawnkvhost
