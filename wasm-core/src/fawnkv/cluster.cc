#include "fawnkv/cluster.h"

#include <algorithm>
#include <map>
#include <utility>

#include "device/profiles.h"
#include "fawnds/hash_index.h"

namespace fawnlab::fawnkv {

namespace {

// The key at fraction num/den of the ring (the top 64 bits; the rest zero).
Key KeyAt(uint64_t num, uint64_t den) {
  const unsigned __int128 top = (static_cast<unsigned __int128>(num) << 64) / den;
  const uint64_t t = static_cast<uint64_t>(top);
  Key k;
  for (int i = 0; i < 8; ++i) k.bytes[static_cast<size_t>(i)] = static_cast<uint8_t>(t >> (56 - 8 * i));
  return k;
}

// The ring distance from a to b (clockwise), in units of 2^-64 of the ring.
uint64_t Gap(const Key& a, const Key& b) {
  uint64_t x = 0, y = 0;
  for (int i = 0; i < 8; ++i) {
    x = (x << 8) | a.bytes[static_cast<size_t>(i)];
    y = (y << 8) | b.bytes[static_cast<size_t>(i)];
  }
  return y - x;
}

std::string Hex(const Key& k) { return k.Hex(); }

}  // namespace

StatusOr<std::unique_ptr<Cluster>> Cluster::Create(const ClusterOptions& o) {
  if (o.nodes < 1 || o.nodes > kMaxNodes) {
    return Status::InvalidArgument("nodes = " + std::to_string(o.nodes) + " is out of range [1, " + std::to_string(kMaxNodes) + "]");
  }
  if (o.vids < 1 || o.vids > Ring::kMaxVids) {
    return Status::InvalidArgument("V = " + std::to_string(o.vids) + " is out of range [1, " + std::to_string(Ring::kMaxVids) + "]");
  }
  if (o.replication < 1 || o.replication > o.nodes) {
    return Status::InvalidArgument("R = " + std::to_string(o.replication) + " must be in [1, nodes = " + std::to_string(o.nodes) + "]");
  }
  if (o.front_ends < 1 || o.front_ends > 64) return Status::InvalidArgument("front_ends must be in [1, 64]");
  std::unique_ptr<Cluster> c(new Cluster(o));
  c->o_.backend.front_ends = o.front_ends;
  auto ring = Ring::Create(o.replication);
  if (!ring.ok()) return ring.status();
  c->ring_ = std::move(ring).value();
  c->net_ = std::make_unique<Network>(&c->sim_, o.net);
  c->routes_ = std::make_unique<Routes>(o.front_ends);
  if (const device::FlashProfile* p = device::FindFlashProfile(o.backend.profile)) c->card_idle_w_ = p->controller.idle_w;
  for (int f = 0; f < o.front_ends; ++f) {
    c->fronts_.push_back(std::make_unique<FrontEnd>(&c->sim_, c->net_.get(), c->routes_.get(), f, o.front));
    Cluster* self = c.get();
    c->net_->AddEndpoint(FrontEndpoint(f), [self, f](Message& m) { self->OnFrontMessage(f, m); });
  }
  c->coord_ = std::make_unique<Coordinator>(&c->sim_, c->net_.get(), &c->ring_, c->routes_.get(), o.coord, o.vids);
  Cluster* self = c.get();
  c->coord_->set_on_left([self](NodeId n) {
    self->gone_[n] = true;
    self->down_at_[n] = self->sim_.now();
    self->backends_[n]->Fail();  // switched off
  });
  std::vector<NodeId> ids;
  for (int i = 0; i < o.nodes; ++i) {
    const NodeId id = static_cast<NodeId>(i);
    auto b = c->NewBackend(id);
    if (!b.ok()) return b.status();
    auto ch = o.even ? c->ring_.AddNodeAt(id, c->EvenPositions(id, o.vids)) : c->ring_.AddNode(id, o.vids);
    if (!ch.ok()) return ch.status();
    ids.push_back(id);
  }
  // Every range with its chain, in every member.
  const std::vector<Vid>& vids = c->ring_.vids();
  for (size_t i = 0; i < vids.size(); ++i) {
    const KeyRange range{vids[(i + vids.size() - 1) % vids.size()].id, vids[i].id};
    auto chain = c->ring_.Chain(vids[i].id, o.replication);
    if (!chain.ok()) return chain.status();
    auto spec = std::make_shared<ChainSpec>();
    std::vector<NodeId> members;
    for (const Vid& v : chain.value()) {
      spec->chain.push_back(static_cast<Endpoint>(v.node));
      members.push_back(v.node);
    }
    c->routes_->Add(vids.size() == 1 ? KeyRange::All() : range, spec);
    for (NodeId m : members) {
      if (Status s = c->backends_[m]->Bootstrap(vids.size() == 1 ? KeyRange::All() : range, members); !s.ok()) return s;
    }
  }
  c->coord_->StartHeartbeats(ids);
  return c;
}

StatusOr<Backend*> Cluster::NewBackend(NodeId id) {
  BackendOptions bo = o_.backend;
  // Room on the card for every store the node may hold at once: R × V, and joins' new ones.
  const uint64_t stores = static_cast<uint64_t>(o_.replication) * static_cast<uint64_t>(o_.vids) * 2 + 4;
  bo.card_min_bytes = std::max(bo.card_min_bytes, stores * bo.file_bytes + (uint64_t{4} << 20));
  bo.index_dram_bytes = static_cast<uint64_t>(o_.replication) * static_cast<uint64_t>(o_.vids) *
                        (uint64_t{fawnds::HashIndex::kBucketBytes} << bo.index_bits);
  auto b = Backend::Create(&sim_, net_.get(), id, bo);
  if (!b.ok()) return b.status();
  if (backends_.size() <= id) {
    backends_.resize(id + 1);
    gone_.resize(id + 1, false);
    down_at_.resize(id + 1, -1);
    born_at_.resize(id + 1, 0);
  }
  backends_[id] = std::move(b).value();
  born_at_[id] = sim_.now();
  Backend* raw = backends_[id].get();
  net_->AddEndpoint(static_cast<Endpoint>(id), [raw](Message& m) { raw->Receive(m); });
  return raw;
}

std::vector<Key> Cluster::EvenPositions(NodeId id, int count) const {
  std::vector<Key> at;
  if (ring_.vids().empty() || id < static_cast<NodeId>(o_.nodes)) {
    // The initial nodes: VID j of node i at (j·N + i) / (N·V) of the ring.
    const uint64_t n = static_cast<uint64_t>(o_.nodes), v = static_cast<uint64_t>(o_.vids);
    for (int j = 0; j < count; ++j) at.push_back(KeyAt(static_cast<uint64_t>(j) * n + id, n * v));
    return at;
  }
  // A later node: each VID halves the largest range at that moment.
  std::vector<Key> ids;
  for (const Vid& x : ring_.vids()) ids.push_back(x.id);
  for (int j = 0; j < count; ++j) {
    std::sort(ids.begin(), ids.end());
    size_t best = 0;
    uint64_t gap = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
      const uint64_t g = Gap(ids[(i + ids.size() - 1) % ids.size()], ids[i]);
      if (g > gap || (ids.size() == 1)) {
        gap = ids.size() == 1 ? ~uint64_t{0} : g;
        best = i;
      }
    }
    const Key& a = ids[(best + ids.size() - 1) % ids.size()];
    uint64_t x = 0;
    for (int i = 0; i < 8; ++i) x = (x << 8) | a.bytes[static_cast<size_t>(i)];
    const uint64_t mid = x + gap / 2;
    Key k;
    for (int i = 0; i < 8; ++i) k.bytes[static_cast<size_t>(i)] = static_cast<uint8_t>(mid >> (56 - 8 * i));
    at.push_back(k);
    ids.push_back(k);
  }
  return at;
}

void Cluster::set_events(Coordinator::EventFn f) { coord_->set_events(std::move(f)); }

void Cluster::OnFrontMessage(int f, Message& m) {
  switch (m.kind) {
    case MsgKind::kReply:
    case MsgKind::kRetry:
    case MsgKind::kMultiReply:
      fronts_[static_cast<size_t>(f)]->Receive(m);
      return;
    case MsgKind::kReaderNow:
      fronts_[static_cast<size_t>(f)]->Receive(m);
      if (f == 0) coord_->Receive(m);
      return;
    default:
      if (f == 0) coord_->Receive(m);
      return;
  }
}

// --- clients --------------------------------------------------------------------------------

void Cluster::Get(const Key& key, FrontEnd::Done done, const std::string& name) {
  const int f = Ring::FrontEndOf(key, front_ends()).value();
  if (!o_.record_history) return fronts_[static_cast<size_t>(f)]->Get(key, std::move(done));
  const size_t h = history_.Invoke(HistoryOp::Kind::kGet, name.empty() ? Hex(key) : name, "", sim_.now());
  fronts_[static_cast<size_t>(f)]->Get(key, [this, h, done = std::move(done)](const Outcome& o) {
    history_.Complete(h, o.ok, o.found, o.value, o.ok ? sim_.now() : -1);
    if (done) done(o);
  });
}

