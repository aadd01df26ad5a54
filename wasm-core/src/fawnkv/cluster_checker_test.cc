// Random client histories against a cluster that loses, gains and replaces nodes — also while
// a join or leave runs, at every phase of it — checked for per-key linearizability
// (checker.h). Each run prints its seed on failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fawnkv/cluster.h"
#include "sim/rng.h"

namespace fawnlab::fawnkv {
namespace {

// Where a failure injected during a join or leave strikes: the phase one of the change's
// ranges is in (precopy, with bytes copied; insert, while its seal travels; flush, sealed and
// the joiner not flushed; merge, flushed and not ready; final) and the node that fails (the
// joiner, the donor, the old chain's head or middle, the new chain's head or tail, the
// leaving node).
enum MidPhase { kPrecopy, kInsert, kFlush, kMerge, kFinal, kMidPhases };
const char* const kMidPhaseNames[] = {"precopy", "insert", "flush", "merge", "final"};
enum MidRole { kJoiner, kDonor, kOldHead, kOldMid, kNewHead, kNewTail, kLeaver, kMidRoles };
const char* const kMidRoleNames[] = {"joiner", "donor", "old head", "old mid", "new head", "new tail", "leaver"};

struct RunStats {
  uint64_t ops = 0, failed_puts = 0, changes = 0, deletes = 0, multigets = 0;
  uint64_t mid_failures[2][kMidPhases] = {};  // [join, leave][phase]
  bool stuck = false;
  CheckReport report;
};

// Live back-ends (neither failed nor gone).
std::vector<NodeId> LiveNodes(Cluster& c) {
  std::vector<NodeId> live;
  for (NodeId id = 0; id < c.backend_slots(); ++id) {
    if (c.backend(id) && !c.gone(id) && !c.backend(id)->failed()) live.push_back(id);
  }
  return live;
}

// Fails the node playing `role` in the running change once one of its ranges reaches `phase`
// (polled every 1 ms of virtual time), if that node is live and more than R + 1 live stay.
struct Striker {
  Cluster* c = nullptr;
  RunStats* st = nullptr;
  bool armed = false, leave = false;
  MidPhase phase = kPrecopy;
  MidRole role = kJoiner;
  NodeId leaver = 0;
  int struck = 0;

  void Arm(bool is_leave, MidPhase p, MidRole r, NodeId who) {
    armed = true;
    leave = is_leave;
    phase = p;
    role = r;
    leaver = who;
    Poll();
  }

  bool At(const Transition& t) const {
    Backend::JoinView jv;
    if (Backend* j = t.joiner != kNobody ? c->backend(static_cast<NodeId>(t.joiner)) : nullptr) {
      for (const Backend::JoinView& v : j->joins()) {
        if (v.range.start == t.range.start && v.range.end == t.range.end) jv = v;
      }
    }
    switch (phase) {
      case kPrecopy: return t.phase == Phase::kPrecopy && jv.received_bytes > 0;
      case kInsert: return t.phase == Phase::kInsert && !t.sealed;
      case kFlush: return t.phase == Phase::kInsert && t.sealed && !jv.flush_done;
      case kMerge: return t.phase == Phase::kInsert && t.sealed && jv.flush_done;
      case kFinal: return t.phase == Phase::kFinal;
      default: return false;
    }
  }

  Endpoint Who(const Transition& t) const {
    switch (role) {
      case kJoiner: return t.joiner;
      case kDonor: return t.donor;
      case kOldHead: return t.old_chain.empty() ? kNobody : static_cast<Endpoint>(t.old_chain.front());
      case kOldMid: return t.old_chain.size() < 3 ? kNobody : static_cast<Endpoint>(t.old_chain[1]);
      case kNewHead: return t.new_chain.empty() ? kNobody : static_cast<Endpoint>(t.new_chain.front());
      case kNewTail: return t.new_chain.empty() ? kNobody : static_cast<Endpoint>(t.new_chain.back());
      case kLeaver: return leave ? static_cast<Endpoint>(leaver) : kNobody;
      default: return kNobody;
    }
  }

