// FawndsSession: the operations the page sends, dispatched by name (their arguments already
// checked against the schema in fawnds/lab/schema.cc), and what they share. The operations
// themselves: session_key_ops.cc (put, get, delete), session_bulk.cc (fill, delete-many),
// session_maintenance.cc (compact, split, merge), session_durability.cc (checkpoint, sync,
// crash, recover); the column views: session_views.cc.
#include "fawnds/lab/session_ops.h"

#include <utility>

#include "base/op_args.h"
#include "fawnds/lab/session.h"

namespace fawnlab::fawndslab {

Status CheckKey(const std::string& k) { return CheckAppKey(k, kMaxKey); }

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

Status FawndsSession::NotCrashed() const {
  if (crashed_) return Status::Unavailable("the node has crashed: recover it first");
  return Status::Ok();
}

StatusOr<size_t> FawndsSession::StoreArg(const ParamValues& args, const char* name) const {
  const size_t n = node_->num_stores();
  const long long i = args.Int(name);  // an integer in the schema's range
  if (i < 0 || static_cast<size_t>(i) >= n) {
    return Status::InvalidArgument(std::string("'") + name + "' must name a store: the node has " + std::to_string(n) +
                                   " store" + (n == 1 ? "" : "s") + " (0" + (n > 1 ? "–" + std::to_string(n - 1) : "") + ")");
  }
  return static_cast<size_t>(i);
}

StatusOr<std::string> FawndsSession::RunOp(const std::string& kind, const ParamValues& args, const JsonValue&) {
  if (kind == "put" || kind == "get" || kind == "delete") return DoKeyOp(kind, args);
  if (kind == "fill") return DoFill(args, false);
  if (kind == "delete-many") return DoFill(args, true);
  if (kind == "compact" || kind == "split" || kind == "merge") return DoMaintenance(kind, args);
  if (kind == "checkpoint" || kind == "sync") return DoDurable(kind, args);
  if (kind == "crash") return DoCrash();
  return DoRecover();
}

}  // namespace fawnlab::fawndslab
