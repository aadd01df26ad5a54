// FawnkvSession: configuration, building and loading the cluster, time, the load generator and
// what the session records as the cluster runs (answers, energy samples, messages, events).
// The operations are in session_ops.cc, the snapshot in session_snapshot.cc.
#include "fawnkv/lab/session.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/params.h"
#include "fawnds/lab/ring.h"
#include "fawnds/hash_index.h"
#include "fawnds/record.h"
#include "fawnds/store.h"

namespace fawnlab::fawnkvlab {
namespace {

constexpr sim::SimDuration kBinNs = 100 * sim::kMs;  // the timeline's and the energy samples' step
constexpr size_t kTimelinePoints = 200;
constexpr size_t kMessagesKept = 400;
constexpr size_t kEventsKept = 50;
constexpr int kMaxRingVids = 2048;    // nodes × vids: creation time and memory (each VID is R stores)
constexpr int kMaxNodeStores = 512;   // replication × vids: a back-end's stores (a FAWN-DS node lists
                                      // at most 1259, and the cluster makes room for twice R × V)
constexpr double kScale = 1.0 / 64;          // each back-end's DRAM and card, as the experiments shrink them

// What the message view calls `k`, and whether the message concerns a key (else a range).
struct KindView {
  const char* name;
  bool keyed;
};

KindView ViewOf(fawnkv::MsgKind k) {
  using fawnkv::MsgKind;
  switch (k) {
    case MsgKind::kGet: return {"get", true};
    case MsgKind::kPut: return {"put", true};
    case MsgKind::kReply:
    case MsgKind::kRetry: return {"reply", true};
    case MsgKind::kChainPut: return {"chain-put", true};
    case MsgKind::kAck: return {"ack", true};
    case MsgKind::kPrecopyStart:
    case MsgKind::kPrecopyData:
    case MsgKind::kPrecopyAck:
    case MsgKind::kPrecopyDone: return {"precopy", false};
    case MsgKind::kFlushData:
    case MsgKind::kFlushDone: return {"flush", false};
    case MsgKind::kHeartbeat:
    case MsgKind::kHeartbeatReply: return {"heartbeat", false};
    default: return {"membership", false};  // seal, sealed, config, reader-now, ready, release
  }
}

// The largest share of the ring one VID owns when the cluster starts (VID j of node n at
// SHA-1("n/j"), or evenly spaced).
double LargestRange(int nodes, int vids, bool even) {
  if (even) return 1.0 / (static_cast<double>(nodes) * vids);
  fawnkv::Ring ring = fawnkv::Ring::Create(1).value();
  for (int n = 0; n < nodes; ++n) (void)ring.AddNode(static_cast<fawnkv::NodeId>(n), vids);
  double largest = 0;
  for (int n = 0; n < nodes; ++n) {
    const std::vector<fawnkv::KeyRange> ranges = ring.RangesOf(static_cast<fawnkv::NodeId>(n)).value();
    for (const fawnkv::KeyRange& r : ranges) largest = std::max(largest, fawnkv::Ring::Fraction(r));
  }
  return largest;
}

// Index and file sizes for every store (each holds one range; later VIDs only split ranges).
// The index: the largest range's share of max(preload, load_keys) keys with a quarter more,
// at most 3/4 full, and no more buckets than let a back-end's R × V indexes leave it half a MB
// of page cache in its shrunk DRAM. The file: room for two versions of the largest range's
// preloaded keys, and at least its share of the back-end's card budget (a 4 GB card shared by
// the cluster, 64 to 512 MB a back-end) so a steady put load runs long before a log fills; a
// full log or index refuses puts, which then time out.
void SizeStores(int nodes, int vids, int replication, bool even, int preload, int load_keys, int value_bytes,
                fawnkv::BackendOptions* b) {
  const double largest = LargestRange(nodes, vids, even);
  const double keys = std::max(preload, load_keys) * largest * 1.25 + 64;
  const double indexes = static_cast<double>(replication) * vids;  // stores a back-end holds (Cluster::NewBackend)
  const double dram = static_cast<double>(b->dram_bytes - b->os_bytes) * b->scale - (512 << 10);
  const int fit = static_cast<int>(std::floor(std::log2(dram / indexes / fawnds::HashIndex::kBucketBytes)));
  b->index_bits = std::clamp(static_cast<int>(std::ceil(std::log2(keys / 0.75))), 8, std::max(8, fit));
  const uint64_t stores = static_cast<uint64_t>(replication) * static_cast<uint64_t>(vids) * 2 + 4;  // as Cluster::NewBackend
  const uint64_t budget = std::clamp<uint64_t>((uint64_t{4} << 30) / static_cast<uint64_t>(nodes), 64 << 20, 512 << 20);
  const uint64_t share = std::min<uint64_t>(16 << 20, (budget - (4 << 20)) / stores);
  const uint64_t preloaded = static_cast<uint64_t>((preload * largest * 1.25 + 64) * 2) * fawnds::RecordSize(static_cast<size_t>(value_bytes));
  b->file_bytes = (fawnds::DataStore::FileBytes(b->index_bits, std::max(share, preloaded)) + 4095) / 4096 * 4096;
}

// Value n: "v<n>" padded to value_bytes (never cut: values stay unique for the checker).
std::string ValueOf(uint64_t n, int value_bytes) {
  std::string v = "v" + std::to_string(n);
  if (v.size() < static_cast<size_t>(value_bytes)) v.resize(static_cast<size_t>(value_bytes), '.');
  return v;
}

// What the history keeps of a value: a session value's "v<n>" without its padding (the rest
// as written; only a value typed to look like a session's could then collide, which the
// checker reports as an undetermined key, never as a violation).
std::string Tag(const std::string& value) {
  size_t digits = 1;
  while (digits < value.size() && value[digits] >= '0' && value[digits] <= '9') ++digits;
  if (value.size() < 2 || value[0] != 'v' || digits == 1) return value;
  for (size_t i = digits; i < value.size(); ++i) {
    if (value[i] != '.') return value;
  }
  return value.substr(0, digits);
}

}  // namespace

std::vector<ParamSpec> FawnkvSession::Schema(const Config& c) {
  return {
      ParamSpec::Int("nodes", c.nodes, 1, 64, "back-ends", "back-ends the cluster starts with (ids 0 … nodes−1)"),
      ParamSpec::Int("vids", c.vids, 1, 4096, "VIDs", "virtual IDs per back-end"),
      ParamSpec::Int("replication", c.replication, 1, fawnkv::kMaxReplication, "replicas", "replication factor R (chain length)"),
      ParamSpec::Int("front_ends", c.front_ends, 1, 8, "front-ends", "front-ends, each owning one wedge of the ring"),
      ParamSpec::Choice("placement", c.placement, {"hashed", "even"}, "VIDs at SHA-1(\"n/j\") or evenly spaced"),
      ParamSpec::Int("value_bytes", c.value_bytes, 1, 4096, "bytes", "value size of the load, fill and puts without a value"),
      ParamSpec::Int("cache_entries", c.cache_entries, 0, 100000, "entries", "each front-end's query cache (0: off)"),
      ParamSpec::Bool("separate_queues", c.separate_queues, "separate client and chain queues at each back-end (footnote 5)"),
      ParamSpec::Real("load_rate_per_s", c.load_rate_per_s, 0, 100000, "requests/s", "background load (Poisson; 0: off)"),
      ParamSpec::Real("load_put_fraction", c.load_put_fraction, 0, 1, "", "fraction of the load that are puts"),
      ParamSpec::Int("load_keys", c.load_keys, 1, 1000000, "keys", "the load's keys: k0 … k<load_keys−1>"),
      ParamSpec::Real("zipf_s", c.zipf_s, 0, 2, "", "Zipf exponent of the load's key popularity (0: uniform)"),
      ParamSpec::Int("preload", c.preload, 0, 100000, "keys", "keys k0 … k<preload−1> stored before the session starts"),
      ParamSpec::Int("heartbeat_ms", c.heartbeat_ms, 10, 10000, "ms", "heartbeat period (3 missed: failed)"),
  };
}

FawnkvSession::Config FawnkvSession::FromParams(const ParamValues& pv) {
  Config c;
  c.nodes = static_cast<int>(pv.Int("nodes"));
  c.vids = static_cast<int>(pv.Int("vids"));
  c.replication = static_cast<int>(pv.Int("replication"));
  c.front_ends = static_cast<int>(pv.Int("front_ends"));
  c.placement = pv.Choice("placement");
  c.separate_queues = pv.Bool("separate_queues");
  c.preload = static_cast<int>(pv.Int("preload"));
  c.heartbeat_ms = static_cast<int>(pv.Int("heartbeat_ms"));
  c.value_bytes = static_cast<int>(pv.Int("value_bytes"));
  c.cache_entries = static_cast<int>(pv.Int("cache_entries"));
  c.load_rate_per_s = pv.Real("load_rate_per_s");
  c.load_put_fraction = pv.Real("load_put_fraction");
  c.load_keys = static_cast<int>(pv.Int("load_keys"));
  c.zipf_s = pv.Real("zipf_s");
  return c;
}

StatusOr<std::unique_ptr<LabSession>> FawnkvSession::New(const ParamValues& config, uint64_t seed) {
  const Config c = FromParams(config);
  if (c.replication > c.nodes) {
    return Status::InvalidArgument("parameter 'replication' = " + std::to_string(c.replication) + " must be at most nodes = " +
                                   std::to_string(c.nodes) + " (each chain has R distinct back-ends)");
  }
  if (c.nodes * c.vids > kMaxRingVids) {
    return Status::InvalidArgument("parameters 'nodes' × 'vids' = " + std::to_string(c.nodes * c.vids) +
                                   " VIDs; the lab simulates at most " + std::to_string(kMaxRingVids) +
                                   " (each VID is R stores): lower vids or nodes");
  }
  if (c.replication * c.vids > kMaxNodeStores) {
    return Status::InvalidArgument("parameters 'replication' × 'vids' = " + std::to_string(c.replication * c.vids) +
                                   " stores a back-end; the lab allows at most " + std::to_string(kMaxNodeStores) +
                                   ": lower vids or replication");
  }
  std::unique_ptr<FawnkvSession> session(new FawnkvSession(c, seed));
  if (Status s = session->Build(); !s.ok()) return s;
  return std::unique_ptr<LabSession>(std::move(session));
}

StatusOr<std::unique_ptr<FawnkvSession>> FawnkvSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<FawnkvSession>("fawnkv", config_json, seed);
}

