// FawnkvSession::SnapshotJson: the per-frame picture, FawnkvSnapshot of
// web/src/labs/fawnkv/fawnkvTypes.ts (docs/modules.md, "The FAWN-KV lab's session").
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fawnds/lab/ring.h"
#include "fawnkv/lab/session.h"

namespace fawnlab::fawnkvlab {
namespace {

constexpr sim::SimDuration kMessageWindowNs = 20 * sim::kMs;  // messages that arrived this recently (or will)
constexpr size_t kBusyMessages = 50;                          // more than this: heartbeats are left out
constexpr sim::SimDuration kJoinsShownNs = sim::kSec;          // a finished change's joins stay this long

void Num(JsonWriter& w, const char* k, double v) {
  w.Key(k);
  w.Number(v);
}

// Integers print through JsonWriter::Int (the same digits as Number, without a float format).
void Count(JsonWriter& w, const char* k, int64_t v) {
  w.Key(k);
  w.Int(v);
}

// `v` to 1/1000 (or 1/100): rates, watts and milliseconds print short, and fast: JsonWriter
// searches for the shortest digits that read back, one try a digit.
double Milli(double v) { return std::round(v * 1000) / 1000; }
double Centi(double v) { return std::round(v * 100) / 100; }

// The p-quantile (nearest rank) of `v` in ms. REQUIRES: v sorted.
double QuantileMs(const std::vector<sim::SimDuration>& v, double p) {
  if (v.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::max(1.0, std::ceil(p * static_cast<double>(v.size()))));
  return Milli(static_cast<double>(v[std::min(rank, v.size()) - 1]) / 1e6);
}

double PerJoule(double qps, double watts) { return watts > 0 ? Milli(qps / watts) : 0; }

// The view's phase of a join (see docs/modules.md): the coordinator's phase, refined by
// how far the joiner has got with the range.
const char* JoinPhase(const fawnkv::Transition& t, const fawnkv::Backend::JoinView* j) {
  switch (t.phase) {
    case fawnkv::Phase::kPrecopy: return "precopy";
    case fawnkv::Phase::kInsert:
      if (!t.sealed) return "insert";
      return j && j->flush_done ? "merge" : "flush";
    case fawnkv::Phase::kFinal: return "merge";
    case fawnkv::Phase::kDone: return "done";
    case fawnkv::Phase::kRepair: break;
  }
  return "insert";
}

}  // namespace

const char* FawnkvSession::StateOf(fawnkv::NodeId id) const {
  const fawnkv::Backend* b = cluster_->backend(id);
  if (!b) return "";
  if (cluster_->gone(id)) return "gone";
  if (b->failed() || cluster_->coordinator().declared_failed().count(id)) return "failed";  // or missed its heartbeats
  if (leaving_.count(id)) return "leaving";
  if (joining_.count(id)) return "joining";
  return "up";
}

// The sample the last second's rates start from: the oldest within the second, or failing
// that the newest before now. Null when time has not moved since the session started.
const FawnkvSession::Sample* FawnkvSession::WindowStart() const {
  const Sample* best = nullptr;
  for (const Sample& s : samples_) {  // oldest first
    if (s.t >= now()) break;
    best = &s;
    if (s.t >= now() - sim::kSec) break;
  }
  return best;
}

void FawnkvSession::WriteNodes(JsonWriter& w, double window_s, const Sample* from) {
  std::vector<std::vector<sim::SimDuration>> latency(cluster_->backend_slots());
  for (const Answer& a : answers_) {
    if (a.node >= 0 && static_cast<size_t>(a.node) < latency.size()) latency[static_cast<size_t>(a.node)].push_back(a.latency_ns);
  }
  w.Key("nodes");
  w.BeginArray();
  for (size_t i = 0; i < cluster_->backend_slots(); ++i) {
    const fawnkv::NodeId id = static_cast<fawnkv::NodeId>(i);
    const fawnkv::Backend* b = cluster_->backend(id);
    if (!b) continue;
    std::vector<sim::SimDuration>& l = latency[i];
    std::sort(l.begin(), l.end());
    const double qps = window_s > 0 ? static_cast<double>(l.size()) / window_s : 0;
    double watts = 0;
    if (from) {
      const double before = i < from->node_joules.size() ? from->node_joules[i] : 0;
      watts = (cluster_->BackendJoules(id) - before) / sim::NsToSec(now() - from->t);
    }
    w.BeginObject();
    w.Key("id");
    w.Int(id);
    w.Key("state");
    w.String(StateOf(id));
    Count(w, "stores", static_cast<int64_t>(b->node().num_stores()));
    Count(w, "records", static_cast<int64_t>(b->records()));
    Count(w, "log_bytes", static_cast<int64_t>(b->log_bytes()));
    Num(w, "qps", Milli(qps));
    Num(w, "p50_ms", QuantileMs(l, 0.5));
    Num(w, "p99_ms", QuantileMs(l, 0.99));
    Count(w, "client_queue", static_cast<int64_t>(b->client_queue()));
    Count(w, "chain_queue", static_cast<int64_t>(b->chain_queue()));
    Num(w, "watts", Milli(watts));
    Num(w, "qpj", PerJoule(qps, watts));
    w.EndObject();
  }
  w.EndArray();
}

void FawnkvSession::WriteFrontEnds(JsonWriter& w, double window_s) {
  const int n = cluster_->front_ends();
  std::vector<uint64_t> answered(static_cast<size_t>(n), 0);
  for (const Answer& a : answers_) ++answered[static_cast<size_t>(a.front)];
  w.Key("front_ends");
  w.BeginArray();
  for (int f = 0; f < n; ++f) {
    const fawnkv::FrontEnd& fe = cluster_->front(f);
    w.BeginObject();
    w.Key("id");
    w.Int(f);
    // The wedge (c_f − 1, c_{f+1} − 1] with c_f = ⌈f·2^160/F⌉ (Ring::WedgeOf), as f/F …
    // (f+1)/F, positions in [0, 1): the last wedge ends at 0, one front-end's is 0 … 0 (all).
    Num(w, "start", static_cast<double>(f) / n);
    Num(w, "end", static_cast<double>((f + 1) % n) / n);
    Count(w, "cache_entries", static_cast<int64_t>(fe.cache_size()));
    Count(w, "cache_hits", static_cast<int64_t>(fe.stats().cache_hits));
    Count(w, "cache_misses", static_cast<int64_t>(fe.stats().cache_misses));
    Num(w, "qps", window_s > 0 ? Milli(static_cast<double>(answered[static_cast<size_t>(f)]) / window_s) : 0);
    w.EndObject();
  }
  w.EndArray();
}

void FawnkvSession::WriteMessages(JsonWriter& w) const {
  std::vector<const Msg*> recent;
  for (const Msg& m : messages_) {
    if (m.arrive > now() - kMessageWindowNs) recent.push_back(&m);
  }
  if (recent.size() > kBusyMessages) recent.erase(std::remove_if(recent.begin(), recent.end(), [](const Msg* m) { return m->heartbeat; }), recent.end());
  w.Key("messages");
  w.BeginArray();
  for (const Msg* m : recent) {
    w.BeginObject();
    Count(w, "id", static_cast<int64_t>(m->id));
    w.Key("kind");
    w.String(m->kind);
    w.Key("from");
    w.Int(m->from);
    w.Key("to");
    w.Int(m->to);
    Num(w, "pos", m->pos);
    Count(w, "sent_ns", static_cast<int64_t>(m->sent));
    Count(w, "arrive_ns", static_cast<int64_t>(m->arrive));
    Count(w, "bytes", m->bytes);
    w.EndObject();
  }
  w.EndArray();
}

void FawnkvSession::WriteJoins(JsonWriter& w) {
  w.Key("joins");
  w.BeginArray();
  const bool shown = cluster_->changing() || (change_ended_ >= 0 && now() - change_ended_ < kJoinsShownNs);
  const fawnkv::Ring& ring = cluster_->ring();
  for (const fawnkv::Transition& t : shown ? cluster_->coordinator().transitions() : std::vector<fawnkv::Transition>{}) {
    if (t.joiner == fawnkv::kNobody) continue;
    const fawnkv::NodeId joiner = static_cast<fawnkv::NodeId>(t.joiner);
    std::string vid = std::to_string(joiner) + "/?";
    auto chain = ring.Chain(t.range.end, std::min(ring.replication(), ring.distinct_nodes()));
    for (const fawnkv::Vid& v : chain.ok() ? chain.value() : std::vector<fawnkv::Vid>{}) {
      if (v.node == joiner) vid = v.Name();
    }
    const auto at = std::find(t.new_chain.begin(), t.new_chain.end(), joiner);
    const size_t pos = static_cast<size_t>(at - t.new_chain.begin());
    const char* role = pos == 0 ? "head" : pos + 1 >= t.new_chain.size() ? "tail" : "mid";
    std::vector<fawnkv::Backend::JoinView> views;
    if (const fawnkv::Backend* b = cluster_->backend(joiner)) views = b->joins();
    const fawnkv::Backend::JoinView* view = nullptr;
    for (const auto& j : views) {
      if (j.range.start == t.range.start && j.range.end == t.range.end) view = &j;
    }
    const double copied = view ? static_cast<double>(view->received_bytes) : 0;
    // The donor's log for the range: its store's log scaled by the range's share of the store.
    double total = 0;
    if (const fawnkv::Backend* d = t.donor == fawnkv::kNobody ? nullptr : cluster_->backend(static_cast<fawnkv::NodeId>(t.donor))) {
      const int s = d->node().StoreOf(t.range.end);
      if (s >= 0) {
        const double share = fawnkv::Ring::Fraction(t.range) / fawnkv::Ring::Fraction(d->node().range(static_cast<size_t>(s)));
        total = static_cast<double>(d->node().store(static_cast<size_t>(s)).log_end()) * std::min(1.0, share);
      }
    }
    w.BeginObject();
    w.Key("node");
    w.Int(joiner);
    w.Key("vid");
    w.String(vid);
    Num(w, "start", fawndslab::RingFraction(t.range.start));  // equal ends: the whole ring
    Num(w, "end", fawndslab::RingFraction(t.range.end));
    w.Key("role");
    w.String(role);
    w.Key("donor");
    w.Int(t.donor == fawnkv::kNobody ? -1 : t.donor);
    w.Key("phase");
    w.String(JoinPhase(t, view));
    Count(w, "copied_bytes", static_cast<int64_t>(copied));
    Count(w, "total_bytes", std::llround(std::max(total, copied)));
    w.EndObject();
  }
  w.EndArray();
}

void FawnkvSession::WriteCheck(JsonWriter& w, const Check& c) const {
  w.Key("check");
  w.BeginObject();
  Count(w, "keys", static_cast<int64_t>(c.keys));
  Count(w, "operations", static_cast<int64_t>(c.operations));
  Count(w, "violations", static_cast<int64_t>(c.violations));
  w.Key("details");
  w.BeginArray();
  for (const std::string& d : c.details) w.String(d);
  w.EndArray();
  w.EndObject();
}

std::string FawnkvSession::SnapshotJson() {
  CheckRing();
  while (!answers_.empty() && answers_.front().t <= now() - sim::kSec) answers_.pop_front();
  // The last second, or all of it so far (at least 100 ms, so a first request is not a rate).
  const double window_s = std::clamp(sim::NsToSec(now() - started_), 0.1, 1.0);
  const Sample* from = WindowStart();
  const double qps = window_s > 0 ? static_cast<double>(answers_.size()) / window_s : 0;
  const double watts = from ? (ClusterJoules() - from->joules) / sim::NsToSec(now() - from->t) : 0;

  JsonWriter w;
  w.BeginObject();
  Count(w, "now_ns", static_cast<int64_t>(now()));
  Count(w, "ring_version", static_cast<int64_t>(ring_version_));
  w.Key("replication");
  w.Int(config_.replication);
  WriteNodes(w, window_s, from);
  WriteFrontEnds(w, window_s);
  WriteMessages(w);
  WriteJoins(w);
  w.Key("events");
  w.BeginArray();
  for (const Event& e : events_) {
    w.BeginObject();
    Count(w, "t_ns", static_cast<int64_t>(e.t));
    w.Key("text");
    w.String(e.text);
    w.EndObject();
  }
  w.EndArray();
  Num(w, "qps", Milli(qps));
  Num(w, "watts", Milli(watts));
  Num(w, "qpj", PerJoule(qps, watts));
  Count(w, "puts", static_cast<int64_t>(puts_));
  Count(w, "gets", static_cast<int64_t>(gets_));
  Count(w, "timeouts", static_cast<int64_t>(timeouts_));
  Count(w, "refused", static_cast<int64_t>(refused_));
  if (last_check_) WriteCheck(w, *last_check_);
  w.Key("timeline");
  w.BeginArray();
  for (const Point& p : timeline_) {
    w.BeginObject();
    Count(w, "t_ns", static_cast<int64_t>(p.t));
    Num(w, "qps", Centi(p.qps));
    Num(w, "watts", Centi(p.watts));
    w.EndObject();
  }
  w.EndArray();
  w.Key("changing");
  w.Bool(cluster_->changing());
  Count(w, "shed", static_cast<int64_t>(shed_));
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::fawnkvlab
