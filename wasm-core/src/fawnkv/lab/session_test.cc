#include "fawnkv/lab/session.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/json_reader.h"

namespace fawnlab::fawnkvlab {
namespace {

JsonValue Snap(FawnkvSession& s) {
  auto v = ParseJson(s.SnapshotJson());
  EXPECT_TRUE(v.ok()) << v.status().message();
  return v.ok() ? v.value() : JsonValue();
}

JsonValue Ok(FawnkvSession& s, const std::string& op) {
  auto r = s.Apply(op);
  EXPECT_TRUE(r.ok()) << op << ": " << r.status().message();
  if (!r.ok()) return JsonValue::MakeObject({});
  return ParseJson(r.value()).value();
}

std::string Err(FawnkvSession& s, const std::string& op) {
  auto r = s.Apply(op);
  EXPECT_FALSE(r.ok()) << op << " should be refused";
  return r.ok() ? "" : r.status().message();
}

std::unique_ptr<FawnkvSession> Make(const std::string& config, uint64_t seed = 1) {
  auto s = FawnkvSession::Create(config, seed);
  EXPECT_TRUE(s.ok()) << config << ": " << s.status().message();
  return s.ok() ? std::move(s).value() : nullptr;
}

// The snapshot's entry for back-end `id`.
const JsonValue* NodeOf(const JsonValue& snap, int id) {
  for (const JsonValue& n : snap.Find("nodes")->array_items()) {
    if (n.Find("id")->number_value() == id) return &n;
  }
  return nullptr;
}

std::string StateOf(FawnkvSession& s, int id) {
  const JsonValue snap = Snap(s);
  const JsonValue* n = NodeOf(snap, id);
  return n ? n->Find("state")->string_value() : "(absent)";
}

std::vector<std::string> Strings(const JsonValue& v) {
  std::vector<std::string> out;
  for (const JsonValue& x : v.array_items()) out.push_back(x.string_value());
  return out;
}

bool InRing(FawnkvSession& s, fawnkv::NodeId id) {
  for (fawnkv::NodeId n : s.cluster().ring().nodes()) {
    if (n == id) return true;
  }
  return false;
}

TEST(FawnkvSessionTest, DefaultsBuildAPreloadedRingAndASnapshotWithEveryField) {
  auto s = Make("{}");
  ASSERT_TRUE(s);
  const JsonValue snap = Snap(*s);
  for (const char* f : {"now_ns", "ring_version", "replication", "nodes", "front_ends", "messages", "joins", "events", "qps", "watts",
                        "qpj", "puts", "gets", "timeouts", "timeline"}) {
    EXPECT_NE(snap.Find(f), nullptr) << f;
  }
  EXPECT_EQ(snap.Find("check"), nullptr) << "no check has run";
  EXPECT_EQ(snap.Find("replication")->number_value(), 3);
  ASSERT_EQ(snap.Find("nodes")->array_items().size(), 6u);
  double records = 0;
  for (const JsonValue& n : snap.Find("nodes")->array_items()) {
    EXPECT_EQ(n.Find("state")->string_value(), "up");
    for (const char* f : {"stores", "records", "log_bytes", "qps", "p50_ms", "p99_ms", "client_queue", "chain_queue", "watts", "qpj"}) {
      EXPECT_NE(n.Find(f), nullptr) << f;
    }
    records += n.Find("records")->number_value();
  }
  EXPECT_EQ(records, 200 * 3) << "200 preloaded keys, 3 replicas each";
  ASSERT_EQ(snap.Find("front_ends")->array_items().size(), 1u);
  EXPECT_EQ(snap.Find("front_ends")->array_items()[0].Find("end")->number_value(), 0) << "start = end: the whole ring";

  auto four = Make(R"({"front_ends": 4, "preload": 0})");
  const JsonValue wedges = Snap(*four);
  for (int f = 0; f < 4; ++f) {
    const JsonValue& fe = wedges.Find("front_ends")->array_items()[static_cast<size_t>(f)];
    EXPECT_EQ(fe.Find("start")->number_value(), f / 4.0);
    EXPECT_EQ(fe.Find("end")->number_value(), (f + 1) % 4 / 4.0);
  }

  const VidColumns v = s->Vids();
  ASSERT_EQ(v.node.size(), 12u) << "6 nodes × 2 VIDs";
  EXPECT_EQ(v.version, snap.Find("ring_version")->number_value());
  for (size_t i = 0; i < v.pos.size(); ++i) {
    EXPECT_GE(v.pos[i], 0);
    EXPECT_LT(v.pos[i], 1);
    if (i > 0) {
      EXPECT_LT(v.pos[i - 1], v.pos[i]) << "ring order";
    }
    EXPECT_EQ(v.node[i], s->cluster().ring().vids()[i].node);
  }

  // Time passes: the cluster draws power, heartbeats go by.
  s->Advance(2 * sim::kSec, 10'000'000);
  const JsonValue later = Snap(*s);
  EXPECT_GT(later.Find("watts")->number_value(), 6 * 3) << "at least six idle back-ends";
  EXPECT_GT(later.Find("timeline")->array_items().size(), 15u);
  EXPECT_GT(NodeOf(later, 0)->Find("watts")->number_value(), 2.9);
}

TEST(FawnkvSessionTest, PutThenGetFollowsTheChainHeadFirst) {
  auto s = Make("{}");
  ASSERT_TRUE(s);
  const JsonValue put = Ok(*s, R"({"op": "put", "key": "apple", "value": "red"})");
  EXPECT_TRUE(put.Find("found")->bool_value()) << "acknowledged";
  EXPECT_FALSE(put.Find("timed_out")->bool_value());
  EXPECT_EQ(put.Find("result")->string_value(), "ok");
  EXPECT_GT(put.Find("latency_ns")->number_value(), 0);
  std::vector<std::string> want;
  const std::vector<fawnkv::Vid> chain = s->cluster().ring().Chain(fawnkv::Key::Hash("apple"), 3).value();
  for (const fawnkv::Vid& v : chain) want.push_back(v.Name());
  ASSERT_EQ(want.size(), 3u);
  EXPECT_EQ(Strings(*put.Find("chain")), want);

  const JsonValue get = Ok(*s, R"({"op": "get", "key": "apple"})");
  EXPECT_TRUE(get.Find("found")->bool_value());
  EXPECT_EQ(get.Find("value")->string_value(), "red");
  EXPECT_FALSE(get.Find("cache_hit")->bool_value());
  EXPECT_EQ(Strings(*get.Find("chain")), want);
  EXPECT_EQ(std::to_string(static_cast<int>(get.Find("served_by")->number_value())), want.back().substr(0, want.back().find('/')))
      << "the tail answers gets";

  const JsonValue miss = Ok(*s, R"({"op": "get", "key": "never-written"})");
  EXPECT_FALSE(miss.Find("found")->bool_value());
  EXPECT_FALSE(miss.Find("timed_out")->bool_value());
  const JsonValue snap = Snap(*s);
  EXPECT_EQ(snap.Find("puts")->number_value(), 1);
  EXPECT_EQ(snap.Find("gets")->number_value(), 2);
}

TEST(FawnkvSessionTest, FailedNodeIsDetectedRemovedFromTheRingAndItsKeysStayReadable) {
  auto s = Make(R"({"value_bytes": 8})");
  ASSERT_TRUE(s);
  const uint64_t version = s->version();
  const JsonValue r = Ok(*s, R"({"op": "fail-node", "id": 2})");
  EXPECT_EQ(r.Find("id")->number_value(), 2);
  EXPECT_FALSE(r.Find("queued")->bool_value());
  EXPECT_EQ(StateOf(*s, 2), "failed");
  EXPECT_TRUE(InRing(*s, 2)) << "nobody has noticed yet";
  EXPECT_FALSE(s->Busy()) << "no change runs until the failure is noticed";
  bool repaired_while_busy = false;
  for (int i = 0; i < 2000 && !repaired_while_busy; ++i) {
    s->Advance(5 * sim::kMs, 50'000'000);
    repaired_while_busy = s->Busy() && !InRing(*s, 2);
  }
  EXPECT_TRUE(repaired_while_busy) << "the repair is a change the page can slow down for";
  s->Advance(3 * 500 * sim::kMs + 3 * sim::kSec, 50'000'000);
  EXPECT_EQ(StateOf(*s, 2), "failed");
  EXPECT_FALSE(InRing(*s, 2));
  EXPECT_FALSE(s->cluster().changing());
  EXPECT_NE(s->version(), version) << "the ring changed";
  EXPECT_EQ(s->Vids().node.size(), 10u);
  // Every preloaded key survives on the remaining replicas (k5 was preloaded as v6).
  for (int i = 0; i < 20; ++i) {
    const JsonValue g = Ok(*s, R"({"op": "get", "key": "k)" + std::to_string(i) + R"("})");
    EXPECT_TRUE(g.Find("found")->bool_value()) << "k" << i;
    if (g.Find("value")) {
      EXPECT_EQ(g.Find("value")->string_value().substr(0, 4), ("v" + std::to_string(i + 1) + "......").substr(0, 4));
    }
    for (const std::string& v : Strings(*g.Find("chain"))) EXPECT_NE(v.substr(0, 2), "2/") << "k" << i;
  }
  bool noticed = false;
  const JsonValue snap = Snap(*s);
  for (const JsonValue& e : snap.Find("events")->array_items()) {
    noticed |= e.Find("text")->string_value().find("node 2 failed") != std::string::npos;
  }
  EXPECT_TRUE(noticed);
  EXPECT_NE(Err(*s, R"({"op": "fail-node", "id": 2})").find("failed"), std::string::npos);
}

TEST(FawnkvSessionTest, AddedNodeJoinsThenServesWithRecords) {
  auto s = Make("{}");
  ASSERT_TRUE(s);
  const JsonValue r = Ok(*s, R"({"op": "add-node"})");
  EXPECT_EQ(r.Find("id")->number_value(), 6);
  EXPECT_FALSE(r.Find("queued")->bool_value());
  EXPECT_EQ(StateOf(*s, 6), "joining");
  const JsonValue snap = Snap(*s);
  ASSERT_FALSE(snap.Find("joins")->array_items().empty());
  for (const JsonValue& j : snap.Find("joins")->array_items()) {
    EXPECT_EQ(j.Find("node")->number_value(), 6);
    EXPECT_EQ(j.Find("vid")->string_value().substr(0, 2), "6/");
    EXPECT_EQ(j.Find("phase")->string_value(), "precopy");
    EXPECT_GE(j.Find("donor")->number_value(), 0);
  }
  // A second change waits its turn.
  EXPECT_TRUE(Ok(*s, R"({"op": "add-node", "id": 9})").Find("queued")->bool_value());
  EXPECT_EQ(StateOf(*s, 9), "joining");
  s->Advance(4 * sim::kSec, 50'000'000);
  EXPECT_FALSE(s->cluster().changing());
  for (int id : {6, 9}) {
    EXPECT_EQ(StateOf(*s, id), "up") << id;
    EXPECT_GT(NodeOf(Snap(*s), id)->Find("records")->number_value(), 0) << id;
  }
  EXPECT_EQ(s->Vids().node.size(), 16u);
  EXPECT_EQ(Ok(*s, R"({"op": "get", "key": "k7"})").Find("found")->bool_value(), true);
}

TEST(FawnkvSessionTest, LeaveHandsTheRangesOnAndTheNodeIsGone) {
  auto s = Make(R"({"nodes": 5})");
  ASSERT_TRUE(s);
  EXPECT_FALSE(Ok(*s, R"({"op": "remove-node", "id": 1})").Find("queued")->bool_value());
  EXPECT_EQ(StateOf(*s, 1), "leaving");
  EXPECT_NE(Err(*s, R"({"op": "remove-node", "id": 1})").find("leaving"), std::string::npos);
  s->Advance(4 * sim::kSec, 50'000'000);
  EXPECT_EQ(StateOf(*s, 1), "gone");
  EXPECT_FALSE(InRing(*s, 1));
  EXPECT_TRUE(Ok(*s, R"({"op": "get", "key": "k3"})").Find("found")->bool_value());
  // Four members stay; with R = 3 one more may leave, then none.
  Ok(*s, R"({"op": "remove-node", "id": 2})");
  EXPECT_NE(Err(*s, R"({"op": "remove-node", "id": 3})").find("R = 3"), std::string::npos);
}

TEST(FawnkvSessionTest, AFailureDuringAChangeIsRepairedAndTheChangeFinishes) {
  auto s = Make(R"({"preload": 2000, "load_rate_per_s": 200, "load_put_fraction": 0.3, "heartbeat_ms": 200})");
  ASSERT_TRUE(s);
  // A donor fails while the join copies from it: the join goes on from the others.
  Ok(*s, R"({"op": "add-node"})");
  Ok(*s, R"({"op": "fail-node", "id": 0})");
  // Before front-end 0 notices, another change may be asked for: it queues and finishes.
  EXPECT_TRUE(Ok(*s, R"({"op": "remove-node", "id": 1})").Find("queued")->bool_value());
  // The joiner itself fails while it joins: its join is abandoned.
  Ok(*s, R"({"op": "add-node", "id": 7})");
  s->Advance(10 * sim::kMs, 50'000'000);
  Ok(*s, R"({"op": "fail-node", "id": 7})");
  s->Advance(6 * sim::kSec, 50'000'000);
  EXPECT_FALSE(s->cluster().changing()) << "no change left waiting on a dead node";
  EXPECT_EQ(StateOf(*s, 6), "up");
  EXPECT_EQ(StateOf(*s, 0), "failed");
  EXPECT_EQ(StateOf(*s, 1), "gone");
  EXPECT_EQ(StateOf(*s, 7), "failed");
  EXPECT_FALSE(InRing(*s, 0));
  EXPECT_FALSE(InRing(*s, 7));
  for (fawnkv::RouteEntry* e : s->cluster().routes().All()) {
    EXPECT_EQ(e->spec->chain.size(), 3u);
    for (fawnkv::Endpoint m : e->spec->chain) EXPECT_TRUE(m != 0 && m != 1 && m != 7) << "node " << m << " still in a chain";
  }
  const JsonValue r = Ok(*s, R"({"op": "check"})");
  const JsonValue* c = r.Find("check");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->Find("violations")->number_value(), 0);
  EXPECT_GT(c->Find("operations")->number_value(), 1000);
}

TEST(FawnkvSessionTest, CheckAfterLoadWithAFailureAJoinAndALeaveFindsNoViolation) {
  auto s = Make(R"({"load_rate_per_s": 400, "load_put_fraction": 0.3, "load_keys": 50, "heartbeat_ms": 200, "value_bytes": 32})", 7);
  ASSERT_TRUE(s);
  s->Advance(1 * sim::kSec, 50'000'000);
  Ok(*s, R"({"op": "fail-node", "id": 1})");
  s->Advance(2 * sim::kSec, 50'000'000);
  Ok(*s, R"({"op": "add-node"})");
  Ok(*s, R"({"op": "remove-node", "id": 0})");
  s->Advance(3 * sim::kSec, 50'000'000);
  EXPECT_FALSE(s->cluster().changing());
  const JsonValue r = Ok(*s, R"({"op": "check"})");
  const JsonValue* c = r.Find("check");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->Find("violations")->number_value(), 0) << (c->Find("details")->array_items().empty() ? "" : c->Find("details")->array_items()[0].string_value());
  EXPECT_GT(c->Find("operations")->number_value(), 1500);
  EXPECT_EQ(c->Find("keys")->number_value(), 200) << "the preloaded keys (the load's are among them)";
  const JsonValue snap = Snap(*s);
  EXPECT_EQ(snap.Find("check")->Find("violations")->number_value(), 0);
  EXPECT_GT(snap.Find("qps")->number_value(), 300);
  EXPECT_GT(snap.Find("puts")->number_value(), 500);
  EXPECT_GT(snap.Find("qpj")->number_value(), 0);
  EXPECT_EQ(snap.Find("shed")->number_value(), 0);
}

