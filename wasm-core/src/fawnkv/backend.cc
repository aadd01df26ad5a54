// Backend (backend.h): creating the node (emulated card or file), its segments, and the
// queues and workers that take each message to its handler. The handlers live beside it:
// backend_chain.cc (requests and chain replication), backend_membership.cc (joins, merges,
// releases, restores), backend_scan.cc (the donor's pre-copy and flush scans) and
// backend_storage.cc (stores, room, background compaction).
#include "fawnkv/backend.h"

#include <sys/stat.h>

#include <algorithm>
#include <utility>

#include "device/profiles.h"
#include "fawnds/record.h"

namespace fawnlab::fawnkv {

namespace {
constexpr uint64_t kMaxRequest = 128 * 1024;  // the block layer's largest request (fawnds/experiments/rig.cc)
}  // namespace

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
  Requeue(parent.sealing);  // handled again, by the piece their range now names
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
  e.caught_up = true;  // the range's first epoch: nothing came before it
  e.spec = spec;
  if (!e.member) return Status::InvalidArgument("back-end " + std::to_string(id_) + " is not in the chain it was given");
  s.epochs = {e};
  if (node_->StoreOf(range.end) >= 0) return Status::Ok();
  return node_->AddStore(range, nullptr);
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
    case MsgKind::kReset: return OnReset(m, std::move(done));
    case MsgKind::kPrecopyStart:
      if (m.peer == kNobody) {
        StopScan(m.range);  // the coordinator abandoned the join: no flush follows either
        if (Seg* s = SegOf(m.range.end); s && s->range.start == m.range.start && s->range.end == m.range.end) {
          s->flush_due = false;
          s->flush_epoch = 0;
        }
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

void Backend::Requeue(std::vector<Message>& msgs) {
  std::vector<Message> held;
  held.swap(msgs);
  for (auto it = held.rbegin(); it != held.rend(); ++it) {
    Worker* w = (o_.separate_queues && IsChainTraffic(it->kind)) ? &chain_ : &client_;
    w->q.push_front(std::move(*it));
  }
  Pump(&chain_);
  Pump(&client_);
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

}  // namespace fawnlab::fawnkv
