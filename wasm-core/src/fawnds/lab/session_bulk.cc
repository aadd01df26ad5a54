// FawndsSession: fill and delete-many, bulk puts and deletes of keys "k<i>" with a window in
// flight and periodic syncs.
#include <memory>
#include <utility>

#include "fawnds/lab/session.h"
#include "fawnds/lab/session_ops.h"

namespace fawnlab::fawndslab {
namespace {

constexpr int kFillWindow = 16;       // a fill keeps this many puts in flight
constexpr uint64_t kFillSync = 8192;  // and syncs after this many

}  // namespace

// `args`: count (required), from, step (delete-many), in the schema's ranges.
StatusOr<std::string> FawndsSession::DoFill(const ParamValues& args, bool deletes) {
  if (Status s = NotCrashed(); !s.ok()) return s;
  const uint64_t count = static_cast<uint64_t>(args.Int("count"));
  const uint64_t from = args.Has("from") ? static_cast<uint64_t>(args.Int("from")) : 0;
  const uint64_t step = args.Has("step") ? static_cast<uint64_t>(args.Int("step")) : 1;
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
  while ((issued < count || st->inflight > 0) && st->failure.ok()) {
    while (st->inflight < kFillWindow && issued < count && st->failure.ok()) {
      const uint64_t i = from + issued * step;
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
                                     " of " + std::to_string(count) + ": " + st->failure.message());
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


}  // namespace fawnlab::fawndslab
