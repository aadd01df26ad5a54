// Random client histories against a cluster that loses, gains and replaces nodes, checked for
// per-key linearizability (checker.h). Each run prints its seed on failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "fawnkv/cluster.h"
#include "sim/rng.h"

namespace fawnlab::fawnkv {
namespace {

struct RunStats {
  uint64_t ops = 0, failed_puts = 0, changes = 0, deletes = 0, multigets = 0;
  bool stuck = false;
  CheckReport report;
};

// `seconds` of virtual time: Poisson puts, gets, deletes and multigets (2–7 keys) over `keys`
// keys from 4 front-end clients,
// and every ~2 s one membership change (a failure, a join or a leave) once the last is done.
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
  std::function<void()> change = [&]() {
    if (c->sim().now() >= end - 3 * sim::kSec) return;
    if (!c->changing()) {
      std::vector<NodeId> live;
      for (NodeId id = 0; id < c->backend_slots(); ++id) {
        if (c->backend(id) && !c->gone(id) && !c->backend(id)->failed()) live.push_back(id);
      }
      const uint64_t kind = rng.UniformU64(3);
      const NodeId victim = live[rng.UniformU64(live.size())];
      const bool can_lose = static_cast<int>(live.size()) > o.replication + 1;
      if (kind == 0 && can_lose) {
        (void)c->FailNode(victim);
      } else if (kind == 1 && can_lose) {
        (void)c->RemoveNode(victim);
      } else if (c->backend_slots() < 12) {
        (void)c->AddNode();
      }
      ++st.changes;
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
  uint64_t ops = 0, changes = 0, failed = 0, deletes = 0, multigets = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    RunStats st = RandomRun(seed, 14, 12);
    ops += st.ops;
    changes += st.changes;
    failed += st.failed_puts;
    deletes += st.deletes;
    multigets += st.multigets;
    EXPECT_EQ(st.report.violations, 0u) << "seed " << seed << ": " << (st.report.details.empty() ? "" : st.report.details[0]);
    EXPECT_EQ(st.report.undetermined_keys, 0u) << "seed " << seed;
    EXPECT_FALSE(st.stuck) << "seed " << seed << ": a membership change never finished";
  }
  std::printf("checked %llu seeds: %llu operations (%llu deletes, %llu multigets), %llu membership changes, %llu puts failed (timed out)\n",
              static_cast<unsigned long long>(kSeeds), static_cast<unsigned long long>(ops), static_cast<unsigned long long>(deletes),
              static_cast<unsigned long long>(multigets), static_cast<unsigned long long>(changes), static_cast<unsigned long long>(failed));
  EXPECT_GT(deletes, kSeeds * 50);
  EXPECT_GT(multigets, kSeeds * 100);
  EXPECT_GT(ops, kSeeds * 1000);
}

}  // namespace
}  // namespace fawnlab::fawnkv
