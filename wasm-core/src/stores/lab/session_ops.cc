// StoresSession: the operations the page sends (arguments already checked against the schema
// in stores/lab/schema.cc): put, get, fill (and the preload), run_until. Each runs virtual time
// until every store has completed it, the workload arriving meanwhile.
#include <algorithm>
#include <cmath>
#include <string>

#include "base/json_writer.h"
#include "base/op_args.h"
#include "stores/lab/session.h"
#include "ycsb/keys.h"

namespace fawnlab::stores {
namespace {

constexpr uint64_t kOpEvents = 200'000'000;        // one put's or get's event budget
constexpr uint64_t kFillEvents = 2'000'000'000;    // a fill's
constexpr uint64_t kRunUntilEvents = 50'000'000;   // run_until's (bounds its wall time)
constexpr size_t kMaxTextKey = 64;
constexpr uint32_t kValueBytes = 200;

double Micros(sim::SimDuration ns) { return std::round(static_cast<double>(ns) / 10) / 100; }

}  // namespace

StatusOr<std::string> StoresSession::RunOp(const std::string& name, const ParamValues& args, const JsonValue&) {
  if (name == "put") return DoPutOrGet(args, true);
  if (name == "get") return DoPutOrGet(args, false);
  if (name == "fill") return DoFill(args);
  return DoRunUntil(args);
}

bool StoresSession::RunWhile(const std::function<bool()>& more, uint64_t max_events) {
  uint64_t n = 0;
  while (more()) {
    if (n >= max_events || !sim_->Step()) return !more();
    ++n;
    AfterEvent();
  }
  return true;
}

Status StoresSession::Fill(uint64_t count, uint64_t max_events, std::vector<sim::SimTime>* finished) {
  const uint64_t first = next_record_;
  next_record_ += count;
  // The generator must know the new records: its inserts go on from next_record_ and its reads
  // may pick them (each lane puts them before any workload operation that arrives from now on).
  if (stream_.generator() != nullptr) stream_.Rebuild(next_record_);
  for (size_t i = 0; i < lanes_.size(); ++i) {
    Lane& l = lanes_[i];
    if (l.fill_next == l.fill_end) l.fill_next = first;  // else the earlier fill's range goes on
    l.fill_end = first + count;
    l.fill_pending += count;
    Pump(i);
  }
  if (finished) finished->assign(lanes_.size(), 0);
  const bool done = RunWhile(
      [this, finished] {
        bool more = false;
        for (size_t i = 0; i < lanes_.size(); ++i) {
          if (lanes_[i].fill_pending > 0) {
            more = true;
          } else if (finished && (*finished)[i] == 0) {
            (*finished)[i] = sim_->now();  // this lane's last fill put completed
          }
        }
        return more;
      },
      max_events);
  if (!done) return Status::Internal("the fill did not complete within the event budget");
  return Status::Ok();
}

Status StoresSession::SyncAll(uint64_t max_events) {
  auto left = std::make_shared<size_t>(lanes_.size());
  auto failed = std::make_shared<Status>();
  for (Lane& l : lanes_) {
    Status s = l.store->Sync([left, failed](const Status& st) {
      --*left;
      if (!st.ok() && failed->ok()) *failed = st;
    });
    if (!s.ok()) return Status::Internal(l.kind + ": sync: " + s.message());
  }
  if (!RunWhile([left] { return *left > 0; }, max_events)) return Status::Internal("the sync did not complete within the event budget");
  return *failed;
}

StatusOr<std::string> StoresSession::DoPutOrGet(const ParamValues& args, bool put) {
  const bool has_key = args.Has("key"), has_record = !put && args.Has("record");
  if (has_key == has_record) {
    return Status::InvalidArgument(put ? "give 'key' (a text key, hashed to 20 bytes)"
                                       : "give exactly one of 'key' (a text key, hashed) and 'record' (a workload record number)");
  }
  Op op;
  op.kind = put ? OpKind::kPut : OpKind::kGet;
  op.user = true;
  std::string text;
  if (has_key) {
    text = args.Text("key");
    if (Status s = CheckAppKey(text, kMaxTextKey); !s.ok()) return s;
  } else {
    const long long r = args.Int("record");
    if (r < 0 || static_cast<uint64_t>(r) >= next_record_) {
      return Status::InvalidArgument("'record' = " + std::to_string(r) + " is not a record: there are " +
                                     std::to_string(next_record_) + " (0 to " +
                                     std::to_string(next_record_ == 0 ? 0 : next_record_ - 1) + ")");
    }
    op.by_record = true;
    op.record = static_cast<uint64_t>(r);
    text = "record " + std::to_string(r);
  }
  std::string value;
  if (put) {
    value = args.Has("value") ? args.Text("value") : "value of " + text;
    if (value.size() > kValueBytes) {
      return Status::InvalidArgument("'value' is " + std::to_string(value.size()) + " bytes; the stores' values are at most " +
                                     std::to_string(kValueBytes) + " bytes");
    }
  }
  user_key_ = has_key ? text : "";
  user_value_ = value;
  ++offered_;
  for (size_t i = 0; i < lanes_.size(); ++i) {
    lanes_[i].user = UserResult{};
    lanes_[i].urgent.push_back(op);
    Pump(i);
  }
  const bool done = RunWhile(
      [this] {
        for (const Lane& l : lanes_) {
          if (!l.user.done) return true;
        }
        return false;
      },
      kOpEvents);
  if (!done) return Status::Internal(std::string("the ") + (put ? "put" : "get") + " did not complete within the event budget");
  if (put) user_keys_.insert(text);

  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(put ? "put" : "get");
  w.Key("key");
  w.String(text);
  w.Key("per_store");
  w.BeginArray();
  for (const Lane& l : lanes_) {
    const UserResult& u = l.user;
    w.BeginObject();
    w.Key("kind");
    w.String(l.kind);
    if (!put) {
      w.Key("found");
      w.Bool(u.found);
    }
    w.Key("latency_us");
    w.Number(Micros(u.latency_ns));
    if (!put) {
      w.Key("device_reads");
      w.Int(static_cast<int64_t>(u.device_reads));
    }
    if (!u.status.ok() && !(u.status.code() == StatusCode::kNotFound && !put)) {
      w.Key("error");
      w.String(u.status.message());
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  if (!put) {
    last_get_.key = text;
    last_get_.per_store.clear();
    for (const Lane& l : lanes_) last_get_.per_store.emplace_back(l.kind, l.user);
    has_last_get_ = true;
  }
  return w.str();
}

StatusOr<std::string> StoresSession::DoFill(const ParamValues& args) {
  const uint64_t count = static_cast<uint64_t>(args.Int("count"));
  const uint64_t have = next_record_;
  if (have + count > static_cast<uint64_t>(config_.max_writes)) {
    return Status::InvalidArgument("'count' = " + std::to_string(count) + " would make " + std::to_string(have + count) +
                                   " records, more than max_writes = " + std::to_string(config_.max_writes) +
                                   " (the puts each store's file is sized for)");
  }
  std::vector<uint64_t> writes0(lanes_.size()), jobs0(lanes_.size());
  for (size_t i = 0; i < lanes_.size(); ++i) {
    const kv::KvCounters k = lanes_[i].store->counters();
    writes0[i] = k.puts + k.deletes;
    jobs0[i] = k.background_jobs;
  }
  const sim::SimTime t0 = sim_->now();
  const uint64_t first = next_record_;
  offered_ += count;
  std::vector<sim::SimTime> finished;
  if (Status s = Fill(count, kFillEvents, &finished); !s.ok()) return s;
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("fill");
  w.Key("first_record");
  w.Int(static_cast<int64_t>(first));
  w.Key("records");
  w.Int(static_cast<int64_t>(next_record_));
  w.Key("per_store");
  w.BeginArray();
  for (size_t i = 0; i < lanes_.size(); ++i) {
    const Lane& l = lanes_[i];
    const kv::KvCounters k = l.store->counters();
    const double secs = static_cast<double>(std::max(finished[i], t0) - t0) / 1e9;
    w.BeginObject();
    w.Key("kind");
    w.String(l.kind);
    w.Key("seconds");
    w.Number(std::round(secs * 1e6) / 1e6);
    w.Key("writes_per_s");
    w.Number(secs > 0 ? std::round(static_cast<double>(count) / secs) : 0);
    w.Key("writes");
    w.Int(static_cast<int64_t>(k.puts + k.deletes - writes0[i]));
    w.Key("background_jobs");
    w.Int(static_cast<int64_t>(k.background_jobs - jobs0[i]));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.str();
}

StatusOr<std::string> StoresSession::DoRunUntil(const ParamValues& args) {
  const uint64_t ops = static_cast<uint64_t>(args.Int("ops"));
  if (stream_.rate() <= 0) {
    return Status::InvalidArgument("rate_ops_per_s is 0: no workload arrives (raise it before run_until)");
  }
  const uint64_t target = workload_offered_ + ops;
  const sim::SimTime t0 = sim_->now();
  std::vector<uint64_t> done0;
  for (const Lane& l : lanes_) done0.push_back(l.done_ops);
  const bool done = RunWhile(
      [this, target] {
        if (workload_offered_ < target) return true;
        for (const Lane& l : lanes_) {
          if (l.served < target) return true;
        }
        return false;
      },
      kRunUntilEvents);
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("run_until");
  w.Key("ops");
  w.Int(static_cast<int64_t>(ops));
  w.Key("seconds");
  w.Number(std::round(static_cast<double>(sim_->now() - t0) / 1e3) / 1e6);
  if (!done) {
    w.Key("stopped");
    w.String("after " + std::to_string(kRunUntilEvents) + " events; run it again to go on");
  }
  w.Key("per_store");
  w.BeginArray();
  for (size_t i = 0; i < lanes_.size(); ++i) {
    w.BeginObject();
    w.Key("kind");
    w.String(lanes_[i].kind);
    w.Key("ops");
    w.Int(static_cast<int64_t>(lanes_[i].done_ops - done0[i]));
    w.Key("queued");
    w.Int(static_cast<int64_t>(queued(i)));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::stores
