// The Stores session: every chosen store gets the same stream and serves it (values checked),
// a slow store queues, the page's operations reach every store, events come from background
// jobs, bad configs are refused naming the field, and one seed gives one run.
#include "stores/lab/session.h"

#include <string>

#include <gtest/gtest.h>

#include "base/json_reader.h"

namespace fawnlab::stores {
namespace {

JsonValue Snap(StoresSession* s) {
  auto v = ParseJson(s->SnapshotJson());
  EXPECT_TRUE(v.ok());
  return v.ok() ? v.value() : JsonValue();
}

const JsonValue& Field(const JsonValue& o, const char* k) {
  const JsonValue* v = o.Find(k);
  EXPECT_NE(v, nullptr) << k;
  static const JsonValue null;
  return v ? *v : null;
}

double Num(const JsonValue& o, const char* k) { return Field(o, k).number_value(); }

std::unique_ptr<StoresSession> MustCreate(const std::string& config, uint64_t seed = 1) {
  auto s = StoresSession::Create(config, seed);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(s).value() : nullptr;
}

// Stops the arrivals and lets every queue drain.
void Drain(StoresSession* s) {
  ASSERT_TRUE(s->Reconfigure(R"({"rate_ops_per_s": 0})").ok());
  for (int i = 0; i < 200; ++i) {
    bool empty = true;
    for (size_t j = 0; j < s->lanes(); ++j) empty = empty && s->queued(j) == 0;
    if (empty) return;
    s->Advance(100 * sim::kMs, 50'000'000);
  }
  FAIL() << "the queues did not drain";
}

TEST(StoresSessionTest, DefaultsRunTheChosenStoresSideBySide) {
  auto s = MustCreate("{}");
  ASSERT_TRUE(s);
  s->Advance(500 * sim::kMs, 50'000'000);
  const JsonValue snap = Snap(s.get());
  const auto& stores = Field(snap, "stores").array_items();
  const auto& skipped = Field(snap, "skipped").array_items();
  // cona, silt and lsm are on by default: each runs or is skipped with its reason.
  EXPECT_EQ(stores.size() + skipped.size(), 3u);
  ASSERT_FALSE(stores.empty());
  EXPECT_EQ(Field(stores[0], "kind").string_value(), "cona");
  for (const JsonValue& st : stores) {
    SCOPED_TRACE(Field(st, "kind").string_value());
    EXPECT_GT(Num(st, "ops"), 0);
    EXPECT_GT(Num(st, "writes"), 0) << "the default workload is the load: puts of new records";
    EXPECT_EQ(Num(st, "mismatches"), 0);
    EXPECT_EQ(Num(st, "errors"), 0) << Field(st, "last_error").string_value();
    EXPECT_GT(Num(st, "dram_bytes"), 0);
    EXPECT_GT(Num(st, "store_wa"), 0);
    EXPECT_GT(Num(st, "joules_per_op"), 0);
    for (const char* k : {"label", "queued", "reads", "write_iops", "read_iops", "read_p50_us", "read_p99_us",
                          "write_p50_us", "write_p99_us", "dram_bytes_per_key", "lookup_reads_per_get", "ftl_wa",
                          "stall_pct", "background_busy_pct", "structure"}) {
      EXPECT_NE(st.Find(k), nullptr) << k;
    }
    EXPECT_TRUE(Field(st, "structure").is_object());
  }
  for (const JsonValue& k : skipped) EXPECT_NE(Field(k, "reason").string_value().find("not built yet"), std::string::npos);
  for (const char* k : {"t_ns", "workload", "ops_offered", "last_get", "events"}) EXPECT_NE(snap.Find(k), nullptr) << k;
  EXPECT_TRUE(Field(snap, "last_get").is_null());
  EXPECT_GT(Num(snap, "ops_offered"), 500) << "2000 ops/s for half a second";
}

TEST(StoresSessionTest, EveryStoreServesTheSameStreamAndReadsTheRightValues) {
  for (const char* w : {"a", "b", "c", "d", "e", "f"}) {
    SCOPED_TRACE(w);
    auto s = MustCreate(std::string(R"({"cona": true, "cona_1t": true, "silt": false, "lsm": false, "fawnds": true,
        "btree": true, "records": 600, "rate_ops_per_s": 5000, "workload": ")") + w + "\"}");
    ASSERT_TRUE(s);
    auto r = s->Apply(R"({"op": "run_until", "ops": 600})");
    ASSERT_TRUE(r.ok()) << r.status().message();
    Drain(s.get());
    const JsonValue snap = Snap(s.get());
    const auto& stores = Field(snap, "stores").array_items();
    ASSERT_EQ(stores.size() + Field(snap, "skipped").array_items().size(), 4u);  // those not built yet are skipped
    ASSERT_GE(stores.size(), 2u);
    for (const JsonValue& st : stores) {
      SCOPED_TRACE(Field(st, "kind").string_value());
      EXPECT_EQ(Num(st, "mismatches"), 0) << Field(st, "last_error").string_value();
      EXPECT_EQ(Num(st, "errors"), 0) << Field(st, "last_error").string_value();
      EXPECT_EQ(Num(st, "queued"), 0);
      // The same stream: the same writes everywhere, and the same reads (scans a store
      // without order skips are counted instead).
      EXPECT_EQ(Num(st, "writes"), Num(stores[0], "writes"));
      EXPECT_EQ(Num(st, "reads") + Num(st, "skipped_scans"), Num(stores[0], "reads") + Num(stores[0], "skipped_scans"));
    }
    if (std::string(w) == "c") {
      EXPECT_EQ(Num(stores[0], "writes"), 0);
    }
    EXPECT_GE(Num(stores[0], "reads") + Num(stores[0], "writes") + Num(stores[0], "skipped_scans"), 600);
  }
}

TEST(StoresSessionTest, PutAndGetReachEveryStore) {
  auto s = MustCreate(R"({"cona": true, "fawnds": true, "silt": false, "lsm": false, "records": 500})");
  ASSERT_TRUE(s);
  auto put = s->Apply(R"({"op": "put", "key": "alice", "value": "hello"})");
  ASSERT_TRUE(put.ok()) << put.status().message();
  auto got = s->Apply(R"({"op": "get", "key": "alice"})");
  ASSERT_TRUE(got.ok()) << got.status().message();
  auto v = ParseJson(got.value());
  ASSERT_TRUE(v.ok());
  const auto& per = Field(v.value(), "per_store").array_items();
  ASSERT_EQ(per.size(), s->lanes());
  ASSERT_GE(per.size(), 1u);
  for (const JsonValue& p : per) {
    EXPECT_TRUE(Field(p, "found").bool_value()) << Field(p, "kind").string_value();
    EXPECT_GT(Num(p, "latency_us"), 0);
  }
  ASSERT_TRUE(s->Apply(R"({"op": "get", "key": "nobody"})").ok());
  JsonValue snap = Snap(s.get());
  const JsonValue& last = Field(snap, "last_get");
  ASSERT_TRUE(last.is_object());
  EXPECT_EQ(Field(last, "key").string_value(), "nobody");
  for (const JsonValue& p : Field(last, "per_store").array_items()) {
    EXPECT_FALSE(Field(p, "found").bool_value());
    EXPECT_NE(p.Find("device_reads"), nullptr);
  }
  ASSERT_TRUE(s->Apply(R"({"op": "get", "record": 42})").ok());
  snap = Snap(s.get());
  for (const JsonValue& p : Field(Field(snap, "last_get"), "per_store").array_items()) EXPECT_TRUE(Field(p, "found").bool_value());
  // Bad arguments name the problem.
  auto bad = s->Apply(R"({"op": "get", "record": 500})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("record"), std::string::npos);
  bad = s->Apply(R"({"op": "get"})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("key"), std::string::npos);
  bad = s->Apply(std::string(R"({"op": "put", "key": "k", "value": ")") + std::string(201, 'x') + "\"}");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("200"), std::string::npos);
}

TEST(StoresSessionTest, FillPutsNewRecordsIntoEveryStore) {
  auto s = MustCreate(R"({"cona": true, "btree": true, "silt": false, "lsm": false, "records": 0, "rate_ops_per_s": 0})");
  ASSERT_TRUE(s);
  auto r = s->Apply(R"({"op": "fill", "count": 3000})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto v = ParseJson(r.value());
  ASSERT_TRUE(v.ok());
  for (const JsonValue& p : Field(v.value(), "per_store").array_items()) {
    EXPECT_EQ(Num(p, "writes"), 3000);
    EXPECT_GT(Num(p, "writes_per_s"), 0);
  }
  EXPECT_EQ(s->records(), 3000u);
  ASSERT_TRUE(s->Apply(R"({"op": "get", "record": 2999})").ok());
  const JsonValue snap = Snap(s.get());
  for (const JsonValue& p : Field(Field(snap, "last_get"), "per_store").array_items()) EXPECT_TRUE(Field(p, "found").bool_value());
  auto bad = s->Apply(R"({"op": "fill", "count": 500000})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("max_writes"), std::string::npos);
  bad = s->Apply(R"({"op": "run_until", "ops": 10})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("rate_ops_per_s"), std::string::npos);
}

TEST(StoresSessionTest, AStoreThatCannotKeepUpBuildsAQueueThatDrains) {
  // A million puts a second is more than any store here takes (CONA's ~500K at best).
  auto s = MustCreate(R"({"cona": true, "cona_1t": true, "btree": true, "silt": false, "lsm": false, "records": 1000,
      "rate_ops_per_s": 1000000})");
  ASSERT_TRUE(s);
  s->Advance(5 * sim::kMs, 50'000'000);
  JsonValue snap = Snap(s.get());
  for (const JsonValue& st : Field(snap, "stores").array_items()) {
    EXPECT_GT(Num(st, "queued"), 100) << Field(st, "kind").string_value();
  }
  Drain(s.get());
  snap = Snap(s.get());
  for (const JsonValue& st : Field(snap, "stores").array_items()) {
    EXPECT_EQ(Num(st, "queued"), 0) << Field(st, "kind").string_value();
    EXPECT_EQ(Num(st, "writes"), Num(snap, "ops_offered")) << Field(st, "kind").string_value();
    EXPECT_EQ(Num(st, "mismatches"), 0);
  }
}

TEST(StoresSessionTest, BackgroundJobsBecomeEvents) {
  auto s = MustCreate(R"({"cona": true, "silt": false, "lsm": false, "records": 0, "rate_ops_per_s": 20000})");
  ASSERT_TRUE(s);
  s->Advance(1000 * sim::kMs, 100'000'000);
  const JsonValue snap = Snap(s.get());
  const auto& events = Field(snap, "events").array_items();
  ASSERT_FALSE(events.empty()) << "20K puts give CONA merges";
  EXPECT_LE(events.size(), StoresSession::kEvents);
  for (const JsonValue& e : events) {
    EXPECT_EQ(Field(e, "kind").string_value(), "merge");
    EXPECT_EQ(Field(e, "store").string_value(), "cona");
    EXPECT_FALSE(Field(e, "detail").string_value().empty());
  }
}

TEST(StoresSessionTest, TheTimelineHasAColumnPerStore) {
  auto s = MustCreate(R"({"cona": true, "cona_1t": true, "silt": false, "lsm": false})");
  ASSERT_TRUE(s);
  s->Advance(300 * sim::kMs, 50'000'000);
  auto c = s->Columns("timeline", "");
  ASSERT_TRUE(c.ok()) << c.status().message();
  const Column* t = c.value().Find("t_ns");
  ASSERT_NE(t, nullptr);
  EXPECT_GE(t->f64.size(), 5u);
  for (const char* k : {"cona_writes_per_s", "cona1t_writes_per_s", "cona_reads_per_s", "cona1t_queued"}) {
    const Column* col = c.value().Find(k);
    ASSERT_NE(col, nullptr) << k;
    EXPECT_EQ(col->f64.size(), t->f64.size()) << k;
  }
}

TEST(StoresSessionTest, ScansAreSkippedByTheStoresWithoutOrder) {
  auto s = MustCreate(R"({"cona": true, "silt": true, "lsm": false, "records": 500, "workload": "e",
      "rate_ops_per_s": 2000})");
  ASSERT_TRUE(s);
  s->Advance(500 * sim::kMs, 50'000'000);
  const JsonValue snap = Snap(s.get());
  for (const JsonValue& st : Field(snap, "stores").array_items()) {
    const std::string kind = Field(st, "kind").string_value();
    if (kind == "silt") {
      EXPECT_GT(Num(st, "skipped_scans"), 0) << "SILT keeps no order";
    } else {
      EXPECT_EQ(Num(st, "skipped_scans"), 0) << kind;
    }
    EXPECT_EQ(Num(st, "mismatches"), 0) << kind;
  }
}

TEST(StoresSessionTest, TheHostSetsTheSpeed) {
  auto latency = [](const char* host) {
    auto s = MustCreate(std::string(R"({"cona": true, "silt": false, "lsm": false, "records": 500, "host": ")") + host + "\"}");
    if (!s) return 0.0;
    s->Advance(300 * sim::kMs, 50'000'000);
    return Num(Field(Snap(s.get()), "stores").array_items()[0], "write_p50_us");
  };
  // The FAWN node's Geode is ~50x slower than the laptop's i7 (stores/host.h).
  EXPECT_GT(latency("fawn"), 10 * latency("laptop"));
}

TEST(StoresSessionTest, BadConfigsAreRefusedNamingTheField) {
  auto s = StoresSession::Create(R"({"cona": false, "silt": false, "lsm": false})", 1);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("cona_1t"), std::string::npos) << s.status().message();
  s = StoresSession::Create(R"({"records": 5000, "max_writes": 2000})", 1);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("max_writes"), std::string::npos) << s.status().message();
  s = StoresSession::Create(R"({"host": "mainframe"})", 1);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("host"), std::string::npos) << s.status().message();
  s = StoresSession::Create(R"({"bloom_bits": 30})", 1);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("bloom_bits"), std::string::npos) << s.status().message();
}

TEST(StoresSessionTest, OneSeedOneRunAndSeedsDiffer) {
  const std::string config = R"({"cona": true, "fawnds": true, "silt": true, "lsm": true, "workload": "a", "records": 800})";
  auto run = [&](uint64_t seed) {
    auto s = MustCreate(config, seed);
    if (!s) return std::string();
    s->Advance(300 * sim::kMs, 50'000'000);
    EXPECT_TRUE(s->Apply(R"({"op": "get", "record": 7})").ok());
    s->Advance(100 * sim::kMs, 50'000'000);
    return s->SnapshotJson();
  };
  const std::string a = run(3), b = run(3), c = run(4);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

}  // namespace
}  // namespace fawnlab::stores
