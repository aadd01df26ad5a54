// FawndsSession: compact, split and merge, started on the node (they run as time advances).
#include <memory>

#include "fawnds/lab/ring.h"
#include "fawnds/lab/session.h"
#include "fawnds/lab/session_ops.h"

namespace fawnlab::fawndslab {

StatusOr<std::string> FawndsSession::DoMaintenance(const std::string& kind, const ParamValues& args) {
  if (Status s = NotCrashed(); !s.ok()) return s;
  const bool wait = args.Has("wait") && args.Bool("wait");
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
    auto i = StoreArg(args, "store");
    if (!i.ok()) return i.status();
    source = static_cast<int>(i.value());
    s = node_->Compact(i.value(), done);
  } else if (kind == "split") {
    auto i = StoreArg(args, "store");
    if (!i.ok()) return i.status();
    source = static_cast<int>(i.value());
    if (args.Has("fraction") == args.Has("key")) return Status::InvalidArgument("split needs exactly one of 'fraction' (0 < f < 1) or 'key'");
    fawnds::Key at;
    if (args.Has("fraction")) {
      const double f = args.Real("fraction");  // in [0, 1] by the schema
      if (!(f > 0) || !(f < 1)) return Status::InvalidArgument("'fraction' must be a number strictly between 0 and 1");
      at = RingAt(node_->range(i.value()), f);
    } else {
      if (Status ks = CheckKey(args.Text("key")); !ks.ok()) return ks;
      at = fawnds::Key::Hash(args.Text("key"));
    }
    detail = at.Hex();
    s = node_->Split(i.value(), at, done);
  } else {
    auto a = StoreArg(args, "a");
    if (!a.ok()) return a.status();
    auto b = StoreArg(args, "b");
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


}  // namespace fawnlab::fawndslab
