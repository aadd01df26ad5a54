// The FAWN-DS lab's experiments at small configurations: anchors, mechanisms, bad input.
#include <string>

#include <gtest/gtest.h>

#include "registry/anchor_testing.h"
#include "registry/experiments.h"

namespace fawnlab {
namespace {

using exptest::ExpectAnchorsMet;
using exptest::MustRun;

// --- fawnds.vs-btree ---

TEST(FawndsVsBtreeTest, FawndsInsertsHundredsOfTimesFasterThanTheBtree) {
  // 8 MB: enough for FAWN-DS's log to meet the card's first bulk erasure (its rate from then
  // on is the default run's).
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    Result r = MustRun("fawnds.vs-btree", R"({"insert_mb": 8})", seed);
    ExpectAnchorsMet(r);
    EXPECT_GT(r.Metric("ratio"), 100);
  }
}

TEST(FawndsVsBtreeTest, TheBtreeCollapsesOnceItOutgrowsItsPool) {
  Result r = MustRun("fawnds.vs-btree", R"({"insert_mb": 4})");
  EXPECT_GT(r.Metric("btree_insert_mb_s_in_pool"), 100 * r.Metric("btree_insert_mb_s_last_window"));
  EXPECT_LT(r.Metric("btree_pool_fraction_of_tree"), 0.2) << "the pool is smaller than the tree";
  EXPECT_GT(r.Metric("btree_pages_evicted"), 10000) << "most inserts evict a page";
  EXPECT_GT(r.Metric("btree_dirty_pages_written_back"), 0.99 * r.Metric("btree_pages_evicted"))
      << "a bulk insert dirties nearly every page it evicts";
  EXPECT_GT(r.Metric("btree_device_write_amplification"), 10) << "each 4 KB write-back merges an erase block";
  EXPECT_LT(r.Metric("fawnds_flash_bytes_per_byte"), 1.2) << "FAWN-DS writes each entry once, plus its header";
  EXPECT_GT(r.Metric("btree_flash_bytes_per_byte"), 100);
  EXPECT_NEAR(r.Metric("btree_mean_leaf_fill"), 0.69, 0.05) << "random inserts leave leaves ~ln 2 full";
  // The two series: FAWN-DS flat, the B+tree falling by orders of magnitude.
  ASSERT_EQ(r.series.size(), 4u) << "FAWN-DS, B+tree, and the paper's two levels";
  EXPECT_EQ(r.series[3].kind, "paper");
  EXPECT_GT(r.series[1].points.front().second, 100 * r.series[1].points.back().second);
  EXPECT_GT(r.series[0].points.back().second, 0.5 * r.series[0].points.front().second);
}

TEST(FawndsVsBtreeTest, TheKernelsWriteBackLetsNeighbouringPagesShareAMerge) {
  Result pool = MustRun("fawnds.vs-btree", R"({"insert_mb": 8})");
  Result os = MustRun("fawnds.vs-btree", R"({"insert_mb": 8, "os_page_cache": true})");
  ExpectAnchorsMet(os);
  EXPECT_GT(os.Metric("btree_insert_mb_s"), 1.2 * pool.Metric("btree_insert_mb_s"));
  EXPECT_LT(os.Metric("btree_device_write_amplification"), 0.8 * pool.Metric("btree_device_write_amplification"));
  EXPECT_GT(os.Metric("os_writeback_kb_per_command"), 4) << "the flusher coalesces adjacent dirty pages";
}

TEST(FawndsVsBtreeTest, KilobyteEntriesMeetTheBulkInsertAnchor) {
  Result r = MustRun("fawnds.vs-btree", R"({"insert_mb": 8, "value_bytes": 1024})");
  ExpectAnchorsMet(r);  // FAWN-DS 23.2 MB/s (SOSP'09 §4.1.1, 1 KB entries)
  EXPECT_GT(r.Metric("btree_insert_mb_s"), 0) << "the B+tree accepts 1 KB values in 4 KB pages";
}

TEST(FawndsVsBtreeTest, IsDeterministicAndRefusesValuesTooLargeForAPage) {
  auto a = RunExperimentJson("fawnds.vs-btree", R"({"insert_mb": 1})", 7, nullptr);
  auto b = RunExperimentJson("fawnds.vs-btree", R"({"insert_mb": 1})", 7, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ResultToJson(a.value()), ResultToJson(b.value()));
  auto bad = RunExperimentJson("fawnds.vs-btree", R"({"value_bytes": 2000})", 1, nullptr);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("value_bytes"), std::string::npos) << bad.status().message();
  bad = RunExperimentJson("fawnds.vs-btree", R"({"page_bytes": 3000})", 1, nullptr);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("page_bytes"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab
