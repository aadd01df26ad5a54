// Real-cluster host nodes in one process: a front-end and back-ends on FileDevices in a temp
// directory, their frames shuttled by hand (every one through the codec) on a fake clock.
#include "fawnkvhost/host_node.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "base/json_reader.h"
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
    StartFront();
    for (int i = 0; i < backends; ++i) StartBackend(i);
  }
  // The front-end's process starting (again: the old one, and what it had in flight, is gone).
  void StartFront() {
    if (front_) nodes_.erase(front_->endpoint());
    front_.reset();
    ops_.clear();  // what the old one had in flight never completes (request ids start again)
    multi_.clear();
    done_.clear();
    auto f = HostNode::Create("{\"role\":\"frontend\",\"replicas\":3,\"vids\":2,\"heartbeatMs\":100,\"missed\":3,\"timeoutMs\":1000,"
                              "\"recoverMs\":2000}");
    EXPECT_TRUE(f.ok()) << f.status().message();
    front_ = std::move(f).value();
    front_->Advance(now_);
    nodes_[front_->endpoint()] = front_.get();
  }
  ~Rig() { std::filesystem::remove_all(dir_); }

  HostNode& front() { return *front_; }
  // The front-end's status; `seen` keeps every one read (events are reported once).
  std::string FrontStatus() {
    std::string s = front_->StatusJson();
    seen_ += s;
    return s;
  }
  const std::string& seen() const { return seen_; }
  const std::string& dir() const { return dir_; }
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
    stalled_.erase(id);
    held_.erase(id);
  }
  // The back-end's process dies: its frames stop, in both directions.
  void Kill(int id) {
    cut_.insert(id);
    nodes_.erase(id);
    backs_.erase(id);
    stalled_.erase(id);
    held_.erase(id);
  }

  // The back-end's frames are lost both ways while `starved` (a stalled process, not a dead one).
  void Starve(int id, bool starved) {
    if (starved) {
      cut_.insert(id);
    } else {
      cut_.erase(id);
    }
  }

  // The back-end's process gets no CPU while `stalled` (a slow start under contention, a
  // starved process): its clock and timers stop and it reads nothing, but nothing is lost —
  // the frames sent to it wait in its sockets, in order, and are read when it runs again.
  void Stall(int id, bool stalled) {
    if (stalled) {
      stalled_.insert(id);
      return;
    }
    stalled_.erase(id);
    auto node = nodes_.find(id);
    std::vector<std::pair<Endpoint, std::string>> held;
    held.swap(held_[id]);
    if (node == nodes_.end()) return;
    node->second->Advance(now_);
    for (auto& [from, bytes] : held) {
      Status s = node->second->Deliver(from, bytes);
      EXPECT_TRUE(s.ok()) << s.message();
    }
    Shuttle();
  }

  void Shuttle() {
    for (int round = 0; round < 10000; ++round) {
      bool any = false;
      for (auto& [from, node] : std::map<Endpoint, HostNode*>(nodes_)) {
        for (Frame& f : node->TakeOutbox()) {
          any = true;
          auto to = nodes_.find(f.to);
          if (cut_.count(from) || cut_.count(f.to) || to == nodes_.end()) continue;
          if (stalled_.count(f.to)) {
            held_[f.to].emplace_back(from, std::move(f.bytes));
            continue;
          }
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
      for (auto& [e, node] : nodes_) {
        if (!stalled_.count(e)) node->Advance(now_);
      }
      Shuttle();
    }
  }
  // Runs until every node the front-end knows is up and no change runs (or `limit` passes).
  bool Settle(int64_t limit = 20000 * kMs) {
    const int64_t end = now_ + limit;
    while (now_ < end) {
      RunFor(10 * kMs);
      const std::string s = FrontStatus();
      if (s.find("\"busy\": false") != std::string::npos && s.find("joining") == std::string::npos &&
          s.find("leaving") == std::string::npos) {
        return true;
      }
    }
    return false;
  }

  // Client operations, recorded for the checker.
  void Put(const std::string& k, const std::string& v) { PutReq(k, v); }
  uint64_t PutReq(const std::string& k, const std::string& v) {
    const uint64_t req = front_->Put(k, v).value();
    Track(req, HistoryOp::Kind::kPut, k, v);
    return req;
  }
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

  std::string dir_, seen_;
  std::unique_ptr<HostNode> front_;
  std::map<int, std::unique_ptr<HostNode>> backs_;
  std::map<Endpoint, HostNode*> nodes_;
  std::set<Endpoint> cut_, stalled_;
  std::map<Endpoint, std::vector<std::pair<Endpoint, std::string>>> held_;  // frames a stalled node has not read
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

TEST(KvHostNode, ABackendKilledWhileJoiningIsAbandonedAndALaterFailureIsRepaired) {
  Rig rig(5);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 40, "a");
  ASSERT_TRUE(rig.front().AddBackend(4).ok());
  ASSERT_NE(rig.FrontStatus().find("\"phase\": \"precopy\""), std::string::npos) << "node 4's join runs";
  rig.Kill(4);  // before it has taken a single record
  for (int i = 0; i < 40; ++i) rig.Put("k" + std::to_string(i), "b" + std::to_string(i));
  ASSERT_TRUE(rig.Settle());
  EXPECT_NE(rig.seen().find("node 4 failed while joining: its join is abandoned"), std::string::npos);
  rig.Kill(3);
  rig.RunFor(600 * kMs);
  ASSERT_TRUE(rig.Settle(2000 * kMs)) << "node 3's repair waits behind nothing";
  const std::string s = rig.FrontStatus();
  EXPECT_EQ(s.find("\"chain\": [3"), std::string::npos);
  EXPECT_EQ(s.find("\"chain\": [4"), std::string::npos);
  PutAll(rig, 40, "c");
  ExpectAll(rig, 40, "c");
  ExpectLinearizable(rig);
}

TEST(KvHostNode, ABackendDeclaredFailedThatAnswersAgainJoinsAfresh) {
  Rig rig(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 30, "a");
  rig.Starve(1, true);  // stalled past 3 heartbeats: declared failed although alive
  rig.RunFor(600 * kMs);
  ASSERT_TRUE(rig.Settle());
  EXPECT_NE(rig.seen().find("node 1 failed: 3 heartbeats missed"), std::string::npos);
  PutAll(rig, 30, "b");  // writes it misses while out of the chains
  rig.Starve(1, false);
  rig.RunFor(300 * kMs);
  ASSERT_TRUE(rig.Settle());
  EXPECT_NE(rig.seen().find("node 1 answers heartbeats again"), std::string::npos);
  EXPECT_NE(rig.FrontStatus().find("\"chain\": [1"), std::string::npos) << "node 1 is a member again";
  ExpectAll(rig, 30, "b");
  ExpectLinearizable(rig);
}

// Checks that every back-end 0 … nodes−1 is up, that every chain holds `r` members, and that
// back-end `id` keeps a store only for ranges whose chain names it (nothing stale is left).
void ExpectWhole(Rig& rig, int nodes, int r, int id) {
  auto front = ParseJson(rig.FrontStatus());
  ASSERT_TRUE(front.ok()) << front.status().message();
  std::map<int, std::string> state;
  for (const JsonValue& n : front.value().Find("nodes")->array_items()) {
    state[static_cast<int>(n.Find("id")->number_value())] = n.Find("state")->string_value();
  }
  for (int i = 0; i < nodes; ++i) EXPECT_EQ(state[i], "up") << "node " << i;
  std::map<std::string, std::set<int>> members;  // range end → its chain
  for (const JsonValue& c : front.value().Find("chains")->array_items()) {
    std::set<int>& m = members[c.Find("range")->array_items()[1].string_value()];
    for (const JsonValue& x : c.Find("chain")->array_items()) m.insert(static_cast<int>(x.number_value()));
    EXPECT_EQ(static_cast<int>(c.Find("chain")->array_items().size()), r) << "the chain of range ending " << c.Find("range")->array_items()[1].string_value();
  }
  EXPECT_FALSE(members.empty());
  auto back = ParseJson(rig.back(id).StatusJson());
  ASSERT_TRUE(back.ok()) << back.status().message();
  for (const JsonValue& st : back.value().Find("stores")->array_items()) {
    const std::string end = st.Find("range")->array_items()[1].string_value();
    EXPECT_TRUE(members.count(end) && members[end].count(id)) << "node " << id << " keeps a store of a range ending " << end << " that it does not replicate";
  }
}

// A back-end whose process starts slowly (under CPU contention: loading the core, opening its
// card) joins; it reads nothing for longer than 3 heartbeats, but less than the 12 a node
// that has not yet answered is given. Its frames wait in its sockets, as on a real machine.
TEST(KvHostNode, AJoinerThatStartsSlowlyIsGivenTimeForItsFirstAnswer) {
  Rig rig(4);
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 30, "a");
  rig.Stall(2, true);
  for (int i = 2; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  rig.RunFor(800 * kMs);  // 8 heartbeat periods
  PutAll(rig, 30, "b");
  rig.Stall(2, false);
  ASSERT_TRUE(rig.Settle());
  EXPECT_EQ(rig.seen().find("node 2 failed"), std::string::npos) << "a joiner that had not answered yet was declared failed";
  ExpectWhole(rig, 4, 3, 2);
  ExpectAll(rig, 30, "b");
  // Once it has answered, a node is held to the 3 beats again.
  rig.Stall(2, true);
  rig.RunFor(600 * kMs);
  rig.FrontStatus();
  EXPECT_NE(rig.seen().find("node 2 failed: 3 heartbeats missed"), std::string::npos);
  rig.Stall(2, false);
  ASSERT_TRUE(rig.Settle());
  ExpectWhole(rig, 4, 3, 2);
  ExpectLinearizable(rig);
}

// Stalled past even that, the joiner is declared failed while it joins; when it reads its
// sockets again (every frame of the abandoned join, late) and answers, it is reset and joins
// afresh through the join path, and the cluster settles whole.
TEST(KvHostNode, AJoinerDeclaredFailedWhileStartingIsResetAndJoinsAfresh) {
  Rig rig(4);
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 30, "a");
  rig.Stall(2, true);
  for (int i = 2; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  rig.RunFor(2000 * kMs);
  rig.FrontStatus();
  EXPECT_NE(rig.seen().find("node 2 failed: 12 heartbeats missed (it had not answered one since it was added)"), std::string::npos);
  EXPECT_NE(rig.seen().find("node 2 failed while joining: its join is abandoned"), std::string::npos);
  PutAll(rig, 30, "b");
  rig.Stall(2, false);
  ASSERT_TRUE(rig.Settle());
  EXPECT_NE(rig.seen().find("node 2 answers heartbeats again after it was declared failed"), std::string::npos);
  EXPECT_NE(rig.seen().find("node 2 dropped what it held"), std::string::npos);
  ExpectWhole(rig, 4, 3, 2);
  ExpectAll(rig, 30, "b");
  ExpectLinearizable(rig);
}

// The first back-end (it takes the whole ring) is that slow: every range is lost (it held
// nothing yet) while the others wait behind its join; it comes back reset and joins again.
TEST(KvHostNode, TheFirstJoinerDeclaredFailedWhileStartingJoinsAgain) {
  Rig rig(4);
  rig.Stall(0, true);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  rig.RunFor(2000 * kMs);
  rig.FrontStatus();
  EXPECT_NE(rig.seen().find("node 0 failed: 12 heartbeats missed"), std::string::npos);
  rig.Stall(0, false);
  ASSERT_TRUE(rig.Settle());
  ExpectWhole(rig, 4, 3, 0);
  PutAll(rig, 30, "a");
  ExpectAll(rig, 30, "a");
  ExpectLinearizable(rig);
}

// An up member stalls under load (its frames wait, none is lost) long enough to be declared
// failed. A hello of it arrives meanwhile (its connection broke as it stalled): the front-end
// readmits it, and its reset waits in its socket. When it runs again it first works through
// its backlog — its old chains' puts and configurations — with every range and store it held,
// all stale now; then it answers the heartbeats, and the front-end, its reset unanswered for
// 4 beats, sends another. Only the newest reset's answer starts its join; it holds nothing
// stale after.
TEST(KvHostNode, AMemberStalledPastItsHeartbeatsIsResetAndJoinsAfresh) {
  Rig rig(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 30, "a");
  rig.Stall(1, true);
  for (int i = 0; i < 30; ++i) rig.Put("k" + std::to_string(i), "b" + std::to_string(i));
  rig.RunFor(800 * kMs);
  rig.FrontStatus();
  EXPECT_NE(rig.seen().find("node 1 failed: 3 heartbeats missed"), std::string::npos);
  ASSERT_TRUE(rig.Settle());
  for (int i = 0; i < 30; ++i) rig.Del("k" + std::to_string(i));
  PutAll(rig, 30, "c");  // every key written again while it is out: its copies are stale
  ASSERT_TRUE(rig.front().AddBackend(1).ok());  // its hello
  rig.RunFor(400 * kMs);
  rig.Stall(1, false);
  ASSERT_TRUE(rig.Settle());
  EXPECT_NE(rig.seen().find("node 1 answers heartbeats but not its reset: reset again"), std::string::npos);
  const size_t dropped = rig.seen().find("node 1 dropped what it held");
  EXPECT_NE(dropped, std::string::npos);
  EXPECT_EQ(rig.seen().find("node 1 dropped what it held", dropped + 1), std::string::npos) << "one reset's answer readmits it";
  ExpectWhole(rig, 4, 3, 1);
  // Node 1 must answer for some keys with what it was copied, not what it kept: fail two others.
  for (int victim : {0, 2}) {
    rig.Kill(victim);
    rig.RunFor(600 * kMs);
    ASSERT_TRUE(rig.Settle());
  }
  ExpectAll(rig, 30, "c");
  EXPECT_GT(Counter(rig.back(1).StatusJson(), "gets"), 0u);
  PutAll(rig, 30, "d");
  ExpectAll(rig, 30, "d");
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

// --- whole-cluster restart: the persisted ring (ring_state.h) ------------------------------

// Runs until no back-end is "recovering" and the cluster has settled.
bool SettleRestored(Rig& rig) {
  for (int i = 0; i < 100; ++i) {
    if (!rig.Settle()) return false;
    if (rig.FrontStatus().find("recovering") == std::string::npos) return true;
  }
  return false;
}

// Every process stops; the back-ends start again on their files, the front-end restores `ring`,
// and the back-ends in `back` say hello.
void RestartAll(Rig& rig, int nodes, const std::string& ring, const std::set<int>& back) {
  for (int i = 0; i < nodes; ++i) rig.Kill(i);
  rig.StartFront();
  for (int i : back) rig.StartBackend(i);
  Status s = rig.front().RestoreRing(ring);
  ASSERT_TRUE(s.ok()) << s.message();
  for (int i : back) ASSERT_TRUE(rig.front().AddBackend(i).ok());
}

TEST(KvHostNode, AWholeClusterRestartServesEveryKeyFromTheRecoveredStores) {
  Rig rig(4);
  const uint64_t v0 = rig.front().RingVersion();
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  EXPECT_GT(rig.front().RingVersion(), v0);
  PutAll(rig, 40, "v");
  const std::set<int> gone = {3, 11, 17, 29};
  for (int i : gone) rig.Del("k" + std::to_string(i));
  rig.RunFor(100 * kMs);  // no checkpoint since most puts (checkpointMs 200): recovery replays the log
  const std::string ring = rig.front().RingJson();
  RestartAll(rig, 4, ring, {0, 1, 2, 3});
  ASSERT_TRUE(SettleRestored(rig));
  const std::string st = rig.front().StatusJson();
  EXPECT_EQ(st.find("\"state\": \"failed\""), std::string::npos) << st;
  ExpectAll(rig, 40, "v", gone);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(Counter(rig.back(i).StatusJson(), "precopyBytesReceived"), 0u) << "node " << i << " was copied, not restored";
  }
  // The restored ring keeps its VIDs and chains, at higher epochs.
  EXPECT_EQ(rig.front().RingJson().substr(0, ring.find("\"chains\"")), ring.substr(0, ring.find("\"chains\"")));
  PutAll(rig, 40, "w");
  ExpectAll(rig, 40, "w");
  // And it restarts again from the ring the restored front-end writes.
  RestartAll(rig, 4, rig.front().RingJson(), {0, 1, 2, 3});
  ASSERT_TRUE(SettleRestored(rig));
  ExpectAll(rig, 40, "w");
  ExpectLinearizable(rig);
}

TEST(KvHostNode, ABackendMissingAfterARestartIsFailedAndItsRangesReplicated) {
  Rig rig(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 40, "v");
  RestartAll(rig, 4, rig.front().RingJson(), {0, 1, 3});
  rig.RunFor(2100 * kMs);  // recoverMs passes
  ASSERT_TRUE(SettleRestored(rig));
  const std::string st = rig.FrontStatus();
  EXPECT_NE(rig.seen().find("node 2 did not come back within 2000 ms: failed"), std::string::npos) << st;
  EXPECT_EQ(st.find("\"chain\": [2"), std::string::npos) << st;
  EXPECT_EQ(st.find(", 2]"), std::string::npos) << st;
  ExpectAll(rig, 40, "v");
  // Node 2 comes back later: it rejoins afresh, as a restarted node does.
  rig.StartBackend(2);
  ASSERT_TRUE(rig.front().AddBackend(2).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 40, "w");
  ExpectAll(rig, 40, "w");
  ExpectLinearizable(rig);
}

TEST(KvHostNode, ABackendThatLostItsFileIsFailedAndCopiedAfresh) {
  Rig rig(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  PutAll(rig, 40, "v");
  const std::string ring = rig.front().RingJson();
  for (int i = 0; i < 4; ++i) rig.Kill(i);
  std::filesystem::remove_all(rig.dir() + "/node-1");
  RestartAll(rig, 4, ring, {0, 1, 2, 3});
  ASSERT_TRUE(SettleRestored(rig));
  EXPECT_NE(rig.seen().find("node 1 could not serve its ranges from its stores"), std::string::npos);
  EXPECT_GT(Counter(rig.back(1).StatusJson(), "precopyBytesReceived"), 0u);
  ExpectAll(rig, 40, "v");
  ExpectLinearizable(rig);
}

TEST(KvHostNode, ABadRingFileIsRefusedClearly) {
  Rig rig(3);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  const std::string ring = rig.front().RingJson();
  auto refused = [&](const std::string& json, const std::string& needle) {
    rig.StartFront();
    Status s = rig.front().RestoreRing(json);
    ASSERT_FALSE(s.ok()) << json;
    EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
  };
  auto with = [&](const std::string& from, const std::string& to) {
    std::string j = ring;
    const size_t at = j.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? j : j.replace(at, from.size(), to);
  };
  refused(ring.substr(0, ring.size() / 2), "not valid JSON");
  refused("{\"fawnlab\":\"ring\",\"version\":2}", "version 2 is not supported (this fawnlab reads version 1)");
  refused("[]", "must be a JSON object");
  refused(with("\"replicas\": 3", "\"replicas\": 4"), "written with replicas = 4 and vids = 2, but this cluster runs with replicas = 3");
  refused(with("\"id\": 1", "\"id\": 0"), "node 0 is listed twice");
  std::string bad_member = ring;
  bad_member[ring.find("\"chain\": [") + 10] = '7';
  refused(bad_member, "names a node that is not in \"nodes\"");
  refused(with("\"epoch\": ", "\"epoch\": -"), "epoch must be an integer >= 1");
  const size_t r = ring.find("\"range\": [\"");
  std::string gap = ring;
  gap[r + 11] = gap[r + 11] == '0' ? '1' : '0';
  refused(gap, "do not tile the ring");
  rig.StartFront();
  ASSERT_TRUE(rig.front().RestoreRing(ring).ok());
  EXPECT_FALSE(rig.front().RestoreRing(ring).ok());  // not into a ring that is not empty
  EXPECT_FALSE(rig.back(0).RestoreRing(ring).ok());
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
  // A 1 MiB client value behind its 4-byte flags header fits; one byte more does not.
  const uint64_t fits = f.Put("k", std::string((1 << 20) + 4, 'v')).value();
  const uint64_t huge = f.Put("k", std::string((1 << 20) + 5, 'v')).value();
  std::map<uint64_t, DoneOp> done;
  for (DoneOp& d : f.TakeDone()) done[d.req] = d;
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(done.count(fits), 0u) << "refused at once: " << done[fits].error;
  EXPECT_NE(done[empty].error.find("keys must be 1 to 250 bytes"), std::string::npos);
  EXPECT_EQ(done[empty].status, "bad-request");
  EXPECT_NE(done[big].error.find("key of 251 bytes"), std::string::npos);
  EXPECT_NE(done[huge].error.find("1048581 bytes is over the limit 1048580"), std::string::npos) << done[huge].error;
  EXPECT_EQ(done[huge].status, "too-large");
  // With no back-end yet, a get waits for a route and fails at the timeout, clearly.
  const uint64_t lone = f.Get("k").value();
  rig.RunFor(1100 * kMs);
  ASSERT_TRUE(rig.done().count(lone));
  EXPECT_FALSE(rig.done()[lone].ok);
  EXPECT_NE(rig.done()[lone].error.find("no answer within 1000 ms"), std::string::npos);
  EXPECT_EQ(rig.done()[lone].status, "timeout");
}

// A back-end's status counter (the first "name": n in its document).
uint64_t BackCounter(Rig& rig, int id, const std::string& name) { return Counter(rig.back(id).StatusJson(), name); }

// Puts `v` under `k` and runs until it is answered (at most 3 s); the answer.
DoneOp PutAndWait(Rig& rig, const std::string& k, const std::string& v) {
  const uint64_t req = rig.PutReq(k, v);
  for (int i = 0; i < 3000 && !rig.done().count(req); ++i) rig.RunFor(kMs);
  EXPECT_TRUE(rig.done().count(req)) << k << " unanswered";
  return rig.done()[req];
}

TEST(KvHostNode, OverwritesOfOneKeyAreCompactedAwayInTheBackground) {
  Rig rig(3);  // 1 MiB store files: about ten 100 KB records each
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  std::string last;
  for (int i = 0; i < 60; ++i) {
    last = std::string(100 * 1024, static_cast<char>('a' + i % 26)) + std::to_string(i);
    const DoneOp d = PutAndWait(rig, "big", last);
    ASSERT_TRUE(d.ok) << "overwrite " << i << ": " << d.error;
  }
  rig.Get("big");
  rig.RunFor(100 * kMs);
  uint64_t reclaimed = 0;
  for (int id = 0; id < 3; ++id) {
    EXPECT_GT(BackCounter(rig, id, "compactions"), 0u) << "node " << id;
    EXPECT_EQ(BackCounter(rig, id, "storeErrors"), 0u) << "node " << id;
    reclaimed += BackCounter(rig, id, "reclaimedBytes");
  }
  EXPECT_GT(reclaimed, 3u * 4 * 1024 * 1024) << "60 × 100 KB on three replicas, each store under 1 MiB";
  std::cout << "compaction reclaimed " << reclaimed << " bytes over 3 replicas\n";
  bool read = false;
  for (auto& [req, d] : rig.done()) {
    if (d.op == "get") {
      read = true;
      EXPECT_TRUE(d.ok && d.found && d.value == last) << d.error;
    }
  }
  EXPECT_TRUE(read);
  ExpectLinearizable(rig);
}

TEST(KvHostNode, AFullStoreRefusesAWriteAtOnceAndKeepsWhatItHolds) {
  Rig rig(3);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(rig.front().AddBackend(i).ok());
  ASSERT_TRUE(rig.Settle());
  const std::string v(100 * 1024, 'x');
  std::vector<std::string> stored;
  DoneOp refused;
  int64_t refused_after = 0;
  for (int i = 0; i < 400; ++i) {
    const int64_t t0 = rig.now();
    const DoneOp d = PutAndWait(rig, "key" + std::to_string(i), v + std::to_string(i));
    if (!d.ok) {
      refused = d;
      refused_after = rig.now() - t0;
      break;
    }
    stored.push_back("key" + std::to_string(i));
  }
  ASSERT_EQ(refused.status, "no-space") << refused.error;
  EXPECT_NE(refused.error.find("out of memory"), std::string::npos) << refused.error;
  EXPECT_LT(refused_after, 50 * kMs) << "a refusal is prompt, not a timeout";
  std::cout << "refused after " << stored.size() << " puts, answered in " << refused_after / 1000 << " us (virtual)\n";
  EXPECT_GT(stored.size(), 10u);
  uint64_t refusals = 0;
  for (int id = 0; id < 3; ++id) refusals += BackCounter(rig, id, "refused");
  EXPECT_EQ(refusals, 1u);
  // Filling on: every write is stored or refused at once by its head — never left to time
  // out because a successor had no room (the head knows its successors' room from the acks).
  int more_refused = 0;
  for (int i = 400; i < 520; ++i) {
    const DoneOp d = PutAndWait(rig, "key" + std::to_string(i), v + std::to_string(i));
    if (d.ok) {
      stored.push_back("key" + std::to_string(i));
    } else {
      EXPECT_EQ(d.status, "no-space") << "key" << i << ": " << d.error;
      ++more_refused;
    }
  }
  EXPECT_GT(more_refused, 0);
  for (int id = 0; id < 3; ++id) EXPECT_EQ(BackCounter(rig, id, "storeErrors"), BackCounter(rig, id, "refused")) << "node " << id;
  // Everything acknowledged is still there.
  std::map<std::string, uint64_t> reqs;
  for (const std::string& k : stored) reqs[k] = rig.front().Get(k).value();
  rig.RunFor(200 * kMs);
  for (auto& [k, req] : reqs) {
    ASSERT_TRUE(rig.done().count(req)) << k;
    const DoneOp& d = rig.done()[req];
    EXPECT_TRUE(d.ok && d.found) << k << ": " << d.error;
    EXPECT_EQ(d.value, v + k.substr(3)) << k;
  }
}

}  // namespace
}  // namespace fawnlab::fawnkvhost