TEST(FawnkvSessionTest, ScriptFillZipfAndTheCacheRunFromTheConfig) {
  auto s = Make(R"({"preload": 0, "cache_entries": 100, "load_rate_per_s": 300, "load_keys": 500, "zipf_s": 1.2, "load_put_fraction": 0,
                    "script": [{"op": "fill", "count": 500}, {"op": "put", "key": "x", "value": "1"}]})");
  ASSERT_TRUE(s);
  const JsonValue before = Snap(*s);
  EXPECT_EQ(before.Find("puts")->number_value(), 501);
  s->Advance(2 * sim::kSec, 50'000'000);
  const JsonValue snap = Snap(*s);
  const JsonValue& fe = snap.Find("front_ends")->array_items()[0];
  EXPECT_GT(fe.Find("cache_hits")->number_value(), fe.Find("cache_misses")->number_value()) << "popular keys hit the cache";
  EXPECT_GT(fe.Find("cache_entries")->number_value(), 0);
  EXPECT_TRUE(Ok(*s, R"({"op": "get", "key": "k499"})").Find("found")->bool_value());
  // Turning the cache off empties it.
  ASSERT_TRUE(s->Reconfigure(R"({"cache_entries": 0, "load_rate_per_s": 0})").ok());
  EXPECT_EQ(Snap(*s).Find("front_ends")->array_items()[0].Find("cache_entries")->number_value(), 0);
}

