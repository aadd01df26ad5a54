#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>

#include <gtest/gtest.h>

#include "device/nvm.h"
#include "device/profiles.h"
#include "fawnds/node.h"
#include "sim/rng.h"

namespace fawnlab::fawnds {
namespace {

Key K(uint64_t i) {
  Key k = Key::FromU64(i * 0x9E3779B97F4A7C15ull);
  k.bytes[0] = static_cast<uint8_t>(i % 251);  // spread keys over the ring's top byte
  return k;
}

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
// go; every read must match a std::unordered_map.
TEST(NodeTest, MaintenanceUnderRandomLoadMatchesAModel) {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  const uint64_t seed = env ? std::strtoull(env, nullptr, 10) : 777;
  std::cout << "NodeTest.MaintenanceUnderRandomLoadMatchesAModel seed=" << seed << "\n";
  Rig rig({KeyRange::All()}, 50 * sim::kUs);
  sim::Rng rng(seed);
  std::unordered_map<uint64_t, std::string> model;
  int jobs = 0, mismatches = 0;
  for (int i = 0; i < 100000; ++i) {
    uint64_t id = rng.UniformU64(3000);
    uint64_t op = rng.UniformU64(100);
    if (op < 50) {
      std::string v = std::to_string(i);
      ASSERT_TRUE(rig.node->Put(K(id), v, nullptr).ok());
      model[id] = v;
    } else if (op < 62) {
      ASSERT_TRUE(rig.node->Delete(K(id), nullptr).ok());
      model.erase(id);
    } else {
      auto it = model.find(id);
      std::string want = it == model.end() ? "<none>" : it->second;
      ASSERT_TRUE(rig.node->Get(K(id), [&, want, i](const Status& s, std::string v) {
        std::string got = s.ok() ? v : "<none>";
        if (got != want) {
          ++mismatches;
          ADD_FAILURE() << "op " << i << " key " << id << ": got " << got << ", want " << want << " (seed " << seed << ")";
        }
      }).ok());
    }
    if (i % 3000 == 1500 && !rig.node->maintenance_running()) {
      uint64_t pick = rng.UniformU64(3);
      size_t n = rig.node->num_stores();
      Status s;
      if (pick == 0 || n >= 4) {
        s = n >= 2 ? rig.node->Merge(0, 1, nullptr) : rig.node->Compact(0, nullptr);
        if (!s.ok()) s = rig.node->Compact(rng.UniformU64(n), nullptr);
      } else if (pick == 1) {
        s = rig.node->Compact(rng.UniformU64(n), nullptr);
      } else {
        size_t st = rng.UniformU64(n);
        KeyRange r = rig.node->range(st);
        s = rig.node->Split(st, K(rng.UniformU64(3000)), nullptr);
        if (!s.ok()) s = rig.node->Compact(st, nullptr);
        (void)r;
      }
      jobs += s.ok();
    }
    // Let simulated time pass between requests so maintenance overlaps them.
    rig.sim.RunUntil(rig.sim.now() + 20 * sim::kUs);
    if (mismatches > 5) break;
  }
  rig.sim.Run(UINT64_MAX);
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(jobs, 10);
  uint64_t live = 0;
  for (size_t s = 0; s < rig.node->num_stores(); ++s) live += rig.node->store(s).live_keys();
  EXPECT_EQ(live, model.size()) << "every store indexes exactly its own live keys";
}

}  // namespace
}  // namespace fawnlab::fawnds
