// Random client histories against a cluster that loses, gains and replaces nodes, checked for
// per-key linearizability (checker.h). Each run prints its seed on failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "fawnkv/cluster.h"
#include "sim/rng.h"

namespace fawnlab::fawnkv {
namespace {

// Where a failure injected during a join or leave strikes: the phase one of the change's
// ranges is in (precopy; insert while its seal travels; flush; merge; final) and the node
// that fails (the joiner, the donor, the old chain's head or middle, the new chain's head,
// the leaving node).
enum MidPhase { kPrecopy, kInsert, kFlush, kMerge, kFinal, kMidPhases };
const char* const kMidPhaseNames[] = {"precopy", "insert", "flush", "merge", "final"};
enum MidRole { kJoiner, kDonor, kOldHead, kOldMid, kNewHead, kLeaver, kMidRoles };

struct RunStats {
  uint64_t ops = 0, failed_puts = 0, changes = 0, deletes = 0, multigets = 0;
  uint64_t mid_failures[kMidPhases] = {};
  bool stuck = false;
  CheckReport report;
};

// `seconds` of virtual time: Poisson puts, gets, deletes and multigets (2–7 keys) over `keys`
// keys from 4 front-end clients,
// and every ~2 s one membership change (a failure, a join or a leave) once the last is done.
// A join or leave is, two times in three, struck by a failure while it runs (MidPhase,
// MidRole, chosen at random; the node fails when one of the change's ranges reaches that
// phase, if that node is still live and the ring can lose it).
RunStats RandomRun(uint64_t seed, int seconds, int keys) {
  sim::Rng rng = sim::Rng::ForStream(seed, 1);
  ClusterOptions o;
  o.nodes = 5 + static_cast<int>(rng.UniformU64(3));
  o.vids = 1 + static_cast<int>(rng.UniformU64(3));
  o.replication = 2 + static_cast<int>(rng.UniformU64(2));
  o.backend.scale = 1.0 / 64;
  o.backend.file_bytes = 1 << 20;
  o.backend.index_bits = 9;
  o.backend.separate_queues = rng.UniformU64(2) == 0;
  o.coord.heartbeat_ns = 200 * sim::kMs;
  o.front.timeout_ns = 1 * sim::kSec;
  o.record_history = true;
  auto c = Cluster::Create(o).value();
  RunStats st;
  uint64_t n = 0;
  const sim::SimTime end = static_cast<sim::SimTime>(seconds) * sim::kSec;
  std::function<void()> client = [&]() {
    if (c->sim().now() >= end) return;
    const std::string k = "k" + std::to_string(rng.UniformU64(static_cast<uint64_t>(keys)));
    const uint64_t what = rng.UniformU64(12);
    if (what < 4) {
      c->Put(Key::Hash(k), "v" + std::to_string(++n), nullptr, k);
    } else if (what < 5) {
      c->Delete(Key::Hash(k), nullptr, k);
      ++st.deletes;
    } else if (what < 7) {
      std::vector<Key> ks;
      std::vector<std::string> names;
      const uint64_t width = 2 + rng.UniformU64(6);
      for (uint64_t i = 0; i < width; ++i) {
        names.push_back("k" + std::to_string(rng.UniformU64(static_cast<uint64_t>(keys))));
        ks.push_back(Key::Hash(names.back()));
      }
      c->MultiGet(ks, nullptr, names);
      ++st.multigets;
    } else {
      c->Get(Key::Hash(k), nullptr, k);
    }
    ++st.ops;
    c->sim().Schedule(c->sim().now() + static_cast<sim::SimDuration>(rng.Exponential(2e6)), client);
  };
  for (int i = 0; i < 4; ++i) client();
  const auto live_nodes = [&]() {
    std::vector<NodeId> live;
    for (NodeId id = 0; id < c->backend_slots(); ++id) {
      if (c->backend(id) && !c->gone(id) && !c->backend(id)->failed()) live.push_back(id);
    }
    return live;
  };
  // The mid-change failure being waited for (phase, role, the node leaving; one at a time).
  struct Strike {
    bool armed = false;
    MidPhase phase = kPrecopy;
    MidRole role = kJoiner;
    NodeId leaver = 0;
  } strike;
  std::function<void()> watch = [&]() {
    if (!strike.armed || !c->changing()) {
      strike.armed = false;
      return;
    }
    for (const Transition& t : c->coordinator().transitions()) {
      if (t.phase == Phase::kDone || t.phase == Phase::kRepair) continue;
      bool at = false;
      Backend* j = t.joiner != kNobody ? c->backend(static_cast<NodeId>(t.joiner)) : nullptr;
      Backend::JoinView jv;
      if (j) {
        for (const Backend::JoinView& v : j->joins()) {
          if (v.range.start == t.range.start && v.range.end == t.range.end) jv = v;
        }
      }
      switch (strike.phase) {
        case kPrecopy: at = t.phase == Phase::kPrecopy && jv.received_bytes > 0; break;
        case kInsert: at = t.phase == Phase::kInsert && !t.sealed; break;
        case kFlush: at = t.phase == Phase::kInsert && t.sealed && !jv.flush_done; break;
        case kMerge: at = t.phase == Phase::kInsert && t.sealed && jv.flush_done; break;
        case kFinal: at = t.phase == Phase::kFinal; break;
        default: break;
      }
      if (!at) continue;
      Endpoint who = kNobody;
      switch (strike.role) {
        case kJoiner: who = t.joiner; break;
        case kDonor: who = t.donor; break;
        case kOldHead: who = t.old_chain.empty() ? kNobody : static_cast<Endpoint>(t.old_chain.front()); break;
        case kOldMid: who = t.old_chain.size() < 3 ? kNobody : static_cast<Endpoint>(t.old_chain[1]); break;
        case kNewHead: who = t.new_chain.empty() ? kNobody : static_cast<Endpoint>(t.new_chain.front()); break;
        case kLeaver: who = static_cast<Endpoint>(strike.leaver); break;
        default: break;
      }
      const std::vector<NodeId> live = live_nodes();
      if (who == kNobody || std::find(live.begin(), live.end(), static_cast<NodeId>(who)) == live.end() ||
          static_cast<int>(live.size()) <= o.replication + 1) {
        continue;
      }
      (void)c->FailNode(static_cast<NodeId>(who));
      ++st.mid_failures[strike.phase];
      strike.armed = false;
      return;
    }
    c->sim().Schedule(c->sim().now() + sim::kMs, watch);
  };
  std::function<void()> change = [&]() {
    if (c->sim().now() >= end - 3 * sim::kSec) return;
    if (!c->changing()) {
      std::vector<NodeId> live = live_nodes();
      const uint64_t kind = rng.UniformU64(3);
      const NodeId victim = live[rng.UniformU64(live.size())];
      const bool can_lose = static_cast<int>(live.size()) > o.replication + 1;
      bool membership = false;
      if (kind == 0 && can_lose) {
        (void)c->FailNode(victim);
      } else if (kind == 1 && can_lose) {
        membership = c->RemoveNode(victim).ok();
      } else if (c->backend_slots() < 12) {
        membership = c->AddNode().ok();
      }
      ++st.changes;
      if (membership && rng.UniformU64(3) != 0) {
        strike.armed = true;
        strike.phase = static_cast<MidPhase>(rng.UniformU64(kMidPhases));
        strike.role = kind == 1 ? static_cast<MidRole>(rng.UniformU64(kMidRoles)) : static_cast<MidRole>(rng.UniformU64(kLeaver));
        strike.leaver = victim;
        watch();
      }
    }
    c->sim().Schedule(c->sim().now() + 2 * sim::kSec, change);
  };
  c->sim().Schedule(sim::kSec, change);
  // FAWNLAB_KV_DEBUG=1 prints the coordinator's events (the seed is in the failure message).
  if (std::getenv("FAWNLAB_KV_DEBUG")) {
    c->set_events([&c](const std::string& e) { std::printf("%.3f %s\n", static_cast<double>(c->sim().now()) / 1e9, e.c_str()); });
  }
  c->sim().RunUntil(end + 5 * sim::kSec);
  for (const HistoryOp& op : c->history().ops()) {
    if (op.kind == HistoryOp::Kind::kPut && !op.ok) ++st.failed_puts;
  }
  st.report = CheckLinearizable(c->history());
  st.stuck = c->changing();
  return st;
}

TEST(ClusterChecker, NoViolationOverManySeedsWithFailuresJoinsAndLeaves) {
#if defined(__SANITIZE_ADDRESS__)
  const uint64_t kDefaultSeeds = 6;  // the sanitizer run checks memory, the native run the protocol
#else
  const uint64_t kDefaultSeeds = 24;
#endif
  const uint64_t kSeeds = std::getenv("FAWNLAB_KV_SEEDS") ? std::strtoull(std::getenv("FAWNLAB_KV_SEEDS"), nullptr, 10) : kDefaultSeeds;
  uint64_t ops = 0, changes = 0, failed = 0, deletes = 0, multigets = 0, mid[kMidPhases] = {};
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    RunStats st = RandomRun(seed, 14, 12);
    ops += st.ops;
    changes += st.changes;
    failed += st.failed_puts;
    deletes += st.deletes;
    multigets += st.multigets;
    for (int p = 0; p < kMidPhases; ++p) mid[p] += st.mid_failures[p];
    EXPECT_EQ(st.report.violations, 0u) << "seed " << seed << ": " << (st.report.details.empty() ? "" : st.report.details[0]);
    EXPECT_EQ(st.report.undetermined_keys, 0u) << "seed " << seed;
    EXPECT_FALSE(st.stuck) << "seed " << seed << ": a membership change never finished";
  }
  std::printf("checked %llu seeds: %llu operations (%llu deletes, %llu multigets), %llu membership changes, %llu puts failed (timed out)\n",
              static_cast<unsigned long long>(kSeeds), static_cast<unsigned long long>(ops), static_cast<unsigned long long>(deletes),
              static_cast<unsigned long long>(multigets), static_cast<unsigned long long>(changes), static_cast<unsigned long long>(failed));
  uint64_t mids = 0;
  std::printf("failures injected during a join or leave:");
  for (int p = 0; p < kMidPhases; ++p) {
    std::printf(" %s %llu", kMidPhaseNames[p], static_cast<unsigned long long>(mid[p]));
    mids += mid[p];
    if (kSeeds >= 24) EXPECT_GT(mid[p], 0u) << "no failure struck during " << kMidPhaseNames[p];
  }
  std::printf(" (%llu in all)\n", static_cast<unsigned long long>(mids));
  EXPECT_GT(deletes, kSeeds * 50);
  EXPECT_GT(multigets, kSeeds * 100);
  EXPECT_GT(ops, kSeeds * 1000);
}

}  // namespace
}  // namespace fawnlab::fawnkv
