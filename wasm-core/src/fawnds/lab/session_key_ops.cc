// FawndsSession: put, get and delete of one application key, with the lookup traced probe by
// probe for the page.
#include <memory>
#include <utility>

#include "fawnds/lab/session.h"
#include "fawnds/lab/session_ops.h"

namespace fawnlab::fawndslab {
namespace {

constexpr size_t kMaxValue = 65536;
constexpr size_t kOpsKept = 12;

}  // namespace

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

StatusOr<std::string> FawndsSession::DoKeyOp(const std::string& kind, const ParamValues& args) {
  if (Status s = NotCrashed(); !s.ok()) return s;
  const std::string app_key = args.Text("key");
  if (Status s = CheckKey(app_key); !s.ok()) return s;
  std::string value;
  if (kind == "put") {
    value = args.Has("value") ? args.Text("value") : LoadValue(0);
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


}  // namespace fawnlab::fawndslab