FawnkvSession::FawnkvSession(Config c, uint64_t seed) : config_(std::move(c)), rng_(sim::Rng::ForStream(seed, 12)) {}

FawnkvSession::~FawnkvSession() = default;

Status FawnkvSession::Build() {
  fawnkv::ClusterOptions o;
  o.nodes = config_.nodes;
  o.vids = config_.vids;
  o.replication = config_.replication;
  o.front_ends = config_.front_ends;
  o.even = config_.placement == "even";
  o.backend.scale = kScale;
  o.backend.separate_queues = config_.separate_queues;
  SizeStores(config_.nodes, config_.vids, config_.replication, o.even, config_.preload, config_.load_keys, config_.value_bytes,
             &o.backend);
  o.coord.heartbeat_ns = static_cast<sim::SimDuration>(config_.heartbeat_ms) * sim::kMs;
  o.front.cache_entries = static_cast<size_t>(config_.cache_entries);
  o.record_history = true;
  auto c = fawnkv::Cluster::Create(o);
  if (!c.ok()) return c.status();
  cluster_ = std::move(c).value();
  cluster_->set_events([this](const std::string& text) { OnEvent(text); });
  cluster_->net().set_observer([this](const fawnkv::Message& m, sim::SimTime sent, sim::SimTime arrive) { OnMessage(m, sent, arrive); });
  ring_seen_ = cluster_->ring().vids();
  zipf_ = std::make_unique<sim::ZipfSampler>(static_cast<uint64_t>(config_.load_keys), config_.zipf_s);
  if (Status s = Preload(); !s.ok()) return s;
  started_ = now();
  std::vector<double> nodes(cluster_->backend_slots());
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i] = cluster_->BackendJoules(static_cast<fawnkv::NodeId>(i));
  samples_.push_back(Sample{now(), ClusterJoules(), std::move(nodes)});
  ScheduleSample();
  ScheduleArrival();
  return Status::Ok();
}

