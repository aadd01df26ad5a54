#include "fawnkv/cluster.h"

#include <gtest/gtest.h>

#include <string>

namespace fawnlab::fawnkv {
namespace {

ClusterOptions Small(int nodes, int v, int r) {
  ClusterOptions o;
  o.nodes = nodes;
  o.vids = v;
  o.replication = r;
  o.backend.scale = 1.0 / 64;
  o.backend.file_bytes = 1 << 20;
  o.backend.index_bits = 10;
  o.record_history = true;
  return o;
}

// Runs until `*flag` or `limit` of virtual time passes.
void RunFor(Cluster& c, sim::SimDuration d) { c.sim().RunUntil(c.sim().now() + d); }

TEST(Cluster, PutThenGetThroughTheChain) {
  auto c = Cluster::Create(Small(6, 2, 3)).value();
  Outcome put, get;
  c->Put(Key::Hash("apple"), "red", [&](const Outcome& o) { put = o; }, "apple");
  RunFor(*c, 50 * sim::kMs);
  ASSERT_TRUE(put.ok);
  c->Get(Key::Hash("apple"), [&](const Outcome& o) { get = o; }, "apple");
  RunFor(*c, 50 * sim::kMs);
  ASSERT_TRUE(get.ok);
  EXPECT_TRUE(get.found);
  EXPECT_EQ(get.value, "red");
  auto chain = c->ring().Chain(Key::Hash("apple"), 3).value();
  EXPECT_EQ(get.served_by, static_cast<Endpoint>(chain.back().node));  // the tail answers gets
  EXPECT_EQ(put.served_by, static_cast<Endpoint>(chain.back().node));  // and acknowledges puts
  // Every replica holds it.
  for (const Vid& v : chain) EXPECT_GE(c->backend(v.node)->records(), 1u);
}

TEST(Cluster, DeleteTravelsTheChainAndMultiGetBatchesPerBackend) {
  auto c = Cluster::Create(Small(6, 2, 3)).value();
  for (int i = 0; i < 20; ++i) c->Put(Key::Hash("m" + std::to_string(i)), "v" + std::to_string(i), nullptr, "m" + std::to_string(i));
  RunFor(*c, 200 * sim::kMs);
  Outcome del, again, get;
  c->Delete(Key::Hash("m3"), [&](const Outcome& o) { del = o; }, "m3");
  RunFor(*c, 50 * sim::kMs);
  ASSERT_TRUE(del.ok);
  EXPECT_TRUE(del.found);  // the tail held it
  auto chain = c->ring().Chain(Key::Hash("m3"), 3).value();
  EXPECT_EQ(del.served_by, static_cast<Endpoint>(chain.back().node));
  c->Delete(Key::Hash("m3"), [&](const Outcome& o) { again = o; }, "m3");
  c->Get(Key::Hash("m3"), [&](const Outcome& o) { get = o; }, "m3");
  RunFor(*c, 50 * sim::kMs);
  ASSERT_TRUE(again.ok);
  EXPECT_FALSE(again.found);
  ASSERT_TRUE(get.ok);
  EXPECT_FALSE(get.found);
  uint64_t deletes = 0;
  for (const Vid& v : chain) deletes += c->backend(v.node)->node().store(static_cast<size_t>(c->backend(v.node)->node().StoreOf(Key::Hash("m3")))).stats().deletes;
  EXPECT_EQ(deletes, 3u);  // once at each replica (the second delete found nothing to delete)

  std::vector<Key> keys;
  std::vector<std::string> names;
  for (int i = 0; i < 20; ++i) {
    keys.push_back(Key::Hash("m" + std::to_string(i)));
    names.push_back("m" + std::to_string(i));
  }
  keys.push_back(Key::Hash("never"));
  names.push_back("never");
  uint64_t before = 0;
  for (NodeId n = 0; n < 6; ++n) before += c->backend(n)->stats().multigets;
  Outcome mg;
  c->MultiGet(keys, [&](const Outcome& o) { mg = o; }, names);
  RunFor(*c, 100 * sim::kMs);
  ASSERT_TRUE(mg.ok);
  ASSERT_EQ(mg.answers.size(), keys.size());
  for (int i = 0; i < 20; ++i) {
    EXPECT_TRUE(mg.answers[static_cast<size_t>(i)].ok);
    EXPECT_EQ(mg.answers[static_cast<size_t>(i)].found, i != 3) << i;
    if (i != 3) {
      EXPECT_EQ(mg.answers[static_cast<size_t>(i)].value, "v" + std::to_string(i));
    }
  }
  EXPECT_FALSE(mg.answers.back().found);
  uint64_t after = 0, keys_seen = 0;
  for (NodeId n = 0; n < 6; ++n) {
    after += c->backend(n)->stats().multigets;
    keys_seen += c->backend(n)->stats().multiget_keys;
  }
  EXPECT_LE(after - before, 6u);  // one message per reading back-end, not one per key
  EXPECT_EQ(keys_seen, keys.size());
  auto rep = CheckLinearizable(c->history());
  EXPECT_EQ(rep.violations, 0u) << (rep.details.empty() ? "" : rep.details[0]);
}

TEST(Cluster, FailedNodeIsReplacedAndKeysStayReadable) {
  auto c = Cluster::Create(Small(6, 2, 3)).value();
  for (int i = 0; i < 50; ++i) c->Put(Key::Hash("k" + std::to_string(i)), "v" + std::to_string(i), nullptr, "k" + std::to_string(i));
  RunFor(*c, 200 * sim::kMs);
  ASSERT_TRUE(c->FailNode(2).ok());
  RunFor(*c, 10 * sim::kSec);
  EXPECT_FALSE(c->changing());
  int found = 0;
  for (int i = 0; i < 50; ++i) {
    c->Get(Key::Hash("k" + std::to_string(i)), [&, i](const Outcome& o) {
      if (o.ok && o.found && o.value == "v" + std::to_string(i)) ++found;
    }, "k" + std::to_string(i));
  }
  RunFor(*c, 2 * sim::kSec);
  EXPECT_EQ(found, 50);
  auto rep = CheckLinearizable(c->history());
  EXPECT_EQ(rep.violations, 0u) << (rep.details.empty() ? "" : rep.details[0]);
}

TEST(Cluster, JoinCopiesRangesAndServes) {
  auto c = Cluster::Create(Small(5, 1, 3)).value();
  for (int i = 0; i < 100; ++i) c->Put(Key::Hash("k" + std::to_string(i)), "v" + std::to_string(i), nullptr, "k" + std::to_string(i));
  RunFor(*c, 500 * sim::kMs);
  auto id = c->AddNode();
  ASSERT_TRUE(id.ok());
  // Puts continue during the join.
  for (int i = 0; i < 100; ++i) {
    c->sim().Schedule(c->sim().now() + i * sim::kMs, [&c, i]() {
      c->Put(Key::Hash("k" + std::to_string(i)), "w" + std::to_string(i), nullptr, "k" + std::to_string(i));
    });
  }
  RunFor(*c, 10 * sim::kSec);
  EXPECT_FALSE(c->changing());
  int found = 0;
  for (int i = 0; i < 100; ++i) {
    c->Get(Key::Hash("k" + std::to_string(i)), [&, i](const Outcome& o) {
      if (o.ok && o.found && o.value == "w" + std::to_string(i)) {
        ++found;
      } else {
        ADD_FAILURE() << "k" << i << ": ok " << o.ok << " found " << o.found << " value " << o.value << " by " << o.served_by;
      }
    }, "k" + std::to_string(i));
  }
  RunFor(*c, 2 * sim::kSec);
  EXPECT_EQ(found, 100);
  for (const auto& op : c->history().ops()) {
    if (op.kind == HistoryOp::Kind::kPut && !op.ok) ADD_FAILURE() << "put " << op.key << "=" << op.value << " failed, invoked " << op.invoke_ns;
  }
  EXPECT_GT(c->backend(id.value())->records(), 0u);
  auto rep = CheckLinearizable(c->history());
  EXPECT_EQ(rep.violations, 0u) << (rep.details.empty() ? "" : rep.details[0]);
}

}  // namespace
}  // namespace fawnlab::fawnkv