void Cluster::Put(const Key& key, std::string value, FrontEnd::Done done, const std::string& name) {
  const int f = Ring::FrontEndOf(key, front_ends()).value();
  if (!o_.record_history) return fronts_[static_cast<size_t>(f)]->Put(key, std::move(value), std::move(done));
  const size_t h = history_.Invoke(HistoryOp::Kind::kPut, name.empty() ? Hex(key) : name, value, sim_.now());
  fronts_[static_cast<size_t>(f)]->Put(key, std::move(value), [this, h, done = std::move(done)](const Outcome& o) {
    history_.Complete(h, o.ok, false, "", o.ok ? sim_.now() : -1);
    if (done) done(o);
  });
}

void Cluster::Delete(const Key& key, FrontEnd::Done done, const std::string& name) {
  const int f = Ring::FrontEndOf(key, front_ends()).value();
  if (!o_.record_history) return fronts_[static_cast<size_t>(f)]->Delete(key, std::move(done));
  const size_t h = history_.Invoke(HistoryOp::Kind::kDelete, name.empty() ? Hex(key) : name, "", sim_.now());
  fronts_[static_cast<size_t>(f)]->Delete(key, [this, h, done = std::move(done)](const Outcome& o) {
    history_.Complete(h, o.ok, false, "", o.ok ? sim_.now() : -1);
    if (done) done(o);
  });
}

void Cluster::MultiGet(const std::vector<Key>& keys, FrontEnd::Done done, const std::vector<std::string>& names) {
  // One FrontEnd::MultiGet per front-end owning some of the keys; the answers are put back in order.
  struct Join {
    Outcome all;
    size_t left = 0;
    std::vector<size_t> history;
    FrontEnd::Done done;
  };
  auto j = std::make_shared<Join>();
  j->all.ok = true;
  j->all.answers.resize(keys.size());
  j->done = std::move(done);
  std::map<int, std::vector<size_t>> by_front;
  for (size_t i = 0; i < keys.size(); ++i) {
    by_front[Ring::FrontEndOf(keys[i], front_ends()).value()].push_back(i);
    if (o_.record_history) {
      const std::string name = i < names.size() ? names[i] : Hex(keys[i]);
      j->history.push_back(history_.Invoke(HistoryOp::Kind::kGet, name, "", sim_.now()));
    }
  }
  const sim::SimTime start = sim_.now();
  j->left = by_front.size();
  auto finish = [this, j, start]() {
    if (--j->left > 0) return;
    for (size_t i = 0; i < j->history.size(); ++i) {
      const KeyAnswer& a = j->all.answers[i];
      history_.Complete(j->history[i], a.ok, a.found, a.value, a.ok ? sim_.now() : -1);
    }
    j->all.latency_ns = sim_.now() - start;
    if (j->done) j->done(j->all);
  };
  if (by_front.empty()) {
    j->left = 1;
    return sim_.Schedule(sim_.now(), finish);
  }
  for (auto& [f, idx] : by_front) {
    std::vector<Key> part;
    for (size_t i : idx) part.push_back(keys[i]);
    fronts_[static_cast<size_t>(f)]->MultiGet(std::move(part), [j, idx = idx, finish](const Outcome& o) {
      j->all.ok = j->all.ok && o.ok;
      for (size_t k = 0; k < idx.size() && k < o.answers.size(); ++k) j->all.answers[idx[k]] = o.answers[k];
      finish();
    });
  }
}