  void Poll() {
    if (!armed || !c->changing()) {
      armed = false;
      return;
    }
    for (const Transition& t : c->coordinator().transitions()) {
      if (t.phase == Phase::kDone || t.phase == Phase::kRepair || !At(t)) continue;
      const Endpoint who = Who(t);
      const std::vector<NodeId> live = LiveNodes(*c);
      if (who == kNobody || std::find(live.begin(), live.end(), static_cast<NodeId>(who)) == live.end() ||
          static_cast<int>(live.size()) <= c->options().replication + 1) {
        continue;
      }
      (void)c->FailNode(static_cast<NodeId>(who));
      ++st->mid_failures[leave ? 1 : 0][phase];
      ++struck;
      armed = false;
      return;
    }
    c->sim().Schedule(c->sim().now() + sim::kMs, [this]() { Poll(); });
  }
};

// Poisson puts, gets, deletes and multigets (2–7 keys) over `keys` keys from 4 front-end
// clients until `end`.
void StartClients(Cluster& c, sim::Rng& rng, sim::SimTime end, int keys, RunStats& st) {
  auto n = std::make_shared<uint64_t>(0);
  auto client = std::make_shared<std::function<void()>>();
  *client = [&c, &rng, end, keys, &st, n, weak = std::weak_ptr<std::function<void()>>(client)]() {
    if (c.sim().now() >= end) return;
    const std::string k = "k" + std::to_string(rng.UniformU64(static_cast<uint64_t>(keys)));
    const uint64_t what = rng.UniformU64(12);
    if (what < 4) {
      c.Put(Key::Hash(k), "v" + std::to_string(++*n), nullptr, k);
    } else if (what < 5) {
      c.Delete(Key::Hash(k), nullptr, k);
      ++st.deletes;
    } else if (what < 7) {
      std::vector<Key> ks;
      std::vector<std::string> names;
      const uint64_t width = 2 + rng.UniformU64(6);
      for (uint64_t i = 0; i < width; ++i) {
        names.push_back("k" + std::to_string(rng.UniformU64(static_cast<uint64_t>(keys))));
        ks.push_back(Key::Hash(names.back()));
      }
      c.MultiGet(ks, nullptr, names);
      ++st.multigets;
    } else {
      c.Get(Key::Hash(k), nullptr, k);
    }
    ++st.ops;
    if (auto self = weak.lock()) c.sim().Schedule(c.sim().now() + static_cast<sim::SimDuration>(rng.Exponential(2e6)), *self);
  };
  for (int i = 0; i < 4; ++i) (*client)();
  // The scheduled copies hold the function; this one keeps it alive until the run ends.
  c.sim().Schedule(end + sim::kSec, [client]() {});
}

// Runs to `until`, then counts the puts that timed out, checks the history and whether a
// change is left unfinished.
void Finish(Cluster& c, sim::SimTime until, RunStats& st) {
  if (std::getenv("FAWNLAB_KV_DEBUG")) {
    c.set_events([&c](const std::string& e) { std::printf("%.3f %s\n", static_cast<double>(c.sim().now()) / 1e9, e.c_str()); });
  }
  c.sim().RunUntil(until);
  for (const HistoryOp& op : c.history().ops()) {
    if (op.kind == HistoryOp::Kind::kPut && !op.ok) ++st.failed_puts;
  }
  st.report = CheckLinearizable(c.history());
  st.stuck = c.changing();
}

ClusterOptions SmallCluster() {
  ClusterOptions o;
  o.backend.scale = 1.0 / 64;
  o.backend.file_bytes = 1 << 20;
  o.backend.index_bits = 9;
  o.coord.heartbeat_ns = 200 * sim::kMs;
  o.front.timeout_ns = 1 * sim::kSec;
  o.record_history = true;
  return o;
}

// SmallCluster as a 6-node ring, V = 2, R = 3 (the join and leave runs below).
ClusterOptions SixNodeRing() {
  ClusterOptions o = SmallCluster();
  o.nodes = 6;
  o.vids = 2;
  o.replication = 3;
  return o;
}

// `seconds` of virtual time of StartClients' load, and every ~2 s one membership change (a
// failure, a join or a leave) once the last is done. A join or leave is, two times in three,
// struck by a failure while it runs (Striker; phase and role chosen at random).
RunStats RandomRun(uint64_t seed, int seconds, int keys) {
  sim::Rng rng = sim::Rng::ForStream(seed, 1);
  ClusterOptions o = SmallCluster();
  o.nodes = 5 + static_cast<int>(rng.UniformU64(3));
  o.vids = 1 + static_cast<int>(rng.UniformU64(3));
  o.replication = 2 + static_cast<int>(rng.UniformU64(2));
  o.backend.separate_queues = rng.UniformU64(2) == 0;
  auto c = Cluster::Create(o).value();
  RunStats st;
  const sim::SimTime end = static_cast<sim::SimTime>(seconds) * sim::kSec;
  StartClients(*c, rng, end, keys, st);
  Striker strike;
  strike.c = c.get();
  strike.st = &st;
  std::function<void()> change = [&]() {
    if (c->sim().now() >= end - 3 * sim::kSec) return;
    if (!c->changing()) {
      std::vector<NodeId> live = LiveNodes(*c);
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
        const auto phase = static_cast<MidPhase>(rng.UniformU64(kMidPhases));
        const auto role = static_cast<MidRole>(rng.UniformU64(kind == 1 ? kMidRoles : kLeaver));
        strike.Arm(kind == 1, phase, role, victim);
      }
    }
    c->sim().Schedule(c->sim().now() + 2 * sim::kSec, change);
  };
  c->sim().Schedule(sim::kSec, change);
  Finish(*c, end + 5 * sim::kSec, st);
  return st;
}

// One join (of node 6) or leave (of node 2) in a 6-node ring, V = 2, R = 3, under load, struck
// by a failure of `role` at `phase`.
RunStats StrikeRun(bool leave, MidPhase phase, MidRole role, uint64_t seed) {
  sim::Rng rng = sim::Rng::ForStream(seed, 2);
  auto c = Cluster::Create(SixNodeRing()).value();
  RunStats st;
  const sim::SimTime end = 5 * sim::kSec;
  StartClients(*c, rng, end, 16, st);
  Striker strike;
  strike.c = c.get();
  strike.st = &st;
  c->sim().Schedule(sim::kSec, [&]() {
    ++st.changes;
    if (leave) {
      ASSERT_TRUE(c->RemoveNode(2).ok());
    } else {
      ASSERT_TRUE(c->AddNode().ok());
    }
    strike.Arm(leave, phase, role, 2);
  });
  Finish(*c, end + 5 * sim::kSec, st);
  return st;
}

// docs/bugs/fixed/killnine-stale-read.md §4.2: one join (of node 6) under load in a 6-node ring, V = 2,
// R = 3, in which every link between two back-ends other than the joiner is 50 ms slower from
// the join on. The joiner's copy of an insert configuration, relayed b → J → c, then reaches
// the donor c before the old middle b's last puts (and b's own copy) on b → c, as can happen
// between the real cluster's TCP connections. Each put writes a key of its own (a put the
// joiner lacks is never hidden by a later one) and every key is read once more after the
// load. `flush_waits` counts the donors' flushes that had to wait for the old chain's puts.
RunStats SlowOldLinksJoinRun(uint64_t seed, uint64_t* flush_waits) {
  sim::Rng rng = sim::Rng::ForStream(seed, 3);
  auto c = Cluster::Create(SixNodeRing()).value();
  RunStats st;
  const sim::SimTime end = 3 * sim::kSec;
  auto keys = std::make_shared<uint64_t>(0);
  auto client = std::make_shared<std::function<void()>>();
  *client = [&c, &rng, &st, end, keys, weak = std::weak_ptr<std::function<void()>>(client)]() {
    if (c->sim().now() >= end) return;
    if (*keys == 0 || rng.UniformU64(2) == 0) {
      const std::string k = "u" + std::to_string((*keys)++);
      c->Put(Key::Hash(k), "v", nullptr, k);
    } else {
      const std::string k = "u" + std::to_string(rng.UniformU64(*keys));
      c->Get(Key::Hash(k), nullptr, k);
    }
    ++st.ops;
    if (auto self = weak.lock()) c->sim().Schedule(c->sim().now() + static_cast<sim::SimDuration>(rng.Exponential(2e6)), *self);
  };
  for (int i = 0; i < 4; ++i) (*client)();
  c->sim().Schedule(sim::kSec, [&]() {
    ++st.changes;
    auto j = c->AddNode();
    ASSERT_TRUE(j.ok());
    const Endpoint joiner = static_cast<Endpoint>(j.value());
    c->net().set_link_delay([joiner](Endpoint from, Endpoint to) {
      return from >= 0 && to >= 0 && from != joiner && to != joiner ? 50 * sim::kMs : 0;
    });
  });
  c->sim().Schedule(end + 2 * sim::kSec, [&, keys]() {
    for (uint64_t k = 0; k < *keys; ++k) {
      const std::string name = "u" + std::to_string(k);
      c->Get(Key::Hash(name), nullptr, name);
    }
  });
  Finish(*c, end + 4 * sim::kSec, st);
  for (NodeId id = 0; id < c->backend_slots(); ++id) {
    if (c->backend(id)) *flush_waits += c->backend(id)->stats().flush_waits;
  }
  return st;
}

TEST(ClusterChecker, AJoinWhoseConfigurationOvertakesTheOldChainsPutsIsLinearizable) {
  uint64_t ops = 0, waits = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    RunStats st = SlowOldLinksJoinRun(seed, &waits);
    ops += st.ops;
    EXPECT_EQ(st.report.violations, 0u) << "seed " << seed << ": " << (st.report.details.empty() ? "" : st.report.details[0]);
    EXPECT_EQ(st.report.undetermined_keys, 0u) << "seed " << seed;
    EXPECT_FALSE(st.stuck) << "seed " << seed << ": the join never finished";
  }
  std::printf("8 joins over slow old links: %llu operations, %llu donor flushes waited for the old chain's puts\n",
              static_cast<unsigned long long>(ops), static_cast<unsigned long long>(waits));
  EXPECT_GT(waits, 0u) << "no configuration copy overtook the old chain's puts: the test exercised nothing";
}

