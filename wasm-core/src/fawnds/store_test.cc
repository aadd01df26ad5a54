#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "device/fault_injector.h"
#include "device/nvm.h"
#include "device/profiles.h"
#include "fawnds/hash_index.h"
#include "fawnds/key.h"
#include "fawnds/record.h"
#include "fawnds/reliability.h"
#include "fawnds/store.h"
#include "sim/rng.h"

namespace fawnlab::fawnds {
namespace {

using device::NvmConfig;
using device::NvmDevice;

uint64_t TestSeed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 4242;
}

TEST(KeyTest, PaperExampleSplitsIndexAndFragment) {
  Key k;
  ASSERT_TRUE(Key::FromHex("93df7317294b99e3e049", &k));  // SOSP'09 Fig 3
  EXPECT_EQ(k.LowBits(0, 16), 0xe049u);
  EXPECT_EQ(k.LowBits(16, 15), 0x19e3u);
  HashIndex idx(16);
  EXPECT_EQ(idx.IndexOf(k), 0xe049u);
  EXPECT_EQ(idx.FragmentOf(k), 0x19e3u);
  EXPECT_EQ(idx.bytes(), 6u * 65536) << "6 bytes of DRAM per bucket";
  EXPECT_FALSE(Key::FromHex("xyz", &k));
}

TEST(KeyTest, Sha1KnownAnswers) {
  EXPECT_EQ(Key::Hash("abc").Hex(), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Key::Hash("").Hex(), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
}

TEST(KeyTest, RangesWrapAroundTheRing) {
  KeyRange r{Key::FromU64(100), Key::FromU64(200)};
  EXPECT_FALSE(r.Contains(Key::FromU64(100)));
  EXPECT_TRUE(r.Contains(Key::FromU64(101)));
  EXPECT_TRUE(r.Contains(Key::FromU64(200)));
  EXPECT_FALSE(r.Contains(Key::FromU64(201)));
  KeyRange w{Key::FromU64(200), Key::FromU64(100)};
  EXPECT_TRUE(w.Contains(Key::FromU64(5)));
  EXPECT_TRUE(w.Contains(Key::FromU64(300)));
  EXPECT_FALSE(w.Contains(Key::FromU64(150)));
  EXPECT_TRUE(KeyRange::All().Contains(Key::FromU64(7)));
}

TEST(HashIndexTest, ProbesAreDistinctAndBucketsRoundTrip) {
  HashIndex idx(10);
  for (uint32_t i = 0; i < 1024; ++i) {
    std::map<uint64_t, int> seen;
    for (int j = 0; j < HashIndex::kProbes; ++j) ++seen[idx.Probe(i, j)];
    EXPECT_EQ(seen.size(), static_cast<size_t>(HashIndex::kProbes));
    EXPECT_EQ(idx.Probe(i, 0), i) << "INDEX selects the first bucket";
  }
  idx.Set(5, HashIndex::Bucket{true, 0x7abc, 0xdeadbeef});
  auto b = idx.Get(5);
  EXPECT_TRUE(b.valid);
  EXPECT_EQ(b.fragment, 0x7abc);
  EXPECT_EQ(b.offset, 0xdeadbeefu);
  EXPECT_EQ(idx.valid_buckets(), 1u);
}

TEST(RecordTest, RoundTripAndEveryCorruptionIsNamed) {
  std::string log;
  EncodeRecord(RecordType::kPut, 7, Key::FromU64(9), "hello", 55, &log);
  auto r = DecodeRecord(log, 0, 7, 55);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().value, "hello");
  EXPECT_EQ(r.value().size, RecordSize(5));
  EXPECT_EQ(DecodeRecord(std::string(40, '\0'), 0, 1, 55).status().code(), StatusCode::kNotFound);
  std::string bad = log;
  bad[20] ^= 1;
  EXPECT_NE(DecodeRecord(bad, 100, 7, 55).status().message().find("checksum"), std::string::npos);
  EXPECT_NE(DecodeRecord(log, 0, 7, 56).status().message().find("checksum"), std::string::npos) << "another store's record";
  EXPECT_NE(DecodeRecord(log, 0, 8, 55).status().message().find("sequence"), std::string::npos);
  EXPECT_NE(DecodeRecord(log.substr(0, 30), 0, 7, 55).status().message().find("truncated"), std::string::npos);
  bad = log;
  bad[8] = 9;
  EXPECT_NE(DecodeRecord(bad, 0, 7, 55).status().message().find("type"), std::string::npos);
}

// A store of 2^bits buckets with room for `log_bytes` of log, at the device's start.
StoreOptions Opts(int bits, uint64_t log_bytes) {
  StoreOptions o;
  o.index_bits = bits;
  o.region_bytes = DataStore::FileBytes(bits, log_bytes);
  return o;
}

struct Rig {
  sim::Simulator sim;
  std::unique_ptr<NvmDevice> nvm;
  explicit Rig(uint64_t capacity = uint64_t{64} << 20) {
    NvmConfig c;
    c.capacity_bytes = capacity;
    nvm = std::make_unique<NvmDevice>(&sim, "nvm-4ch", c);
  }
};

TEST(StoreTest, PutGetDeleteThroughTheDevice) {
  Rig rig;
  StoreOptions o = Opts(12, 1 << 20);
  auto s = DataStore::Create(rig.nvm.get(), o).value();
  int acked = 0;
  ASSERT_TRUE(s->Put(Key::Hash("a"), "apple", [&](const Status& st) { acked += st.ok(); }).ok());
  ASSERT_TRUE(s->Put(Key::Hash("b"), std::string(1000, 'b'), [&](const Status& st) { acked += st.ok(); }).ok());
  ASSERT_TRUE(s->Put(Key::Hash("a"), "apricot", [&](const Status& st) { acked += st.ok(); }).ok());
  std::string got;
  Status gs;
  ASSERT_TRUE(s->Get(Key::Hash("a"), [&](const Status& st, std::string v) { gs = st; got = std::move(v); }).ok());
  EXPECT_EQ(acked, 0) << "completion comes later, in simulated time";
  rig.sim.Run(100000);
  EXPECT_EQ(acked, 3);
  EXPECT_TRUE(gs.ok());
  EXPECT_EQ(got, "apricot") << "the newer record wins; the older is orphaned";
  EXPECT_EQ(s->stats().orphaned, 1u);
  EXPECT_EQ(s->live_keys(), 2u);
  ASSERT_TRUE(s->Delete(Key::Hash("a"), nullptr).ok());
  ASSERT_TRUE(s->Get(Key::Hash("a"), [&](const Status& st, std::string) { gs = st; }).ok());
  rig.sim.Run(100000);
  EXPECT_EQ(gs.code(), StatusCode::kNotFound);
  EXPECT_EQ(s->log_end(), RecordSize(5) + RecordSize(1000) + RecordSize(7) + RecordSize(0));
  // Bad input is refused at once.
  KeyRange narrow{Key::FromU64(0), Key::FromU64(10)};
  o.range = narrow;
  o.region_offset = o.region_bytes;
  auto n = DataStore::Create(rig.nvm.get(), o).value();
  EXPECT_EQ(n->Put(Key::FromU64(11), "x", nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(n->Put(Key::FromU64(5), std::string(kMaxValue + 1, 'x'), nullptr).code(), StatusCode::kInvalidArgument);
}

TEST(StoreTest, FragmentFalsePositivesCostARead) {
  Rig rig;
  StoreOptions o = Opts(8, 1 << 20);
  auto s = DataStore::Create(rig.nvm.get(), o).value();
  // Same low 8 + 15 bits (index and fragment), different high bits.
  Key a = Key::FromU64(0x12345), b = Key::FromU64(0x12345 | (uint64_t{1} << 40));
  ASSERT_TRUE(s->Put(a, "A", nullptr).ok());
  ASSERT_TRUE(s->Put(b, "B", nullptr).ok());
  rig.sim.Run(1000);
  EXPECT_EQ(s->stats().false_positives, 1u) << "b's put read a's record and found another key";
  std::string got;
  ASSERT_TRUE(s->Get(b, [&](const Status&, std::string v) { got = std::move(v); }).ok());
  rig.sim.Run(1000);
  EXPECT_EQ(got, "B");
  EXPECT_EQ(s->stats().false_positives, 2u);
  // In a batch, b's false positive takes a second round: two vector commands.
  const uint64_t commands = rig.nvm->counters().commands;
  std::vector<std::string> vals;
  ASSERT_TRUE(s->MultiGet({a, b}, [&](std::vector<Status>, std::vector<std::string> v) { vals = std::move(v); }).ok());
  rig.sim.Run(1000);
  EXPECT_EQ(vals, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(rig.nvm->counters().commands - commands, 2u);
}

TEST(StoreTest, MultiGetReadsABatchInOneVectorCommand) {
  Rig rig;
  StoreOptions o = Opts(10, 1 << 20);
  auto s = DataStore::Create(rig.nvm.get(), o).value();
  for (int i = 0; i < 64; ++i) ASSERT_TRUE(s->Put(Key::Hash(std::to_string(i)), "v" + std::to_string(i), nullptr).ok());
  rig.sim.Run(100000);
  // Keys 0..63 are present; 1000..1015 are not.
  std::vector<Key> keys;
  for (int i = 0; i < 64; ++i) keys.push_back(Key::Hash(std::to_string(i)));
  for (int i = 1000; i < 1016; ++i) keys.push_back(Key::Hash(std::to_string(i)));
  const uint64_t commands = rig.nvm->counters().commands, reads = rig.nvm->counters().reads;
  std::vector<Status> st;
  std::vector<std::string> vals;
  const sim::SimTime t0 = rig.sim.now();
  sim::SimTime t1 = 0;
  ASSERT_TRUE(s->MultiGet(keys, [&](std::vector<Status> a, std::vector<std::string> v) {
                 st = std::move(a);
                 vals = std::move(v);
                 t1 = rig.sim.now();
               }).ok());
  EXPECT_TRUE(st.empty()) << "the answers arrive when the reads complete";
  rig.sim.Run(100000);
  ASSERT_EQ(st.size(), keys.size());
  for (int i = 0; i < 64; ++i) {
    EXPECT_TRUE(st[static_cast<size_t>(i)].ok());
    EXPECT_EQ(vals[static_cast<size_t>(i)], "v" + std::to_string(i));
  }
  for (size_t i = 64; i < keys.size(); ++i) EXPECT_EQ(st[i].code(), StatusCode::kNotFound);
  EXPECT_EQ(rig.nvm->counters().commands - commands, 1u) << "one vector command for the whole batch";
  EXPECT_EQ(rig.nvm->counters().reads - reads, 64u) << "one read per present key, none for absent keys";
  // One vector of 64 entries takes far less than 64 single reads one after another.
  const sim::SimDuration vector_ns = t1 - t0;
  sim::SimTime single_start = rig.sim.now();
  int left = 64;
  std::function<void(int)> one = [&](int i) {
    if (i == 64) return;
    ASSERT_TRUE(s->Get(keys[static_cast<size_t>(i)], [&, i](const Status&, std::string) { --left; one(i + 1); }).ok());
  };
  one(0);
  rig.sim.Run(100000);
  EXPECT_EQ(left, 0);
  EXPECT_LT(vector_ns * 4, rig.sim.now() - single_start);
  // An empty batch answers at once.
  bool empty_done = false;
  ASSERT_TRUE(s->MultiGet({}, [&](std::vector<Status> a, std::vector<std::string>) { empty_done = a.empty(); }).ok());
  EXPECT_TRUE(empty_done);
}

TEST(StoreTest, FullIndexAndFullFileAreClearErrors) {
  Rig rig;
  StoreOptions o = Opts(4, 1 << 20);
  auto s = DataStore::Create(rig.nvm.get(), o).value();
  Status last;
  for (int i = 0; i < 40 && last.ok(); ++i) last = s->Put(Key::FromU64(static_cast<uint64_t>(i) * 16), "v", nullptr);
  EXPECT_EQ(last.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(last.message().find("index bits"), std::string::npos);
  o.index_bits = 10;
  o.region_offset = o.region_bytes;
  o.region_bytes = DataStore::FileBytes(10, 4096);
  auto f = DataStore::Create(rig.nvm.get(), o).value();
  last = Status::Ok();
  for (int i = 0; i < 10 && last.code() != StatusCode::kResourceExhausted; ++i) last = f->Put(Key::FromU64(i), std::string(1000, 'x'), nullptr);
  EXPECT_NE(last.message().find("file is full"), std::string::npos);
}

TEST(StoreTest, RecoversFromCheckpointAndLogTail) {
  for (bool checkpoint : {false, true}) {
    Rig rig;
    StoreOptions o = Opts(12, 4 << 20);
    o.nonce = 99;
    auto s = DataStore::Create(rig.nvm.get(), o).value();
    for (int i = 0; i < 500; ++i) ASSERT_TRUE(s->Put(Key::FromU64(i * 7919), "v" + std::to_string(i), nullptr).ok());
    if (checkpoint) {
      ASSERT_TRUE(s->Checkpoint(nullptr).ok());
    }
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(s->Delete(Key::FromU64(i * 7919), nullptr).ok());
    for (int i = 500; i < 700; ++i) ASSERT_TRUE(s->Put(Key::FromU64(i * 7919), "v" + std::to_string(i), nullptr).ok());
    ASSERT_TRUE(s->Sync(nullptr).ok());
    rig.sim.Run(UINT64_MAX);
    const uint64_t end = s->log_end();
    s.reset();
    RecoveryReport rep;
    auto r = DataStore::Recover(rig.nvm.get(), 0, o.region_bytes, 0, &rep);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(rep.from_checkpoint, checkpoint);
    EXPECT_EQ(rep.replayed_records, checkpoint ? 300u : 800u);
    EXPECT_EQ(rep.log_end, end);
    EXPECT_EQ(rep.end_reason, "end of log");
    auto& st = *r.value();
    EXPECT_EQ(st.live_keys(), 600u);
    for (int i = 0; i < 700; ++i) {
      Status gs;
      std::string v;
      ASSERT_TRUE(st.Get(Key::FromU64(i * 7919), [&](const Status& x, std::string y) { gs = x; v = std::move(y); }).ok());
      rig.sim.Run(UINT64_MAX);
      if (i < 100) {
        EXPECT_EQ(gs.code(), StatusCode::kNotFound) << i;
      } else {
        EXPECT_EQ(v, "v" + std::to_string(i)) << i;
      }
    }
  }
}

TEST(StoreTest, RecoverRejectsAFileThatIsNotAStore) {
  Rig rig;
  auto r = DataStore::Recover(rig.nvm.get(), 0, 1 << 20, 0, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no valid superblock"), std::string::npos);
}

// Random puts, deletes, gets, checkpoints and clean restarts against a std::unordered_map.
TEST(StoreTest, RandomOperationsMatchAModel) {
  const uint64_t seed = TestSeed();
  std::cout << "StoreTest.RandomOperationsMatchAModel seed=" << seed << " (FAWNLAB_TEST_SEED to replay)\n";
  Rig rig(uint64_t{256} << 20);
  StoreOptions o = Opts(14, 200 << 20);
  auto s = DataStore::Create(rig.nvm.get(), o).value();
  std::unordered_map<uint64_t, std::string> model;
  sim::Rng rng(seed);
  for (int i = 0; i < 200000; ++i) {
    uint64_t id = rng.UniformU64(6000);
    Key k = Key::FromU64(id * 0x9E3779B97F4A7C15ull);
    uint64_t op = rng.UniformU64(100);
    if (op < 45) {
      std::string v = std::to_string(i) + std::string(rng.UniformU64(64), 'x');
      ASSERT_TRUE(s->Put(k, v, nullptr).ok()) << "op " << i;
      model[id] = v;
    } else if (op < 60) {
      ASSERT_TRUE(s->Delete(k, nullptr).ok());
      model.erase(id);
    } else if (op < 99) {
      Status gs;
      std::string v;
      ASSERT_TRUE(s->Get(k, [&](const Status& x, std::string y) { gs = x; v = std::move(y); }).ok());
      rig.sim.Run(UINT64_MAX);
      auto it = model.find(id);
      if (it == model.end()) {
        ASSERT_EQ(gs.code(), StatusCode::kNotFound) << "op " << i << " seed " << seed;
      } else {
        ASSERT_TRUE(gs.ok()) << "op " << i << " seed " << seed;
        ASSERT_EQ(v, it->second) << "op " << i << " seed " << seed;
      }
    } else if (rng.Bernoulli(0.5)) {
      ASSERT_TRUE(s->Checkpoint(nullptr).ok());
    } else {
      rig.sim.Run(UINT64_MAX);
      s.reset();
      auto r = DataStore::Recover(rig.nvm.get(), 0, o.region_bytes, 0, nullptr);
      ASSERT_TRUE(r.ok()) << r.status().message();
      s = std::move(r).value();
    }
    if (i % 1000 == 0) rig.sim.Run(UINT64_MAX);
  }
  EXPECT_EQ(s->live_keys(), model.size());
}

// Crashes at random commands through the fault injector; after recovery each key reads back
// as it stood after some prefix of its operations that includes every operation acknowledged
// by a completed Sync — nothing synced is lost, nothing appears that was never written.
TEST(StoreTest, CrashConsistencyAtRandomPoints) {
  const uint64_t seed = TestSeed() + 1;
  std::cout << "StoreTest.CrashConsistencyAtRandomPoints seed=" << seed << "\n";
  sim::Rng rng(seed);
  int crashes = 0;
  for (int run = 0; run < 300; ++run) {
    sim::Simulator sim;
    auto flash = device::MakeDevice(&sim, run % 2 ? "intel-x25m" : "nvm-4ch", uint64_t{1} << 30).value();
    device::FaultInjector f(flash.get());
    StoreOptions o = Opts(10, 4 << 20);
    auto s = DataStore::Create(&f, o).value();
    device::FaultPlan plan;
    plan.crash_at = 1 + rng.UniformU64(400);
    plan.lose_unsynced = rng.Bernoulli(0.7);
    plan.tear_crashing_write = rng.Bernoulli(0.5);
    plan.torn_bytes = static_cast<uint32_t>(rng.UniformU64(f.info().unit_bytes));
    ASSERT_TRUE(f.Arm(plan).ok());
    reliability::CrashHistory history;
    bool crashed = false;
    for (int i = 0; i < 600 && !crashed; ++i) {
      uint64_t id = rng.UniformU64(200);
      Key k = Key::FromU64(id + 1);
      uint64_t op = rng.UniformU64(100);
      Status st;
      if (op < 60) {
        std::string v = "r" + std::to_string(run) + "i" + std::to_string(i);
        st = s->Put(k, v, nullptr);
        // The crashing write itself may land whole (it was in flight): a later state too.
        if (st.ok() || st.code() == StatusCode::kUnavailable) history.Record(id, i, v);
      } else if (op < 75) {
        st = s->Delete(k, nullptr);
        if (st.ok() || st.code() == StatusCode::kUnavailable) history.Record(id, i, "");
        if (st.code() == StatusCode::kNotFound) st = Status::Ok();
      } else {
        const uint64_t token = history.BeginSync();
        auto synced = [&history, token](const Status&) { history.EndSync(token); };
        st = op < 95 ? s->Sync(synced) : s->Checkpoint(synced);
      }
      if (st.ok() && op < 75) history.Submitted(i);  // the append was submitted at the call
      if (st.code() == StatusCode::kUnavailable) crashed = true;
      sim.Run(UINT64_MAX);
    }
    if (!crashed) continue;
    ++crashes;
    f.Restart();
    RecoveryReport rep;
    auto r = DataStore::Recover(&f, 0, o.region_bytes, 0, &rep);
    ASSERT_TRUE(r.ok()) << "run " << run << ": " << r.status().message();
    auto& st = *r.value();
    for (uint64_t id = 0; id < 200; ++id) {
      Status gs;
      std::string got;
      ASSERT_TRUE(st.Get(Key::FromU64(id + 1), [&](const Status& x, std::string y) { gs = x; got = std::move(y); }).ok());
      sim.Run(UINT64_MAX);
      ASSERT_TRUE(gs.ok() || gs.code() == StatusCode::kNotFound) << "run " << run << ": " << gs.message();
      const std::string why = history.Check(id, gs.ok() ? got : "");
      ASSERT_EQ(why, "") << "run " << run << " key " << id << " (crash at command " << plan.crash_at
                         << ", lose_unsynced " << plan.lose_unsynced << ")";
    }
  }
  EXPECT_GT(crashes, 200);
}

}  // namespace
}  // namespace fawnlab::fawnds
