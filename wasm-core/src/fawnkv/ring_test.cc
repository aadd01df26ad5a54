#include "fawnkv/ring.h"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <set>

#include <gtest/gtest.h>

#include "sim/rng.h"

namespace fawnlab::fawnkv {
namespace {

uint64_t TestSeed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 5151;
}

Key K(const char* hex) {
  Key k;
  EXPECT_TRUE(Key::FromHex(hex, &k)) << hex;
  return k;
}

// A key whose leading hex digits are `prefix` (FromHex pads on the left).
Key P(std::string prefix) {
  prefix.resize(40, '0');
  return K(prefix.c_str());
}

Key RandomKey(sim::Rng& rng) {
  Key k;
  for (auto& b : k.bytes) b = static_cast<uint8_t>(rng.UniformU64(256));
  return k;
}

std::vector<std::string> Names(const std::vector<Vid>& vids) {
  std::vector<std::string> out;
  for (const Vid& v : vids) out.push_back(v.Name());
  return out;
}

using S = std::vector<std::string>;

Ring Make(int r, const std::vector<std::pair<NodeId, int>>& nodes) {
  Ring ring = Ring::Create(r).value();
  for (auto [id, v] : nodes) EXPECT_TRUE(ring.AddNode(id, v).ok());
  return ring;
}

// Positions checked by hand with Python's hashlib.sha1 (independent of fawnds::Sha1):
//   78e2fb03… 3/0   940549e9… 1/0   961a3744… 2/0   ba057c93… 4/0
//   bbeae652… 2/1   e3b2823e… 1/1   ef7fad0c… 3/1   f77fcd66… 4/1
TEST(RingTest, HandCheckedThreeNodes) {
  Ring ring = Make(2, {{1, 2}, {2, 2}, {3, 2}});
  EXPECT_EQ(Names(ring.vids()), (S{"3/0", "1/0", "2/0", "2/1", "1/1", "3/1"}));
  EXPECT_EQ(ring.vids()[0].id, K("78e2fb037d202d0fbd4df46b34f04089d305a004"));

  // Successor ownership, (pred, vid]: the VID's own position is its own; one past is the next's.
  EXPECT_EQ(ring.Owner(K("940549e96508c3f0a48a842f119c3fb91b3f2898")).value().Name(), "1/0");
  EXPECT_EQ(ring.Owner(K("940549e96508c3f0a48a842f119c3fb91b3f2899")).value().Name(), "2/0");
  EXPECT_EQ(ring.Owner(Key{}).value().Name(), "3/0");  // wraps past 2^160 − 1
  EXPECT_EQ(ring.Owner(K("ffffffffffffffffffffffffffffffffffffffff")).value().Name(), "3/0");
  KeyRange r30 = ring.RangeOf(3, 0).value();
  EXPECT_EQ(r30.start.Hex(), "ef7fad0c2df7519f5a3f7b9a3899230feb8c957a");
  EXPECT_EQ(r30.end.Hex(), "78e2fb037d202d0fbd4df46b34f04089d305a004");

  // Chains skip VIDs of a node already in the chain: 2/0's successor 2/1 is skipped.
  EXPECT_EQ(Names(ring.Chain(P("950000"), 2).value()), (S{"2/0", "1/1"}));
  EXPECT_EQ(Names(ring.Chain(P("950000"), 3).value()), (S{"2/0", "1/1", "3/1"}));
  EXPECT_EQ(Names(ring.Chain(P("f0"), 2).value()), (S{"3/0", "1/0"}));
  EXPECT_EQ(Names(ring.Chain(P("e4"), 2).value()), (S{"3/1", "1/0"}));  // skips 3/0

  // 1/1: head of its own range, tail of 2/1's and (through the skip) of 2/0's.
  auto slots = ring.ChainsContaining(1, 1, 2).value();
  ASSERT_EQ(slots.size(), 3u);
  EXPECT_TRUE(slots[0].IsHead());
  EXPECT_EQ(Names(slots[0].chain), (S{"1/1", "3/1"}));
  EXPECT_TRUE(slots[1].IsTail());
  EXPECT_EQ(Names(slots[1].chain), (S{"2/1", "1/1"}));
  EXPECT_EQ(Names(slots[2].chain), (S{"2/0", "1/1"}));
  EXPECT_EQ(slots[2].range.end, ring.RangeOf(2, 0).value().end);
  // 2/1 is in one chain only: every chain before it already holds node 2.
  EXPECT_EQ(ring.ChainsContaining(2, 1, 2).value().size(), 1u);
  EXPECT_EQ(ring.RangesOf(1).value().size(), 2u);
}

TEST(RingTest, HandCheckedJoinAndLeave) {
  Ring ring = Make(2, {{1, 2}, {2, 2}, {3, 2}});
  auto add = ring.AddNode(4, 2);
  ASSERT_TRUE(add.ok());
  EXPECT_EQ(Names(ring.vids()), (S{"3/0", "1/0", "2/0", "4/0", "2/1", "1/1", "3/1", "4/1"}));
  const auto& c = add.value();
  ASSERT_EQ(c.size(), 4u);
  // (1/0, 2/0]: 4/0 replaces 1/1 as tail; pre-copy from 1/1.
  EXPECT_EQ(c[0].range.end.Hex(), "961a37449534b5776c8abe17b4041aa49132a16e");
  EXPECT_EQ(Names(c[0].old_chain), (S{"2/0", "1/1"}));
  EXPECT_EQ(Names(c[0].new_chain), (S{"2/0", "4/0"}));
  EXPECT_EQ(Names(c[0].joined), (S{"4/0"}));
  EXPECT_EQ(Names(c[0].left), (S{"1/1"}));
  EXPECT_EQ(c[0].donor->Name(), "1/1");
  EXPECT_FALSE(c[0].OwnerChanged());
  // (2/0, 4/0]: split off 2/1's range; 4/0 becomes head.
  EXPECT_EQ(Names(c[1].old_chain), (S{"2/1", "1/1"}));
  EXPECT_EQ(Names(c[1].new_chain), (S{"4/0", "2/1"}));
  EXPECT_TRUE(c[1].OwnerChanged());
  EXPECT_EQ(c[1].donor->Name(), "1/1");
  // (1/1, 3/1]: 4/1 replaces 1/0 as tail; (3/1, 4/1]: split off 3/0's wrapping range.
  EXPECT_EQ(Names(c[2].new_chain), (S{"3/1", "4/1"}));
  EXPECT_EQ(c[2].donor->Name(), "1/0");
  EXPECT_EQ(Names(c[3].old_chain), (S{"3/0", "1/0"}));
  EXPECT_EQ(Names(c[3].new_chain), (S{"4/1", "3/0"}));
  EXPECT_EQ(c[3].range.start.Hex(), "ef7fad0c2df7519f5a3f7b9a3899230feb8c957a");

  auto rm = ring.RemoveNode(4);
  ASSERT_TRUE(rm.ok());
  EXPECT_EQ(Names(ring.vids()), (S{"3/0", "1/0", "2/0", "2/1", "1/1", "3/1"}));
  ASSERT_EQ(rm.value().size(), 4u);
  EXPECT_EQ(Names(rm.value()[0].new_chain), (S{"2/0", "1/1"}));
  EXPECT_EQ(rm.value()[0].donor->Name(), "2/0");  // 4/0 was the tail; it is gone
  EXPECT_EQ(Names(rm.value()[0].joined), (S{"1/1"}));
}

TEST(RingTest, SmallRingsCapChainsAtTheNodesThere) {
  Ring ring = Ring::Create(3).value();
  auto first = ring.AddNode(1, 1).value();
  ASSERT_EQ(first.size(), 1u);  // the whole ring, from nobody to node 1
  EXPECT_EQ(Ring::Fraction(first[0].range), 1.0);
  EXPECT_TRUE(first[0].old_chain.empty());
  EXPECT_FALSE(first[0].donor.has_value());
  EXPECT_EQ(Ring::Fraction(ring.RangeOf(1, 0).value()), 1.0);
  auto second = ring.AddNode(2, 1).value();
  for (const auto& c : second) EXPECT_EQ(c.new_chain.size(), 2u);
  auto last = ring.RemoveNode(1).value();
  for (const auto& c : last) EXPECT_EQ(c.new_chain.size(), 1u);
  ASSERT_TRUE(ring.RemoveNode(2).ok());
  EXPECT_EQ(ring.Owner(Key{}).status().code(), StatusCode::kNotFound);
}

TEST(RingTest, BadInputNamesTheProblem) {
  EXPECT_NE(Ring::Create(0).status().message().find("R = 0"), std::string::npos);
  Ring ring = Make(2, {{1, 2}, {2, 2}});
  auto dup = ring.AddNode(1, 3);
  EXPECT_EQ(dup.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(dup.status().message().find("node 1 is already in the ring"), std::string::npos);
  EXPECT_NE(ring.AddNode(5, 0).status().message().find("V = 0"), std::string::npos);
  EXPECT_NE(ring.AddNode(5, 5000).status().message().find("V = 5000"), std::string::npos);
  EXPECT_EQ(ring.RemoveNode(9).status().code(), StatusCode::kNotFound);
  EXPECT_NE(ring.RemoveNode(9).status().message().find("node 9"), std::string::npos);
  EXPECT_NE(ring.Chain(Key{}, 0).status().message().find("R = 0"), std::string::npos);
  EXPECT_NE(ring.Chain(Key{}, 3).status().message().find("exceeds the 2 distinct"), std::string::npos);
  EXPECT_NE(ring.ChainsContaining(1, 2, 1).status().message().find("no VID 2"), std::string::npos);
  EXPECT_EQ(ring.RangesOf(7).status().code(), StatusCode::kNotFound);
  EXPECT_NE(Ring::FrontEndOf(Key{}, 0).status().message().find("F = 0"), std::string::npos);
  EXPECT_FALSE(Ring::WedgeOf(3, 3).ok());
  EXPECT_EQ(Names(ring.vids()).size(), 4u);  // failed calls changed nothing
}

TEST(RingTest, FrontEndWedgesPartitionTheRing) {
  for (int f : {1, 2, 3, 7, 80}) {
    double total = 0;
    for (int i = 0; i < f; ++i) {
      KeyRange w = Ring::WedgeOf(i, f).value();
      total += Ring::Fraction(w);
      EXPECT_EQ(Ring::FrontEndOf(w.end, f).value(), i) << f;
      if (i + 1 < f) {
        EXPECT_EQ(w.end, Ring::WedgeOf(i + 1, f).value().start);
      }
      Key after = w.start;  // the first key of the wedge: start + 1
      for (int b = 19; b >= 0 && ++after.bytes[static_cast<size_t>(b)] == 0; --b) {}
      EXPECT_EQ(Ring::FrontEndOf(after, f).value(), i) << f;
      EXPECT_NEAR(Ring::Fraction(w), 1.0 / f, 1e-12);
    }
    EXPECT_NEAR(total, 1.0, 1e-12);
  }
  EXPECT_EQ(Ring::WedgeOf(0, 2).value().end.Hex(), "7fffffffffffffffffffffffffffffffffffffff");
  EXPECT_EQ(Ring::FrontEndOf(K("8000000000000000000000000000000000000000"), 2).value(), 1);
  EXPECT_EQ(Ring::FrontEndOf(Key{}, 5).value(), 0);
  sim::Rng rng(TestSeed());
  for (int i = 0; i < 1000; ++i) {
    Key k = RandomKey(rng);
    const int f = 1 + static_cast<int>(rng.UniformU64(100));
    EXPECT_TRUE(Ring::WedgeOf(Ring::FrontEndOf(k, f).value(), f).value().Contains(k));
  }
}

// A random ring: n nodes with random ids and V in [1, max_v].
Ring RandomRing(sim::Rng& rng, int r, int n, int max_v, std::vector<NodeId>* ids) {
  Ring ring = Ring::Create(r).value();
  while (ring.distinct_nodes() < n) {
    NodeId id = static_cast<NodeId>(rng.UniformU64(1000000));
    if (ring.AddNode(id, 1 + static_cast<int>(rng.UniformU64(static_cast<uint64_t>(max_v)))).ok()) {
      ids->push_back(id);
    }
  }
  return ring;
}

TEST(RingTest, RandomRingsOwnersAndChains) {
  const uint64_t seed = TestSeed();
  std::cout << "RingTest.RandomRingsOwnersAndChains seed=" << seed << " (FAWNLAB_TEST_SEED to replay)\n";
  sim::Rng rng(seed);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<NodeId> ids;
    const int n = 1 + static_cast<int>(rng.UniformU64(12));
    Ring ring = RandomRing(rng, 3, n, 6, &ids);
    const auto& vids = ring.vids();
    double total = 0;
    for (size_t i = 0; i < vids.size(); ++i) {
      if (i) {
        ASSERT_TRUE(vids[i - 1].id < vids[i].id) << "seed " << seed;
      }
      total += Ring::Fraction(ring.RangeOf(vids[i].node, vids[i].index).value());
    }
    EXPECT_NEAR(total, 1.0, 1e-9) << "seed " << seed;
    for (int q = 0; q < 100; ++q) {
      Key k = RandomKey(rng);
      if (q == 0) k = vids[rng.UniformU64(vids.size())].id;  // a boundary
      int owners = 0;
      for (const Vid& v : vids) owners += ring.RangeOf(v.node, v.index).value().Contains(k);
      ASSERT_EQ(owners, 1) << "seed " << seed;
      const Vid owner = ring.Owner(k).value();
      ASSERT_TRUE(ring.RangeOf(owner.node, owner.index).value().Contains(k)) << "seed " << seed;
      for (int r = 1; r <= std::min(4, n); ++r) {
        std::vector<Vid> chain = ring.Chain(k, r).value();
        ASSERT_EQ(chain.size(), static_cast<size_t>(r));
        EXPECT_EQ(chain[0], owner);
        std::set<NodeId> nodes;
        for (const Vid& v : chain) nodes.insert(v.node);
        ASSERT_EQ(nodes.size(), static_cast<size_t>(r)) << "seed " << seed;
        // Each member knows it sits in the chain for k, at its position.
        for (size_t pos = 0; pos < chain.size(); ++pos) {
          int hits = 0;
          const auto slots = ring.ChainsContaining(chain[pos].node, chain[pos].index, r).value();
          for (const ChainSlot& s : slots) {
            if (s.range.Contains(k)) {
              ++hits;
              EXPECT_EQ(s.position, static_cast<int>(pos));
              EXPECT_EQ(s.chain, chain);
            }
          }
          ASSERT_EQ(hits, 1) << "seed " << seed;
        }
      }
    }
  }
}

TEST(RingTest, JoinMovesOnlyWhatTheNewNodeTakesAndLeaveRestores) {
  const uint64_t seed = TestSeed();
  std::cout << "RingTest.JoinMovesOnlyWhatTheNewNodeTakesAndLeaveRestores seed=" << seed << "\n";
  sim::Rng rng(seed);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<NodeId> ids;
    const int r = 1 + static_cast<int>(rng.UniformU64(3));
    Ring ring = RandomRing(rng, r, r + static_cast<int>(rng.UniformU64(10)), 8, &ids);
    const std::vector<Vid> before = ring.vids();
    std::vector<Key> keys;
    std::vector<std::vector<Vid>> chains;
    for (int q = 0; q < 200; ++q) {
      keys.push_back(RandomKey(rng));
      chains.push_back(ring.Chain(keys.back(), r).value());
    }
    const NodeId fresh = 2000000 + static_cast<NodeId>(trial);
    auto add = ring.AddNode(fresh, 1 + static_cast<int>(rng.UniformU64(8))).value();
    double moved = 0;
    for (const RangeChange& c : add) {
      for (const Vid& v : c.joined) EXPECT_EQ(v.node, fresh) << "seed " << seed;
      EXPECT_EQ(c.left.size(), 1u);  // the old tail drops out of the chain
      EXPECT_EQ(*c.donor, c.old_chain.back());
      if (c.OwnerChanged()) {
        EXPECT_EQ(c.new_chain[0].node, fresh);
        moved += Ring::Fraction(c.range);
      }
    }
    double taken = 0;
    const auto fresh_ranges = ring.RangesOf(fresh).value();
    for (const KeyRange& kr : fresh_ranges) taken += Ring::Fraction(kr);
    EXPECT_NEAR(moved, taken, 1e-9) << "seed " << seed;
    for (size_t q = 0; q < keys.size(); ++q) {
      std::vector<Vid> now = ring.Chain(keys[q], r).value();
      bool in_change = false;
      for (const RangeChange& c : add) in_change |= c.range.Contains(keys[q]);
      EXPECT_EQ(now != chains[q], in_change) << "seed " << seed;
      if (now[0] != chains[q][0]) {
        EXPECT_EQ(now[0].node, fresh);
      }
    }
    auto rm = ring.RemoveNode(fresh).value();
    EXPECT_EQ(ring.vids(), before) << "seed " << seed;
    ASSERT_EQ(rm.size(), add.size());
    for (size_t i = 0; i < rm.size(); ++i) {
      EXPECT_EQ(rm[i].range.end, add[i].range.end);
      EXPECT_EQ(rm[i].old_chain, add[i].new_chain);
      EXPECT_EQ(rm[i].new_chain, add[i].old_chain);
    }
    for (size_t q = 0; q < keys.size(); ++q) EXPECT_EQ(ring.Chain(keys[q], r).value(), chains[q]);
  }
}