Status Cluster::Load(uint64_t n, const std::function<Key(uint64_t)>& key, const std::function<std::string(uint64_t)>& value,
                     const std::function<bool(double)>& progress) {
  // Per back-end queues of the keys it stores, drained `window` at a time.
  constexpr int kWindow = 32;
  struct Q {
    std::vector<uint64_t> keys;
    size_t next = 0;
    int running = 0;
  };
  std::vector<Q> qs(backends_.size());
  for (uint64_t i = 0; i < n; ++i) {
    RouteEntry* e = routes_->Find(key(i));
    if (!e) return Status::InvalidArgument("no range holds a key: the ring is empty");
    for (Endpoint m : e->spec->chain) qs[static_cast<size_t>(m)].keys.push_back(i);
  }
  uint64_t total = 0, done = 0;
  for (const Q& q : qs) total += q.keys.size();
  Status failure;
  std::function<void(size_t)> pump = [&](size_t b) {
    Q& q = qs[b];
    while (q.running < kWindow && q.next < q.keys.size()) {
      const uint64_t i = q.keys[q.next++];
      ++q.running;
      Status s = backends_[b]->Preload(key(i), value(i), [&, b]() {
        --qs[b].running;
        ++done;
        pump(b);
      });
      if (!s.ok()) {
        failure = s;
        return;
      }
    }
  };
  for (size_t b = 0; b < qs.size(); ++b) {
    if (backends_[b]) pump(b);
  }
  uint64_t last = 0;
  while (done < total && failure.ok()) {
    if (!sim_.Step()) break;
    if (progress && done - last >= 4096) {
      last = done;
      if (!progress(static_cast<double>(done) / static_cast<double>(total))) return Status::Cancelled("cancelled");
    }
  }
  if (!failure.ok()) return failure;
  if (done < total) return Status::Internal("the load stopped with " + std::to_string(total - done) + " records unwritten");
  return Status::Ok();
}

// --- membership -----------------------------------------------------------------------------

StatusOr<NodeId> Cluster::AddNode(std::optional<NodeId> want) {
  NodeId id = want.value_or(static_cast<NodeId>(backends_.size()));
  if (id >= static_cast<NodeId>(kMaxNodes)) return Status::InvalidArgument("node ids go up to " + std::to_string(kMaxNodes - 1));
  if (id < backends_.size() && backends_[id]) return Status::InvalidArgument("node " + std::to_string(id) + " already exists");
  auto b = NewBackend(id);
  if (!b.ok()) return b.status();
  Change c{Change::kJoin, id, {}};
  if (o_.even) c.positions = EvenPositions(id, o_.vids);
  coord_->Request(std::move(c));
  return id;
}

Status Cluster::RemoveNode(NodeId id) {
  Backend* b = backend(id);
  if (!b || gone(id) || b->failed()) return Status::InvalidArgument("node " + std::to_string(id) + " is not a live member");
  if (ring_.distinct_nodes() <= o_.replication) {
    return Status::InvalidArgument("the ring needs more than R = " + std::to_string(o_.replication) + " nodes to lose one");
  }
  coord_->Request(Change{Change::kLeave, id, {}});
  return Status::Ok();
}

Status Cluster::FailNode(NodeId id) {
  Backend* b = backend(id);
  if (!b || gone(id) || b->failed()) return Status::InvalidArgument("node " + std::to_string(id) + " is not a live member");
  b->Fail();
  down_at_[id] = sim_.now();
  return Status::Ok();
}

// --- energy ---------------------------------------------------------------------------------

double Cluster::BackendJoules(NodeId id) const {
  const Backend* b = backend(id);
  if (!b) return 0;
  const sim::SimTime end = down_at_[id] >= 0 ? down_at_[id] : sim_.now();
  const double up_s = static_cast<double>(std::max<sim::SimTime>(0, end - born_at_[id])) / 1e9;
  const PowerOptions& p = o_.power;
  const double cpu = p.cpu_active_w * static_cast<double>(b->cpu().busy_ns()) / 1e9;
  const double nic = p.nic_active_w * static_cast<double>(net_->busy_ns(static_cast<Endpoint>(id))) / 2e9;
  // The card's own idle draw is part of the node's 3 W; count only its extra when busy.
  const double card_extra = std::max(0.0, b->flash().Joules() - card_idle_w_ * static_cast<double>(sim_.now() - born_at_[id]) / 1e9);
  return p.node_idle_w * up_s + cpu + nic + card_extra;
}

double Cluster::BackendsJoules() const {
  double j = 0;
  for (size_t i = 0; i < backends_.size(); ++i) j += BackendJoules(static_cast<NodeId>(i));
  return j;
}

int Cluster::switches() const {
  const int ports = o_.nodes + front_ends();
  return (ports + o_.power.switch_ports - 2) / (o_.power.switch_ports - 1);
}

double Cluster::SwitchJoules() const { return o_.power.switch_w * switches() * static_cast<double>(sim_.now()) / 1e9; }
double Cluster::FrontJoules() const { return o_.power.frontend_w * front_ends() * static_cast<double>(sim_.now()) / 1e9; }

}  // namespace fawnlab::fawnkv
