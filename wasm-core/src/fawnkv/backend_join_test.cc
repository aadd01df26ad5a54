// The join's flush boundary (SOSP'09 §3.4.4 as backend.h implements it) under delivery orders
// the real cluster's transport allows: one FIFO link per ordered pair of endpoints, and no
// order at all between different links (a copy of a configuration that travels b → J → c can
// overtake b's own earlier puts on b → c). Four back-ends on a transport where the test
// chooses which link delivers next; the front-end is the test itself.
// docs/bugs/fixed/killnine-stale-read.md is the record of the bug these tests reproduce.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fawnkv/backend.h"

namespace fawnlab::fawnkv {
namespace {

constexpr Endpoint kFront = -1;  // FrontEndpoint(0): the test
constexpr NodeId kA = 0, kB = 1, kJ = 2, kC = 3;
using Link = std::pair<Endpoint, Endpoint>;

// Every message waits on its link (from → to) until the test delivers it.
class HeldNet : public Transport {
 public:
  void Send(Message m) override { links_[{m.from, m.to}].push_back(std::move(m)); }
  bool up(Endpoint) const override { return true; }
  void SetUp(Endpoint, bool) override {}

  std::map<Link, std::deque<Message>> links_;
};

class JoinOrderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (NodeId id : {kA, kB, kJ, kC}) {
      BackendOptions o;
      o.file_path = ::testing::TempDir() + "fawnkv_join_" + std::to_string(::getpid()) + "_" + std::to_string(id) + ".img";
      std::remove(o.file_path.c_str());
      files_.push_back(o.file_path);
      o.file_bytes = 1 << 20;
      o.index_bits = 9;
      o.card_min_bytes = 16 << 20;
      o.prefill = false;
      o.rpc_base_ns = 0;
      o.rpc_ns_per_byte = 0;
      o.lock_hold_ns = 0;
      auto b = Backend::Create(&sim_, &net_, id, o);
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      nodes_[id] = std::move(b).value();
    }
    for (NodeId id : {kA, kB, kC}) ASSERT_TRUE(nodes_[id]->Bootstrap(KeyRange::All(), {kA, kB, kC}).ok());
  }
  void TearDown() override {
    nodes_.clear();
    for (const std::string& f : files_) std::remove(f.c_str());
  }

  // Hands the oldest message on `l` to its back-end (or to the test, for the front-end), and
  // runs what it set off.
  void DeliverOne(const Link& l) {
    auto it = net_.links_.find(l);
    ASSERT_TRUE(it != net_.links_.end() && !it->second.empty()) << "nothing on " << l.first << " -> " << l.second;
    Message m = std::move(it->second.front());
    it->second.pop_front();
    if (IsFrontEnd(m.to)) {
      front_.push_back(std::move(m));
    } else {
      nodes_[m.to]->Receive(m);
    }
    sim_.Run(1'000'000);
  }
  void DeliverAll(const Link& l) {
    while (net_.links_.count(l) && !net_.links_[l].empty()) DeliverOne(l);
  }
  // Delivers everything, link by link in a fixed order, except the links in `hold`.
  void Settle(const std::set<Link>& hold = {}) {
    for (bool moved = true; moved;) {
      moved = false;
      for (auto& [l, q] : net_.links_) {
        if (q.empty() || hold.count(l)) continue;
        DeliverOne(l);
        moved = true;
        break;
      }
    }
  }
  void Inject(Message m) {
    m.from = kFront;
    nodes_[m.to]->Receive(m);
    sim_.Run(1'000'000);
  }
  void Put(NodeId head, const std::string& key, const std::string& value, uint64_t req) {
    Message m;
    m.kind = MsgKind::kPut;
    m.to = static_cast<Endpoint>(head);
    m.client = kFront;
    m.req = req;
    m.key = Key::Hash(key);
    m.value = value;
    Inject(std::move(m));
  }
  void Get(NodeId reader, const std::string& key, uint64_t req) {
    Message m;
    m.kind = MsgKind::kGet;
    m.to = static_cast<Endpoint>(reader);
    m.client = kFront;
    m.req = req;
    m.key = Key::Hash(key);
    Inject(std::move(m));
  }
  void PrecopyStart(uint64_t copy) {
    Message m;
    m.kind = MsgKind::kPrecopyStart;
    m.to = kC;
    m.range = KeyRange::All();
    m.peer = kJ;
    m.epoch = copy;
    Inject(std::move(m));
  }
  void Seal(uint64_t epoch, std::vector<Endpoint> chain, Endpoint joiner, Endpoint donor) {
    auto spec = std::make_shared<ChainSpec>();
    spec->chain = std::move(chain);
    spec->joiner = joiner;
    spec->donor = donor;
    Message m;
    m.kind = MsgKind::kSeal;
    m.to = kA;
    m.range = KeyRange::All();
    m.epoch = epoch;
    m.spec = spec;
    Inject(std::move(m));
  }
  // Takes what waits on the links to the front-end (delivering it sets nothing off).
  void Collect() {
    for (auto& [l, q] : net_.links_) {
      if (!IsFrontEnd(l.second)) continue;
      for (Message& m : q) front_.push_back(std::move(m));
      q.clear();
    }
  }
  // The test's answers to request `req` (kReply or kRetry), oldest first.
  std::vector<Message> Answers(uint64_t req) {
    Collect();
    std::vector<Message> v;
    for (const Message& m : front_) {
      if ((m.kind == MsgKind::kReply || m.kind == MsgKind::kRetry) && m.req == req) v.push_back(m);
    }
    return v;
  }
  bool Saw(MsgKind k, Endpoint from) {
    Collect();
    for (const Message& m : front_) {
      if (m.kind == k && m.from == from) return true;
    }
    return false;
  }
  // What back-end `id`'s store holds for `key` ("" when nothing).
  std::string Stored(NodeId id, const std::string& key) {
    std::string out;
    Status st = nodes_[id]->node().Get(Key::Hash(key), [&out](const Status& r, std::string v) {
      if (r.ok()) out = std::move(v);
    });
    sim_.Run(1'000'000);
    return st.ok() ? out : std::string();
  }

