#include "fawnds/lab/session.h"

#include <string>

#include <gtest/gtest.h>

#include "base/json_reader.h"
#include "fawnds/lab/ring.h"
#include "fawnds/record.h"

namespace fawnlab::fawndslab {
namespace {

JsonValue Snap(FawndsSession& s) {
  auto v = ParseJson(s.SnapshotJson());
  EXPECT_TRUE(v.ok());
  return v.value();
}

double Counter(FawndsSession& s, const char* name) { return Snap(s).Find("counters")->Find(name)->number_value(); }

JsonValue Ok(FawndsSession& s, const std::string& op) {
  auto r = s.Apply(op);
  EXPECT_TRUE(r.ok()) << op << ": " << r.status().message();
  if (!r.ok()) return JsonValue();
  return ParseJson(r.value()).value();
}

std::string Err(FawndsSession& s, const std::string& op) {
  auto r = s.Apply(op);
  EXPECT_FALSE(r.ok()) << op << " should be refused";
  return r.ok() ? "" : r.status().message();
}

// Record counts by state over every store's log.
std::array<uint64_t, kRecordStates> States(FawndsSession& s) {
  std::array<uint64_t, kRecordStates> total{};
  for (size_t i = 0; i < s.num_stores(); ++i) {
    auto c = s.Log(i);
    EXPECT_TRUE(c.ok());
    for (int k = 0; k < kRecordStates; ++k) total[k] += c.value().counts[k];
  }
  return total;
}

uint64_t Records(FawndsSession& s) {
  uint64_t n = 0;
  for (uint64_t c : States(s)) n += c;
  return n;
}

// FNV-1a over a store's log columns: a digest for determinism checks.
uint64_t Digest(const LogColumns& c) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (size_t i = 0; i < c.offsets.size(); ++i) {
    mix(c.offsets[i]);
    mix(c.flags[i]);
    mix(c.keys[i]);
  }
  mix(c.log_end);
  return h;
}

TEST(FawndsRingTest, FractionsAndContainment) {
  using fawnds::Key;
  using fawnds::KeyRange;
  auto four = EvenRanges(4);
  ASSERT_EQ(four.size(), 4u);
  EXPECT_EQ(four[1].start.Hex().substr(0, 4), "4000");
  EXPECT_EQ(four[3].end, four[0].start) << "the last range wraps to the first";
  EXPECT_DOUBLE_EQ(RingFraction(four[2].start), 0.5);
  const Key mid = RingAt(four[1], 0.5);
  EXPECT_EQ(mid.Hex().substr(0, 4), "6000");
  EXPECT_TRUE(four[1].Contains(mid));
  EXPECT_EQ(RangeLabel(four[1]), "(4000\u2026, 8000\u2026]");
  EXPECT_EQ(RangeLabel(KeyRange::All()), "the whole ring");
}

TEST(FawndsSessionTest, PutsAppendRecordsDeletesAndCompactionReclaim) {
  auto s = FawndsSession::Create(R"({"stores": 1})", 1).value();
  for (const char* k : {"apple", "banana", "cherry"}) Ok(*s, std::string(R"({"op": "put", "key": ")") + k + R"(", "value": "v"})");
  auto st = States(*s);
  EXPECT_EQ(st[0], 3u) << "three live records";
  EXPECT_EQ(Records(*s), 3u);
  Ok(*s, R"({"op": "put", "key": "apple", "value": "v2"})");
  st = States(*s);
  EXPECT_EQ(st[static_cast<int>(RecordState::kOrphaned)], 1u) << "the first apple is orphaned";
  JsonValue del = Ok(*s, R"({"op": "delete", "key": "banana"})");
  EXPECT_EQ(del.Find("status")->string_value(), "ok");
  st = States(*s);
  EXPECT_EQ(st[0], 2u);
  EXPECT_EQ(st[static_cast<int>(RecordState::kDeleted)], 2u) << "banana's put and its delete record";
  auto cols = s->Log(0).value();
  EXPECT_EQ(cols.flags.back() & kFlagDelete, kFlagDelete);
  EXPECT_EQ(cols.offsets.size(), 5u);
  EXPECT_EQ(cols.offsets[1], fawnds::RecordSize(1));

  JsonValue c = Ok(*s, R"({"op": "compact", "store": 0, "wait": true})");
  EXPECT_TRUE(c.Find("finished")->bool_value());
  st = States(*s);
  EXPECT_EQ(st[0], 2u);
  EXPECT_EQ(Records(*s), 2u) << "compaction keeps only the live records";
  JsonValue g = Ok(*s, R"({"op": "get", "key": "apple"})");
  EXPECT_EQ(g.Find("value")->string_value(), "v2");
  EXPECT_EQ(Ok(*s, R"({"op": "get", "key": "banana"})").Find("status")->string_value(), "not_found");
  JsonValue snap = Snap(*s);
  EXPECT_EQ(snap.Find("maintenance")->Find("last_result")->string_value(), "compact finished");
  EXPECT_EQ(snap.Find("device")->Find("unsynced_bytes")->number_value(), 0)
      << "the compaction's commit synced its writes; the freed old file is a trim, not unsynced data";
  const auto& locks = snap.Find("timeline")->Find("locks")->array_items();
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(locks[0].array_items()[1].number_value() - locks[0].array_items()[0].number_value(), 25e6) << "the SOSP lock";
}

TEST(FawndsSessionTest, LookupShowsProbePathAndReads) {
  auto s = FawndsSession::Create(R"({"stores": 2, "index_bits": 8})", 1).value();
  Ok(*s, R"({"op": "fill", "count": 100})");
  JsonValue g = Ok(*s, R"({"op": "get", "key": "k42"})");
  EXPECT_EQ(g.Find("status")->string_value(), "ok");
  const JsonValue snap = Snap(*s);
  const JsonValue* l = snap.Find("last_lookup");
  ASSERT_TRUE(l && l->is_object());
  const auto& probes = l->Find("probes")->array_items();
  ASSERT_FALSE(probes.empty());
  EXPECT_EQ(probes.back().array_items()[5].string_value(), "hit");
  EXPECT_EQ(probes[0].array_items()[1].number_value(), l->Find("index")->number_value()) << "the first probe is INDEX";
  const auto& reads = l->Find("reads")->array_items();
  ASSERT_GE(reads.size(), 1u);
  EXPECT_FALSE(reads.back().Find("false_positive")->bool_value());
  EXPECT_EQ(g.Find("record_reads")->number_value(), static_cast<double>(reads.size()));
  // A miss examines all 32 probes and reads nothing unless a fragment matches.
  Ok(*s, R"({"op": "get", "key": "no such key"})");
  EXPECT_EQ(Snap(*s).Find("last_lookup")->Find("probes")->array_items().size(), 32u);
  EXPECT_GE(Counter(*s, "reads_per_lookup"), 0.5);
  EXPECT_DOUBLE_EQ(Counter(*s, "index_bytes_per_bucket"), 6);
  EXPECT_NEAR(Counter(*s, "dram_bytes_per_key"), 2 * 256 * 6 / 100.0, 1e-9);
  // The log records 100 puts; writes cost at least their bytes.
  EXPECT_GE(Counter(*s, "write_amplification"), 1.0);
}

TEST(FawndsSessionTest, CrashLosesUnsyncedWritesAndRecoveryReplaysTheLog) {
  auto s = FawndsSession::Create(R"({"stores": 2})", 4).value();
  Ok(*s, R"({"op": "put", "key": "a", "value": "1"})");
  Ok(*s, R"({"op": "put", "key": "b", "value": "2"})");
  Ok(*s, R"({"op": "sync"})");
  Ok(*s, R"({"op": "put", "key": "c", "value": "3"})");
  EXPECT_GT(Snap(*s).Find("device")->Find("unsynced_bytes")->number_value(), 0);
  JsonValue crash = Ok(*s, R"({"op": "crash"})");
  EXPECT_EQ(crash.Find("lost_records")->number_value(), 1) << "c was never synced";
  EXPECT_TRUE(s->crashed());
  auto st = States(*s);
  EXPECT_EQ(st[static_cast<int>(RecordState::kLost)], 1u);
  EXPECT_NE(Err(*s, R"({"op": "get", "key": "a"})").find("crashed"), std::string::npos);
  EXPECT_FALSE(s->Index(0, 0, 16, 1).ok());
  s->Advance(100 * sim::kMs, 1000000);
  JsonValue rec = Ok(*s, R"({"op": "recover"})");
  EXPECT_EQ(rec.Find("replayed_records")->number_value(), 2) << "no checkpoint: the whole log is replayed";
  EXPECT_EQ(Ok(*s, R"({"op": "get", "key": "a"})").Find("value")->string_value(), "1");
  EXPECT_EQ(Ok(*s, R"({"op": "get", "key": "b"})").Find("value")->string_value(), "2");
  EXPECT_EQ(Ok(*s, R"({"op": "get", "key": "c"})").Find("status")->string_value(), "not_found");
  JsonValue snap = Snap(*s);
  const auto& files = snap.Find("recovery")->Find("stores")->array_items();
  ASSERT_EQ(files.size(), 2u);
  EXPECT_FALSE(files[0].Find("from_checkpoint")->bool_value());
  EXPECT_NE(Err(*s, R"({"op": "recover"})").find("running"), std::string::npos);
  // Records the recovery replayed are flagged for the view.
  uint64_t replayed = 0;
  for (size_t i = 0; i < s->num_stores(); ++i) {
    const LogColumns c = s->Log(i).value();
    for (uint8_t f : c.flags) replayed += (f & kFlagReplayed) ? 1 : 0;
  }
  EXPECT_EQ(replayed, 2u);
}

TEST(FawndsSessionTest, CheckpointBoundsReplayToTheTail) {
  auto s = FawndsSession::Create(R"({"stores": 1, "index_bits": 10})", 2).value();
  Ok(*s, R"({"op": "fill", "count": 300})");
  Ok(*s, R"({"op": "checkpoint"})");
  Ok(*s, R"({"op": "fill", "count": 20, "from": 1000})");
  Ok(*s, R"({"op": "crash"})");
  JsonValue rec = Ok(*s, R"({"op": "recover"})");
  EXPECT_EQ(rec.Find("replayed_records")->number_value(), 20);
  const JsonValue snap = Snap(*s);
  const auto& files = snap.Find("recovery")->Find("stores")->array_items();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(files[0].Find("from_checkpoint")->bool_value());
  EXPECT_EQ(States(*s)[0], 320u);
}

TEST(FawndsSessionTest, SplitLeavesOutOfRangeRecordsAndMergeRejoins) {
  auto s = FawndsSession::Create(R"({"stores": 1, "index_bits": 11})", 3).value();
  Ok(*s, R"({"op": "fill", "count": 400})");
  JsonValue sp = Ok(*s, R"({"op": "split", "store": 0, "fraction": 0.5, "wait": true})");
  EXPECT_EQ(sp.Find("at_hex")->string_value().substr(0, 4), "8000");
  ASSERT_EQ(s->num_stores(), 2u);
  auto src = s->Log(0).value();
  EXPECT_GT(src.counts[static_cast<int>(RecordState::kOutOfRange)], 100u) << "the moved half stays behind until compaction";
  EXPECT_EQ(src.counts[0] + s->Log(1).value().counts[0], 400u);
  for (int i = 0; i < 400; i += 37) {
    EXPECT_EQ(Ok(*s, R"({"op": "get", "key": "k)" + std::to_string(i) + R"("})").Find("status")->string_value(), "ok");
  }
  Ok(*s, R"({"op": "merge", "a": 0, "b": 1, "wait": true})");
  ASSERT_EQ(s->num_stores(), 1u);
  EXPECT_EQ(States(*s)[0], 400u);
}

TEST(FawndsSessionTest, CrashDuringCompactionKeepsTheOldFile) {
  auto s = FawndsSession::Create(R"({"stores": 2, "index_bits": 12, "value_bytes": 512})", 5).value();
  Ok(*s, R"({"op": "fill", "count": 1500})");
  Ok(*s, R"({"op": "delete-many", "count": 500, "step": 3})");
  Ok(*s, R"({"op": "compact", "store": 0})");
  s->Advance(20 * sim::kMs, 10000000);
  JsonValue snap = Snap(*s);
  ASSERT_TRUE(snap.Find("maintenance")->Find("running")->bool_value()) << "still copying";
  EXPECT_EQ(s->Busy(), 1) << "the page slows down for a running compaction (scanning)";
  EXPECT_EQ(snap.Find("stores")->array_items().size(), 3u) << "two stores and the one being built";
  EXPECT_GT(s->Log(2).value().offsets.size(), 0u);
  Ok(*s, R"({"op": "crash"})");
  EXPECT_EQ(s->Busy(), 0) << "a crashed node runs nothing";
  JsonValue rec = Ok(*s, R"({"op": "recover"})");
  EXPECT_EQ(rec.Find("stores")->number_value(), 2);
  const JsonValue after = Snap(*s);
  EXPECT_EQ(after.Find("stores")->array_items().size(), 2u) << "the unfinished copy is not listed";
  for (int i = 0; i < 1500; i += 7) {
    const std::string want = i % 3 == 0 && i < 1500 ? "not_found" : "ok";
    EXPECT_EQ(Ok(*s, R"({"op": "get", "key": "k)" + std::to_string(i) + R"("})").Find("status")->string_value(), want) << i;
  }
}

TEST(FawndsSessionTest, MaintenanceUnderLoadHoldsRequestsDuringTheLock) {
  auto s = FawndsSession::Create(R"({"stores": 2, "load_rate_per_s": 500, "load_keys": 300, "lock_hold_us": 20})", 6).value();
  s->Advance(2 * sim::kSec, 50000000);
  EXPECT_GT(Counter(*s, "ops_completed"), 600);
  EXPECT_GT(Counter(*s, "qps"), 300);
  Ok(*s, R"({"op": "compact", "store": 1})");
  for (int i = 0; i < 2000 && Snap(*s).Find("maintenance")->Find("running")->bool_value(); ++i) s->Advance(sim::kMs, 1000000);
  JsonValue snap = Snap(*s);
  EXPECT_FALSE(snap.Find("maintenance")->Find("running")->bool_value());
  const auto& locks = snap.Find("timeline")->Find("locks")->array_items();
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(locks[0].array_items()[1].number_value() - locks[0].array_items()[0].number_value(), 20000) << "the thesis's µs lock";
  EXPECT_EQ(snap.Find("load")->Find("errors")->number_value(), 0);
  EXPECT_TRUE(s->Reconfigure(R"({"load_rate_per_s": 0})").ok());
  EXPECT_FALSE(s->Reconfigure(R"({"stores": 3})").ok());
}

TEST(FawndsSessionTest, DeterministicByDigest) {
  const std::string config = R"({"stores": 3, "load_rate_per_s": 800, "load_put_fraction": 0.7, "load_keys": 500,
                                 "script": [{"op": "fill", "count": 200}]})";
  auto a = FawndsSession::Create(config, 9).value();
  auto b = FawndsSession::Create(config, 9).value();
  auto c = FawndsSession::Create(config, 10).value();
  for (auto* s : {a.get(), b.get(), c.get()}) {
    s->Advance(300 * sim::kMs, 10000000);
    Ok(*s, R"({"op": "compact", "store": 0})");
    s->Advance(300 * sim::kMs, 10000000);
  }
  EXPECT_EQ(a->SnapshotJson(), b->SnapshotJson());
  uint64_t da = 0, db = 0, dc = 0;
  for (size_t i = 0; i < a->num_stores(); ++i) {
    da = da * 31 + Digest(a->Log(i).value());
    db = db * 31 + Digest(b->Log(i).value());
    if (i < c->num_stores()) dc = dc * 31 + Digest(c->Log(i).value());
  }
  std::cout << "seed 9 log digest " << da << "\n";
  EXPECT_EQ(da, db);
  EXPECT_NE(da, dc) << "another seed, another run";
}

