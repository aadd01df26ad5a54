// Per-key linearizability checker for recorded FAWN-KV client histories (issue 5).
//
// Contract:
// - Each key is an independent read/write register whose initial state is "not found".
// - A key's history is linearizable if some total order of its ok ops plus any subset of its
//   not-ok puts respects real time (A before B if A.complete_ns < B.invoke_ns; a not-ok put
//   completes at +infinity, i.e. it may take effect any time after its invoke) and every get
//   returns the value of the latest put before it (or "not found" if none). Equal instants
//   are concurrent. Not-ok gets are ignored.
// - REQUIRES (from the cluster): put values are unique per key. A key where two puts wrote
//   the same value is not checked: it counts in `undetermined_keys` with a detail.
// - Algorithm: exact, no search. Values are unique, so every get's writer is known and the
//   check is Gibbons & Korach's (SIAM J. Comput. 1997) for registers with a known reads-from
//   map, in the "zones" form of Anderson et al. (HotDep'10). The cluster of a value is its put
//   and the gets returning it (the initial state is a put at −infinity; a not-ok put completes
//   at +infinity). With f = the cluster's earliest completion and s = its latest invocation,
//   the cluster has a forward zone (f, s) if f < s and otherwise a backward zone [s, f]. The
//   key is linearizable iff every get returns a written value, no get completes before its
//   put is invoked, no two forward zones overlap, and no backward zone lies inside a forward
//   zone; zones that only touch do not conflict. (An unread not-ok put's zone, [invoke,
//   +infinity], never lies inside another: a put nobody reads can always be left out.) Each
//   get failing the first two tests, each forward zone overlapping an earlier one and each
//   backward zone inside some forward zone counts as one violation. O(n log n) for a key of
//   n ops, O(N log N) for a history of N ops, so a key is never "undetermined" for lack of
//   time.
// - Deletes (issue 6): a delete is a write of "absent"; each is its own write (no value, so
//   no uniqueness needed) and joins the zone check as a cluster with no reads, so a get that
//   returns a value a delete certainly overwrote is caught. In a key with deletes a "not
//   found" get has no known writer (the initial state or any delete); it is checked on its own:
//   some delete invoked no later than the get completed (or the initial state) must be able to
//   precede it with no acknowledged put certainly in between (completing after the delete did
//   and before the get was invoked) — a sound, weaker test than the exact one for values.
//   Keys without deletes are checked exactly as before.
// - Deterministic: keys are checked in byte order of the key, and the details come out in
//   that order. No clocks, no randomness.
#ifndef FAWNLAB_FAWNKV_CHECKER_H_
#define FAWNLAB_FAWNKV_CHECKER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fawnlab::fawnkv {

// One client operation in a recorded history. Times are virtual ns (sim::SimTime, int64).
struct HistoryOp {
  enum class Kind : uint8_t { kPut, kGet, kDelete };
  Kind kind = Kind::kGet;
  std::string key;           // application key
  std::string value;         // put: the value written (unique per put within a key; deletes: none);
                             // get: the value returned (when found)
  bool found = false;        // get: whether a value was returned (false = "not found")
  int64_t invoke_ns = 0;
  int64_t complete_ns = -1;  // -1: never completed (timed out, client gave up, node failed)
  bool ok = false;           // put: acknowledged; get: returned an answer. A not-ok put may or
                             // may not have taken effect (any time after invoke). An op with
                             // ok but complete_ns < invoke_ns is treated as not ok.
};

// An append-only recorder of client operations. Ops are recorded when they start (Invoke) and
// finished later (Complete), or recorded whole (Add). Indices are stable.
class History {
 public:
  // Records a finished op; returns its index.
  size_t Add(HistoryOp op);
  // Records an op started at `invoke_ns` and not yet completed (ok = false, complete_ns = -1).
  // `value` is the value a put writes (ignored for gets). Returns its index.
  size_t Invoke(HistoryOp::Kind kind, std::string key, std::string value, int64_t invoke_ns);
  // Completes op `index`. For a get, `found`/`value` are the answer; for a put they are
  // ignored (the value written was recorded at Invoke). ok = false records a failed op
  // (complete_ns may then be -1 or the instant the client gave up).
  // REQUIRES: index < size(); the op is not completed yet; ok implies complete_ns >= invoke_ns.
  void Complete(size_t index, bool ok, bool found, std::string value, int64_t complete_ns);

  size_t size() const { return ops_.size(); }
  const std::vector<HistoryOp>& ops() const { return ops_; }
  const HistoryOp& op(size_t index) const { return ops_[index]; }

 private:
  std::vector<HistoryOp> ops_;
  std::vector<bool> completed_;
};

struct CheckReport {
  uint64_t keys = 0;               // distinct keys among the checked ops
  uint64_t operations = 0;         // ops checked: all but the not-ok gets
  uint64_t violations = 0;         // anomalies found (0 iff every checked key is linearizable)
  uint64_t undetermined_keys = 0;  // keys not checked (a put value repeated within the key)
  // At most max_details human-readable lines, each naming the key, the ops (kind, value,
  // [invoke, complete] in seconds) and why they cannot be linearized.
  std::vector<std::string> details;
};

// Checks every key of `h` (see the contract above). O(N log N) time, O(N) memory.
CheckReport CheckLinearizable(const History& h, size_t max_details = 10);

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_CHECKER_H_