TEST(ClusterChecker, NoViolationOverManySeedsWithFailuresJoinsAndLeaves) {
#if defined(__SANITIZE_ADDRESS__)
  const uint64_t kDefaultSeeds = 6;  // the sanitizer run checks memory, the native run the protocol
#else
  const uint64_t kDefaultSeeds = 24;
#endif
  const uint64_t kSeeds = std::getenv("FAWNLAB_KV_SEEDS") ? std::strtoull(std::getenv("FAWNLAB_KV_SEEDS"), nullptr, 10) : kDefaultSeeds;
  uint64_t ops = 0, changes = 0, failed = 0, deletes = 0, multigets = 0, mid[2][kMidPhases] = {};
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    RunStats st = RandomRun(seed, 14, 12);
    ops += st.ops;
    changes += st.changes;
    failed += st.failed_puts;
    deletes += st.deletes;
    multigets += st.multigets;
    for (int k = 0; k < 2; ++k) {
      for (int p = 0; p < kMidPhases; ++p) mid[k][p] += st.mid_failures[k][p];
    }
    EXPECT_EQ(st.report.violations, 0u) << "seed " << seed << ": " << (st.report.details.empty() ? "" : st.report.details[0]);
    EXPECT_EQ(st.report.undetermined_keys, 0u) << "seed " << seed;
    EXPECT_FALSE(st.stuck) << "seed " << seed << ": a membership change never finished";
  }
  std::printf("checked %llu seeds: %llu operations (%llu deletes, %llu multigets), %llu membership changes, %llu puts failed (timed out)\n",
              static_cast<unsigned long long>(kSeeds), static_cast<unsigned long long>(ops), static_cast<unsigned long long>(deletes),
              static_cast<unsigned long long>(multigets), static_cast<unsigned long long>(changes), static_cast<unsigned long long>(failed));
  uint64_t mids = 0;
  for (int k = 0; k < 2; ++k) {
    std::printf("failures injected during a %s:", k ? "leave" : "join");
    for (int p = 0; p < kMidPhases; ++p) {
      std::printf(" %s %llu", kMidPhaseNames[p], static_cast<unsigned long long>(mid[k][p]));
      mids += mid[k][p];
    }
    std::printf("\n");
  }
  std::printf("%llu failures injected during changes in all\n", static_cast<unsigned long long>(mids));
  EXPECT_GT(mids, kSeeds);
  EXPECT_GT(deletes, kSeeds * 50);
  EXPECT_GT(multigets, kSeeds * 100);
  EXPECT_GT(ops, kSeeds * 1000);
}