TEST(FawnkvSessionTest, BadConfigsAndPatchesNameTheField) {
  auto refused = [](const std::string& config) {
    auto s = FawnkvSession::Create(config, 1);
    EXPECT_FALSE(s.ok()) << config;
    return s.ok() ? std::string() : s.status().message();
  };
  EXPECT_NE(refused(R"({"nodes": 0})").find("'nodes'"), std::string::npos);
  EXPECT_NE(refused(R"({"nodes": 0})").find("[1, 64]"), std::string::npos);
  EXPECT_NE(refused(R"({"nodes": 3, "replication": 4})").find("'replication'"), std::string::npos);
  EXPECT_NE(refused(R"({"colour": "red"})").find("'colour'"), std::string::npos);
  EXPECT_NE(refused(R"({"placement": "random"})").find("'placement'"), std::string::npos);
  EXPECT_NE(refused(R"({"zipf_s": 2.5})").find("'zipf_s'"), std::string::npos);
  EXPECT_NE(refused(R"({"nodes": 64, "vids": 64})").find("'vids'"), std::string::npos);
  EXPECT_NE(refused(R"({"nodes": 1, "replication": 1, "vids": 4096})").find("'vids'"), std::string::npos);
  EXPECT_NE(refused(R"({"nodes": 3, "vids": 200})").find("'replication' × 'vids'"), std::string::npos);
  EXPECT_NE(refused(R"({"script": [{"op": "get"}]})").find("script operation 0"), std::string::npos);
  EXPECT_NE(refused("[1]").find("JSON object"), std::string::npos);

  auto s = Make("{}");
  ASSERT_TRUE(s);
  EXPECT_NE(s->Reconfigure(R"({"nodes": 3})").message().find("'nodes' cannot change"), std::string::npos);
  EXPECT_NE(s->Reconfigure(R"({"load_put_fraction": 2})").message().find("'load_put_fraction'"), std::string::npos);
  EXPECT_TRUE(s->Reconfigure(R"({"value_bytes": 64, "zipf_s": 0.5, "load_keys": 10})").ok());
}

