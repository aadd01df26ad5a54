#include "vecio/lab/net_session.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/json_reader.h"

namespace fawnlab::vecio {
namespace {

std::unique_ptr<NetSession> Make(const std::string& config, uint64_t seed = 1) {
  auto s = NetSession::Create(config, seed);
  EXPECT_TRUE(s.ok()) << config << ": " << s.status().message();
  return s.ok() ? std::move(s).value() : nullptr;
}

JsonValue Snap(NetSession& s) {
  auto v = ParseJson(s.SnapshotJson());
  EXPECT_TRUE(v.ok()) << v.status().message();
  return v.ok() ? v.value() : JsonValue();
}

double Num(const JsonValue& v, const std::string& a, const std::string& b) { return v.Find(a)->Find(b)->number_value(); }

// The core-µs per lookup of cost kind `kind` in the snapshot.
double UsPerKey(const JsonValue& snap, const std::string& kind) {
  const JsonValue* cost = snap.Find("cost");
  const auto& kinds = cost->Find("kinds")->array_items();
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i].string_value() == kind) return cost->Find("us_per_key")->array_items()[i].number_value();
  }
  ADD_FAILURE() << "no cost kind " << kind;
  return 0;
}

TEST(VectorNetSessionTest, DefaultsServeTheOfferedLoadAndTheSnapshotHasEveryPart) {
  auto s = Make("{}");
  ASSERT_TRUE(s);
  s->Advance(60 * sim::kMs, 50'000'000);
  const JsonValue snap = Snap(*s);
  for (const char* f : {"t_ns", "window_ns", "config", "path", "rates", "latency_us", "cost", "core_busy", "queue_depth", "channels",
                        "inflight", "trail", "totals"}) {
    EXPECT_NE(snap.Find(f), nullptr) << f;
  }
  EXPECT_EQ(snap.Find("path")->string_value(), "direct");
  EXPECT_EQ(snap.Find("window_ns")->number_value(), static_cast<double>(NetSession::kWindowNs));
  const double offered = Num(snap, "rates", "offered_per_s"), thr = Num(snap, "rates", "throughput_per_s");
  EXPECT_NEAR(offered, 50000, 7500);
  EXPECT_NEAR(thr, offered, 0.15 * offered) << "50K/s is far below G1's capacity: served as offered";
  // Unloaded: a round trip of ~100 µs plus the stacks, well under a millisecond.
  EXPECT_GT(Num(snap, "latency_us", "p50"), 100);
  EXPECT_LT(Num(snap, "latency_us", "p50"), 1000);
  EXPECT_GE(Num(snap, "latency_us", "p99"), Num(snap, "latency_us", "p50"));
  EXPECT_EQ(snap.Find("core_busy")->array_items().size(), static_cast<size_t>(s->system().cores()));
  EXPECT_EQ(snap.Find("queue_depth")->array_items().size(), 25u);
  EXPECT_EQ(snap.Find("channels")->Find("occupied")->array_items().size(), 4u);
  // The cores' time by kind adds up to the cores busy; each kind priced per lookup.
  double sum = 0;
  for (const JsonValue& v : snap.Find("cost")->Find("cores")->array_items()) sum += v.number_value();
  EXPECT_NEAR(sum, Num(snap, "cost", "cores_busy"), 0.01);
  EXPECT_GT(Num(snap, "cost", "cores_busy"), 0);
  for (const char* k : {"nic_irq", "tcp", "syscall", "rpc", "lookup", "submit", "io_irq"}) EXPECT_GT(UsPerKey(snap, k), 0) << k;
  EXPECT_EQ(snap.Find("trail")->array_items().size(), 3u) << "one operating point per 20 ms: at 20, 40 and 60 ms";
}

TEST(VectorNetSessionTest, TheInFlightListCountsEveryStageAndListsAtMostItsCap) {
  auto s = Make(R"({"load_per_s": 150000})");
  ASSERT_TRUE(s);
  s->Advance(30 * sim::kMs, 50'000'000);
  const JsonValue snap = Snap(*s);
  const JsonValue* in = snap.Find("inflight");
  EXPECT_EQ(in->Find("stages")->array_items().size(), static_cast<size_t>(Stage::kCount));
  double rpcs = 0;
  for (const JsonValue& v : in->Find("rpcs_at")->array_items()) rpcs += v.number_value();
  EXPECT_EQ(rpcs, in->Find("total")->number_value());
  EXPECT_GT(rpcs, 0);
  const auto& listed = in->Find("rpcs")->array_items();
  EXPECT_EQ(listed.size(), std::min<size_t>(static_cast<size_t>(rpcs), NetSession::kMaxListed));
  for (const JsonValue& r : listed) {
    ASSERT_EQ(r.array_items().size(), 6u);
    EXPECT_LT(r.array_items()[1].number_value(), static_cast<double>(Stage::kCount));
    EXPECT_GE(r.array_items()[5].number_value(), 0);
  }
}