std::string FawnkvSession::NewValue() { return ValueOf(++value_seq_, config_.value_bytes); }

Status FawnkvSession::Preload() {
  const uint64_t n = static_cast<uint64_t>(config_.preload);
  const int bytes = config_.value_bytes;
  auto key = [](uint64_t i) { return fawnkv::Key::Hash("k" + std::to_string(i)); };
  auto value = [bytes](uint64_t i) { return ValueOf(i + 1, bytes); };
  if (Status s = cluster_->Load(n, key, value); !s.ok()) return Status::Internal("FAWN-KV session: preload: " + s.message());
  // The preloaded versions, as puts that finished before anything else ran.
  for (uint64_t i = 0; i < n; ++i) {
    fawnkv::HistoryOp op;
    op.kind = fawnkv::HistoryOp::Kind::kPut;
    op.key = "k" + std::to_string(i);
    op.value = "v" + std::to_string(i + 1);  // Tag(value(i))
    op.invoke_ns = 0;
    op.complete_ns = now();
    op.ok = true;
    cluster_->history().Add(std::move(op));
  }
  value_seq_ = n;
  return Status::Ok();
}

// --- time -----------------------------------------------------------------------------------

bool FawnkvSession::RunUntilDone(const bool* flag, sim::SimTime deadline) {
  constexpr uint64_t kOpEvents = 20'000'000;  // an operation that waits runs at most this many events
  sim::Simulator& sim = cluster_->sim();
  uint64_t n = 0;
  while (!*flag && n < kOpEvents && sim.next_event_time() <= deadline && sim.Step()) ++n;
  if (!*flag && n < kOpEvents && now() < deadline) sim.RunUntil(deadline, 0);
  return *flag;
}

