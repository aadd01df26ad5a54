#include "fawnkv/checker.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <unordered_map>
#include <utility>

namespace fawnlab::fawnkv {

size_t History::Add(HistoryOp op) {
  ops_.push_back(std::move(op));
  completed_.push_back(true);
  return ops_.size() - 1;
}

size_t History::Invoke(HistoryOp::Kind kind, std::string key, std::string value,
                       int64_t invoke_ns) {
  HistoryOp op;
  op.kind = kind;
  op.key = std::move(key);
  if (kind == HistoryOp::Kind::kPut) op.value = std::move(value);
  op.invoke_ns = invoke_ns;
  ops_.push_back(std::move(op));
  completed_.push_back(false);
  return ops_.size() - 1;
}

void History::Complete(size_t index, bool ok, bool found, std::string value,
                       int64_t complete_ns) {
  assert(index < ops_.size());
  assert(!completed_[index]);
  HistoryOp& op = ops_[index];
  assert(!ok || complete_ns >= op.invoke_ns);
  completed_[index] = true;
  op.ok = ok;
  op.complete_ns = complete_ns;
  if (op.kind == HistoryOp::Kind::kGet) {
    op.found = found;
    op.value = found ? std::move(value) : std::string();
  }
}

namespace {

constexpr int64_t kMinusInf = std::numeric_limits<int64_t>::min();
constexpr int64_t kPlusInf = std::numeric_limits<int64_t>::max();

bool IsOk(const HistoryOp& op) { return op.ok && op.complete_ns >= op.invoke_ns; }
bool IsPut(const HistoryOp& op) { return op.kind == HistoryOp::Kind::kPut; }
bool IsDelete(const HistoryOp& op) { return op.kind == HistoryOp::Kind::kDelete; }
bool IsWrite(const HistoryOp& op) { return IsPut(op) || IsDelete(op); }

// Virtual ns as seconds, exactly: "1.5s", "0.000000123s".
std::string Secs(int64_t ns) {
  const bool negative = ns < 0;
  const uint64_t mag = negative ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  std::string out = (negative ? "-" : "") + std::to_string(mag / 1000000000u);
  uint64_t frac = mag % 1000000000u;
  if (frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 9 - digits.size(), '0');
    digits.erase(digits.find_last_not_of('0') + 1);
    out += "." + digits;
  }
  return out + "s";
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

// "put "v1" [1s, 2s]", "put "v1" [1s, not acked]", "get [3s, 4s] -> "v1"", "get ... -> not found".
std::string Describe(const HistoryOp& op) {
  const std::string span = "[" + Secs(op.invoke_ns) + ", " +
                           (IsOk(op) ? Secs(op.complete_ns) : std::string("not acked")) + "]";
  if (IsPut(op)) return "put " + Quote(op.value) + " " + span;
  if (IsDelete(op)) return "delete " + span;
  return "get " + span + " -> " + (op.found ? Quote(op.value) : std::string("not found"));
}

// The put of one value (or the initial state) and the gets returning it.
struct Cluster {
  const HistoryOp* put = nullptr;  // null: the initial state, a put at −infinity
  size_t reads = 0;
  int64_t f = kPlusInf;  // earliest completion, by f_op (null: the initial state)
  const HistoryOp* f_op = nullptr;
  int64_t s = kMinusInf;  // latest invocation, by s_op
  const HistoryOp* s_op = nullptr;

  void Include(const HistoryOp& op) {
    const int64_t complete = IsOk(op) ? op.complete_ns : kPlusInf;
    if (complete < f) f = complete, f_op = &op;
    if (op.invoke_ns > s) s = op.invoke_ns, s_op = &op;
  }
  bool Forward() const { return f < s; }
  std::string Name() const {
    return !put ? "not found" : IsDelete(*put) ? "the " + Describe(*put) : Quote(put->value);
  }
  // Where a forward zone starts and ends, in words.
  std::string From() const {
    return f_op ? Describe(*f_op) + " completing at " + Secs(f) : "the start";
  }
  std::string Until() const { return Describe(*s_op) + " invoked at " + Secs(s); }
};

class Reporter {
 public:
  Reporter(CheckReport* report, size_t max_details) : report_(report), max_(max_details) {}
  void Violation(const std::string& key, const std::string& what) {
    ++report_->violations;
    Detail(key, what);
  }
  void Undetermined(const std::string& key, const std::string& what) {
    ++report_->undetermined_keys;
    Detail(key, what);
  }