// The widths change live, and the per-RPC costs (packets, TCP, RPC) and the per-I/O ones
// (submit, storage interrupt, wake-up) per lookup shrink as G and R grow.
TEST(VectorNetSessionTest, WideningGAndRLiveShrinksThePerRpcAndPerIoCostsPerLookup) {
  auto s = Make(R"({"load_per_s": 100000})");
  ASSERT_TRUE(s);
  s->Advance(40 * sim::kMs, 50'000'000);
  const JsonValue narrow = Snap(*s);
  ASSERT_TRUE(s->Reconfigure(R"({"multiget": 16, "multiread": 16})").ok());
  s->Advance(60 * sim::kMs, 50'000'000);
  const JsonValue wide = Snap(*s);
  EXPECT_EQ(wide.Find("config")->Find("multiget")->number_value(), 16);
  EXPECT_EQ(wide.Find("config")->Find("multiread")->number_value(), 16);
  for (const char* k : {"tcp", "syscall", "rpc", "submit", "io_irq"}) {
    EXPECT_LT(UsPerKey(wide, k), 0.5 * UsPerKey(narrow, k)) << k;
  }
  EXPECT_NEAR(UsPerKey(wide, "lookup"), UsPerKey(narrow, "lookup"), 0.3 * UsPerKey(narrow, "lookup")) << "paid per key either way";
  EXPECT_LT(Num(wide, "rates", "commands_per_s"), 0.25 * Num(narrow, "rates", "commands_per_s"));
  EXPECT_LT(Num(wide, "rates", "rpcs_per_s"), 0.25 * Num(narrow, "rates", "rpcs_per_s"));
}

TEST(VectorNetSessionTest, ANarrowerMultigetThanMultireadTakesTheQueue) {
  auto s = Make(R"({"multiget": 1, "multiread": 8, "queue_timeout_us": 200})");
  ASSERT_TRUE(s);
  EXPECT_EQ(Snap(*s).Find("path")->string_value(), "queue");
  s->Advance(40 * sim::kMs, 50'000'000);
  const JsonValue snap = Snap(*s);
  EXPECT_GT(UsPerKey(snap, "queue"), 0) << "every key is enqueued and dequeued";
  EXPECT_GT(Num(snap, "rates", "throughput_per_s"), 0);
  ASSERT_TRUE(s->Reconfigure(R"({"pattern": "queue", "multiget": 8})").ok());
  EXPECT_EQ(Snap(*s).Find("path")->string_value(), "queue");
  ASSERT_TRUE(s->Reconfigure(R"({"pattern": "auto"})").ok());
  EXPECT_EQ(Snap(*s).Find("path")->string_value(), "direct");
}

TEST(VectorNetSessionTest, TraceFollowsTheNextRpcThroughItsStagesInOrder) {
  auto s = Make(R"({"multiget": 4, "multiread": 4})");
  ASSERT_TRUE(s);
  s->Advance(5 * sim::kMs, 50'000'000);
  const sim::SimTime before = s->now();
  auto r = s->Apply(R"({"op": "trace"})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_GT(s->now(), before) << "virtual time moves";
  const JsonValue t = ParseJson(r.value()).value();
  EXPECT_EQ(t.Find("keys")->number_value(), 4);
  const auto& stages = t.Find("stages")->array_items();
  ASSERT_GE(stages.size(), 5u);
  EXPECT_EQ(stages.front().Find("stage")->string_value(), "client");
  std::vector<std::string> names;
  double last = -1;
  for (const JsonValue& st : stages) {
    names.push_back(st.Find("stage")->string_value());
    EXPECT_GE(st.Find("at_us")->number_value(), last);
    last = st.Find("at_us")->number_value();
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "device"), names.end());
  EXPECT_GT(t.Find("latency_us")->number_value(), last);
  EXPECT_GT(t.Find("latency_us")->number_value(), 100);
}

TEST(VectorNetSessionTest, StructuralFieldsAndBadWidthsAreRefusedByName) {
  auto s = Make("{}");
  ASSERT_TRUE(s);
  Status st = s->Reconfigure(R"({"cores": 2})");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cores"), std::string::npos) << st.message();
  st = s->Reconfigure(R"({"multiget": 0})");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("multiget"), std::string::npos) << st.message();
  auto bad = NetSession::Create(R"({"multiread": 300})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("multiread"), std::string::npos) << bad.status().message();
  bad = NetSession::Create(R"({"host": "pentium"})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("host"), std::string::npos) << bad.status().message();
}

TEST(VectorNetSessionTest, HostChoicesComeFromTheProfilesWithTheirLabels) {
  const SessionInfo* info = FindSession("vector.net");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->lab, "vector");
  EXPECT_EQ(info->view, "net");
  for (const ParamSpec& p : info->params) {
    if (p.name != "host") continue;
    ASSERT_EQ(p.choices.size(), HostProfiles().size());
    for (size_t i = 0; i < p.choices.size(); ++i) {
      EXPECT_EQ(p.choices[i], HostProfiles()[i].id);
      EXPECT_EQ(p.labels[i], HostProfiles()[i].label);
    }
    return;
  }
  ADD_FAILURE() << "no host parameter";
}

TEST(VectorNetSessionTest, OneSeedGivesOneRunAndTwoSeedsTwo) {
  auto run = [](uint64_t seed) {
    auto s = Make(R"({"load_per_s": 80000, "multiget": 2})", seed);
    s->Advance(25 * sim::kMs, 50'000'000);
    return s->SnapshotJson();
  };
  EXPECT_EQ(run(7), run(7));
  EXPECT_NE(run(7), run(8));
}

}  // namespace
}  // namespace fawnlab::vecio
