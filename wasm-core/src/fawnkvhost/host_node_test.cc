// Real-cluster host nodes in one process: a front-end and back-ends on FileDevices in a temp
// directory, their frames shuttled by hand (every one through the codec) on a fake clock.
#include "fawnkvhost/host_node.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "fawnkv/checker.h"
#include "fawnkv/codec.h"

namespace fawnlab::fawnkvhost {
namespace {

using fawnkv::Endpoint;
using fawnkv::HistoryOp;

constexpr int64_t kMs = 1000000;

std::string BackConfig(int id, const std::string& dir) {
  return "{\"role\":\"backend\",\"id\":" + std::to_string(id) + ",\"dataDir\":\"" + dir + "/node-" + std::to_string(id) +
         "\",\"replicas\":3,\"vids\":2,\"fileBytes\":1048576,\"indexBits\":10,\"checkpointMs\":200}";
}

class Rig {
 public:
  explicit Rig(int backends) {
    char tmpl[] = "/tmp/fawnkvhost_test_XXXXXX";
    dir_ = mkdtemp(tmpl);
    auto f = HostNode::Create("{\"role\":\"frontend\",\"replicas\":3,\"vids\":2,\"heartbeatMs\":100,\"missed\":3,\"timeoutMs\":1000}");
    EXPECT_TRUE(f.ok()) << f.status().message();
    front_ = std::move(f).value();
    nodes_[front_->endpoint()] = front_.get();
    for (int i = 0; i < backends; ++i) StartBackend(i);
  }
  ~Rig() { std::filesystem::remove_all(dir_); }

  HostNode& front() { return *front_; }
  HostNode& back(int id) { return *backs_.at(id); }
  int64_t now() const { return now_; }
  fawnkv::History& history() { return history_; }

  // A back-end process starting (again) on its data directory.
  void StartBackend(int id) {
    backs_.erase(id);
    auto b = HostNode::Create(BackConfig(id, dir_));
    ASSERT_TRUE(b.ok()) << b.status().message();
    backs_[id] = std::move(b).value();
    backs_[id]->Advance(now_);
    nodes_[id] = backs_[id].get();
    cut_.erase(id);
  }
  // The back-end's process dies: its frames stop, in both directions.
  void Kill(int id) {
    cut_.insert(id);
    nodes_.erase(id);
    backs_.erase(id);
  }

  void Shuttle() {
    for (int round = 0; round < 10000; ++round) {
      bool any = false;
      for (auto& [from, node] : std::map<Endpoint, HostNode*>(nodes_)) {
        for (Frame& f : node->TakeOutbox()) {
          any = true;
          auto to = nodes_.find(f.to);
          if (cut_.count(from) || cut_.count(f.to) || to == nodes_.end()) continue;
          Status s = to->second->Deliver(from, f.bytes);
          EXPECT_TRUE(s.ok()) << s.message();
        }
      }
      if (!any) break;
    }
    Collect();
  }
  void RunFor(int64_t ns) {
    const int64_t end = now_ + ns;
    while (now_ < end) {
      now_ += kMs;
      for (auto& [e, node] : nodes_) node->Advance(now_);
      Shuttle();
    }
  }
  // Runs until every node the front-end knows is up and no change runs (or `limit` passes).
  bool Settle(int64_t limit = 20000 * kMs) {
    const int64_t end = now_ + limit;
    while (now_ < end) {
      RunFor(10 * kMs);
      const std::string s = front_->StatusJson();
      if (s.find("\"busy\": false") != std::string::npos && s.find("joining") == std::string::npos &&
          s.find("leaving") == std::string::npos) {
        return true;
      }
    }
    return false;
  }

  // Client operations, recorded for the checker.
  void Put(const std::string& k, const std::string& v) { Track(front_->Put(k, v).value(), HistoryOp::Kind::kPut, k, v); }
  void Get(const std::string& k) { Track(front_->Get(k).value(), HistoryOp::Kind::kGet, k, ""); }
  void Del(const std::string& k) { Track(front_->Del(k).value(), HistoryOp::Kind::kDelete, k, ""); }
  uint64_t MultiGet(const std::vector<std::string>& keys) {
    const uint64_t req = front_->MultiGet(keys).value();
    for (const std::string& k : keys) multi_[req].push_back(history_.Invoke(HistoryOp::Kind::kGet, k, "", now_));
    return req;
  }
  std::map<uint64_t, DoneOp>& done() { return done_; }