 private:
  void Detail(const std::string& key, const std::string& what) {
    if (report_->details.size() < max_) {
      report_->details.push_back("key " + Quote(key) + ": " + what);
    }
  }
  CheckReport* report_;
  size_t max_;
};

// Builds the clusters of one key (index 0: the initial state) and reports gets whose value
// nobody wrote or whose put started after they finished. Returns false if the key has a
// repeated put value (then it is not checked).
bool BuildClusters(const std::string& key, const std::vector<const HistoryOp*>& ops,
                   std::vector<Cluster>* clusters, Reporter* out) {
  std::unordered_map<std::string, size_t> by_value;  // lookup only: never iterated
  clusters->assign(1, Cluster());
  (*clusters)[0].f = kMinusInf;  // the initial state "completed" before everything
  for (const HistoryOp* op : ops) {
    if (!IsWrite(*op)) continue;
    if (IsPut(*op) && !by_value.emplace(op->value, clusters->size()).second) {
      out->Undetermined(key, "not checked: two puts wrote " + Quote(op->value) +
                                 " (put values must be unique per key)");
      return false;
    }
    Cluster c;
    c.put = op;
    c.Include(*op);
    clusters->push_back(c);
  }
  const bool deletes = std::any_of(ops.begin(), ops.end(), [](const HistoryOp* op) { return IsDelete(*op); });
  for (const HistoryOp* op : ops) {
    if (IsWrite(*op)) continue;
    if (deletes && !op->found) continue;  // checked on its own (CheckAbsentReads)
    size_t index = 0;
    if (op->found) {
      auto it = by_value.find(op->value);
      if (it == by_value.end()) {
        out->Violation(key, Describe(*op) + " returned a value never written");
        continue;
      }
      index = it->second;
      const HistoryOp& put = *(*clusters)[index].put;
      if (op->complete_ns < put.invoke_ns) {
        out->Violation(key, Describe(*op) + " completed before " + Describe(put) +
                                " was invoked");
        continue;
      }
    }
    (*clusters)[index].reads++;
    (*clusters)[index].Include(*op);
  }
  return true;
}

// In a key with deletes: each "not found" get needs a delete (or the initial state) that may
// precede it with no acknowledged put certainly in between (see checker.h).
void CheckAbsentReads(const std::string& key, const std::vector<const HistoryOp*>& ops, Reporter* out) {
  std::vector<const HistoryOp*> dels, puts;
  for (const HistoryOp* op : ops) {
    if (IsDelete(*op)) dels.push_back(op);
    if (IsPut(*op) && IsOk(*op)) puts.push_back(op);
  }
  if (dels.empty()) return;
  // Acknowledged puts by completion; latest[i]: the latest invocation among puts[0..i].
  std::sort(puts.begin(), puts.end(), [](const HistoryOp* a, const HistoryOp* b) { return a->complete_ns < b->complete_ns; });
  std::vector<int64_t> latest(puts.size());
  for (size_t i = 0; i < puts.size(); ++i) latest[i] = std::max(i ? latest[i - 1] : kMinusInf, puts[i]->invoke_ns);
  for (const HistoryOp* g : ops) {
    if (IsWrite(*g) || g->found) continue;
    // M: the latest invocation of a put completed before g was invoked (−infinity if none).
    auto end = std::lower_bound(puts.begin(), puts.end(), g->invoke_ns,
                                [](const HistoryOp* p, int64_t t) { return p->complete_ns < t; });
    const int64_t m = end == puts.begin() ? kMinusInf : latest[static_cast<size_t>(end - puts.begin()) - 1];
    bool fine = m == kMinusInf;  // the initial state
    for (const HistoryOp* d : dels) {
      if (fine) break;
      const int64_t complete = IsOk(*d) ? d->complete_ns : kPlusInf;
      fine = d->invoke_ns <= g->complete_ns && complete >= m;
    }
    if (!fine) {
      out->Violation(key, Describe(*g) + ": no delete could have taken effect after the put invoked at " + Secs(m) +
                              " (acknowledged before the get began) and before the get completed");
    }
  }
}

void CheckKey(const std::string& key, const std::vector<const HistoryOp*>& ops, Reporter* out) {
  std::vector<Cluster> clusters;
  if (!BuildClusters(key, ops, &clusters, out)) return;
  CheckAbsentReads(key, ops, out);

  // Forward zones by (f, s, put order); prefix[i]: among forward[0..i], the one reaching
  // latest (largest s).
  std::vector<const Cluster*> forward;
  for (const Cluster& c : clusters) {
    if (c.Forward()) forward.push_back(&c);
  }
  std::stable_sort(forward.begin(), forward.end(), [](const Cluster* a, const Cluster* b) {
    return a->f != b->f ? a->f < b->f : a->s < b->s;
  });
  std::vector<const Cluster*> prefix(forward.size());
  for (size_t i = 0; i < forward.size(); ++i) {
    const Cluster* latest = i == 0 ? nullptr : prefix[i - 1];
    // Zones before i start no later than forward[i]; they overlap it iff one ends after it starts.
    if (latest != nullptr && forward[i]->f < latest->s) {
      out->Violation(key, latest->Name() + " and " + forward[i]->Name() + " overlap: " +
                              latest->Name() + " must hold from " + latest->From() +
                              " until " + latest->Until() + ", " + forward[i]->Name() +
                              " from " + forward[i]->From() + " until " +
                              forward[i]->Until() +
                              ", so one would be overwritten and then come back");
    }
    prefix[i] = (latest != nullptr && latest->s >= forward[i]->s) ? latest : forward[i];
  }

  // A backward zone [s, f] inside a forward zone (f', s'): f' < s and f < s'. An unread
  // not-ok put ([invoke, +inf]) and an unread initial state ([-inf, -inf]) never are.
  for (const Cluster& c : clusters) {
    if (c.Forward()) continue;
    auto end = std::lower_bound(forward.begin(), forward.end(), c.s,
                                [](const Cluster* z, int64_t s) { return z->f < s; });
    if (end == forward.begin()) continue;
    const Cluster* zone = prefix[(end - forward.begin()) - 1];
    if (c.f < zone->s) {
      out->Violation(key, "stale read of " + zone->Name() + ": " + c.Name() + " (" +
                              Describe(*c.put) + ", read by " + std::to_string(c.reads) +
                              (c.reads == 1 ? " get" : " gets") +
                              ") must take effect within [" + Secs(c.s) + ", " +
                              Secs(c.f) + "], inside the span where " + zone->Name() +
                              " must hold, from " + zone->From() + " until " + zone->Until());
    }
  }
}

}  // namespace

CheckReport CheckLinearizable(const History& h, size_t max_details) {
  CheckReport report;
  Reporter out(&report, max_details);
  std::vector<const HistoryOp*> ops;
  ops.reserve(h.size());
  for (const HistoryOp& op : h.ops()) {
    if (IsWrite(op) || IsOk(op)) ops.push_back(&op);
  }
  // Group by key; within a key, history order.
  std::stable_sort(ops.begin(), ops.end(),
                   [](const HistoryOp* a, const HistoryOp* b) { return a->key < b->key; });
  report.operations = ops.size();
  std::vector<const HistoryOp*> one_key;
  for (size_t i = 0; i < ops.size();) {
    size_t j = i;
    while (j < ops.size() && ops[j]->key == ops[i]->key) ++j;
    one_key.assign(ops.begin() + i, ops.begin() + j);
    ++report.keys;
    CheckKey(ops[i]->key, one_key, &out);
    i = j;
  }
  return report;
}

}  // namespace fawnlab::fawnkv
