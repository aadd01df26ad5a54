// BlockSession ("vector.block"): the pinned snapshot and timeline shapes, live changes, errors.
#include "vecio/lab/block_session.h"

#include <gtest/gtest.h>

#include "base/json_reader.h"

namespace fawnlab::vecio {
namespace {

TEST(BlockSessionTest, SnapshotHasThePinnedShape) {
  auto s = BlockSession::Create("{}", 1).value();
  s->Advance(60 * sim::kMs, 10'000'000);
  auto v = ParseJson(s->SnapshotJson()).value();
  for (const char* k : {"t_ns", "iops", "completions_per_s", "interrupts_per_s", "completions_per_irq", "device_queue",
                        "ncq_depth"})
    ASSERT_NE(v.Find(k), nullptr) << k;
  EXPECT_NEAR(v.Find("iops")->number_value(), 19000, 1500);
  EXPECT_EQ(v.Find("ncq_depth")->number_value(), 31);
  EXPECT_EQ(v.Find("cpu_busy")->array_items().size(), 2u);
  EXPECT_GT(v.Find("cpu_busy")->array_items()[0].number_value(), 0.95) << "the Atom's issuing core is saturated";
  EXPECT_NEAR(v.Find("issue_us")->Find("median")->number_value(), 40, 3);
  EXPECT_GT(v.Find("issue_us")->Find("min")->number_value(), 30);
  for (const char* p : {"QG", "GI", "ID", "DQ"}) EXPECT_GT(v.Find("phases_us")->Find(p)->number_value(), 0) << p;
  EXPECT_EQ(v.Find("gap_hist")->Find("bin_us")->number_value(), 5);
  EXPECT_EQ(v.Find("gap_hist")->Find("counts")->array_items().size(), 80u);
  const JsonValue* t = v.Find("totals");
  EXPECT_GE(t->Find("issued")->number_value(), t->Find("completed")->number_value());
  EXPECT_GT(t->Find("interrupts")->number_value(), 0);
}

TEST(BlockSessionTest, TimelineColumnsCoverTheWindow) {
  auto s = BlockSession::Create(R"({"host": "xeon"})", 2).value();
  s->Advance(5 * sim::kMs, 10'000'000);
  auto cols = s->Columns("timeline", R"({"window_us": 500})").value();
  const size_t n = cols.Find("io")->u32.size();
  ASSERT_GT(n, 10u);
  for (const char* k : {"q", "g", "i", "d", "c"}) EXPECT_EQ(cols.Find(k)->f64.size(), n) << k;
  EXPECT_EQ(cols.Find("cpu")->u8.size(), n);
  const double end = cols.Find("t_end_ns")->number;
  EXPECT_EQ(end, 5e6);
  bool open = false;
  for (size_t k = 0; k < n; ++k) {
    const double c = cols.Find("c")->f64[k];
    open = open || c < 0;
    EXPECT_TRUE(c < 0 || c >= end - 500e3);
    EXPECT_LE(cols.Find("q")->f64[k], end);
  }
  EXPECT_TRUE(open) << "I/Os still in flight show c = -1";
  const size_t m = cols.Find("irq_t")->f64.size();
  EXPECT_GT(m, 0u);
  EXPECT_EQ(cols.Find("irq_n")->u16.size(), m);
  EXPECT_EQ(cols.Find("irq_cpu")->u8.size(), m);
  EXPECT_FALSE(s->Columns("timeline", R"({"window_us": 50})").ok());
}

TEST(BlockSessionTest, LiveCoalescingCutsInterrupts) {
  auto s = BlockSession::Create("{}", 1).value();
  s->Advance(60 * sim::kMs, 10'000'000);
  ASSERT_TRUE(s->Reconfigure(R"({"coalescing": "defer", "scheduler": "noop"})").ok());
  s->Advance(120 * sim::kMs, 10'000'000);
  auto v = ParseJson(s->SnapshotJson()).value();
  EXPECT_GT(v.Find("completions_per_irq")->number_value(), 2);
  EXPECT_GT(v.Find("iops")->number_value(), 22000);
  ASSERT_TRUE(s->Reconfigure(R"({"coalescing": "none"})").ok());
  s->Advance(60 * sim::kMs, 10'000'000);
  v = ParseJson(s->SnapshotJson()).value();
  EXPECT_LT(v.Find("completions_per_irq")->number_value(), 1.1) << "interrupts come back on after a deferred batch";
  EXPECT_FALSE(s->Reconfigure(R"({"host": "xeon"})").ok()) << "host is not live";
}

TEST(BlockSessionTest, BadConfigNamesTheField) {
  auto s = BlockSession::Create(R"({"iodepth": 65})", 1);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("iodepth"), std::string::npos);
  auto b = BlockSession::Create(R"({"block_bytes": "3000"})", 1);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("block_bytes"), std::string::npos);
}

TEST(BlockSessionTest, SameSeedSameSnapshots) {
  auto a = BlockSession::Create(R"({"coalescing": "napi"})", 4).value();
  auto b = BlockSession::Create(R"({"coalescing": "napi"})", 4).value();
  a->Advance(30 * sim::kMs, 10'000'000);
  b->Advance(30 * sim::kMs, 10'000'000);
  EXPECT_EQ(a->SnapshotJson(), b->SnapshotJson());
}

}  // namespace
}  // namespace fawnlab::vecio
