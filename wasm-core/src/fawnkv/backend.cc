#include "fawnkv/backend.h"

#include <sys/stat.h>

#include <algorithm>
#include <cassert>
#include <utility>

#include "device/profiles.h"
#include "fawnds/record.h"

namespace fawnlab::fawnkv {

namespace {
constexpr uint64_t kMaxRequest = 128 * 1024;  // the block layer's largest request (fawnds/experiments/rig.cc)
constexpr uint64_t kBatchBytes = 32 * 1024;   // pre-copy and flush messages carry up to this much
}  // namespace

// A donor's scan of one range of its store's log: the pre-copy (live records from the log's
// start until caught up) or the flush (every in-range record between two offsets).
struct Backend::Scan {
  KeyRange range;
  Endpoint joiner;
  size_t store = 0;
  const fawnds::DataStore* ds = nullptr;
  uint64_t pos = 0, until = 0;  // until: 0 = the log's end when caught up (pre-copy)
  bool flush = false;
  uint64_t id = 0;  // the coordinator's copy id (every message of the copy carries it)
  int in_flight = 0;
  bool reading = false, done = false;
  std::shared_ptr<std::vector<KvRecord>> batch;
  uint64_t batch_bytes = 0;
};

Backend::Backend(sim::Simulator* sim, Transport* net, NodeId id, const BackendOptions& o)
    : sim_(sim), net_(net), id_(id), o_(o) {}
Backend::~Backend() = default;

StatusOr<std::unique_ptr<Backend>> Backend::Create(sim::Simulator* sim, Transport* net, NodeId id, const BackendOptions& o) {
  if (!o.file_path.empty()) {
    std::unique_ptr<Backend> b(new Backend(sim, net, id, o));
    if (Status s = b->OpenDevice(); !s.ok()) return s;
    return b;
  }
  const device::FlashProfile* prof = device::FindFlashProfile(o.profile);
  if (!prof) return Status::InvalidArgument("unknown flash profile '" + o.profile + "'");
  std::unique_ptr<Backend> b(new Backend(sim, net, id, o));
  const uint64_t capacity =
      std::max(o.card_min_bytes, static_cast<uint64_t>(static_cast<double>(prof->capacity_bytes) * o.scale));
  auto flash = device::MakeFlash(sim, *prof, capacity);
  if (!flash.ok()) return flash.status();
  b->flash_ = std::move(flash).value();
  if (o.prefill) b->flash_->FillSequential([](uint64_t lpn) { return lpn; });
  const double dram = static_cast<double>(o.dram_bytes) * o.scale, os = static_cast<double>(o.os_bytes) * o.scale;
  // The page cache gets what the OS and the indexes of the node's stores leave.
  const double free = dram - os - static_cast<double>(o.index_dram_bytes);
  if (free < 64 * 4096) {
    return Status::InvalidArgument("back-end " + std::to_string(id) + ": " + std::to_string(static_cast<uint64_t>(dram) >> 10) +
                                   " KB of DRAM less the OS's " + std::to_string(static_cast<uint64_t>(os) >> 10) + " KB and the indexes' " +
                                   std::to_string(o.index_dram_bytes >> 10) + " KB leaves no page cache; use a smaller scale divisor");
  }
  b->cache_bytes_ = static_cast<uint64_t>(free);
  const device::WriteBackOptions wb = device::WriteBackOptions::Linux(free, kMaxRequest);  // as fawnds/experiments/rig.cc
  fawnds::CpuCosts costs;
  b->cache_ = std::make_unique<device::PageCache>(b->flash_.get(), b->cache_bytes_, costs.copy_ns_per_kb, wb);
  b->dev_ = b->cache_.get();
  b->cpu_ = std::make_unique<fawnds::HostCpu>(sim, costs);
  fawnds::NodeOptions no;
  no.index_bits = o.index_bits;
  no.file_bytes = o.file_bytes;
  no.lock_hold_ns = o.lock_hold_ns;
  no.scan_chunk = o.scan_chunk;
  // A node starts with no range of its own: a placeholder store is made and removed at once
  // (Node::Create needs one), so the datastore list exists on the card from the start.
  auto node = fawnds::Node::Create(b->cache_.get(), no, {fawnds::KeyRange{fawnds::Key::FromU64(1), fawnds::Key::FromU64(2)}});
  if (!node.ok()) return node.status();
  b->node_ = std::move(node).value();
  if (Status s = b->node_->RemoveStore(0, nullptr); !s.ok()) return s;
  return b;
}

Status Backend::OpenDevice() {
  const std::string who = "back-end " + std::to_string(id_) + ": ";
  if (o_.card_min_bytes == 0) return Status::InvalidArgument(who + "a file-backed card needs its size (card_min_bytes)");
  struct stat st;
  const bool existed = ::stat(o_.file_path.c_str(), &st) == 0 && st.st_size > 0;
  auto f = device::FileDevice::Open(sim_, o_.file_path, o_.card_min_bytes);
  if (!f.ok()) return Status::Unavailable(who + f.status().message());
  file_ = std::move(f).value();
  dev_ = file_.get();
  // Real time is the host's: no modelled CPU (the requests' real cost is the process's own).
  fawnds::CpuCosts none;
  none.base_ns = 0;
  none.line_ns = 0;
  none.fixed_lines = 0;
  none.copy_ns_per_kb = 0;
  cpu_ = std::make_unique<fawnds::HostCpu>(sim_, none);
  fawnds::NodeOptions no;
  no.index_bits = o_.index_bits;
  no.file_bytes = o_.file_bytes;
  no.lock_hold_ns = 0;
  no.scan_chunk = o_.scan_chunk;
  if (existed) {
    fawnds::Node::Recovery rep;
    auto node = fawnds::Node::Recover(dev_, no, &rep);
    if (!node.ok()) {
      return Status::Corruption(who + "cannot recover the stores in '" + o_.file_path + "': " + node.status().message() +
                                " (move the data directory away to start empty)");
    }
    node_ = std::move(node).value();
    recovered_.stores = node_->num_stores();
    for (size_t i = 0; i < node_->num_stores(); ++i) {
      recovered_.records += node_->store(i).live_keys();
      recovered_.ranges.push_back(node_->range(i));
      stale_.push_back(node_->range(i).end);
      unknown_garbage_.push_back(&node_->store(i));
    }
    return Status::Ok();
  }
  auto node = fawnds::Node::Create(dev_, no, {fawnds::KeyRange{fawnds::Key::FromU64(1), fawnds::Key::FromU64(2)}});
  if (!node.ok()) return node.status();
  node_ = std::move(node).value();
  recovered_.detail = "new file";
  return node_->RemoveStore(0, nullptr);
}

Status Backend::CheckpointAll(std::function<void(const Status&)> done) { return node_->CheckpointAll(std::move(done)); }

namespace {
// Whether ring ranges (a.start, a.end] and (b.start, b.end] share a key.
bool Overlap(const KeyRange& a, const KeyRange& b) { return a.Contains(b.end) || b.Contains(a.end); }
}  // namespace

void Backend::DropStale(const KeyRange& range) {
  for (size_t k = 0; k < stale_.size();) {
    const int st = node_->StoreOf(stale_[k]);
    if (st < 0 || !(node_->range(static_cast<size_t>(st)).end == stale_[k])) {
      stale_.erase(stale_.begin() + static_cast<long>(k));
      continue;
    }
    if (Overlap(node_->range(static_cast<size_t>(st)), range)) {
      (void)node_->RemoveStore(static_cast<size_t>(st), nullptr);
      stale_.erase(stale_.begin() + static_cast<long>(k));
      continue;
    }
    ++k;
  }
}

void Backend::Fail() {
  failed_ = true;
  net_->SetUp(id_, false);
  client_.q.clear();
  chain_.q.clear();
}

uint64_t Backend::records() const {
  uint64_t n = 0;
  for (size_t i = 0; i < node_->num_stores(); ++i) n += node_->store(i).live_keys();
  return n;
}

uint64_t Backend::log_bytes() const {
  uint64_t n = 0;
  for (size_t i = 0; i < node_->num_stores(); ++i) n += node_->store(i).log_end();
  return n;
}

std::vector<Backend::JoinView> Backend::joins() const {
  std::vector<JoinView> v;
  for (const auto& [end, s] : segs_) {
    if (s.joining) v.push_back(JoinView{s.range, s.precopy_done, s.flush_done, s.merged, s.received});
  }
  return v;
}

// --- segments -------------------------------------------------------------------------------

Backend::Seg* Backend::SegOf(const Key& key) {
  if (segs_.empty()) return nullptr;
  auto it = segs_.lower_bound(key);
  if (it == segs_.end()) it = segs_.begin();
  return it->second.range.Contains(key) ? &it->second : nullptr;
}

Backend::Seg& Backend::SegFor(const KeyRange& r) {
  Seg* s = SegOf(r.end);
  if (s && s->range.start == r.start && s->range.end == r.end) return *s;
  if (!s) {
    Seg fresh;
    fresh.range = r;
    return segs_.emplace(r.end, std::move(fresh)).first->second;
  }
  // Split the segment holding r into the pieces before r, r itself and after it; each piece
  // inherits the chain state (sequence numbers are the parent's, so they still only grow).
  Seg parent = std::move(*s);
  segs_.erase(parent.range.end);
  std::vector<KeyRange> pieces;
  const bool whole = parent.range.start == parent.range.end;
  if (!(r.start == parent.range.start) || whole) pieces.push_back(KeyRange{parent.range.start, r.start});
  pieces.push_back(r);
  if (!(r.end == parent.range.end)) pieces.push_back(KeyRange{r.end, parent.range.end});
  if (whole && pieces.size() == 3) {  // the whole ring: before and after are one piece
    pieces = {r, KeyRange{r.end, r.start}};
  }
  for (const KeyRange& pr : pieces) {
    Seg c;
    c.range = pr;
    c.epochs = parent.epochs;
    c.applied = parent.applied;
    c.counter = parent.counter;
    c.mark = parent.mark;
    c.flush_due = parent.flush_due;
    c.chain_room = parent.chain_room;
    c.copy = parent.copy;
    for (const Unacked& u : parent.unacked) {
      if (pr.Contains(u.key)) c.unacked.push_back(u);
    }
    for (const Message& w : parent.waiting) {
      if (pr.Contains(w.key)) c.waiting.push_back(w);
    }
    segs_.emplace(pr.end, std::move(c));
  }
  return *SegOf(r.end);
}

const Backend::Epoch* Backend::EpochAt(const Seg& s, uint64_t epoch) const {
  const Epoch* e = nullptr;
  for (const Epoch& x : s.epochs) {
    if (x.epoch <= epoch) e = &x;
  }
  return e;
}

bool Backend::Reads(const Seg& s) const {
  const Epoch* e = Current(s);
  return e && e->member && e->role.replier && !s.released && (!e->role.temp || s.merged);
}

// --- bootstrap and preload ------------------------------------------------------------------

Status Backend::Bootstrap(const KeyRange& range, const std::vector<NodeId>& chain) {
  auto spec = std::make_shared<ChainSpec>();
  for (NodeId n : chain) spec->chain.push_back(static_cast<Endpoint>(n));
  Seg& s = SegFor(range);
  Epoch e;
  e.epoch = 1;
  e.from = 1;
  e.role = RoleIn(*spec, static_cast<Endpoint>(id_), &e.member);
  if (!e.member) return Status::InvalidArgument("back-end " + std::to_string(id_) + " is not in the chain it was given");
  s.epochs = {e};
  if (node_->StoreOf(range.end) >= 0) return Status::Ok();
  return node_->AddStore(range, nullptr);
}

namespace {
// Whether ring range `in` lies inside `out` (ranges (start, end]; start == end: the whole ring).
bool Inside(const KeyRange& in, const KeyRange& out) {
  if (out.start == out.end) return true;
  if (in.start == in.end || in.start == out.end || !out.Contains(in.end)) return false;
  if (!(in.start == out.start) && !out.Contains(in.start)) return false;
  return in.end == out.end || !in.Contains(out.end);  // both ends inside, and no wrap past out's end
}
}  // namespace

void Backend::OnRestore(const Message& m) {
  Message r;
  r.kind = MsgKind::kRestored;
  r.to = m.from;
  r.range = m.range;
  r.epoch = m.epoch;
  Seg* have = SegOf(m.range.end);
  if (have && have->range.start == m.range.start && !have->epochs.empty() && have->epochs.back().member) {
    r.found = true;  // this process never stopped (only the front-end did): it serves the range already
    return Send(std::move(r));
  }
  const int st = node_->StoreOf(m.range.end);
  bool member = false;
  const Role role = m.spec ? RoleIn(*m.spec, static_cast<Endpoint>(id_), &member) : Role{};
  r.found = member && st >= 0 && Inside(m.range, node_->range(static_cast<size_t>(st)));
  if (r.found) {
    const Key end = node_->range(static_cast<size_t>(st)).end;
    stale_.erase(std::remove(stale_.begin(), stale_.end(), end), stale_.end());  // claimed: kept, not dropped by joins
    Seg& s = SegFor(m.range);
    Epoch e;
    e.epoch = m.epoch;
    e.from = 1;
    e.role = role;
    e.member = true;
    s.epochs = {e};
    std::vector<Message> waiting;
    waiting.swap(s.waiting);
    for (Message& w : waiting) Enqueue(std::move(w));
  }
  Send(std::move(r));
}

Status Backend::Preload(const Key& key, std::string_view value, std::function<void()> done) {
  return node_->Put(key, value, [done = std::move(done)](const Status&) {
    if (done) done();
  });
}

// --- queues and workers ---------------------------------------------------------------------

void Backend::Receive(Message& m) {
  if (failed_) return;
  ++stats_.messages;
  if (m.kind == MsgKind::kHeartbeat) {
    // Answered by a thread of its own, as a liveness check should be: a long queue of
    // pre-copy batches must not make a busy node look dead.
    Message r;
    r.kind = MsgKind::kHeartbeatReply;
    r.to = m.from;
    r.seq = m.seq;
    cpu_->Run(o_.rpc_base_ns, [this, r = std::move(r)]() mutable {
      if (!failed_) Send(std::move(r));
    });
    return;
  }
  Enqueue(std::move(m));
}

void Backend::Enqueue(Message m) {
  Worker* w = (o_.separate_queues && IsChainTraffic(m.kind)) ? &chain_ : &client_;
  w->q.push_back(std::move(m));
  Pump(w);
}

sim::SimDuration Backend::CostOf(const Message& m) const {
  sim::SimDuration c = o_.rpc_base_ns + static_cast<sim::SimDuration>(o_.rpc_ns_per_byte * m.bytes);
  if (m.kind == MsgKind::kGet || m.kind == MsgKind::kPut || m.kind == MsgKind::kDelete || m.kind == MsgKind::kChainPut) {
    c += cpu_->RequestCost(fawnds::RecordSize(m.value.size()), log_bytes());
  }
  if (m.kind == MsgKind::kMultiGet && m.items) {
    c += static_cast<sim::SimDuration>(m.items->size()) * cpu_->RequestCost(fawnds::RecordSize(0), log_bytes());
  }
  return c;
}

void Backend::Pump(Worker* w) {
  if (w->busy || w->q.empty() || failed_) return;
  w->busy = true;
  auto m = std::make_shared<Message>(std::move(w->q.front()));
  w->q.pop_front();
  cpu_->Run(CostOf(*m), [this, w, m]() {
    if (failed_) return;
    Handle(*m, [this, w]() {
      w->busy = false;
      Pump(w);
    });
  });
}

namespace {
// Messages whose handling may change the node's store list or scan a store's log by offset:
// they wait while a background compaction runs (fawnds::Node refuses list changes then).
bool WaitsForCompaction(MsgKind k) {
  switch (k) {
    case MsgKind::kSeal:
    case MsgKind::kConfig:
    case MsgKind::kPrecopyStart:
    case MsgKind::kPrecopyData:
    case MsgKind::kFlushData:
    case MsgKind::kPrecopyDone:
    case MsgKind::kRelease: return true;
    default: return false;
  }
}
}  // namespace

void Backend::Handle(Message& m, std::function<void()> done) {
  if (o_.compact_fill > 0 && node_->maintenance_running() && WaitsForCompaction(m.kind)) {
    auto held = std::make_shared<Message>(std::move(m));
    after_maintenance_.push_back([this, held, done = std::move(done)]() { Handle(*held, done); });
    return;
  }
  switch (m.kind) {
    case MsgKind::kGet: return OnGet(m, std::move(done));
    case MsgKind::kPut:
    case MsgKind::kDelete: return OnPut(m, std::move(done));
    case MsgKind::kMultiGet: return OnMultiGet(m, std::move(done));
    case MsgKind::kChainPut: return OnChainPut(m, std::move(done));
    case MsgKind::kPrecopyData:
    case MsgKind::kFlushData: return OnPrecopyData(m, std::move(done));
    case MsgKind::kFlushDone: return OnFlushDone(m, std::move(done));
    case MsgKind::kAck: OnAck(m); break;
    case MsgKind::kSeal: OnSeal(m); break;
    case MsgKind::kConfig: OnConfig(m); break;
    case MsgKind::kRelease: OnRelease(m); break;
    case MsgKind::kRestore: OnRestore(m); break;
    case MsgKind::kPrecopyStart:
      if (m.peer == kNobody) {
        StopScan(m.range);  // the coordinator abandoned the join: no flush follows either
        if (Seg* s = SegOf(m.range.end); s && s->range.start == m.range.start && s->range.end == m.range.end) s->flush_due = false;
      } else {
        StartScan(m.range, m.peer, 0, 0, false, m.epoch);
      }
      break;
    case MsgKind::kPrecopyAck: {
      auto it = scans_.find(m.range.end);
      if (it != scans_.end() && it->second->id == m.epoch) {
        --it->second->in_flight;
        ScanStep(it->second);
      }
      break;
    }
    case MsgKind::kPrecopyDone: {
      Seg& s = SegFor(m.range);
      if (!CurrentCopy(s, m.epoch)) break;
      EnsureStore(m.range);  // an empty range sends no records
      s.joining = true;
      s.precopy_done = true;
      break;
    }
    default: break;
  }
  done();
}

void Backend::Send(Message m) {
  m.from = static_cast<Endpoint>(id_);
  net_->Send(std::move(m));
}

void Backend::Reply(const Message& req, bool found, std::string value, ReplyStatus status) {
  Message r;
  r.kind = MsgKind::kReply;
  r.status = status;
  r.to = req.client;
  r.req = req.req;
  r.key = req.key;
  r.found = found;
  r.value = std::move(value);
  Send(std::move(r));
}

void Backend::Retry(const Message& req) {
  ++stats_.retries;
  Message r;
  r.kind = MsgKind::kRetry;
  r.to = req.client;
  r.req = req.req;
  r.key = req.key;
  Send(std::move(r));
}

// --- client requests and the chain ----------------------------------------------------------

void Backend::OnGet(Message& m, std::function<void()> done) {
  Seg* s = SegOf(m.key);
  if (!s || !Reads(*s)) {
    Retry(m);
    return done();
  }
  ++stats_.gets;
  auto req = std::make_shared<Message>(std::move(m));
  Status st = node_->Get(req->key, [this, req, done = std::move(done)](const Status& r, std::string value) {
    if (failed_) return;
    // Marshalling the answer: its bytes cost CPU before the worker may go on.
    auto v = std::make_shared<std::string>(r.ok() ? std::move(value) : std::string());
    const bool found = r.ok();
    cpu_->Run(static_cast<sim::SimDuration>(o_.rpc_ns_per_byte * static_cast<double>(kHeaderBytes + v->size())),
              [this, req, v, found, done]() {
                if (failed_) return;
                Reply(*req, found, std::move(*v));
                done();
              });
  });
  if (!st.ok()) {
    Retry(*req);
    done();
  }
}

void Backend::OnPut(Message& m, std::function<void()> done) {
  Seg* s = SegOf(m.key);
  const Epoch* e = s ? Current(*s) : nullptr;
  if (!e || !e->member || !e->role.head || s->released) {
    Retry(m);
    return done();
  }
  m.del = m.kind == MsgKind::kDelete;
  ++(m.del ? stats_.deletes : stats_.puts);
  if (s->chain_room != kRoomUnknown) {
    // Would a successor have room? Its room as of the last ack, less what is still in flight.
    uint64_t need = fawnds::RecordSize(m.del ? 0 : m.value.size());
    for (const Unacked& u : s->unacked) need += fawnds::RecordSize(u.del ? 0 : u.value.size());
    if (need > s->chain_room) {
      ++stats_.store_errors;
      ++stats_.refused;
      Reply(m, false, std::string(), ReplyStatus::kNoSpace);
      return done();
    }
  }
  s->counter = std::max(s->counter, s->applied) + 1;
  m.seq = s->counter;
  m.epoch = e->epoch;
  ApplyPut(*s, m, std::move(done));
}

void Backend::OnMultiGet(Message& m, std::function<void()> done) {
  ++stats_.multigets;
  auto reply = std::make_shared<Message>();
  reply->kind = MsgKind::kMultiReply;
  reply->to = m.client;
  reply->req = m.req;
  reply->items = std::make_shared<std::vector<MultiItem>>();
  if (m.items) *reply->items = *m.items;
  std::vector<MultiItem>& items = *reply->items;
  // The keys this node reads, grouped by store: one vector lookup each.
  std::map<size_t, std::vector<size_t>> by_store;
  for (size_t i = 0; i < items.size(); ++i) {
    MultiItem& it = items[i];
    it.value.clear();
    it.state = MultiItem::kNotHere;
    Seg* s = SegOf(it.key);
    const int st = node_->StoreOf(it.key);
    if (!s || !Reads(*s) || st < 0 || node_->maintenance_running()) continue;
    by_store[static_cast<size_t>(st)].push_back(i);
  }
  stats_.multiget_keys += items.size();
  auto left = std::make_shared<size_t>(by_store.size() + 1);
  auto fin = std::make_shared<std::function<void()>>(std::move(done));
  auto finish = [this, reply, left, fin]() {
    if (--*left > 0 || failed_) return;
    uint64_t bytes = kHeaderBytes;
    for (const MultiItem& it : *reply->items) bytes += 21 + it.value.size();
    cpu_->Run(static_cast<sim::SimDuration>(o_.rpc_ns_per_byte * static_cast<double>(bytes)), [this, reply, fin]() {
      if (failed_) return;
      Send(std::move(*reply));
      (*fin)();
    });
  };
  for (auto& [store, idx] : by_store) {
    std::vector<Key> keys;
    for (size_t i : idx) keys.push_back(items[i].key);
    Status st = node_->store(store).MultiGet(keys, [reply, idx = idx, finish](std::vector<Status> sts, std::vector<std::string> vals) {
      for (size_t j = 0; j < idx.size() && j < sts.size(); ++j) {
        MultiItem& it = (*reply->items)[idx[j]];
        it.state = sts[j].ok() ? MultiItem::kFound : MultiItem::kMissing;
        if (sts[j].ok()) it.value = std::move(vals[j]);
      }
      finish();
    });
    if (!st.ok()) finish();  // refused: those keys stay "not here" and are retried singly
  }
  finish();
}

void Backend::OnChainPut(Message& m, std::function<void()> done) {
  Seg* s = SegOf(m.key);
  if (!s || s->released) return done();
  ++stats_.chain_puts;
  if (s->epochs.empty() || m.epoch > s->epochs.back().epoch) {
    s->waiting.push_back(std::move(m));  // its epoch's configuration has not reached us yet
    return done();
  }
  if (m.seq <= s->applied) return done();  // a resend we already have
  ApplyPut(*s, m, std::move(done));
}

void Backend::ApplyPut(Seg& s, const Message& m, std::function<void()> done) {
  const Epoch* e = EpochAt(s, m.epoch);
  if (!e || !e->member) return done();
  const Role role = e->role;
  s.applied = m.seq;
  auto fwd = std::make_shared<Message>(m);
  auto fin = std::make_shared<std::function<void()>>(std::move(done));
  auto after = [this, fwd, role, fin]() {
    if (failed_) return;
    Seg* s = SegOf(fwd->key);
    if (role.replier) {
      Reply(*fwd, fwd->del ? fwd->found : true, std::string());
      if (role.pred != kNobody) {
        Message a;
        a.kind = MsgKind::kAck;
        a.to = role.pred;
        a.key = fwd->key;
        a.seq = fwd->seq;
        a.room = RoomFor(fwd->key);
        Send(std::move(a));
      }
    } else if (s && role.succ != kNobody) {
      s->unacked.push_back(Unacked{fwd->seq, fwd->epoch, fwd->key, fwd->value, fwd->req, fwd->client, fwd->del});
    }
    if (role.succ != kNobody) {
      Message c = *fwd;
      c.kind = MsgKind::kChainPut;
      c.found = false;
      c.to = role.succ;
      Send(std::move(c));
    }
    (*fin)();
  };
  if (role.temp && !s.merged) {
    s.temp.push_back(TempPut{m.seq, m.key, m.value, m.del});
    return after();
  }
  WriteToStore(fwd, role, std::move(after), fin);
}

void Backend::WriteToStore(std::shared_ptr<Message> fwd, Role role, std::function<void()> after,
                           std::shared_ptr<std::function<void()>> fin) {
  // A delete's answer says whether the tail held the key.
  Status st = fwd->del ? node_->Delete(fwd->key, [fwd, after](const Status& r) {
                           fwd->found = r.ok();
                           after();
                         })
                       : node_->Put(fwd->key, fwd->value, [after](const Status&) { after(); });
  if (st.ok()) return MaybeCompact();
  if (st.code() == StatusCode::kResourceExhausted && o_.compact_fill > 0) {
    const uint64_t need = fawnds::RecordSize(fwd->del ? 0 : fwd->value.size());
    MakeRoom(fwd->key, need, [this, fwd, role, after, fin](bool compacted) {
      if (failed_) return;
      if (compacted) return WriteToStore(fwd, role, after, fin);
      Refuse(*fwd, role, fin);
    });
    return;
  }
  Refuse(*fwd, role, fin);
}

void Backend::Refuse(const Message& m, const Role& role, const std::shared_ptr<std::function<void()>>& fin) {
  // Not applied, not forwarded. At the head nothing holds it: a definite refusal. Further
  // down the chain the head has applied it: the client's timeout says "may or may not".
  ++stats_.store_errors;
  if (role.head) {
    ++stats_.refused;
    Reply(m, false, std::string(), ReplyStatus::kNoSpace);
  }
  (*fin)();
}

// --- background compaction ------------------------------------------------------------------

uint64_t Backend::RoomFor(const Key& key) const {
  const int i = node_->StoreOf(key);
  if (i < 0) return kRoomUnknown;
  const fawnds::DataStore& ds = node_->store(static_cast<size_t>(i));
  uint64_t room = ds.log_capacity() - std::min(ds.log_capacity(), ds.log_end());
  const bool unknown = std::find(unknown_garbage_.begin(), unknown_garbage_.end(), &ds) != unknown_garbage_.end();
  if (o_.compact_fill > 0 && !unknown) room += ds.stats().garbage_bytes;
  return room;
}

bool Backend::CanCompact() const {
  // A scan holds its store and log offsets; a donor's flush starts at its pre-copy's offset.
  if (!scans_.empty()) return false;
  for (const auto& [end, s] : segs_) {
    if (s.flush_due) return false;
  }
  return true;
}

bool Backend::StartCompaction(size_t store, std::function<void(bool)> then) {
  const Key end = node_->range(store).end;
  Status st = node_->Compact(store, [this, end, then](const Status& r) {
    if (failed_) return;
    if (r.ok()) {
      ++stats_.compactions;
      const int i = node_->StoreOf(end);
      const uint64_t now_end = i >= 0 ? node_->store(static_cast<size_t>(i)).log_end() : 0;
      const uint64_t was_end = node_->progress().source_end;  // the old log's end at the swap
      if (was_end > now_end) stats_.reclaimed_bytes += was_end - now_end;
    }
    if (then) then(r.ok());
    RunAfterMaintenance();
    MaybeCompact();
  });
  return st.ok();
}

void Backend::RunAfterMaintenance() {
  std::vector<std::function<void()>> waiting;
  waiting.swap(after_maintenance_);
  for (auto& w : waiting) {
    if (failed_) return;
    w();  // each may wait again (a compaction started meanwhile)
  }
}

void Backend::MakeRoom(const Key& key, uint64_t need, std::function<void(bool)> then) {
  if (node_->maintenance_running()) {
    after_maintenance_.push_back([this, key, need, then]() { MakeRoom(key, need, then); });
    return;
  }
  const int i = node_->StoreOf(key);
  if (i < 0 || !CanCompact()) return then(false);
  const fawnds::DataStore& ds = node_->store(static_cast<size_t>(i));
  const bool unknown = std::find(unknown_garbage_.begin(), unknown_garbage_.end(), &ds) != unknown_garbage_.end();
  // Room after compacting: what is free now plus the garbage (unknown for a recovered store
  // never compacted here: try once).
  if (!unknown && ds.log_capacity() - ds.log_end() + ds.stats().garbage_bytes < need) return then(false);
  unknown_garbage_.erase(std::remove(unknown_garbage_.begin(), unknown_garbage_.end(), &ds), unknown_garbage_.end());
  if (!StartCompaction(static_cast<size_t>(i), then)) then(false);
}

bool Backend::MaybeSplit() {
  for (size_t i = 0; i < node_->num_stores(); ++i) {
    const KeyRange r = node_->range(i);
    if (std::find(stale_.begin(), stale_.end(), r.end) != stale_.end()) continue;
    for (const auto& [end, s] : segs_) {
      if (s.released || end == r.end || !r.Contains(end)) continue;
      Status st = node_->Split(i, end, [this](const Status&) {
        if (failed_) return;
        RunAfterMaintenance();
        MaybeCompact();
      });
      if (st.ok()) return true;
    }
  }
  return false;
}

void Backend::MaybeCompact() {
  if (o_.compact_fill <= 0 || failed_ || node_->maintenance_running() || !after_maintenance_.empty() || !CanCompact()) return;
  if (MaybeSplit()) return;
  for (size_t i = 0; i < node_->num_stores(); ++i) {
    const fawnds::DataStore& ds = node_->store(i);
    if (std::find(stale_.begin(), stale_.end(), node_->range(i).end) != stale_.end()) continue;  // unclaimed: dropped later
    const double end = static_cast<double>(ds.log_end());
    if (end >= o_.compact_fill * static_cast<double>(ds.log_capacity()) &&
        static_cast<double>(ds.stats().garbage_bytes) >= o_.compact_garbage * end) {
      if (StartCompaction(i, nullptr)) return;
    }
  }
}

void Backend::OnAck(const Message& m) {
  Seg* s = SegOf(m.key);
  if (!s) return;
  while (!s->unacked.empty() && s->unacked.front().seq <= m.seq) s->unacked.pop_front();
  const Epoch* e = Current(*s);
  if (e && e->member && e->role.pred != kNobody) {
    Message a = m;
    a.to = e->role.pred;
    a.room = std::min(m.room, RoomFor(m.key));
    Send(std::move(a));
  } else if (e && e->member && e->role.head) {
    s->chain_room = m.room;
  }
}

// --- membership -----------------------------------------------------------------------------

void Backend::OnSeal(Message& m) {
  Seg& s = SegFor(m.range);
  // The head stamps the epoch's first sequence number: every put it has stamped is older.
  s.counter = std::max(s.counter, s.applied);
  m.seq = s.counter + 1;
  Message r;
  r.kind = MsgKind::kSealed;
  r.to = m.from;
  r.range = m.range;
  r.epoch = m.epoch;
  r.seq = m.seq;
  Send(std::move(r));
  OnConfig(m);
}

void Backend::OnConfig(Message& m) {
  Seg& s = SegFor(m.range);
  if (!s.epochs.empty() && s.epochs.back().epoch >= m.epoch) return;  // seen
  const Epoch* prev = Current(s);  // invalid once s.epochs grows: read what is needed now
  const bool was_member = prev && prev->member;
  const Endpoint old_succ = was_member ? prev->role.succ : kNobody;
  const bool was_reader = Reads(s);
  Epoch e;
  e.epoch = m.epoch;
  e.from = m.seq;
  e.role = RoleIn(*m.spec, static_cast<Endpoint>(id_), &e.member);
  s.epochs.push_back(e);
  if (e.member && !was_member) {
    // A new member (a joiner, or a new head told directly): its puts continue the range's
    // sequence; anything older reaches it through the copy, not the chain.
    s.applied = std::max(s.applied, e.from - 1);
    s.counter = std::max(s.counter, e.from - 1);
  }
  if (e.member && e.role.temp) s.joining = true;
  s.chain_room = kRoomUnknown;  // a new chain: the next ack says
  if (e.member && !e.role.temp && s.joining && !s.merged) s.merged = true;  // configured whole
  // Resend what a new successor may lack, then pass the configuration on behind it.
  const Endpoint new_succ = e.member ? e.role.succ : kNobody;
  if (new_succ != kNobody && new_succ != old_succ) {
    for (const Unacked& u : s.unacked) {
      Message c;
      c.kind = MsgKind::kChainPut;
      c.to = new_succ;
      c.key = u.key;
      c.value = u.value;
      c.seq = u.seq;
      c.epoch = u.epoch;
      c.req = u.req;
      c.client = u.client;
      c.del = u.del;
      Send(std::move(c));
    }
  }
  std::vector<Endpoint> targets;
  if (old_succ != kNobody && old_succ != m.from) targets.push_back(old_succ);
  if (new_succ != kNobody && new_succ != m.from && new_succ != old_succ) targets.push_back(new_succ);
  for (Endpoint t : targets) {
    Message c = m;
    c.kind = MsgKind::kConfig;
    c.to = t;
    Send(std::move(c));
  }
  // The donor flushes what arrived after its pre-copy, up to this epoch's first put.
  if (m.spec->donor == static_cast<Endpoint>(id_) && m.spec->joiner != kNobody) {
    s.flush_due = false;
    const int st = node_->StoreOf(m.range.end);  // no store: an empty flush, just the done
    StartScan(m.range, m.spec->joiner, s.mark, st >= 0 ? node_->store(static_cast<size_t>(st)).log_end() : 0, true, s.copy);
  }
  if (e.member) EnsureStore(m.range);  // a joiner's, or a first member's (a ring that was empty)
  if (!was_reader && Reads(s)) {
    Message r;
    r.kind = MsgKind::kReaderNow;
    r.range = m.range;
    r.epoch = m.epoch;
    for (int f = 0; f < o_.front_ends; ++f) {  // each front-end switches its own gets
      r.to = FrontEndpoint(f);
      Send(r);
    }
  }
  // Chain puts that waited for this configuration.
  std::vector<Message> waiting;
  waiting.swap(s.waiting);
  for (Message& w : waiting) Enqueue(std::move(w));
  MaybeMerge(s, [] {});
}

// A joiner's copy of a range is the coordinator's newest: the batches of an abandoned copy
// (a failure interrupted the join; docs/decisions.md) are dropped, and a newer copy starts
// the range afresh — flags, temporary log and store.
bool Backend::CurrentCopy(Seg& s, uint64_t id) {
  if (id < s.copy) return false;
  // A new copy: whatever the node holds of the range is stale (an abandoned copy, or what it
  // kept from before it was declared failed), so the range starts afresh.
  if (id > s.copy) {
    s.precopy_done = s.flush_done = s.merged = false;
    s.temp.clear();
    s.received = 0;
    const int st = node_->StoreOf(s.range.end);
    if (st >= 0 && node_->range(static_cast<size_t>(st)).start == s.range.start && node_->range(static_cast<size_t>(st)).end == s.range.end) {
      (void)node_->RemoveStore(static_cast<size_t>(st), nullptr);
    }
  }
  s.copy = id;
  return true;
}

void Backend::StopScan(const KeyRange& range) {
  auto it = scans_.find(range.end);
  if (it == scans_.end()) return;
  it->second->done = true;
  it->second->ds = nullptr;  // a read in progress ends there
  scans_.erase(it);
}

void Backend::OnPrecopyData(Message& m, std::function<void()> done) {
  Seg& s = SegFor(m.range);
  if (!CurrentCopy(s, m.epoch)) return done();
  s.joining = true;
  const uint64_t bytes = m.bytes;
  s.received += bytes;
  stats_.precopy_bytes_received += bytes;
  const bool ack = m.kind == MsgKind::kPrecopyData;
  const KeyRange range = m.range;
  const Endpoint donor = m.from;
  const uint64_t copy = m.epoch;
  auto finish = [this, ack, range, donor, copy, done = std::move(done)]() {
    if (ack) {
      Message a;
      a.kind = MsgKind::kPrecopyAck;
      a.to = donor;
      a.range = range;
      a.epoch = copy;
      Send(std::move(a));
    }
    done();
  };
  EnsureStore(range);
  AppendAll(m.records, 0, std::move(finish));
}

void Backend::EnsureStore(const KeyRange& range) {
  if (!stale_.empty()) DropStale(range);
  if (node_->StoreOf(range.end) >= 0) return;
  Status st = node_->AddStore(range, nullptr);
  if (!st.ok()) ++stats_.store_errors;  // the range's puts will be refused: visible in the counters
}

void Backend::AppendAll(std::shared_ptr<std::vector<KvRecord>> recs, size_t i, std::function<void()> done) {
  if (!recs || i >= recs->size()) return done();
  const KvRecord& r = (*recs)[i];
  auto next = [this, recs, i, done](const Status&) {
    if (failed_) return;
    AppendAll(recs, i + 1, done);
  };
  Status st = r.del ? node_->Delete(r.key, next) : node_->Put(r.key, r.value, next);
  if (!st.ok()) done();
}

void Backend::OnFlushDone(Message& m, std::function<void()> done) {
  Seg& s = SegFor(m.range);
  if (!CurrentCopy(s, m.epoch)) return done();
  s.flush_done = true;
  MaybeMerge(s, std::move(done));
}

void Backend::MaybeMerge(Seg& s, std::function<void()> done) {
  const Epoch* e = Current(s);
  if (!s.joining || s.merged || !s.flush_done || !e || !e->role.temp) return done();
  // Append the temporary log's puts of this epoch (older ones came with the copy) in order.
  const uint64_t from = e->from;
  auto recs = std::make_shared<std::vector<KvRecord>>();
  for (const TempPut& t : s.temp) {
    if (t.seq >= from) recs->push_back(KvRecord{t.key, t.value, t.del});
  }
  s.temp.clear();
  s.merged = true;  // puts arriving from now on go straight to the store
  const KeyRange range = s.range;
  const uint64_t epoch = e->epoch;
  AppendAll(recs, 0, [this, range, epoch, done = std::move(done)]() {
    Message r;
    r.kind = MsgKind::kReady;
    r.to = FrontEndpoint(0);
    r.range = range;
    r.epoch = epoch;
    Send(std::move(r));
    done();
  });
}

void Backend::OnRelease(const Message& m) {
  // The range's chain state goes: messages still on their way for it find no segment and
  // are dropped (chain traffic) or answered "retry" (clients).
  SegFor(m.range);
  segs_.erase(m.range.end);
  scans_.erase(m.range.end);
  const int st = node_->StoreOf(m.range.end);
  if (st < 0) return;
  const KeyRange have = node_->range(static_cast<size_t>(st));
  const KeyRange& give = m.range;
  if (have.start == give.start && have.end == give.end) {
    (void)node_->RemoveStore(static_cast<size_t>(st), nullptr);
  } else if (have.start == give.start) {
    (void)node_->Narrow(static_cast<size_t>(st), KeyRange{give.end, have.end}, nullptr);
  } else if (have.end == give.end) {
    (void)node_->Narrow(static_cast<size_t>(st), KeyRange{have.start, give.start}, nullptr);
  }
  // A range in the middle of a store stays until a compaction: its keys are not served (the
  // segment is released) and no store is ever added over it (docs/decisions.md).
}

// --- the donor's scans ----------------------------------------------------------------------

void Backend::StartScan(const KeyRange& range, Endpoint joiner, uint64_t from, uint64_t until, bool flush, uint64_t id) {
  StopScan(range);  // an earlier copy of the range (abandoned) sends nothing more
  const int st = node_->StoreOf(range.end);
  auto sc = std::make_shared<Scan>();
  sc->id = id;
  sc->range = range;
  sc->joiner = joiner;
  sc->pos = from;
  sc->until = until;
  sc->flush = flush;
  if (st >= 0) {
    sc->store = static_cast<size_t>(st);
    sc->ds = &node_->store(sc->store);
  }
  sc->batch = std::make_shared<std::vector<KvRecord>>();
  scans_[range.end] = sc;
  ScanStep(sc);
}

void Backend::ScanStep(const std::shared_ptr<Scan>& sc) {
  if (failed_ || sc->done || sc->reading) return;
  auto send_batch = [this, sc]() {
    if (sc->batch->empty()) return;
    Message d;
    d.kind = sc->flush ? MsgKind::kFlushData : MsgKind::kPrecopyData;
    d.to = sc->joiner;
    d.range = sc->range;
    d.epoch = sc->id;
    d.records = sc->batch;
    stats_.precopy_bytes_sent += WireBytes(d);
    cpu_->Run(o_.rpc_base_ns + static_cast<sim::SimDuration>(o_.rpc_ns_per_byte * WireBytes(d)), [] {});
    Send(std::move(d));
    if (!sc->flush) ++sc->in_flight;
    sc->batch = std::make_shared<std::vector<KvRecord>>();
    sc->batch_bytes = 0;
  };
  const uint64_t end = sc->ds ? (sc->flush ? sc->until : sc->ds->log_end()) : 0;
  if (!sc->ds || sc->pos >= end) {
    send_batch();
    if (sc->in_flight > 0) return;  // wait for the joiner to take the last batches
    sc->done = true;
    sc->ds = nullptr;
    Message d;
    d.kind = sc->flush ? MsgKind::kFlushDone : MsgKind::kPrecopyDone;
    d.range = sc->range;
    d.to = sc->joiner;
    d.epoch = sc->id;
    Send(d);
    if (!sc->flush) {
      Seg& s = SegFor(sc->range);
      s.mark = sc->pos;  // the flush starts here
      s.flush_due = true;
      s.copy = sc->id;   // and carries the copy's id
      d.to = FrontEndpoint(0);
      Send(d);
    }
    scans_.erase(sc->range.end);
    return;
  }
  if (sc->in_flight >= o_.precopy_window) return;  // flow control: wait for an ack
  const uint64_t n = std::min<uint64_t>(o_.precopy_chunk, end - sc->pos);
  auto buf = std::make_shared<std::string>(n, '\0');
  sc->reading = true;
  const fawnds::DataStore* ds = sc->ds;
  Status s = dev_->Submit(
      device::IoCommand::Single(device::IoEntry::Read(ds->DeviceOffsetOf(sc->pos), n, reinterpret_cast<uint8_t*>(buf->data()))),
      [this, sc, buf, send_batch](const device::IoCompletion&) {
        if (failed_ || !sc->ds) return;
        sc->reading = false;
        uint64_t p = 0;
        std::string rec_buf;
        while (p + fawnds::kRecordHeader <= buf->size()) {
          // A record that runs past this read is decoded from the device's bytes.
          auto r = sc->ds->PeekRecord(sc->pos + p, &rec_buf);
          if (!r.ok()) break;
          const fawnds::RecordView& rec = r.value();
          // Current puts, and every delete: a joiner applies them in log order, so a delete
          // of a key it never received is harmless and one of a key it did is needed.
          const bool in = sc->range.Contains(rec.key);
          const bool del = rec.type == fawnds::RecordType::kDelete;
          if (in && (del || sc->flush || sc->ds->IsLive(rec.key, sc->pos + p))) {
            sc->batch->push_back(KvRecord{rec.key, del ? std::string() : std::string(rec.value), del});
            sc->batch_bytes += rec.size;
          }
          p += rec.size;
          if (p > buf->size()) break;
        }
        if (p == 0) p = buf->size();  // nothing decodable: skip the unreadable tail
        sc->pos += p;
        if (sc->batch_bytes >= kBatchBytes) send_batch();
        ScanStep(sc);
      });
  if (!s.ok()) {
    sc->reading = false;
    sc->done = true;
  }
}

}  // namespace fawnlab::fawnkv