 private:
  void Track(uint64_t req, HistoryOp::Kind kind, const std::string& k, const std::string& v) {
    ops_[req] = history_.Invoke(kind, k, v, now_);
  }
  void Collect() {
    for (DoneOp& d : front_->TakeDone()) {
      auto it = ops_.find(d.req);
      if (it != ops_.end()) history_.Complete(it->second, d.ok, d.found, d.value, d.ok ? now_ : -1);
      auto m = multi_.find(d.req);
      if (m != multi_.end()) {
        for (size_t i = 0; i < m->second.size(); ++i) {
          const bool ok = d.ok && i < d.values.size() && d.values[i].ok;
          history_.Complete(m->second[i], ok, ok && d.values[i].found, ok ? d.values[i].value : "", ok ? now_ : -1);
        }
      }
      done_[d.req] = std::move(d);
    }
  }

  std::string dir_;
  std::unique_ptr<HostNode> front_;
  std::map<int, std::unique_ptr<HostNode>> backs_;
  std::map<Endpoint, HostNode*> nodes_;
  std::set<Endpoint> cut_;
  int64_t now_ = 0;
  fawnkv::History history_;
  std::map<uint64_t, size_t> ops_;
  std::map<uint64_t, std::vector<size_t>> multi_;
  std::map<uint64_t, DoneOp> done_;
};

// A top-level counter of a status document.
uint64_t Counter(const std::string& json, const std::string& name) {
  const std::string at = "\n  \"" + name + "\": ";
  const size_t i = json.find(at);
  EXPECT_NE(i, std::string::npos) << name << " in " << json;
  return i == std::string::npos ? 0 : std::strtoull(json.c_str() + i + at.size(), nullptr, 10);
}

void ExpectLinearizable(Rig& rig) {
  fawnkv::CheckReport r = fawnkv::CheckLinearizable(rig.history());
  EXPECT_EQ(r.violations, 0u) << (r.details.empty() ? "" : r.details[0]);
  EXPECT_EQ(r.undetermined_keys, 0u);
  EXPECT_GT(r.operations, 0u);
}

// Puts keys k0..k<n-1> with values "<tag><i>" and runs until they are answered.
void PutAll(Rig& rig, int n, const std::string& tag) {
  for (int i = 0; i < n; ++i) rig.Put("k" + std::to_string(i), tag + std::to_string(i));
  rig.RunFor(200 * kMs);
}

// Gets every key and checks it reads `tag<i>` (or is absent when `gone` holds i).
void ExpectAll(Rig& rig, int n, const std::string& tag, const std::set<int>& gone = {}) {
  std::map<int, uint64_t> reqs;
  for (int i = 0; i < n; ++i) reqs[i] = rig.front().Get("k" + std::to_string(i)).value();
  rig.RunFor(200 * kMs);
  for (auto& [i, req] : reqs) {
    ASSERT_TRUE(rig.done().count(req)) << "k" << i << " unanswered";
    const DoneOp& d = rig.done()[req];
    ASSERT_TRUE(d.ok) << "k" << i << ": " << d.error;
    EXPECT_EQ(d.found, !gone.count(i)) << "k" << i;
    if (!gone.count(i)) {
      EXPECT_EQ(d.value, tag + std::to_string(i)) << "k" << i;
    }
  }
}

TEST(KvHostNode, PutsGetsDeletesAndMultigetsAcrossNodes) {
  Rig rig(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 40, "v");
  ExpectAll(rig, 40, "v");
  for (int i = 0; i < 40; i += 5) rig.Del("k" + std::to_string(i));
  rig.RunFor(100 * kMs);
  std::set<int> gone;
  for (int i = 0; i < 40; i += 5) gone.insert(i);
  ExpectAll(rig, 40, "v", gone);
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back("k" + std::to_string(i));
  keys.push_back("never-written");
  const uint64_t mg = rig.MultiGet(keys);
  rig.RunFor(100 * kMs);
  const DoneOp& d = rig.done()[mg];
  ASSERT_TRUE(d.ok) << d.error;
  ASSERT_EQ(d.values.size(), keys.size());
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(d.values[static_cast<size_t>(i)].found, !gone.count(i)) << i;
    if (!gone.count(i)) {
      EXPECT_EQ(d.values[static_cast<size_t>(i)].value, "v" + std::to_string(i));
    }
  }
  EXPECT_FALSE(d.values.back().found);
  // Each back-end holds its share of every chain's records, on its file.
  uint64_t multigets = 0;
  for (int i = 0; i < 4; ++i) {
    const std::string s = rig.back(i).StatusJson();
    EXPECT_GT(Counter(s, "records"), 0u) << s;
    multigets += Counter(s, "multigets");
  }
  EXPECT_GE(multigets, 1u);
  EXPECT_LE(multigets, 4u);  // one message per reading back-end
  ExpectLinearizable(rig);
}

TEST(KvHostNode, AFailedBackendIsDetectedByHeartbeatsAndRepaired) {
  Rig rig(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 30, "a");
  rig.Kill(2);
  // Puts keep coming while the failure is unnoticed (those to chains holding 2 time out).
  for (int i = 0; i < 30; ++i) rig.Put("k" + std::to_string(i), "b" + std::to_string(i));
  rig.RunFor(1500 * kMs);
  const std::string s = rig.front().StatusJson();
  EXPECT_NE(s.find("node 2 failed: 3 heartbeats missed"), std::string::npos) << s;
  ASSERT_TRUE(rig.Settle());
  EXPECT_EQ(rig.front().StatusJson().find("\"chain\": [2"), std::string::npos);
  PutAll(rig, 30, "c");
  ExpectAll(rig, 30, "c");
  ExpectLinearizable(rig);
}

TEST(KvHostNode, ANewBackendJoinsAndServes) {
  Rig rig(3);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 40, "v");
  rig.StartBackend(3);
  ASSERT_TRUE(rig.front().AddBackend(3).ok());
  for (int i = 0; i < 40; ++i) rig.Get("k" + std::to_string(i));  // reads continue during the join
  ASSERT_TRUE(rig.Settle());
  EXPECT_GT(Counter(rig.back(3).StatusJson(), "records"), 0u) << "the joiner got no records";
  EXPECT_NE(rig.front().StatusJson().find("\"state\": \"up\""), std::string::npos);
  ExpectAll(rig, 40, "v");
  ExpectLinearizable(rig);
}