double FawnkvSession::ClusterJoules() const {
  return cluster_->BackendsJoules() + cluster_->SwitchJoules() + cluster_->FrontJoules();
}

void FawnkvSession::ScheduleSample() {
  cluster_->sim().Schedule((now() / kBinNs + 1) * kBinNs, [this]() { TakeSample(); });
}

void FawnkvSession::TakeSample() {
  const Sample& prev = samples_.back();
  Sample s{now(), ClusterJoules(), std::vector<double>(cluster_->backend_slots())};
  for (size_t i = 0; i < s.node_joules.size(); ++i) s.node_joules[i] = cluster_->BackendJoules(static_cast<fawnkv::NodeId>(i));
  const double dt = sim::NsToSec(s.t - prev.t);
  if (dt > 0) {
    timeline_.push_back(Point{prev.t, static_cast<double>(bin_answers_) / dt, (s.joules - prev.joules) / dt});
    if (timeline_.size() > kTimelinePoints) timeline_.pop_front();
  }
  bin_answers_ = 0;
  samples_.push_back(std::move(s));
  while (samples_.size() > 2 && samples_[1].t <= now() - sim::kSec) samples_.pop_front();
  ScheduleSample();
}

// --- client requests ------------------------------------------------------------------------

// Whether to record a request. Below kHistoryOps, all; beyond, only puts of keys with
// recorded gets in flight (one of them may read the put), and never a new get, so recording
// ends within a request timeout and no recorded get can have read an unrecorded put.
bool FawnkvSession::Record(const std::string& app_key, bool put) {
  if (cluster_->history().size() < kHistoryOps) return true;
  if (!history_full_) {
    history_full_ = true;
    Note("history full (" + std::to_string(kHistoryOps) + " operations): later requests are not recorded for the checker");
  }
  return put && recorded_gets_.count(app_key) > 0;
}