TEST(FawnkvSessionTest, BadOperationsNameTheProblem) {
  auto s = Make(R"({"nodes": 4})");
  ASSERT_TRUE(s);
  EXPECT_NE(Err(*s, R"({"op": "explode"})").find("unknown operation 'explode'"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "get"})").find("\"key\""), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "put", "key": ""})").find("key must be"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "get", "key": "a", "value": "b"})").find("unknown field 'value'"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "fail-node", "id": 99})").find("'id' = 99"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "fail-node"})").find("'id' is required"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "remove-node", "id": -1})").find("'id'"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "add-node", "id": 2})").find("already exists"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "fill", "count": 0})").find("'count'"), std::string::npos);
  EXPECT_NE(Err(*s, "not json").find("operation"), std::string::npos);
  auto three = Make(R"({"nodes": 3})");
  EXPECT_NE(Err(*three, R"({"op": "remove-node", "id": 0})").find("R = 3"), std::string::npos) << "3 nodes, R = 3: none may leave";
}

TEST(FawnkvSessionTest, SameConfigSeedAndCallsGiveTheSameSnapshots) {
  const std::string config = R"({"load_rate_per_s": 800, "load_put_fraction": 0.5, "zipf_s": 0.9, "heartbeat_ms": 100})";
  auto a = Make(config, 42), b = Make(config, 42), c = Make(config, 43);
  ASSERT_TRUE(a && b && c);
  std::vector<std::string> checks;
  for (auto* s : {a.get(), b.get(), c.get()}) {
    s->Advance(300 * sim::kMs, 10'000'000);
    Ok(*s, R"({"op": "fail-node", "id": 3})");
    s->Advance(500 * sim::kMs, 10'000'000);
    Ok(*s, R"({"op": "add-node"})");
    for (int i = 0; i < 40; ++i) s->Advance(16 * sim::kMs, 1'000'000);
    checks.push_back(s->Apply(R"({"op": "check"})").value());
  }
  EXPECT_EQ(a->SnapshotJson(), b->SnapshotJson());
  EXPECT_EQ(a->Vids().pos, b->Vids().pos);
  EXPECT_EQ(checks[0], checks[1]);
  // Another seed draws another load: the same calls give another run (the ring, placed by
  // the node ids alone, is the same).
  const JsonValue sa = Snap(*a), sc = Snap(*c);
  EXPECT_NE(a->SnapshotJson(), c->SnapshotJson());
  EXPECT_NE(sa.Find("puts")->number_value(), sc.Find("puts")->number_value()) << "the load's draws differ";
  EXPECT_EQ(a->Vids().pos, c->Vids().pos);
}