TEST(KvHostNode, ARestartedBackendRecoversItsStoresAndRejoinsWithoutStaleKeys) {
  Rig rig(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 40, "v");
  rig.RunFor(300 * kMs);  // a checkpoint passes
  rig.Kill(1);
  rig.RunFor(1500 * kMs);  // declared failed and replaced
  ASSERT_TRUE(rig.Settle());
  // While 1 is down: delete some keys and overwrite others; 1's file still has the old ones.
  std::set<int> gone = {0, 7, 13, 21, 30};
  for (int i : gone) rig.Del("k" + std::to_string(i));
  for (int i = 0; i < 40; ++i) {
    if (!gone.count(i)) rig.Put("k" + std::to_string(i), "w" + std::to_string(i));
  }
  rig.RunFor(200 * kMs);
  rig.StartBackend(1);
  const std::string rec = rig.back(1).RecoveredJson();
  EXPECT_EQ(rec.find("\"stores\": 0"), std::string::npos) << rec;
  EXPECT_EQ(rec.find("\"records\": 0"), std::string::npos) << rec;
  ASSERT_TRUE(rig.front().AddBackend(1).ok());
  ASSERT_TRUE(rig.Settle());
  EXPECT_NE(rig.front().StatusJson().find("\"id\": 1,\n      \"state\": \"up\""), std::string::npos) << rig.front().StatusJson();
  ExpectAll(rig, 40, "w", gone);
  // Kill two others in turn: every chain is then {1, 3}, node 1 the tail of some: still no stale key.
  for (int victim : {0, 2}) {
    rig.Kill(victim);
    rig.RunFor(1500 * kMs);
    ASSERT_TRUE(rig.Settle());
  }
  ExpectAll(rig, 40, "w", gone);
  EXPECT_GT(Counter(rig.back(1).StatusJson(), "gets"), 0u);
  ExpectLinearizable(rig);
}