void FawnkvSession::Issue(bool put, const std::string& app_key, std::string value, Then then) {
  const fawnkv::Key key = fawnkv::Key::Hash(app_key);
  const int front = fawnkv::Ring::FrontEndOf(key, cluster_->front_ends()).value();
  // Recorded as Cluster::Get/Put record (history.h), with tags for values (see Tag).
  fawnkv::History& history = cluster_->history();
  const bool record = Record(app_key, put);
  const size_t h = record ? history.Invoke(put ? fawnkv::HistoryOp::Kind::kPut : fawnkv::HistoryOp::Kind::kGet, app_key,
                                           put ? Tag(value) : std::string(), now())
                          : 0;
  ++(put ? puts_ : gets_);
  if (record && !put) ++recorded_gets_[app_key];
  fawnkv::FrontEnd::Done done = [this, front, put, record, h, app_key, then = std::move(then)](const fawnkv::Outcome& o) {
    if (record) {
      cluster_->history().Complete(h, o.ok, o.found, o.found ? Tag(o.value) : std::string(), o.ok ? now() : -1);
    }
    if (record && !put) {
      auto it = recorded_gets_.find(app_key);
      if (--it->second == 0) recorded_gets_.erase(it);
    }
    Answered(o, front);
    if (then) then(o);
  };
  if (put) {
    cluster_->front(front).Put(key, std::move(value), std::move(done));
  } else {
    cluster_->front(front).Get(key, std::move(done));
  }
}

void FawnkvSession::Answered(const fawnkv::Outcome& o, int front) {
  if (!o.ok) {
    ++(o.status != fawnkv::ReplyStatus::kOk ? refused_ : timeouts_);
    return;
  }
  const int node = o.served_by >= 0 && o.served_by != fawnkv::kNobody ? o.served_by : -1;
  answers_.push_back(Answer{now(), node, front, o.latency_ns});
  while (answers_.front().t <= now() - sim::kSec) answers_.pop_front();
  ++bin_answers_;
}

void FawnkvSession::ScheduleArrival() {
  if (config_.load_rate_per_s <= 0) return;
  const double gap = rng_.Exponential(1e9 / config_.load_rate_per_s);
  const sim::SimTime at = now() + std::max<sim::SimDuration>(1, static_cast<sim::SimDuration>(std::llround(gap)));
  const uint64_t token = arrival_token_;
  cluster_->sim().Schedule(at, [this, token]() {
    if (token != arrival_token_) return;
    Arrival();
    ScheduleArrival();
  });
}

void FawnkvSession::Arrival() {
  if (outstanding_ >= kMaxOutstanding) {
    ++shed_;
    return;
  }
  const uint64_t i = config_.zipf_s > 0 ? zipf_->Sample(rng_) - 1 : rng_.UniformU64(static_cast<uint64_t>(config_.load_keys));
  const bool put = rng_.Bernoulli(config_.load_put_fraction);
  ++outstanding_;
  Issue(put, "k" + std::to_string(i), put ? NewValue() : std::string(), [this](const fawnkv::Outcome&) { --outstanding_; });
}

Status FawnkvSession::Reconfigured(const ParamValues& config, const ParamValues&) {
  config_ = FromParams(config);  // only live fields differ
  for (int f = 0; f < cluster_->front_ends(); ++f) cluster_->front(f).set_cache_entries(static_cast<size_t>(config_.cache_entries));
  zipf_ = std::make_unique<sim::ZipfSampler>(static_cast<uint64_t>(config_.load_keys), config_.zipf_s);
  ++arrival_token_;  // the pending arrival belongs to the old rate
  ScheduleArrival();
  return Status::Ok();
}

// --- what the cluster shows -----------------------------------------------------------------

void FawnkvSession::Note(const std::string& text) {
  events_.push_back(Event{now(), text});
  if (events_.size() > kEventsKept) events_.pop_front();
}

void FawnkvSession::OnEvent(const std::string& text) {
  Note(text);
  if (!cluster_->changing()) change_ended_ = now();
  CheckRing();  // the coordinator changes the ring only where it also reports the change
  CheckJoins();
}