  // The join of J into [a, b, c] as the coordinator runs it: pre-copy from c; insert epoch 2
  // [a, b, J, c] (joiner J, donor c) with the delivery order `insert` chooses; once J is
  // ready, final epoch 3 [a, b, J], whose tail J becomes the reader.
  void Join(const std::function<void()>& insert) {
    PrecopyStart(100);
    Settle({{kB, kC}});  // the pre-copy (c ↔ J), while b's puts to c wait
    ASSERT_TRUE(Saw(MsgKind::kPrecopyDone, kC));
    Seal(2, {kA, kB, kJ, kC}, kJ, kC);
    insert();
    Settle();
    ASSERT_TRUE(Saw(MsgKind::kReady, kJ)) << "J never merged";
    Seal(3, {kA, kB, kJ}, kNobody, kNobody);
    Settle();
    ASSERT_TRUE(Saw(MsgKind::kReaderNow, kJ));
  }

  sim::Simulator sim_;
  HeldNet net_;
  std::map<NodeId, std::unique_ptr<Backend>> nodes_;
  std::vector<std::string> files_;
  std::vector<Message> front_;
};

// docs/bugs/fixed/killnine-stale-read.md §4.1: the joiner's copy of the insert configuration reaches
// the donor before the old middle's last put of the previous epoch. The donor answered that put
// (it was still the tail); the joiner, the new reader, must hold it.
TEST_F(JoinOrderTest, ConfigCopyFromJoinerOvertakesOldPredecessorsPut) {
  Put(kA, "k", "v1", 1);
  Settle();
  ASSERT_EQ(Answers(1).size(), 1u);
  Put(kA, "k", "v2", 2);
  DeliverOne({kA, kB});  // v2 reaches b; b → c holds it
  ASSERT_EQ(net_.links_[Link(kB, kC)].size(), 1u);
  Join([&] {
    DeliverAll({kA, kB});  // the configuration reaches b: b resends v2 to J and passes it on
    DeliverAll({kB, kJ});  // J is configured and passes it to c …
    DeliverAll({kJ, kC});  // … whose copy overtakes b's v2 and b's own copy
  });
  const std::vector<Message> put = Answers(2);
  ASSERT_EQ(put.size(), 1u);
  ASSERT_EQ(put[0].kind, MsgKind::kReply);
  ASSERT_EQ(put[0].from, kC);  // acknowledged by the old tail
  Get(kJ, "k", 3);
  const std::vector<Message> got = Answers(3);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(got[0].kind, MsgKind::kReply);
  EXPECT_EQ(got[0].value, "v2") << "the new tail lost a put the old tail acknowledged";
  for (NodeId id : {kA, kB, kJ}) EXPECT_EQ(Stored(id, "k"), "v2") << "back-end " << id;
}

// The same overtaking, and then a put of the insert epoch that travels a → b → J → c before b's
// earlier put reaches c: c must not take the newer epoch's put as proof that it has the older
// one (it would drop b's put as a resend: never answered, and missing from the flush).
TEST_F(JoinOrderTest, NewEpochPutThroughJoinerOvertakesOldPredecessorsPut) {
  Put(kA, "k1", "v1", 1);
  Put(kA, "k2", "w1", 2);
  Settle();
  Put(kA, "k1", "v2", 3);
  DeliverOne({kA, kB});
  Join([&] {
    DeliverAll({kA, kB});
    DeliverAll({kB, kJ});
    DeliverAll({kJ, kC});
    Put(kA, "k2", "w2", 4);  // stamped in the insert epoch
    DeliverAll({kA, kB});
    DeliverAll({kB, kJ});
    DeliverAll({kJ, kC});  // reaches c while b's v2 still waits on b → c
  });
  for (uint64_t req : {3, 4}) {
    const std::vector<Message> a = Answers(req);
    EXPECT_EQ(a.size(), 1u) << "put " << req << " was never answered";
    if (!a.empty()) {
      EXPECT_EQ(a[0].kind, MsgKind::kReply);
    }
  }
  for (NodeId id : {kA, kB, kJ}) {
    EXPECT_EQ(Stored(id, "k1"), "v2") << "back-end " << id;
    EXPECT_EQ(Stored(id, "k2"), "w2") << "back-end " << id;
  }
}

// The common order (b's copy first, behind its puts): unchanged.
TEST_F(JoinOrderTest, InOrderJoinKeepsEveryPut) {
  Put(kA, "k", "v1", 1);
  Settle();
  Put(kA, "k", "v2", 2);
  DeliverOne({kA, kB});
  Join([&] {
    DeliverAll({kA, kB});
    DeliverAll({kB, kC});
    DeliverAll({kB, kJ});
  });
  Get(kJ, "k", 3);
  ASSERT_EQ(Answers(3).size(), 1u);
  EXPECT_EQ(Answers(3)[0].value, "v2");
}

}  // namespace
}  // namespace fawnlab::fawnkv
