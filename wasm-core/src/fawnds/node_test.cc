#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>

#include <gtest/gtest.h>

#include "device/nvm.h"
#include "device/profiles.h"
#include "fawnds/node.h"
#include "fawnds/reliability.h"
#include "sim/rng.h"

namespace fawnlab::fawnds {
namespace {

Key K(uint64_t i) { return reliability::SpreadKey(i); }

Key Top(uint8_t b) {
  Key k;
  k.bytes[0] = b;
  return k;
}

struct Rig {
  sim::Simulator sim;
  std::unique_ptr<device::Device> dev = device::MakeDevice(&sim, "nvm-4ch", uint64_t{1} << 30).value();
  std::unique_ptr<Node> node;
  explicit Rig(std::vector<KeyRange> ranges, sim::SimDuration lock = 25 * sim::kMs) {
    NodeOptions o;
    o.index_bits = 14;
    o.file_bytes = 16 << 20;
    o.lock_hold_ns = lock;
    node = Node::Create(dev.get(), o, ranges).value();
  }
  StatusOr<std::string> Get(const Key& k) {
    Status s = Status::Internal("pending");
    std::string v;
    EXPECT_TRUE(node->Get(k, [&](const Status& x, std::string y) { s = x; v = std::move(y); }).ok());
    sim.Run(UINT64_MAX);
    if (!s.ok()) return s;
    return v;
  }
  Status RunJob(const std::function<Status(Node::Done)>& start) {
    Status result = Status::Internal("not finished");
    Status s = start([&](const Status& x) { result = x; });
    if (!s.ok()) return s;
    sim.Run(UINT64_MAX);
    return result;
  }
};

TEST(NodeTest, CompactKeepsOnlyLiveRecords) {
  Rig rig({KeyRange::All()});
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(rig.node->Put(K(i), "v1-" + std::to_string(i), nullptr).ok());
  for (uint64_t i = 0; i < 500; ++i) ASSERT_TRUE(rig.node->Put(K(i), "v2-" + std::to_string(i), nullptr).ok());
  for (uint64_t i = 900; i < 1000; ++i) ASSERT_TRUE(rig.node->Delete(K(i), nullptr).ok());
  rig.sim.Run(UINT64_MAX);
  const uint64_t before = rig.node->store(0).log_end();
  ASSERT_TRUE(rig.RunJob([&](Node::Done d) { return rig.node->Compact(0, d); }).ok());
  const uint64_t after = rig.node->store(0).log_end();
  EXPECT_LT(after, before);
  EXPECT_EQ(rig.node->progress().copied, 900u) << "900 live keys";
  EXPECT_EQ(rig.node->store(0).live_keys(), 900u);
  for (uint64_t i = 0; i < 1000; ++i) {
    auto v = rig.Get(K(i));
    if (i >= 900) {
      EXPECT_EQ(v.status().code(), StatusCode::kNotFound);
    } else {
      ASSERT_TRUE(v.ok()) << i;
      EXPECT_EQ(v.value(), (i < 500 ? "v2-" : "v1-") + std::to_string(i));
    }
  }
}

TEST(NodeTest, SplitThenMergeMovesKeysBetweenStores) {
  Rig rig({KeyRange::All()});
  for (uint64_t i = 0; i < 2000; ++i) ASSERT_TRUE(rig.node->Put(K(i), std::to_string(i), nullptr).ok());
  for (uint64_t i = 0; i < 100; ++i) ASSERT_TRUE(rig.node->Delete(K(i), nullptr).ok());
  rig.sim.Run(UINT64_MAX);
  // Split the whole ring at a point: the new store takes (start, at].
  ASSERT_TRUE(rig.RunJob([&](Node::Done d) { return rig.node->Split(0, Top(128), d); }).ok());
  ASSERT_EQ(rig.node->num_stores(), 2u);
  const uint64_t moved = rig.node->store(1).live_keys();
  EXPECT_GT(moved, 700u);
  EXPECT_LT(moved, 1200u);
  for (uint64_t i = 0; i < 2000; ++i) {
    auto v = rig.Get(K(i));
    if (i < 100) {
      EXPECT_EQ(v.status().code(), StatusCode::kNotFound) << i;
    } else {
      ASSERT_TRUE(v.ok()) << i << ": " << v.status().message();
      EXPECT_EQ(v.value(), std::to_string(i));
    }
  }
  ASSERT_TRUE(rig.RunJob([&](Node::Done d) { return rig.node->Merge(0, 1, d); }).ok());
  ASSERT_EQ(rig.node->num_stores(), 1u);
  for (uint64_t i = 100; i < 2000; i += 7) {
    auto v = rig.Get(K(i));
    ASSERT_TRUE(v.ok()) << i;
  }
}

TEST(NodeTest, RequestsDuringTheLockWaitForTheSwap) {
  const sim::SimDuration lock = 25 * sim::kMs;
  Rig rig({KeyRange::All()}, lock);
  ASSERT_TRUE(rig.node->Put(K(1), "one", nullptr).ok());
  rig.sim.Run(UINT64_MAX);
  Status done = Status::Internal("x");
  ASSERT_TRUE(rig.node->Compact(0, [&](const Status& s) { done = s; }).ok());
  while (!rig.node->progress().locked && rig.sim.Step()) {
  }
  ASSERT_TRUE(rig.node->progress().locked);
  sim::SimTime asked = rig.sim.now();
  sim::SimTime answered = 0;
  ASSERT_TRUE(rig.node->Get(K(1), [&](const Status& s, std::string v) {
    EXPECT_TRUE(s.ok());
    EXPECT_EQ(v, "one");
    answered = rig.sim.now();
  }).ok());
  EXPECT_EQ(rig.node->queued(), 1u);
  rig.sim.Run(UINT64_MAX);
  EXPECT_TRUE(done.ok());
  EXPECT_GE(answered - asked, lock - sim::kMs);
}

TEST(NodeTest, BadMaintenanceRequestsAreRefused) {
  Rig rig({KeyRange{Top(0), Top(100)}, KeyRange{Top(150), Top(200)}});
  EXPECT_EQ(rig.node->Split(0, Top(120), nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(rig.node->Merge(0, 1, nullptr).code(), StatusCode::kInvalidArgument) << "not adjacent";
  EXPECT_EQ(rig.node->Compact(7, nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(rig.node->Put(Top(120), "x", nullptr).code(), StatusCode::kInvalidArgument) << "no store holds it";
  ASSERT_TRUE(rig.node->Compact(0, nullptr).ok());
  EXPECT_EQ(rig.node->Compact(1, nullptr).code(), StatusCode::kResourceExhausted);
  rig.sim.Run(UINT64_MAX);
}

// Random puts, deletes and gets keep running while compactions, splits and merges come and
// go, with a clean restart through Node::Recover halfway; every read must match a
// std::unordered_map. (The bench's soak runs the same for a million operations.)
TEST(NodeTest, MaintenanceUnderRandomLoadMatchesAModel) {
  reliability::ModelOptions o;
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  o.seed = env ? std::strtoull(env, nullptr, 10) : 777;
  o.ops = 100000;
  o.restart_every = 50000;
  std::cout << "NodeTest.MaintenanceUnderRandomLoadMatchesAModel seed=" << o.seed << "\n";
  const reliability::ModelReport r = reliability::RunMaintenanceModel(o);
  EXPECT_EQ(r.first_failure, "");
  EXPECT_EQ(r.mismatches, 0u);
  EXPECT_GT(r.gets_checked, 30000u);
  EXPECT_GT(r.compactions, 3u);
  EXPECT_GT(r.splits, 3u);
  EXPECT_GT(r.merges, 3u);
  EXPECT_EQ(r.restarts, 1u);
  EXPECT_EQ(r.index_entries, r.model_keys) << "every store indexes exactly its own live keys";
}

// Crashes at random device commands while puts, deletes, syncs, checkpoints, splits, merges
// and compactions run; Node::Recover must succeed and every key must read back as its last
// synced operation left it, or as a later one did. (The bench's soak runs 10,000 of these.)
TEST(NodeTest, CrashConsistencyThroughMaintenance) {
  reliability::CrashOptions o;
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  o.seed = env ? std::strtoull(env, nullptr, 10) : 99;
  o.crash_points = 300;
  std::cout << "NodeTest.CrashConsistencyThroughMaintenance seed=" << o.seed << "\n";
  const reliability::CrashReport r = reliability::RunCrashPoints(o);
  EXPECT_EQ(r.failures, 0u) << r.first_failure;
  EXPECT_EQ(r.crash_points, 300u);
  for (const char* phase : {"put", "sync", "compact", "split", "merge"}) {
    EXPECT_GT(r.by_phase.count(phase) ? r.by_phase.at(phase) : 0, 0u) << "no crash during " << phase;
  }
}

TEST(NodeTest, RecoverRefusesADeviceWithoutAList) {
  Rig rig({KeyRange::All()});
  sim::Simulator sim;
  auto blank = device::MakeDevice(&sim, "nvm-4ch", uint64_t{64} << 20).value();
  NodeOptions o;
  o.index_bits = 14;
  o.file_bytes = 16 << 20;
  auto r = Node::Recover(blank.get(), o, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("datastore list"), std::string::npos) << r.status().message();
  o.file_bytes = 8 << 20;
  auto wrong = Node::Recover(rig.dev.get(), o, nullptr);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("16777216"), std::string::npos) << wrong.status().message();
}

}  // namespace
}  // namespace fawnlab::fawnds