// An added node has joined once it is in the ring and every transition copying to it is
// done (the coordinator reports each step, so this runs at each).
void FawnkvSession::CheckJoins() {
  if (!cluster_->changing()) joining_.clear();
  const std::vector<fawnkv::NodeId> members = cluster_->ring().nodes();
  for (auto it = joining_.begin(); it != joining_.end();) {
    bool copied = false, copying = false;
    for (const fawnkv::Transition& t : cluster_->coordinator().transitions()) {
      if (t.joiner != static_cast<fawnkv::Endpoint>(*it)) continue;
      (t.phase == fawnkv::Phase::kDone ? copied : copying) = true;
    }
    const bool member = std::find(members.begin(), members.end(), *it) != members.end();
    it = member && copied && !copying ? joining_.erase(it) : std::next(it);
  }
}

void FawnkvSession::OnMessage(const fawnkv::Message& m, sim::SimTime sent, sim::SimTime arrive) {
  const KindView k = ViewOf(m.kind);
  const bool heartbeat = m.kind == fawnkv::MsgKind::kHeartbeat || m.kind == fawnkv::MsgKind::kHeartbeatReply;
  // To 1e-5 of the ring: enough to draw, short to print (JsonWriter searches for the
  // shortest digits that read back, one try a digit).
  const double pos = heartbeat ? 0 : std::floor(fawndslab::RingFraction(k.keyed ? m.key : m.range.end) * 1e5) / 1e5;
  messages_.push_back(Msg{next_msg_++, k.name, m.from, m.to, pos, sent, arrive, m.bytes, heartbeat});
  if (messages_.size() > kMessagesKept) messages_.pop_front();
}

void FawnkvSession::CheckRing() {
  const std::vector<fawnkv::Vid>& vids = cluster_->ring().vids();
  const bool same = vids.size() == ring_seen_.size() &&
                    std::equal(vids.begin(), vids.end(), ring_seen_.begin(), [](const fawnkv::Vid& a, const fawnkv::Vid& b) {
                      return a == b && a.id == b.id;
                    });
  if (same) return;
  ring_seen_ = vids;
  ++ring_version_;
}

int FawnkvSession::Busy() const { return cluster_->changing() ? 1 : 0; }

uint64_t FawnkvSession::version() {
  CheckRing();
  return ring_version_;
}

StatusOr<ColumnSet> FawnkvSession::View(const std::string&, const ParamValues&) {
  VidColumns v = Vids();
  ColumnSet c;
  c.Number("version", static_cast<double>(v.version));
  c.U32("node", std::move(v.node)).U16("index", std::move(v.index)).F64("pos", std::move(v.pos));
  c.Number("chainLength", v.chain_length).U32("chains", std::move(v.chains));
  return c;
}

VidColumns FawnkvSession::Vids() {
  VidColumns c;
  c.version = version();
  const fawnkv::Ring& ring = cluster_->ring();
  std::map<std::pair<fawnkv::NodeId, int>, uint32_t> at;  // (node, index) -> ring order
  for (const fawnkv::Vid& v : ring.vids()) {
    at[{v.node, v.index}] = static_cast<uint32_t>(c.node.size());
    c.node.push_back(v.node);
    c.index.push_back(static_cast<uint16_t>(v.index));
    c.pos.push_back(fawndslab::RingFraction(v.id));
  }
  if (ring.vids().empty()) return c;
  c.chain_length = std::max(1, std::min(ring.replication(), ring.distinct_nodes()));
  c.chains.assign(ring.vids().size() * static_cast<size_t>(c.chain_length), VidColumns::kNoVid);
  for (size_t i = 0; i < ring.vids().size(); ++i) {
    // A VID owns (predecessor, VID]: the chain of the key at its own position is the one it heads.
    auto chain = ring.Chain(ring.vids()[i].id, c.chain_length);
    if (!chain.ok()) continue;
    for (size_t j = 0; j < chain.value().size() && j < static_cast<size_t>(c.chain_length); ++j) {
      c.chains[i * static_cast<size_t>(c.chain_length) + j] = at.at({chain.value()[j].node, chain.value()[j].index});
    }
  }
  return c;
}

}  // namespace fawnlab::fawnkvlab
