// FawnkvSession: the operations the page sends (Apply), dispatched by name, their arguments
// already checked against the schema in fawnkv/lab/schema.cc.
#include <algorithm>
#include <memory>
#include <utility>

#include "base/op_args.h"
#include "fawnkv/lab/session.h"

namespace fawnlab::fawnkvlab {
namespace {

constexpr size_t kMaxKey = 128;
constexpr size_t kMaxValue = 4096;
constexpr sim::SimDuration kOpTimeLimit = 5 * sim::kSec;  // a put or get waits at most this long
constexpr int kFillWindow = 32;  // a fill keeps this many puts in flight
constexpr size_t kCheckDetails = 10;

void WriteStrings(JsonWriter& w, const char* key, const std::vector<std::string>& v) {
  w.Key(key);
  w.BeginArray(true);
  for (const std::string& s : v) w.String(s);
  w.EndArray();
}

}  // namespace

StatusOr<std::string> FawnkvSession::RunOp(const std::string& kind, const ParamValues& args, const JsonValue&) {
  if (kind == "put" || kind == "get") return DoKeyOp(kind, args);
  if (kind == "fill") return DoFill(args);
  if (kind == "check") return DoCheck();
  return DoMembership(kind, args);
}

std::vector<std::string> FawnkvSession::ChainNames(const fawnkv::Key& key) const {
  const fawnkv::Ring& ring = cluster_->ring();
  std::vector<std::string> names;
  auto chain = ring.Chain(key, std::min(ring.replication(), ring.distinct_nodes()));
  if (chain.ok()) {
    for (const fawnkv::Vid& v : chain.value()) names.push_back(v.Name());
  }
  return names;
}

StatusOr<std::string> FawnkvSession::DoKeyOp(const std::string& kind, const ParamValues& args) {
  const std::string app_key = args.Text("key");
  if (Status s = CheckAppKey(app_key, kMaxKey); !s.ok()) return s;
  const bool put = kind == "put";
  std::string value;
  if (put) {
    const bool given = args.Has("value");
    if (given && args.Text("value").size() > kMaxValue) {
      return Status::InvalidArgument("put's \"value\" is " + std::to_string(args.Text("value").size()) + " bytes; the lab takes at most " +
                                     std::to_string(kMaxValue));
    }
    value = given ? args.Text("value") : NewValue();
  }
  const std::vector<std::string> chain = ChainNames(fawnkv::Key::Hash(app_key));
  struct State {
    bool done = false;
    fawnkv::Outcome outcome;
  };
  auto st = std::make_shared<State>();
  const sim::SimTime t0 = now();
  Issue(put, app_key, std::move(value), [st](const fawnkv::Outcome& o) {
    st->done = true;
    st->outcome = o;
  });
  RunUntilDone(&st->done, t0 + kOpTimeLimit);
  const fawnkv::Outcome& o = st->outcome;  // not done: ok = false
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(kind);
  w.Key("key");
  w.String(app_key);
  w.Key("latency_ns");
  w.Number(static_cast<double>(st->done ? o.latency_ns : now() - t0));
  w.Key("found");
  w.Bool(put ? o.ok : o.ok && o.found);  // a put: acknowledged
  if (!put && o.ok && o.found) {
    w.Key("value");
    w.String(o.value);
  }
  // ok; refused: the store had no room (definitely not applied); timeout: no answer in time.
  const bool refused = st->done && !o.ok && o.status != fawnkv::ReplyStatus::kOk;
  w.Key("result");
  w.String(o.ok ? "ok" : refused ? "refused" : "timeout");
  w.Key("timed_out");
  w.Bool(!o.ok && !refused);
  WriteStrings(w, "chain", chain);
  if (!put) {
    w.Key("cache_hit");
    w.Bool(o.cache_hit);
  }
  w.Key("served_by");
  w.Int(o.ok && o.served_by != fawnkv::kNobody ? o.served_by : -1);
  w.EndObject();
  return w.str();
}

// op["id"]: a back-end that is up and in the ring (not joining, leaving, failed or gone).
StatusOr<fawnkv::NodeId> FawnkvSession::LiveNode(const ParamValues& args, bool changing_too) const {
  const fawnkv::NodeId n = static_cast<fawnkv::NodeId>(args.Int("id"));  // required, in [0, kMaxNodes) by the schema
  const std::string state = StateOf(n);
  if (state != "up" && !(changing_too && (state == "joining" || state == "leaving"))) {
    return Status::InvalidArgument("'id' = " + std::to_string(n) + ": " +
                                   (!state.empty() ? "back-end " + std::to_string(n) + " is " + state : "no back-end has that id") +
                                   (changing_too ? "; it must be a live back-end (up, joining or leaving)" : "; it must be a live member of the ring"));
  }
  return n;
}

StatusOr<std::string> FawnkvSession::DoMembership(const std::string& kind, const ParamValues& args) {
  const bool queued = cluster_->changing();
  const std::string waits = queued ? "; it waits for the running membership change" : "";
  fawnkv::NodeId id = 0;
  if (kind == "add-node") {
    id = args.Has("id") ? static_cast<fawnkv::NodeId>(args.Int("id")) : static_cast<fawnkv::NodeId>(cluster_->backend_slots());
    if (id >= static_cast<fawnkv::NodeId>(fawnkv::Cluster::kMaxNodes)) {
      return Status::InvalidArgument("'id' = " + std::to_string(id) + ": the cluster holds at most " + std::to_string(fawnkv::Cluster::kMaxNodes) +
                                     " back-ends");
    }
    if (cluster_->backend(id)) return Status::InvalidArgument("'id' = " + std::to_string(id) + ": back-end " + std::to_string(id) + " already exists");
    Note("node " + std::to_string(id) + " added" + waits);  // before the coordinator's own report of the join
    auto added = cluster_->AddNode(id);
    if (!added.ok()) return Status::Internal("add-node: " + added.status().message());
    if (cluster_->changing()) joining_.insert(id);  // (a join that changed no chain is over already)
  } else {
    auto n = LiveNode(args, kind == "fail-node");  // a joining or leaving node may fail too
    if (!n.ok()) return n.status();
    id = n.value();
    // A failure may strike at any time, also during a change (the coordinator abandons what
    // needs the dead node and repairs first; docs/decisions.md "FAWN-KV membership").
    // Members that stay once the leaves already under way are done.
    int staying = 0;
    for (fawnkv::NodeId m : cluster_->ring().nodes()) staying += std::string(StateOf(m)) == "up" ? 1 : 0;
    if (kind == "remove-node") {
      if (staying <= config_.replication) {
        return Status::InvalidArgument("'id' = " + std::to_string(id) + ": the ring keeps " + std::to_string(staying) +
                                       " live back-ends; one may leave only while more than R = " + std::to_string(config_.replication) +
                                       " stay");
      }
      Note("node " + std::to_string(id) + " asked to leave" + waits);
      if (Status s = cluster_->RemoveNode(id); !s.ok()) return Status::Internal("remove-node: " + s.message());
      leaving_.insert(id);
    } else {
      if (staying <= 1) return Status::InvalidArgument("'id' = " + std::to_string(id) + " is the last live back-end");
      if (Status s = cluster_->FailNode(id); !s.ok()) return Status::Internal("fail-node: " + s.message());
      Note("node " + std::to_string(id) + " fail-stops; front-end 0 notices after " +
              std::to_string(cluster_->options().coord.missed) + " missed heartbeats");
    }
  }
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(kind);
  w.Key("id");
  w.Int(id);
  w.Key("queued");
  w.Bool(queued);
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawnkvSession::DoFill(const ParamValues& args) {
  const uint64_t count = static_cast<uint64_t>(args.Int("count"));
  const uint64_t from = args.Has("from") ? static_cast<uint64_t>(args.Int("from")) : 0;
  struct State {
    int inflight = 0;
    uint64_t ok = 0;
  };
  auto st = std::make_shared<State>();
  const sim::SimTime t0 = now();
  uint64_t issued = 0;
  sim::Simulator& sim = cluster_->sim();
  while (issued < count || st->inflight > 0) {
    while (st->inflight < kFillWindow && issued < count) {
      ++st->inflight;
      Issue(true, "k" + std::to_string(from + issued++), NewValue(), [st](const fawnkv::Outcome& o) {
        --st->inflight;
        if (o.ok) ++st->ok;
      });
    }
    if (!sim.Step()) break;  // never: the front-ends' timeouts are pending
  }
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("fill");
  w.Key("issued");
  w.Number(static_cast<double>(issued));
  w.Key("succeeded");
  w.Number(static_cast<double>(st->ok));
  w.Key("latency_ns");
  w.Number(static_cast<double>(now() - t0));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawnkvSession::DoCheck() {
  const fawnkv::CheckReport r = fawnkv::CheckLinearizable(cluster_->history(), kCheckDetails);
  last_check_ = Check{r.keys, r.operations, r.violations, r.details};  // undetermined keys have a detail line
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("check");
  WriteCheck(w, *last_check_);
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::fawnkvlab
