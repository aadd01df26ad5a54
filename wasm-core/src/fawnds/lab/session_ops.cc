// FawndsSession: the operations the page sends (Apply) and the column views (Log, Index).
#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "base/op_args.h"
#include "fawnds/lab/ring.h"
#include "fawnds/lab/session.h"

namespace fawnlab::fawndslab {
namespace {

constexpr uint64_t kOpEvents = 50'000'000;     // an operation that waits runs at most this many events
constexpr uint64_t kDrainEvents = 100'000'000;  // a crashed node's leftover events before recovery
constexpr size_t kMaxKey = 128;
constexpr size_t kMaxValue = 65536;
constexpr uint64_t kMaxFill = 2'000'000;
constexpr int kFillWindow = 16;       // a fill keeps this many puts in flight
constexpr uint64_t kFillSync = 8192;  // and syncs after this many
constexpr size_t kOpsKept = 12;

const std::vector<OpSpec>& Ops() {
  static const std::vector<OpSpec> ops = {
      {"put", {"key", "value"}},
      {"get", {"key"}},
      {"delete", {"key"}},
      {"fill", {"count", "from"}},
      {"delete-many", {"count", "from", "step"}},
      {"compact", {"store", "wait"}},
      {"split", {"store", "fraction", "key", "wait"}},
      {"merge", {"a", "b", "wait"}},
      {"checkpoint", {"store"}},
      {"sync", {}},
      {"crash", {}},
      {"recover", {}},
  };
  return ops;
}

Status CheckKey(const std::string& k) { return CheckAppKey(k, kMaxKey); }

// `s`'s code with another message.
Status Rephrase(const Status& s, std::string msg) {
  switch (s.code()) {
    case StatusCode::kInvalidArgument: return Status::InvalidArgument(std::move(msg));
    case StatusCode::kNotFound: return Status::NotFound(std::move(msg));
    case StatusCode::kCorruption: return Status::Corruption(std::move(msg));
    case StatusCode::kCancelled: return Status::Cancelled(std::move(msg));
    case StatusCode::kResourceExhausted: return Status::ResourceExhausted(std::move(msg));
    case StatusCode::kUnavailable: return Status::Unavailable(std::move(msg));
    default: return Status::Internal(std::move(msg));
  }
}

}  // namespace

Status FawndsSession::NotCrashed() const {
  if (crashed_) return Status::Unavailable("the node has crashed: recover it first");
  return Status::Ok();
}

StatusOr<size_t> FawndsSession::StoreArg(const JsonValue& op, const char* name) const {
  const size_t n = node_->num_stores();
  const JsonValue* v = op.Find(name);
  if (!v) return Status::InvalidArgument(std::string("'") + name + "' (a store number) is required");
  if (!v->is_number() || v->number_value() != std::floor(v->number_value()) || v->number_value() < 0 ||
      v->number_value() >= static_cast<double>(n)) {
    return Status::InvalidArgument(std::string("'") + name + "' must name a store: the node has " + std::to_string(n) +
                                   " store" + (n == 1 ? "" : "s") + " (0" + (n > 1 ? "–" + std::to_string(n - 1) : "") + ")");
  }
  return static_cast<size_t>(v->number_value());
}

StatusOr<std::string> FawndsSession::Apply(const std::string& op_json) {
  StatusOr<JsonValue> v = ParseJson(op_json);
  if (!v.ok()) return Status::InvalidArgument("operation: " + v.status().message());
  return ApplyOp(v.value());
}

StatusOr<std::string> FawndsSession::ApplyOp(const JsonValue& op) {
  StatusOr<const OpSpec*> spec = FindOp(op, Ops());
  if (!spec.ok()) return spec.status();
  const std::string kind = spec.value()->name;
  StatusOr<std::string> r = Status::Internal("unreachable");
  if (kind == "put" || kind == "get" || kind == "delete") r = DoKeyOp(kind, op);
  else if (kind == "fill") r = DoFill(op, false);
  else if (kind == "delete-many") r = DoFill(op, true);
  else if (kind == "compact" || kind == "split" || kind == "merge") r = DoMaintenance(kind, op);
  else if (kind == "checkpoint" || kind == "sync") r = DoDurable(kind, op);
  else if (kind == "crash") r = DoCrash();
  else r = DoRecover();
  return r;
}

int FawndsSession::RouteOf(const fawnds::Key& key) const {
  for (size_t i = 0; i < node_->num_stores(); ++i) {
    if (node_->range(i).Contains(key)) return static_cast<int>(i);
  }
  return -1;
}

FawndsSession::Lookup FawndsSession::TraceLookup(const std::string& op, const std::string& app_key, const fawnds::Key& key) {
  Lookup l;
  l.op = op;
  l.key = app_key;
  l.key_hex = key.Hex();
  l.store = RouteOf(key);
  if (l.store < 0) return l;
  const fawnds::DataStore& s = node_->store(static_cast<size_t>(l.store));
  const fawnds::HashIndex& index = s.index();
  l.index = index.IndexOf(key);
  l.fragment = index.FragmentOf(key);
  std::string buf;
  bool hit = false;
  int first_free = -1;
  for (int j = 0; j < fawnds::HashIndex::kProbes && !hit; ++j) {
    const uint64_t bucket = index.Probe(l.index, j);
    const fawnds::HashIndex::Bucket b = index.Get(bucket);
    Probe p{j, bucket, b.valid, b.fragment, b.offset, ""};
    if (!b.valid) {
      p.outcome = "empty";
      if (first_free < 0) first_free = static_cast<int>(l.probes.size());
    } else if (b.fragment != l.fragment) {
      p.outcome = "other";
    } else {
      auto rec = s.PeekRecord(b.offset, &buf);
      const bool same = rec.ok() && rec.value().key == key;
      l.reads.emplace_back(b.offset, rec.ok() ? rec.value().size : fawnds::kRecordHeader);
      l.read_false_positive.push_back(!same);
      p.outcome = same ? "hit" : "false-positive";
      hit = same;
    }
    l.probes.push_back(p);
  }
  if (op == "put" && !hit && first_free >= 0) l.probes[static_cast<size_t>(first_free)].outcome = "free";
  return l;
}

StatusOr<std::string> FawndsSession::DoKeyOp(const std::string& kind, const JsonValue& op) {
  if (Status s = NotCrashed(); !s.ok()) return s;
  const JsonValue* k = op.Find("key");
  if (!k || !k->is_string()) return Status::InvalidArgument(kind + " needs \"key\": a string");
  const std::string app_key = k->string_value();
  if (Status s = CheckKey(app_key); !s.ok()) return s;
  std::string value;
  if (kind == "put") {
    const JsonValue* v = op.Find("value");
    if (v && !v->is_string()) return Status::InvalidArgument("put's \"value\" must be a string");
    value = v ? v->string_value() : LoadValue(0);
    if (value.size() > kMaxValue) {
      return Status::InvalidArgument("value is " + std::to_string(value.size()) + " bytes; the lab takes at most " + std::to_string(kMaxValue));
    }
  }
  const fawnds::Key key = fawnds::Key::Hash(app_key);
  Lookup lookup = TraceLookup(kind, app_key, key);
  struct State {
    bool done = false;
    Status status;
    std::string value;
  };
  auto st = std::make_shared<State>();
  const uint64_t gen = generation_;
  const sim::SimTime issued = sim_.now();
  uint64_t reads0, fps0, reads1, fps1;
  ReadDeltas(&reads0, &fps0);
  const size_t queued0 = node_->queued();
  Status s;
  if (kind == "put") {
    s = node_->Put(key, value, [this, st, gen, issued](const Status& x) {
      if (gen != generation_) return;
      st->done = true;
      st->status = x;
      Completed(issued);
    });
  } else if (kind == "delete") {
    s = node_->Delete(key, [this, st, gen, issued](const Status& x) {
      if (gen != generation_) return;
      st->done = true;
      st->status = x;
      if (x.ok()) client_record_bytes_ += fawnds::RecordSize(0);
      Completed(issued);
    });
  } else {
    s = node_->Get(key, [this, st, gen, issued](const Status& x, std::string v) {
      if (gen != generation_) return;
      st->done = true;
      st->status = x;
      st->value = std::move(v);
      if (x.ok()) ++hits_;
      else if (x.code() == StatusCode::kNotFound) ++misses_;
      Completed(issued);
    });
  }
  OpResult r{next_op_id_++, kind, app_key, "", "", "", issued, -1};
  if (!s.ok()) {
    r.status = "refused";
    r.message = s.message();
    ops_.push_back(r);
    if (ops_.size() > kOpsKept) ops_.pop_front();
    return s;
  }
  ++ops_issued_;
  ReadDeltas(&reads1, &fps1);
  lookup.queued = node_->queued() != queued0;
  false_positives_ += fps1 - fps0;
  if (kind == "put") {
    ++puts_;
    client_record_bytes_ += fawnds::RecordSize(value.size());
    ++version_;
  } else if (kind == "delete") {
    ++deletes_;
    ++version_;
  } else {
    ++gets_;
    if (!lookup.queued) {
      ++measured_gets_;
      get_reads_ += reads1 - reads0;
    }
  }
  last_lookup_ = lookup;
  has_lookup_ = true;
  RunUntilDone(&st->done, kOpEvents);
  r.done = st->done ? sim_.now() : -1;
  r.status = !st->done ? "pending" : st->status.ok() ? "ok" : st->status.code() == StatusCode::kNotFound ? "not_found" : "error";
  r.message = st->done && !st->status.ok() ? st->status.message() : "";
  r.value = st->value.size() > 64 ? st->value.substr(0, 64) + "\u2026" : st->value;
  ops_.push_back(r);
  if (ops_.size() > kOpsKept) ops_.pop_front();

  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(kind);
  w.Key("key");
  w.String(app_key);
  w.Key("key_hex");
  w.String(lookup.key_hex);
  w.Key("store");
  w.Int(lookup.store);
  w.Key("status");
  w.String(r.status);
  if (!r.message.empty()) {
    w.Key("message");
    w.String(r.message);
  }
  if (kind == "get" && st->status.ok() && st->done) {
    w.Key("value");
    w.String(st->value);
  }
  w.Key("latency_ns");
  w.Number(st->done ? static_cast<double>(r.done - issued) : -1);
  w.Key("record_reads");
  w.Int(static_cast<int64_t>(lookup.reads.size()));
  w.Key("queued");
  w.Bool(lookup.queued);
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawndsSession::DoFill(const JsonValue& op, bool deletes) {
  if (Status s = NotCrashed(); !s.ok()) return s;
  auto count = UIntArg(op, "count", 0, 1, kMaxFill, true);
  if (!count.ok()) return count.status();
  auto from = UIntArg(op, "from", 0, 0, 1'000'000'000, false);
  if (!from.ok()) return from.status();
  auto step = UIntArg(op, "step", 1, 1, 1'000'000, false);
  if (!step.ok()) return step.status();
  struct State {
    int inflight = 0;
    uint64_t done = 0, ok = 0;
    Status failure;
  };
  auto st = std::make_shared<State>();
  const uint64_t gen = generation_;
  const sim::SimTime t0 = sim_.now();
  uint64_t issued = 0, since_sync = 0;
  auto sync = [&]() -> Status {
    auto flag = std::make_shared<bool>(false);
    Status s = node_->SyncAll([flag](const Status&) { *flag = true; });
    if (!s.ok()) return s;
    if (!RunUntilDone(flag.get(), kOpEvents)) return Status::Internal("a sync did not complete");
    return Status::Ok();
  };
  while ((issued < count.value() || st->inflight > 0) && st->failure.ok()) {
    while (st->inflight < kFillWindow && issued < count.value() && st->failure.ok()) {
      const uint64_t i = from.value() + issued * step.value();
      const fawnds::Key key = fawnds::Key::Hash("k" + std::to_string(i));
      const sim::SimTime at = sim_.now();
      uint64_t r0, f0, r1, f1;
      ReadDeltas(&r0, &f0);
      auto cb = [this, st, gen, at, deletes](const Status& x) {
        if (gen != generation_) return;
        --st->inflight;
        ++st->done;
        if (x.ok()) {
          ++st->ok;
          if (deletes) client_record_bytes_ += fawnds::RecordSize(0);
        } else if (x.code() != StatusCode::kNotFound && st->failure.ok()) {
          st->failure = x;
        }
        Completed(at);
      };
      Status s;
      if (deletes) {
        s = node_->Delete(key, cb);
      } else {
        const std::string value = LoadValue(i);
        s = node_->Put(key, value, cb);
        if (s.ok()) client_record_bytes_ += fawnds::RecordSize(value.size());
      }
      if (!s.ok()) {
        st->failure = s;
        break;
      }
      ReadDeltas(&r1, &f1);
      false_positives_ += f1 - f0;
      ++st->inflight;
      ++issued;
      ++ops_issued_;
      ++version_;
      if (deletes) ++deletes_;
      else ++puts_;
    }
    if (st->inflight > 0) {
      if (!sim_.Step()) break;
      AfterEvent();
    }
    if (issued - since_sync >= kFillSync && st->inflight == 0) {
      since_sync = issued;
      if (Status s = sync(); !s.ok()) return s;
    }
  }
  if (!st->failure.ok()) {
    return Rephrase(st->failure, std::string(deletes ? "delete-many" : "fill") + " stopped after " + std::to_string(st->ok) +
                                     " of " + std::to_string(count.value()) + ": " + st->failure.message());
  }
  if (Status s = sync(); !s.ok()) return s;
  puts_since_sync_ = 0;
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(deletes ? "delete-many" : "fill");
  w.Key("issued");
  w.Number(static_cast<double>(issued));
  w.Key("succeeded");
  w.Number(static_cast<double>(st->ok));
  w.Key("virtual_ns");
  w.Number(static_cast<double>(sim_.now() - t0));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawndsSession::DoMaintenance(const std::string& kind, const JsonValue& op) {
  if (Status s = NotCrashed(); !s.ok()) return s;
  const JsonValue* wait_v = op.Find("wait");
  if (wait_v && !wait_v->is_bool()) return Status::InvalidArgument("'wait' must be true or false");
  const bool wait = wait_v && wait_v->bool_value();
  auto flag = std::make_shared<bool>(false);
  const uint64_t gen = generation_;
  auto done = [this, flag, gen, kind](const Status& s) {
    if (gen != generation_) return;
    *flag = true;
    maint_result_ = s.ok() ? kind + " finished" : kind + " failed: " + s.message();
    ++version_;
  };
  Status s;
  int source = -1, other = -1;
  std::string detail;
  if (kind == "compact") {
    auto i = StoreArg(op, "store");
    if (!i.ok()) return i.status();
    source = static_cast<int>(i.value());
    s = node_->Compact(i.value(), done);
  } else if (kind == "split") {
    auto i = StoreArg(op, "store");
    if (!i.ok()) return i.status();
    source = static_cast<int>(i.value());
    const JsonValue* f = op.Find("fraction");
    const JsonValue* k = op.Find("key");
    if ((f == nullptr) == (k == nullptr)) return Status::InvalidArgument("split needs exactly one of 'fraction' (0 < f < 1) or 'key'");
    fawnds::Key at;
    if (f) {
      if (!f->is_number() || !(f->number_value() > 0) || !(f->number_value() < 1)) {
        return Status::InvalidArgument("split's 'fraction' must be a number strictly between 0 and 1");
      }
      at = RingAt(node_->range(i.value()), f->number_value());
    } else {
      if (!k->is_string()) return Status::InvalidArgument("split's 'key' must be a string");
      if (Status ks = CheckKey(k->string_value()); !ks.ok()) return ks;
      at = fawnds::Key::Hash(k->string_value());
    }
    detail = at.Hex();
    s = node_->Split(i.value(), at, done);
  } else {
    auto a = StoreArg(op, "a");
    if (!a.ok()) return a.status();
    auto b = StoreArg(op, "b");
    if (!b.ok()) return b.status();
    source = static_cast<int>(a.value());
    other = static_cast<int>(b.value());
    s = node_->Merge(a.value(), b.value(), done);
  }
  if (!s.ok()) return s;
  maint_kind_ = kind;
  maint_started_ = sim_.now();
  maint_result_.clear();
  saw_running_ = true;
  ++version_;
  if (wait && !RunUntilDone(flag.get(), 4 * kOpEvents)) return Status::Internal(kind + " did not finish within the event budget");
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(kind);
  w.Key("store");
  w.Int(source);
  if (other >= 0) {
    w.Key("other");
    w.Int(other);
  }
  if (!detail.empty()) {
    w.Key("at_hex");
    w.String(detail);
  }
  w.Key("finished");
  w.Bool(*flag);
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawndsSession::DoDurable(const std::string& kind, const JsonValue& op) {
  if (Status s = NotCrashed(); !s.ok()) return s;
  const uint64_t gen = generation_;
  struct State {
    int pending = 0;
  };
  auto st = std::make_shared<State>();
  auto flag = std::make_shared<bool>(false);
  auto cb = [this, st, flag, gen](const Status&) {
    if (gen != generation_) return;
    if (--st->pending == 0) *flag = true;
  };
  const sim::SimTime t0 = sim_.now();
  std::vector<size_t> which;
  if (kind == "sync") {
    Status s = node_->SyncAll(cb);
    if (!s.ok()) return s;
    ++st->pending;
  } else {
    if (op.Find("store")) {
      auto i = StoreArg(op, "store");
      if (!i.ok()) return i.status();
      which.push_back(i.value());
    } else {
      for (size_t i = 0; i < node_->num_stores(); ++i) which.push_back(i);
    }
    for (size_t i : which) {
      const fawnds::DataStore* s = &node_->store(i);
      if (s == node_->maintenance_source() || s == node_->maintenance_destination()) {
        return Status::InvalidArgument("store " + std::to_string(i) + " is in a running " + node_->progress().kind +
                                       "; it is checkpointed when that ends");
      }
    }
    for (size_t i : which) {
      ++st->pending;
      Status s = node_->store(i).Checkpoint(cb);
      if (!s.ok()) return s;
    }
    ++version_;
  }
  if (!RunUntilDone(flag.get(), kOpEvents)) return Status::Internal(kind + " did not complete within the event budget");
  puts_since_sync_ = 0;
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(kind);
  if (kind == "checkpoint") {
    w.Key("stores");
    w.BeginArray(true);
    for (size_t i : which) w.Int(static_cast<int64_t>(i));
    w.EndArray();
  }
  w.Key("latency_ns");
  w.Number(static_cast<double>(sim_.now() - t0));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawndsSession::DoCrash() {
  if (Status s = NotCrashed(); !s.ok()) return Status::InvalidArgument("the node has already crashed: recover it");
  const uint64_t unsynced = injector_->unsynced_bytes();
  // Every table up to date with what the stores wrote before the power goes.
  std::vector<std::pair<const fawnds::DataStore*, uint64_t>> stores;
  for (size_t i = 0; i < node_->num_stores(); ++i) stores.emplace_back(&node_->store(i), node_->slot(i));
  const fawnds::DataStore* building = nullptr;
  if (node_->maintenance_running() && node_->progress().kind != "merge") building = node_->maintenance_destination();
  if (building) stores.emplace_back(building, building->options().region_offset / (uint64_t(config_.file_mb) << 20));
  for (const auto& [s, _] : stores) TableFor(s).CatchUp(*s);
  device::FaultPlan plan;
  plan.crash_at = 1;
  plan.lose_unsynced = true;
  if (Status s = injector_->Arm(plan); !s.ok()) return s;
  (void)injector_->Submit(device::IoCommand::Single(device::IoEntry::Flush()), nullptr);  // the power cut: refused
  frozen_.clear();
  uint64_t lost = 0;
  for (const auto& [s, slot] : stores) {
    LogTable& t = TableFor(s);
    Frozen f{s->options().range, slot, s->log_capacity(), LogColumns(), t.MarkLost(*s)};
    f.log = t.Columns(*s);
    lost += f.lost;
    frozen_.push_back(std::move(f));
  }
  crashed_ = true;
  crashed_at_ = sim_.now();
  ++generation_;
  ++arrival_token_;
  ++version_;
  outstanding_ = 0;
  if (saw_running_) {
    maint_spans_.emplace_back(maint_started_, sim_.now(), maint_kind_ + " (crashed)");
    maint_result_ = maint_kind_ + " cut short by the crash";
    saw_running_ = false;
  }
  if (saw_locked_) {
    locks_.push_back({lock_started_, sim_.now()});
    saw_locked_ = false;
  }
  tables_.clear();
  has_lookup_ = false;
  zombie_ = std::move(node_);
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("crash");
  w.Key("unsynced_bytes");
  w.Number(static_cast<double>(unsynced));
  w.Key("lost_records");
  w.Number(static_cast<double>(lost));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawndsSession::DoRecover() {
  if (!crashed_) return Status::InvalidArgument("the node is running: recovery rebuilds the index after a crash (crash it first)");
  // The crashed node's last events (device completions, a lock's end) run out first; they
  // touch nothing, since the device refuses everything.
  uint64_t n = 0;
  while (sim_.pending() > 0 && n < kDrainEvents) {
    sim_.Step();
    ++n;
  }
  if (sim_.pending() > 0) return Status::Internal("the crashed node's events did not drain");
  zombie_.reset();
  cache_.reset();
  injector_->Restart();
  StackUp();
  fawnds::Node::Recovery rep;
  auto node = fawnds::Node::Recover(top_, NodeOpts(), &rep);
  if (!node.ok()) return node.status();
  node_ = std::move(node).value();
  recovery_ = std::make_unique<Recovery>();
  recovery_->list_seq = rep.list_seq;
  recovery_->restricted = rep.restricted;
  recovery_->duration_ns = rep.duration_ns;
  crashed_ = false;
  frozen_.clear();
  tables_.clear();
  for (size_t i = 0; i < node_->num_stores(); ++i) {
    const fawnds::RecoveryReport& r = i < rep.stores.size() ? rep.stores[i] : fawnds::RecoveryReport{};
    recovery_->stores.push_back(RecoveredStore{node_->slot(i), node_->range(i), r});
    LogTable& t = TableFor(&node_->store(i));
    t.CatchUp(node_->store(i));
    t.MarkReplayed(r.replayed_records);
  }
  ++version_;
  ScheduleArrival();
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("recover");
  w.Key("stores");
  w.Int(static_cast<int64_t>(node_->num_stores()));
  w.Key("duration_ns");
  w.Number(static_cast<double>(recovery_->duration_ns));
  uint64_t replayed = 0;
  for (const RecoveredStore& f : recovery_->stores) replayed += f.report.replayed_records;
  w.Key("replayed_records");
  w.Number(static_cast<double>(replayed));
  w.EndObject();
  return w.str();
}

StatusOr<LogColumns> FawndsSession::Log(size_t store) {
  if (crashed_) {
    if (store >= frozen_.size()) {
      return Status::InvalidArgument("no store " + std::to_string(store) + ": the crashed node had " + std::to_string(frozen_.size()));
    }
    return frozen_[store].log;
  }
  PruneTables();
  const size_t n = node_->num_stores();
  const fawnds::DataStore* s = nullptr;
  if (store < n) {
    s = &node_->store(store);
  } else if (store == n && node_->maintenance_running() && node_->progress().kind != "merge") {
    s = node_->maintenance_destination();
  } else {
    return Status::InvalidArgument("no store " + std::to_string(store) + ": the node has " + std::to_string(n) + " store" +
                                   (n == 1 ? "" : "s") + (node_->maintenance_running() ? " and one being built" : ""));
  }
  LogTable& t = TableFor(s);
  t.CatchUp(*s);
  return t.Columns(*s);
}

StatusOr<IndexCells> FawndsSession::Index(size_t store, uint64_t first, uint64_t count, uint64_t group) {
  if (crashed_) return Status::Unavailable("the index lived in DRAM and was lost in the crash: recover to rebuild it");
  if (store >= node_->num_stores()) {
    return Status::InvalidArgument("no store " + std::to_string(store) + ": the node has " + std::to_string(node_->num_stores()));
  }
  const fawnds::HashIndex& index = node_->store(store).index();
  if (count == 0 || count > 4096 || group == 0 || first > index.buckets() || count * group > index.buckets() - first) {
    return Status::InvalidArgument("index cells: 1 to 4096 cells of at least one bucket within the " +
                                   std::to_string(index.buckets()) + " buckets");
  }
  IndexCells c;
  c.index_bits = index.index_bits();
  c.first = first;
  c.group = group;
  c.valid.assign(count, 0);
  if (group == 1) {
    c.fragments.assign(count, 0);
    c.offsets.assign(count, 0);
  }
  for (uint64_t i = 0; i < count; ++i) {
    uint16_t v = 0;
    for (uint64_t b = first + i * group, e = b + group; b < e; ++b) {
      const fawnds::HashIndex::Bucket bk = index.Get(b);
      v = static_cast<uint16_t>(v + (bk.valid ? 1 : 0));
      if (group == 1) {
        c.fragments[i] = static_cast<uint16_t>(bk.fragment | (bk.valid ? 0x8000 : 0));
        c.offsets[i] = bk.offset;
      }
    }
    c.valid[i] = v;
  }
  return c;
}

}  // namespace fawnlab::fawndslab