// Every phase of a join and of a leave, struck by the failure of every node it involves: the
// change ends (abandoned or finished), the chains are repaired, and the history checks.
TEST(ClusterChecker, AFailureAtEveryPhaseOfAJoinOrLeaveIsRepairedAndLinearizable) {
#if defined(__SANITIZE_ADDRESS__)
  const int kRoles = kOldHead;  // the sanitizer run checks memory: the joiner and the donor only
  const int kMinHits = 1;
#else
  const int kRoles = kMidRoles;
  const int kMinHits = 3;
#endif
  uint64_t ops = 0, struck = 0, runs = 0;
  for (int leave = 0; leave < 2; ++leave) {
    for (int p = 0; p < kMidPhases; ++p) {
      int hit = 0;
      for (int r = 0; r < kRoles; ++r) {
        if (r == kLeaver && !leave) continue;
        const uint64_t seed = static_cast<uint64_t>(100 * leave + 10 * p + r + 1);
        RunStats st = StrikeRun(leave != 0, static_cast<MidPhase>(p), static_cast<MidRole>(r), seed);
        const std::string what = std::string(leave ? "leave" : "join") + ", " + kMidPhaseNames[p] + ", " + kMidRoleNames[r] +
                                 " fails (seed " + std::to_string(seed) + ")";
        ++runs;
        ops += st.ops;
        hit += static_cast<int>(st.mid_failures[leave][p]);
        EXPECT_EQ(st.report.violations, 0u) << what << ": " << (st.report.details.empty() ? "" : st.report.details[0]);
        EXPECT_EQ(st.report.undetermined_keys, 0u) << what;
        EXPECT_FALSE(st.stuck) << what << ": a membership change never finished";
      }
      struck += static_cast<uint64_t>(hit);
      EXPECT_GE(hit, kMinHits) << (leave ? "leave" : "join") << ": too few roles could be struck during " << kMidPhaseNames[p];
    }
  }
  std::printf("%llu runs, %llu operations, %llu failures struck during a join or leave: 0 violations expected\n",
              static_cast<unsigned long long>(runs), static_cast<unsigned long long>(ops), static_cast<unsigned long long>(struck));
}

}  // namespace
}  // namespace fawnlab::fawnkv