// Adding one node to N moves about 1/(N+1) of the ring (SOSP'09 §3.4.1: "adding a new VID moves
// keys only at the successor of the VID being added"), and more VIDs spread the load more evenly.
TEST(RingTest, MovedFractionMatchesOneOverNPlusOne) {
  const uint64_t seed = TestSeed();
  std::cout << "RingTest.MovedFractionMatchesOneOverNPlusOne seed=" << seed << "\n";
  sim::Rng rng(seed);
  for (int v : {1, 4, 16}) {
    for (int n : {5, 20}) {
      const int trials = 150;
      double sum = 0;
      for (int t = 0; t < trials; ++t) {
        std::vector<NodeId> ids;
        Ring ring = Ring::Create(1).value();
        const NodeId base = static_cast<NodeId>(rng.UniformU64(1u << 30));
        for (int i = 0; i < n; ++i) ASSERT_TRUE(ring.AddNode(base + static_cast<NodeId>(i), v).ok());
        const auto changes = ring.AddNode(base + static_cast<NodeId>(n), v).value();
        for (const RangeChange& c : changes) {
          if (c.OwnerChanged()) sum += Ring::Fraction(c.range);
        }
      }
      const double mean = sum / trials, expect = 1.0 / (n + 1);
      std::cout << "  V=" << v << " N=" << n << " moved " << mean << " (1/(N+1) = " << expect << ")\n";
      // Per trial the share is a sum of V arcs (relative sd ≈ 1/√V); over 150 trials the mean's
      // relative sd is ≤ 0.09, so ±30% is a loose bound.
      EXPECT_NEAR(mean, expect, 0.3 * expect) << "V=" << v << " N=" << n << " seed " << seed;
    }
  }
  // Balance: the coefficient of variation of the nodes' shares falls about as 1/√V.
  auto cv = [&](int v) {
    Ring ring = Ring::Create(1).value();
    for (NodeId i = 0; i < 20; ++i) EXPECT_TRUE(ring.AddNode(100 + i, v).ok());
    double s = 0, s2 = 0;
    for (NodeId id : ring.nodes()) {
      double share = 0;
      const auto ranges = ring.RangesOf(id).value();
      for (const KeyRange& kr : ranges) share += Ring::Fraction(kr);
      s += share;
      s2 += share * share;
    }
    const double mean = s / 20;
    return std::sqrt(s2 / 20 - mean * mean) / mean;
  };
  const double cv1 = cv(1), cv64 = cv(64);
  std::cout << "  share CV over 20 nodes: V=1 " << cv1 << ", V=64 " << cv64 << "\n";
  EXPECT_GT(cv1, 0.4);
  EXPECT_LT(cv64, 0.3);
}

TEST(RingTest, DeterministicWhateverTheJoinOrder) {
  Ring a = Make(3, {{1, 4}, {2, 4}, {3, 4}, {4, 4}, {5, 4}});
  Ring b = Make(3, {{5, 4}, {3, 4}, {1, 4}, {4, 4}, {2, 4}});
  EXPECT_EQ(a.vids(), b.vids());
  EXPECT_EQ(a.nodes(), (std::vector<NodeId>{1, 2, 3, 4, 5}));
  for (const Vid& v : a.vids()) {
    auto sa = a.ChainsContaining(v.node, v.index, 3).value();
    auto sb = b.ChainsContaining(v.node, v.index, 3).value();
    ASSERT_EQ(sa.size(), sb.size());
    for (size_t i = 0; i < sa.size(); ++i) EXPECT_EQ(sa[i].chain, sb[i].chain);
  }
  auto ca = a.AddNode(9, 3).value();
  auto cb = b.AddNode(9, 3).value();
  ASSERT_EQ(ca.size(), cb.size());
  for (size_t i = 0; i < ca.size(); ++i) EXPECT_EQ(ca[i].new_chain, cb[i].new_chain);
}

}  // namespace
}  // namespace fawnlab::fawnkv
