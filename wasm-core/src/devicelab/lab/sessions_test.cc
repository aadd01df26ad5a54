#include <string>

#include <gtest/gtest.h>

#include "base/json_reader.h"
#include "devicelab/lab/disk_session.h"
#include "devicelab/lab/flash_session.h"

namespace fawnlab::devices {
namespace {

double Counter(const std::string& snap, const char* name) {
  auto v = ParseJson(snap);
  EXPECT_TRUE(v.ok());
  return v.value().Find("counters")->Find(name)->number_value();
}

TEST(FlashSessionTest, RandomWritesStartTheCollector) {
  auto s = FlashSession::Create(R"({"profile": "intel-x25m", "workload": "random", "prefill": true})", 3).value();
  size_t moves = 0;
  std::string snap;
  for (int i = 0; i < 200; ++i) {
    s->Advance(2 * sim::kMs, 1000000);
    snap = s->SnapshotJson();
    auto v = ParseJson(snap).value();
    moves += v.Find("recent")->Find("moves")->array_items().size();
  }
  EXPECT_GT(Counter(snap, "erases"), 0);
  EXPECT_GT(Counter(snap, "gc_moves"), 0);
  EXPECT_GT(moves, 0u) << "the view is told about collector copies";
  EXPECT_GT(Counter(snap, "write_amplification"), 1.0);
  auto v = ParseJson(snap).value();
  const auto& blocks = v.Find("blocks")->array_items();
  ASSERT_EQ(blocks.size(), 32u);
  EXPECT_EQ(blocks[0].Find("pages")->string_value().size(), 16u);
  EXPECT_DOUBLE_EQ(v.Find("overprovision")->number_value(), 0.25) << "the view labels the spare from the configured value";
}

TEST(FlashSessionTest, SequentialWritesOnTheCardNeedNoCopies) {
  auto s = FlashSession::Create(R"({"profile": "sandisk-cf-4gb", "workload": "sequential", "prefill": true})", 1).value();
  s->Advance(500 * sim::kMs, 10000000);
  std::string snap = s->SnapshotJson();
  EXPECT_GT(Counter(snap, "erases"), 0);
  EXPECT_EQ(Counter(snap, "gc_moves"), 0) << "whole-block appends switch without merging";
  EXPECT_NEAR(Counter(snap, "write_amplification"), 1.0, 1e-9);
  EXPECT_TRUE(ParseJson(snap).value().Find("overprovision")->is_null()) << "the block-mapped FTL takes no overprovision";
}

TEST(FlashSessionTest, DeterministicAndValidated) {
  auto a = FlashSession::Create(R"({"workload": "semi-random", "streams": 8})", 9).value();
  auto b = FlashSession::Create(R"({"workload": "semi-random", "streams": 8})", 9).value();
  a->Advance(50 * sim::kMs, 1000000);
  b->Advance(50 * sim::kMs, 1000000);
  EXPECT_EQ(a->SnapshotJson(), b->SnapshotJson());
  auto bad = FlashSession::Create(R"({"blocks": 4})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("blocks"), std::string::npos);
  EXPECT_FALSE(a->Reconfigure(R"({"profile": "intel-x25e"})").ok());
  EXPECT_TRUE(a->Reconfigure(R"({"workload": "sequential", "queue_depth": 4})").ok());
}

TEST(DiskSessionTest, ServesReadsThenSpinsDownWhenTheyStop) {
  auto s = DiskSession::Create(R"({"rate_per_s": 50, "spin_down_s": 5})", 2).value();
  s->Advance(10 * sim::kSec, 10000000);
  std::string snap = s->SnapshotJson();
  EXPECT_GT(Counter(snap, "completed"), 400);
  EXPECT_GT(Counter(snap, "mean_seek_ms"), 5);
  ASSERT_TRUE(s->Reconfigure(R"({"rate_per_s": 0})").ok());
  s->Advance(10 * sim::kSec, 10000000);
  auto v = ParseJson(s->SnapshotJson()).value();
  EXPECT_EQ(v.Find("state")->string_value(), "standby");
  EXPECT_GT(v.Find("counters")->Find("standby_s")->number_value(), 4);
  EXPECT_FALSE(s->Reconfigure(R"({"scheduler": "elevator"})").ok());
}

}  // namespace
}  // namespace fawnlab::devices