TEST(FawndsSessionTest, BadInputGetsAClearError) {
  auto s = FawndsSession::Create(R"({"stores": 4})", 1).value();
  EXPECT_NE(Err(*s, R"({"op": "put", "key": ""})").find("key must be 1 to 128"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "put", "key": 7})").find("'key' must be a string"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "compact", "store": 9})").find("the node has 4 stores (0–3)"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "compact", "store": 1.5})").find("'store' must be an integer"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "split", "store": 0, "fraction": 1.5})").find("'fraction' must be a number strictly between 0 and 1"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "split", "store": 0, "fraction": 1})").find("strictly between 0 and 1"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "split", "store": 0, "fractoin": 0.5})").find("unknown field 'fractoin'"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "merge", "a": 0, "b": 2})").find("not adjacent"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "explode"})").find("unknown operation 'explode'"), std::string::npos);
  EXPECT_NE(Err(*s, R"(not json)").find("operation"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "fill", "count": 0})").find("'count'"), std::string::npos);
  EXPECT_FALSE(s->Log(7).ok());
  EXPECT_FALSE(s->Index(0, 0, 5000, 1).ok());
  Ok(*s, R"({"op": "compact", "store": 0})");
  EXPECT_NE(Err(*s, R"({"op": "compact", "store": 1})").find("already running"), std::string::npos);
  Ok(*s, R"({"op": "crash"})");
  EXPECT_NE(Err(*s, R"({"op": "crash"})").find("already crashed"), std::string::npos);
  EXPECT_NE(Err(*s, R"({"op": "compact", "store": 0})").find("recover it first"), std::string::npos);

  auto bad = FawndsSession::Create(R"({"capacity_mb": 64, "file_mb": 16, "stores": 4})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("stores + 1 = 5"), std::string::npos) << bad.status().message();
  bad = FawndsSession::Create(R"({"index_bits": 22, "file_mb": 16})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("index images"), std::string::npos) << bad.status().message();
  bad = FawndsSession::Create(R"({"profile": "floppy"})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("profile"), std::string::npos);
  bad = FawndsSession::Create(R"({"script": [{"op": "get", "key": ""}]})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("script operation 0"), std::string::npos);
}

TEST(FawndsSessionTest, IndexCellsShowBucketsAndAggregate) {
  auto s = FawndsSession::Create(R"({"stores": 1, "index_bits": 10})", 1).value();
  Ok(*s, R"({"op": "fill", "count": 200})");
  auto one = s->Index(0, 0, 1024, 1).value();
  uint64_t valid = 0;
  for (size_t i = 0; i < one.valid.size(); ++i) {
    valid += one.valid[i];
    EXPECT_EQ(one.valid[i] != 0, (one.fragments[i] & 0x8000) != 0);
  }
  EXPECT_EQ(valid, 200u);
  auto grouped = s->Index(0, 0, 64, 16).value();
  uint64_t v2 = 0;
  for (uint16_t v : grouped.valid) v2 += v;
  EXPECT_EQ(v2, 200u);
  EXPECT_TRUE(grouped.fragments.empty());
}

}  // namespace
}  // namespace fawnlab::fawndslab
