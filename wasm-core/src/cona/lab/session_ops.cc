// ConaSession: the operations the page sends (their arguments already checked against the
// schema in cona/lab/schema.cc): put, delete, get, fill (and the preload), sync, crash,
// recover. Each runs virtual time until it completes.
#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "base/json_writer.h"
#include "base/op_args.h"
#include "cona/lab/session.h"

namespace fawnlab::cona {
namespace {

constexpr uint64_t kOpEvents = 200'000'000;       // one operation's event budget
constexpr uint64_t kLoadEvents = 2'000'000'000;   // a preload's or fill's
constexpr uint64_t kDrainEvents = 100'000'000;    // a crashed store's leftover events
constexpr int kLoadInFlight = 64;                 // puts a preload or fill keeps queued
constexpr size_t kMaxTextKey = 64;

constexpr uint64_t kRunUntilEvents = 20'000'000;  // run_until's (bounds its wall time)

double Micros(sim::SimDuration ns) { return static_cast<double>(ns) / 1e3; }

// What an operation's callback leaves for the operation (shared: a callback may outlive the
// call that gave up waiting for it).
struct Waiter {
  bool done = false;
  Status result;
  std::string value;
};

// A preload or fill: puts of records first .. first+count-1, kLoadInFlight queued at a time.
struct Filler : std::enable_shared_from_this<Filler> {
  Store* store;
  uint64_t first, count, issued = 0, done = 0;
  uint32_t key_bytes, value_bytes;
  Status error;
  bool finished = false;
  std::function<void(const std::string&)> on_put;  // a put acknowledged
  std::function<void()> after_call;                 // after each Put call
  const uint64_t* generation;
  uint64_t gen;