TEST(FawnkvSessionTest, TheChainsColumnIsTheRingsOwnChainRule) {
  for (const char* config : {R"({"nodes": 6, "vids": 2, "replication": 3})", R"({"nodes": 4, "vids": 8, "replication": 2, "placement": "even"})",
                             R"({"nodes": 2, "vids": 3, "replication": 1})"}) {
    SCOPED_TRACE(config);
    auto s = Make(config);
    ASSERT_TRUE(s);
    Ok(*s, R"({"op": "fail-node", "id": 1})");  // the ring changes under the chains as time goes on
    for (int step = 0; step < 2; ++step) {
      const VidColumns v = s->Vids();
      const fawnkv::Ring& ring = s->cluster().ring();
      ASSERT_EQ(v.node.size(), ring.vids().size());
      const int r = std::min(ring.replication(), ring.distinct_nodes());
      ASSERT_EQ(v.chain_length, r);
      ASSERT_EQ(v.chains.size(), v.node.size() * static_cast<size_t>(r));
      for (size_t i = 0; i < v.node.size(); ++i) {
        const std::vector<fawnkv::Vid> chain = ring.Chain(ring.vids()[i].id, r).value();
        ASSERT_EQ(chain.size(), static_cast<size_t>(r));
        EXPECT_EQ(chain[0], ring.vids()[i]) << "VID " << i << " heads its own range's chain";
        for (int j = 0; j < r; ++j) {
          const uint32_t k = v.chains[i * static_cast<size_t>(r) + static_cast<size_t>(j)];
          ASSERT_LT(k, v.node.size());
          EXPECT_EQ(v.node[k], chain[static_cast<size_t>(j)].node);
          EXPECT_EQ(v.index[k], chain[static_cast<size_t>(j)].index);
        }
      }
      s->Advance(3 * sim::kSec, 50'000'000);  // the failure noticed, the ring repaired
    }
  }
}

}  // namespace
}  // namespace fawnlab::fawnkvlab
