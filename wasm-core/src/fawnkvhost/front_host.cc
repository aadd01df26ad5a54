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
    coord_ = std::make_unique<fawnkv::Coordinator>(&sim_, &out_, &ring_, &routes_, co, c.vids);
    coord_->set_events([this](const std::string& e) {
      if (events_.size() < kMaxEvents) events_.emplace_back(sim_.now(), e);
    });
    coord_->set_on_failed([this](NodeId n) {
      out_.SetUp(static_cast<Endpoint>(n), false);
      nodes_[static_cast<int>(n)].state = "failed";
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
      Refuse(req, "put", "value of " + std::to_string(value.size()) + " bytes is over the limit " + std::to_string(fawnkv::codec::kMaxValue));
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
    if (it != nodes_.end() && it->second.state != "failed") {
      return Status::InvalidArgument("addBackend: node " + std::to_string(id) + " is already " + it->second.state +
                                     " (fail a restarted node first, then add it)");
    }
    out_.SetUp(id, true);
    nodes_[id].state = "joining";
    coord_->Request(Change{Change::kJoin, static_cast<NodeId>(id), {}});
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

 protected:
  void Receive(Message& m) override {
    switch (m.kind) {
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
  void Refuse(uint64_t req, const char* op, std::string why) {
    DoneOp d;
    d.req = req;
    d.op = op;
    d.error = std::move(why);
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
    if (!o.ok) {
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

  fawnkv::Ring ring_;
  fawnkv::Routes routes_;
  std::unique_ptr<fawnkv::FrontEnd> front_;
  std::unique_ptr<fawnkv::Coordinator> coord_;
  uint64_t next_req_ = 1;
  std::vector<DoneOp> done_;
  std::map<int, NodeView> nodes_;
  std::vector<std::pair<int64_t, std::string>> events_;
};

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