  void Issue() {
    while (error.ok() && issued < count && issued - done < static_cast<uint64_t>(kLoadInFlight)) {
      const uint64_t r = first + issued++;
      std::string k, v;
      ycsb::KeyFor(r, key_bytes, &k);
      ycsb::ValueFor(r, 0, value_bytes, &v);
      auto self = shared_from_this();
      Status s = store->Put(k, v, [self, k](const Status& e) { self->Done(e, k); });
      after_call();
      if (!s.ok()) {
        --issued;
        error = s;
      }
    }
    if (done == issued && (issued == count || !error.ok())) finished = true;
  }
  void Done(const Status& e, const std::string& k) {
    if (*generation != gen) return;  // the store crashed meanwhile
    ++done;
    if (!e.ok() && error.ok()) error = e;
    if (e.ok()) on_put(k);
    Issue();
  }
};

}  // namespace

Status ConaSession::NotCrashed() const {
  if (crashed_) return Status::Unavailable("the store has crashed: recover it first");
  return Status::Ok();
}

StatusOr<std::string> ConaSession::RunOp(const std::string& name, const ParamValues& args, const JsonValue&) {
  if (name == "crash") return DoCrash();
  if (name == "recover") return DoRecover();
  if (Status s = NotCrashed(); !s.ok()) return s;
  if (name == "put" || name == "delete") return DoWrite(args, name == "delete");
  if (name == "get") return DoGet(args);
  if (name == "fill") return DoFill(args);
  if (name == "run_until") return DoRunUntil(args);
  return DoSync();
}

// The store key for the op's `key` (text, hashed) or `record` (a workload record's key);
// `*text` gets what the page shows.
StatusOr<std::string> ConaSession::KeyArg(const ParamValues& args, std::string* text) {
  const bool has_key = args.Has("key"), has_record = args.Has("record");
  if (has_key == has_record) {
    return Status::InvalidArgument("give exactly one of 'key' (a text key, hashed) and 'record' (a workload record number)");
  }
  const uint32_t kb = store_->options().key_bytes;
  if (has_key) {
    const std::string& k = args.Text("key");
    if (Status s = CheckAppKey(k, kMaxTextKey); !s.ok()) return s;
    *text = k;
    std::string key;
    ycsb::KeyForText(k, kb, &key);
    return key;
  }
  const long long r = args.Int("record");
  if (r < 0 || static_cast<uint64_t>(r) >= next_record_) {
    return Status::InvalidArgument("'record' = " + std::to_string(r) + " is not a record: there are " +
                                   std::to_string(next_record_) + " (0 to " + std::to_string(next_record_ == 0 ? 0 : next_record_ - 1) + ")");
  }
  *text = "record " + std::to_string(r);
  std::string key;
  ycsb::KeyFor(static_cast<uint64_t>(r), kb, &key);
  return key;
}

StatusOr<std::string> ConaSession::DoWrite(const ParamValues& args, bool del) {
  std::string text;
  auto key = KeyArg(args, &text);
  if (!key.ok()) return key.status();
  const uint32_t vb = store_->options().value_bytes;
  const std::string value = del ? "" : args.Has("value") ? args.Text("value") : "value of " + text;
  if (value.size() > vb) {
    return Status::InvalidArgument("'value' is " + std::to_string(value.size()) + " bytes; the store's values are at most " +
                                   std::to_string(vb) + " bytes");
  }
  auto wt = std::make_shared<Waiter>();
  const sim::SimTime t0 = sim_->now();
  const uint64_t gen = generation_;
  const std::string k = key.value();
  auto acked = [this, wt, gen, k](const Status& e) {
    if (gen != generation_) return;
    wt->result = e;
    wt->done = true;
    if (e.ok()) {
      ++acked_since_sync_;
      Remember(k);
    }
  };
  Status s = del ? store_->Delete(k, acked) : store_->Put(k, value, acked);
  if (!s.ok()) return s;
  AfterEvent();  // an idle store applied it at once
  const char* name = del ? "delete" : "put";
  if (!RunUntil(&wt->done, kOpEvents)) return Status::Internal(std::string("the ") + name + " did not complete within the event budget");
  if (!wt->result.ok()) return wt->result;
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(name);
  w.Key("key");
  w.String(text);
  w.Key("latency_us");
  w.Number(Micros(sim_->now() - t0));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> ConaSession::DoGet(const ParamValues& args) {
  std::string text;
  auto key = KeyArg(args, &text);
  if (!key.ok()) return key.status();
  auto trace = std::make_shared<LookupTrace>();
  auto wt = std::make_shared<Waiter>();
  const sim::SimTime t0 = sim_->now();
  const uint64_t gen = generation_;
  Status s = store_->Get(
      key.value(),
      [this, wt, trace, gen](const Status& e, std::string v) {
        if (gen != generation_) return;
        wt->result = e;
        wt->value = std::move(v);
        wt->done = true;
      },
      trace.get());
  if (!s.ok()) return s;
  if (!RunUntil(&wt->done, kOpEvents)) return Status::Internal("the get did not complete within the event budget");
  const Status& result = wt->result;
  const std::string& value = wt->value;
  if (!result.ok() && result.code() != StatusCode::kNotFound) return result;
  Lookup l;
  l.key = text;
  l.store_key = key.value();
  l.record = args.Has("record") ? args.Int("record") : -1;
  l.found = result.ok();
  l.value = l.found ? value : "";
  l.trace = *trace;
  l.latency_ns = trace->latency_ns > 0 ? trace->latency_ns : sim_->now() - t0;
  last_lookup_ = std::move(l);
  has_lookup_ = true;
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("get");
  w.Key("key");
  w.String(text);
  w.Key("found");
  w.Bool(last_lookup_.found);
  if (last_lookup_.found) {
    w.Key("value");
    w.String(last_lookup_.value);
  }
  w.Key("latency_us");
  w.Number(Micros(last_lookup_.latency_ns));
  w.Key("flash_reads");
  int reads = 0;
  for (const LookupStep& st : last_lookup_.trace.steps) reads += st.flash_read ? 1 : 0;
  w.Int(reads);
  w.Key("steps");
  w.Int(static_cast<int64_t>(last_lookup_.trace.steps.size()));
  w.EndObject();
  return w.str();
}

Status ConaSession::Load(uint64_t count) {
  const uint64_t written = TotalStats().puts + TotalStats().deletes;
  if (written + count > static_cast<uint64_t>(config_.max_writes)) {
    return Status::InvalidArgument("'count' = " + std::to_string(count) + " more puts after the " + std::to_string(written) +
                                   " so far would pass max_writes = " + std::to_string(config_.max_writes) +
                                   " (the puts and deletes the store's file is sized for)");
  }
  auto f = std::make_shared<Filler>();
  f->store = store_;
  f->first = next_record_;
  f->count = count;
  f->key_bytes = store_->options().key_bytes;
  f->value_bytes = store_->options().value_bytes;
  f->generation = &generation_;
  f->gen = generation_;
  f->after_call = [this] { AfterEvent(); };
  f->on_put = [this](const std::string& k) {
    ++acked_since_sync_;
    Remember(k);
  };
  next_record_ += count;
  f->Issue();
  if (!RunUntil(&f->finished, kLoadEvents)) return Status::Internal("the puts did not complete within the event budget");
  next_record_ = f->first + f->done;  // records refused (the file full) do not exist
  stream_.Rebuild(next_record_);
  if (!f->error.ok()) return f->error;
  return SyncAndWait(kLoadEvents);
}

Status ConaSession::SyncAndWait(uint64_t max_events) {
  auto wt = std::make_shared<Waiter>();
  const uint64_t gen = generation_;
  Status s = store_->Sync([this, wt, gen](const Status& e) {
    if (gen != generation_) return;
    wt->result = e;
    wt->done = true;
  });
  if (!s.ok()) return s;
  const uint64_t acked = acked_since_sync_;
  if (!RunUntil(&wt->done, max_events)) return Status::Internal("the sync did not complete within the event budget");
  if (!wt->result.ok()) return wt->result;
  acked_since_sync_ -= std::min(acked_since_sync_, acked);
  return Status::Ok();
}

StatusOr<std::string> ConaSession::DoFill(const ParamValues& args) {
  const uint64_t count = static_cast<uint64_t>(args.Int("count"));
  const StoreStats before = TotalStats();
  const sim::SimTime t0 = sim_->now();
  const uint64_t first = next_record_;
  if (Status s = Load(count); !s.ok()) return s;
  const StoreStats after = TotalStats();
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("fill");
  w.Key("first_record");
  w.Int(static_cast<int64_t>(first));
  w.Key("records");
  w.Int(static_cast<int64_t>(next_record_));
  w.Key("induces");
  w.Int(static_cast<int64_t>(after.induces - before.induces));
  w.Key("merges");
  w.Int(static_cast<int64_t>(after.merges - before.merges));
  w.Key("flips");
  w.Int(static_cast<int64_t>(after.flips - before.flips));
  w.Key("duration_us");
  w.Number(Micros(sim_->now() - t0));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> ConaSession::DoSync() {
  const sim::SimTime t0 = sim_->now();
  if (Status s = SyncAndWait(kOpEvents); !s.ok()) return s;
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("sync");
  w.Key("latency_us");
  w.Number(Micros(sim_->now() - t0));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> ConaSession::DoRunUntil(const ParamValues& args) {
  const std::string& kind = args.Choice("event");
  const double max_s = args.Has("max_s") ? args.Real("max_s") : 60;
  const sim::SimTime t0 = sim_->now();
  const sim::SimTime deadline = t0 + static_cast<sim::SimDuration>(std::llround(max_s * 1e9));
  const uint64_t seen = events_total_;
  auto happened = [&]() {
    for (const Event& e : events_) {
      if (e.n > seen && kind == e.kind) return &e;
    }
    return static_cast<const Event*>(nullptr);
  };
  uint64_t n = 0;
  while (!happened() && n < kRunUntilEvents && sim_->next_event_time() <= deadline && sim_->Step()) {
    ++n;
    AfterEvent();
  }
  const Event* e = happened();
  const bool budget = n >= kRunUntilEvents;
  if (!e && !budget && sim_->next_event_time() > deadline && deadline > sim_->now()) sim_->RunUntil(deadline, 0);  // time still passes
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("run_until");
  w.Key("event");
  w.String(kind);
  w.Key("happened");
  w.Bool(e != nullptr);
  w.Key("level");
  w.Int(e ? e->level : 0);
  w.Key("waited_ms");
  w.Number(static_cast<double>(sim_->now() - t0) / 1e6);
  if (budget && !e) {
    w.Key("stopped");
    w.String("after " + std::to_string(kRunUntilEvents) + " events; run it again to go on");
  }
  w.EndObject();
  return w.str();
}

StatusOr<std::string> ConaSession::DoCrash() {
  if (crashed_) return Status::InvalidArgument("the store has already crashed: recover it");
  const uint64_t unsynced_bytes = machine_->fault()->unsynced_bytes();
  const uint64_t unsynced_ops = acked_since_sync_;
  const Structure s = store_->structure();
  at_crash_ = s;
  carried_ = TotalStats();
  store_ = nullptr;
  machine_->CrashNow();
  crashed_ = true;
  ++generation_;
  stream_.Stop();
  outstanding_ = 0;
  acked_since_sync_ = 0;
  written_.clear();
  swap_at_[0] = swap_at_[1] = written_total_;
  active_seen_ = 0;
  merging_ = false;
  has_lookup_ = false;
  Emit("crash", s.levels);
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("crash");
  w.Key("unsynced_bytes");
  w.Number(static_cast<double>(unsynced_bytes));
  w.Key("unsynced_writes");
  w.Number(static_cast<double>(unsynced_ops));
  w.Key("buffered_entries");
  w.Number(static_cast<double>(s.active_entries + s.frozen_entries));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> ConaSession::DoRecover() {
  if (!crashed_) return Status::InvalidArgument("the store is running: recovery reopens it after a crash (crash it first)");
  // The crashed store's last events (device completions) run out first; the device refuses
  // everything, so they change nothing.
  uint64_t n = 0;
  while (sim_->pending() > 0 && n < kDrainEvents) {
    sim_->Step();
    ++n;
  }
  if (sim_->pending() > 0) return Status::Internal("the crashed store's events did not drain");
  const sim::SimTime t0 = sim_->now();
  RecoveryReport report;
  if (Status s = machine_->Recover(&report); !s.ok()) return s;
  recovered_ = true;
  recovered_at_ = sim_->now();
  recovery_ = report;
  store_ = machine_->store();
  crashed_ = false;
  const Structure s = store_->structure();
  const StoreStats& st = store_->stats();  // a new store's: what it did from here on is news
  seen_induces_ = st.induces;
  seen_merges_ = st.merges;
  seen_flips_ = st.flips;
  merging_ = false;
  ScanStructure(s);
  Emit("recover", s.levels);
  stream_.Rebuild(next_record_);
  StartClock();
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("recover");
  w.Key("levels");
  w.Int(s.levels);
  w.Key("entries");
  w.Number(static_cast<double>(s.entries));
  w.Key("duration_us");
  w.Number(Micros(sim_->now() - t0));
  WriteRecovery(w);
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::cona