// The case the fresh copy on rejoin exists for: keys deleted while node 1 was down, and every
// node that saw the deletes gone by the time it rejoins, so its donor's log holds no delete
// records for them. Node 1 ends up alone: every answer comes from it.
TEST(KvHostNode, ARejoiningBackendDropsWhatItRecoveredEvenWhenNoDonorRemembersTheDeletes) {
  Rig rig(3);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 30, "v");
  rig.Kill(1);
  rig.RunFor(1500 * kMs);
  ASSERT_TRUE(rig.Settle());
  const std::set<int> gone = {1, 4, 9, 16, 25};
  for (int i : gone) rig.Del("k" + std::to_string(i));
  rig.RunFor(200 * kMs);
  rig.StartBackend(3);  // copies from 0 or 2: it never holds the deleted keys, nor their deletes
  ASSERT_TRUE(rig.front().AddBackend(3).ok());
  ASSERT_TRUE(rig.Settle());
  for (int victim : {0, 2}) {
    rig.Kill(victim);
    rig.RunFor(1500 * kMs);
    ASSERT_TRUE(rig.Settle());
  }
  rig.StartBackend(1);
  EXPECT_GT(Counter(rig.back(1).RecoveredJson(), "records"), 0u);
  ASSERT_TRUE(rig.front().AddBackend(1).ok());
  ASSERT_TRUE(rig.Settle());
  rig.Kill(3);
  rig.RunFor(1500 * kMs);
  ASSERT_TRUE(rig.Settle());
  ExpectAll(rig, 30, "v", gone);
  ExpectLinearizable(rig);
}

TEST(KvHostNode, BadConfigsAndFramesAreRefusedClearly) {
  auto expect_error = [](const std::string& json, const std::string& needle) {
    auto n = HostNode::Create(json);
    ASSERT_FALSE(n.ok()) << json;
    EXPECT_NE(n.status().message().find(needle), std::string::npos) << n.status().message();
  };
  expect_error("{}", "'role'");
  expect_error("not json", "config:");
  expect_error("{\"role\":\"backend\"}", "dataDir");
  expect_error("{\"role\":\"frontend\",\"replicas\":0}", "'replicas' = 0 is out of range [1, 16]");
  expect_error("{\"role\":\"frontend\",\"vids\":1.5}", "'vids' must be an integer");
  expect_error("{\"role\":\"frontend\",\"colour\":1}", "unknown member 'colour'");
  expect_error("{\"role\":\"backend\",\"id\":-1,\"dataDir\":\"/tmp/x\"}", "'id' = -1");
  expect_error("{\"role\":\"backend\",\"dataDir\":\"/proc/no/such\"}", "cannot create directory");

  Rig rig(1);
  HostNode& f = rig.front();
  Status s = f.Deliver(0, "{\"fawnlab\":1}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("magic"), std::string::npos) << s.message();
  fawnkv::Message m;
  m.kind = fawnkv::MsgKind::kHeartbeatReply;
  m.from = 5;
  m.to = fawnkv::FrontEndpoint(0);
  s = f.Deliver(0, fawnkv::codec::Encode(m));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("claims to come from 5"), std::string::npos) << s.message();
  m.from = 0;
  m.to = 3;
  s = f.Deliver(0, fawnkv::codec::Encode(m));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("addressed to 3"), std::string::npos) << s.message();
  EXPECT_FALSE(rig.back(0).Put("k", "v").ok());
  EXPECT_FALSE(rig.back(0).AddBackend(1).ok());
  EXPECT_FALSE(f.AddBackend(-3).ok());
  EXPECT_FALSE(f.RemoveBackend(9).ok());
  const uint64_t empty = f.Put("", "v").value();
  const uint64_t big = f.Get(std::string(251, 'k')).value();
  const uint64_t huge = f.Put("k", std::string((1 << 20) + 1, 'v')).value();
  std::map<uint64_t, DoneOp> done;
  for (DoneOp& d : f.TakeDone()) done[d.req] = d;
  ASSERT_EQ(done.size(), 3u);
  EXPECT_NE(done[empty].error.find("keys must be 1 to 250 bytes"), std::string::npos);
  EXPECT_NE(done[big].error.find("key of 251 bytes"), std::string::npos);
  EXPECT_NE(done[huge].error.find("over the limit"), std::string::npos);
  // With no back-end yet, a get waits for a route and fails at the timeout, clearly.
  const uint64_t lone = f.Get("k").value();
  rig.RunFor(1100 * kMs);
  ASSERT_TRUE(rig.done().count(lone));
  EXPECT_FALSE(rig.done()[lone].ok);
  EXPECT_NE(rig.done()[lone].error.find("no answer within 1000 ms"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab::fawnkvhost
