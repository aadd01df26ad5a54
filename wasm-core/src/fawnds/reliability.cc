#include "fawnds/reliability.h"

#include <algorithm>
#include <memory>

#include "device/fault_injector.h"
#include "device/profiles.h"
#include "fawnds/node.h"
#include "sim/rng.h"

namespace fawnlab::fawnds::reliability {
namespace {

Key RingPoint(uint8_t top) {
  Key k;
  k.bytes[0] = top;
  return k;
}

// Starts a compaction, split or merge (the choice drawn from `rng`) if none runs; returns its
// kind, or "" when the node refused every choice.
std::string StartMaintenance(Node& node, sim::Rng& rng, uint64_t keys) {
  if (node.maintenance_running()) return "";
  const size_t n = node.num_stores();
  const uint64_t pick = rng.UniformU64(3);
  Status s = Status::Internal("none");
  if (pick == 0 || n >= 4) {
    for (size_t a = 0; a < n && !s.ok(); ++a) {
      for (size_t b = 0; b < n && !s.ok(); ++b) {
        if (a != b && node.range(a).end == node.range(b).start) s = node.Merge(a, b, nullptr);
      }
    }
  } else if (pick == 1) {
    const size_t st = rng.UniformU64(n);
    s = node.Split(st, SpreadKey(rng.UniformU64(keys)), nullptr);
  }
  if (!s.ok()) s = node.Compact(rng.UniformU64(n), nullptr);
  return s.ok() ? node.progress().kind : "";
}

}  // namespace

Key SpreadKey(uint64_t id) {
  Key k = Key::FromU64(id * 0x9E3779B97F4A7C15ull);
  k.bytes[0] = static_cast<uint8_t>(id % 251);
  return k;
}

void CrashHistory::Record(uint64_t key, uint64_t op, std::string state) { ops_[key].emplace_back(op, std::move(state)); }

void CrashHistory::Submitted(uint64_t op) { unsynced_.push_back(op); }

uint64_t CrashHistory::BeginSync() {
  const uint64_t token = next_token_++;
  syncing_[token] = std::move(unsynced_);
  unsynced_.clear();
  return token;
}

void CrashHistory::EndSync(uint64_t token) {
  // Flushes complete in order of submission; one that completes covers every earlier one.
  for (auto it = syncing_.begin(); it != syncing_.end() && it->first <= token; it = syncing_.erase(it)) {
    for (uint64_t op : it->second) durable_[op] = true;
  }
}

std::string CrashHistory::Check(uint64_t key, const std::string& state) const {
  static const std::vector<std::pair<uint64_t, std::string>> kNone;
  auto it = ops_.find(key);
  const auto& ops = it == ops_.end() ? kNone : it->second;
  size_t first = 0;  // the last durable operation's index, or 0 with the initial "absent"
  std::string durable_state;
  for (size_t j = 0; j < ops.size(); ++j) {
    if (durable_.count(ops[j].first)) {
      first = j + 1;
      durable_state = ops[j].second;
    }
  }
  if (state == durable_state) return "";
  for (size_t j = first; j < ops.size(); ++j) {
    if (ops[j].second == state) return "";
  }
  std::string allowed = "'" + durable_state + "' (durable)";
  for (size_t j = first; j < ops.size(); ++j) allowed += ", '" + ops[j].second + "'";
  return "read back '" + state + "', allowed " + allowed;
}

CrashReport RunCrashPoints(const CrashOptions& o) {
  CrashReport rep;
  auto fail = [&rep](const std::string& what) {
    ++rep.failures;
    if (rep.first_failure.empty()) rep.first_failure = what;
  };
  for (uint64_t run = o.first_run; rep.crash_points < o.crash_points; ++run) {
    if (run - o.first_run > 4 * o.crash_points + 100) {
      fail("only " + std::to_string(rep.crash_points) + " crash points were reached in " + std::to_string(run) + " runs");
      break;
    }
    ++rep.runs;
    sim::Rng rng = sim::Rng::ForStream(o.seed, run);
    const std::string where = "crash run " + std::to_string(run) + " (seed " + std::to_string(o.seed) + ")";
    sim::Simulator sim;
    auto base = device::MakeDevice(&sim, run % 2 ? "intel-x25m" : "nvm-4ch", uint64_t{256} << 20);
    if (!base.ok()) {
      fail(where + ": " + base.status().message());
      break;
    }
    device::FaultInjector f(base.value().get());
    NodeOptions no;
    no.index_bits = 10;
    no.file_bytes = (DataStore::FileBytes(10, 256 * 1024) + 4095) / 4096 * 4096;
    no.scan_chunk = 8 * 1024;  // scans of several commands, so crashes land inside them
    // Lock hold: the thesis's 5–50 µs, and sometimes the SOSP's 25 ms (requests queue up).
    const uint64_t lock_pick = rng.UniformU64(8);
    no.lock_hold_ns = lock_pick == 0 ? 25 * sim::kMs : lock_pick < 4 ? 5 * sim::kUs : 50 * sim::kUs;
    const sim::SimDuration gap = lock_pick == 0 ? 100 * sim::kUs : 20 * sim::kUs;
    std::vector<KeyRange> ranges = {KeyRange::All()};
    if (run % 3 != 0) ranges = {KeyRange{RingPoint(0), RingPoint(128)}, KeyRange{RingPoint(128), RingPoint(0)}};
    auto created = Node::Create(&f, no, ranges);
    if (!created.ok()) {
      fail(where + ": " + created.status().message());
      break;
    }
    std::unique_ptr<Node> node = std::move(created).value();
    device::FaultPlan plan;
    plan.crash_at = 1 + rng.UniformU64(1500);
    plan.lose_unsynced = rng.Bernoulli(0.7);
    plan.tear_crashing_write = rng.Bernoulli(0.5);
    plan.torn_bytes = static_cast<uint32_t>(rng.UniformU64(f.info().unit_bytes));
    if (Status s = f.Arm(plan); !s.ok()) {
      fail(where + ": " + s.message());
      break;
    }
    const std::string plan_text = ", crash at command " + std::to_string(plan.crash_at) +
                                  (plan.lose_unsynced ? ", unsynced writes lost" : "") +
                                  (plan.tear_crashing_write ? ", crashing write torn" : "");
    CrashHistory h;
    std::string phase;
    uint64_t i = 0;
    for (; i < o.ops_per_run && !f.crashed(); ++i) {
      const uint64_t id = rng.UniformU64(o.keys);
      const Key k = SpreadKey(id);
      const uint64_t op = rng.UniformU64(100);
      const size_t queued = node->queued();
      std::string label;
      auto submitted = [&h, i](const Status& s) {
        if (s.ok() || s.code() == StatusCode::kNotFound) h.Submitted(i);
      };
      if (op < 57) {
        label = op < 45 ? "put" : "delete";
        const std::string v = op < 45 ? "r" + std::to_string(run) + "i" + std::to_string(i) : "";
        Status st = op < 45 ? node->Put(k, v, submitted) : node->Delete(k, submitted);
        // The crashing write itself may land whole (it was in flight): a later state too.
        if (st.ok() || st.code() == StatusCode::kUnavailable) h.Record(id, i, v);
        if (st.ok() && node->queued() == queued) h.Submitted(i);  // else when it leaves the lock's queue
      } else if (op < 62) {
        label = "get";
        (void)node->Get(k, [](const Status&, std::string) {});
      } else if (op < 88) {
        label = op < 84 ? "sync" : "checkpoint";
        const uint64_t token = h.BeginSync();
        auto synced = [&h, token](const Status&) { h.EndSync(token); };
        (void)(op < 84 ? node->SyncAll(synced) : node->CheckpointAll(synced));
      } else {
        label = StartMaintenance(*node, rng, o.keys);
        rep.maintenance_started += !label.empty();
      }
      if (f.crashed()) {
        phase = label.empty() ? "maintenance start" : label;
        break;
      }
      const MaintenanceProgress& m = node->progress();
      const std::string running = !node->maintenance_running() ? "i/o completions"
                                  : m.locked                     ? m.kind + " (lock)"
                                  : m.committing                 ? m.kind + " (commit)"
                                                                 : m.kind;
      sim.RunUntil(sim.now() + gap);
      if (f.crashed()) phase = running;
    }
    if (!f.crashed()) continue;
    rep.ops += i;
    sim.Run(UINT64_MAX);  // what the crashed node still does (refused by the device) ends
    node.reset();
    f.Restart();
    Node::Recovery rr;
    auto recovered = Node::Recover(&f, no, &rr);
    ++rep.crash_points;
    ++rep.by_phase[phase];
    if (!recovered.ok()) {
      fail(where + plan_text + " during " + phase + ": recovery failed: " + recovered.status().message());
      continue;
    }
    rep.restricted += rr.restricted;
    node = std::move(recovered).value();
    uint64_t present = 0;
    std::string problem;
    for (uint64_t id = 0; id < o.keys && problem.empty(); ++id) {
      Status gs = Status::Internal("no answer");
      std::string got;
      Status st = node->Get(SpreadKey(id), [&](const Status& s, std::string v) {
        gs = s;
        got = std::move(v);
      });
      sim.Run(UINT64_MAX);
      ++rep.keys_checked;
      if (!st.ok()) gs = st;
      if (!gs.ok() && gs.code() != StatusCode::kNotFound) {
        problem = "key " + std::to_string(id) + " reads back as an error: " + gs.message();
        break;
      }
      present += gs.ok();
      const std::string why = h.Check(id, gs.ok() ? got : "");
      if (!why.empty()) problem = "key " + std::to_string(id) + " " + why;
    }
    uint64_t indexed = 0;
    for (size_t s = 0; s < node->num_stores(); ++s) indexed += node->store(s).live_keys();
    if (problem.empty() && indexed != present) {
      problem = "the indexes hold " + std::to_string(indexed) + " keys but " + std::to_string(present) + " read back";
    }
    if (!problem.empty()) fail(where + plan_text + " during " + phase + ": " + problem);
  }
  return rep;
}

ModelReport RunMaintenanceModel(const ModelOptions& o) {
  ModelReport rep;
  auto fail = [&rep, &o](const std::string& what) {
    if (rep.first_failure.empty()) rep.first_failure = what + " (seed " + std::to_string(o.seed) + ")";
  };
  sim::Simulator sim;
  auto dev = device::MakeDevice(&sim, "nvm-4ch", uint64_t{1} << 30).value();
  NodeOptions no;
  no.index_bits = 14;
  no.file_bytes = 16 << 20;
  no.lock_hold_ns = 50 * sim::kUs;
  auto created = Node::Create(dev.get(), no, {KeyRange::All()});
  if (!created.ok()) {
    fail(created.status().message());
    return rep;
  }
  std::unique_ptr<Node> node = std::move(created).value();
  sim::Rng rng(o.seed);
  std::unordered_map<uint64_t, std::string> model;
  for (uint64_t i = 0; i < o.ops && rep.mismatches <= 5 && rep.first_failure.empty(); ++i) {
    ++rep.ops;
    const uint64_t id = rng.UniformU64(o.keys);
    const uint64_t op = rng.UniformU64(100);
    Status st;
    if (op < 50) {
      const std::string v = std::to_string(i);
      st = node->Put(SpreadKey(id), v, nullptr);
      model[id] = v;
    } else if (op < 62) {
      st = node->Delete(SpreadKey(id), nullptr);
      model.erase(id);
    } else {
      auto it = model.find(id);
      const std::string want = it == model.end() ? "<none>" : it->second;
      st = node->Get(SpreadKey(id), [&rep, &fail, want, i, id](const Status& s, std::string v) {
        const std::string got = s.ok() ? v : "<none>";
        ++rep.gets_checked;
        if (got != want) {
          ++rep.mismatches;
          fail("op " + std::to_string(i) + " key " + std::to_string(id) + ": got " + got + ", want " + want);
        }
      });
    }
    if (!st.ok()) fail("op " + std::to_string(i) + " refused: " + st.message());
    if (i % 3000 == 1500) {
      const std::string kind = StartMaintenance(*node, rng, o.keys);
      rep.compactions += kind == "compact";
      rep.splits += kind == "split";
      rep.merges += kind == "merge";
    }
    if (o.restart_every != 0 && i % o.restart_every == o.restart_every - 1 && i + 1 < o.ops) {
      sim.Run(UINT64_MAX);  // let maintenance and every request finish, then restart cleanly
      node.reset();
      auto r = Node::Recover(dev.get(), no, nullptr);
      if (!r.ok()) {
        fail("restart after op " + std::to_string(i) + ": " + r.status().message());
        break;
      }
      node = std::move(r).value();
      ++rep.restarts;
    }
    // Let simulated time pass between requests so maintenance overlaps them.
    sim.RunUntil(sim.now() + 20 * sim::kUs);
  }
  sim.Run(UINT64_MAX);
  for (size_t s = 0; s < node->num_stores(); ++s) rep.index_entries += node->store(s).live_keys();
  rep.model_keys = model.size();
  return rep;
}

}  // namespace fawnlab::fawnds::reliability
