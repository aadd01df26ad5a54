// SILT's file I/O bookkeeping: dirty pages until a sync that began after their write completes,
// the 128-sector direct-mapped cache, invalidation by writes, no stale fill after a write.
#include "silt/direct_reads.h"

#include <vector>

#include <gtest/gtest.h>

namespace fawnlab::silt {
namespace {

TEST(SiltDirectReadsTest, PagesAreDirtyUntilASyncThatCoversThem) {
  DirectReads d(1 << 20, 1 << 20);
  EXPECT_TRUE(d.Clean((1 << 20) + 100, 224));
  d.Written((1 << 20) + 4000, 224);  // spans pages 0 and 1
  EXPECT_FALSE(d.Clean((1 << 20) + 100, 224));
  EXPECT_FALSE(d.Clean((1 << 20) + 4096, 10));
  EXPECT_TRUE(d.Clean((1 << 20) + 8192, 10));
  EXPECT_EQ(d.dirty_pages(), 2u);
  const uint64_t mark = d.BeginSync();
  d.Written((1 << 20) + 9000, 10);  // during the sync: stays dirty after it
  d.SyncDone(mark);
  EXPECT_TRUE(d.Clean((1 << 20) + 100, 224));
  EXPECT_FALSE(d.Clean((1 << 20) + 9000, 1));
  EXPECT_EQ(d.dirty_pages(), 1u);
}

TEST(SiltDirectReadsTest, SectorCacheHitsMissesAndInvalidation) {
  DirectReads d(0, 1 << 20);
  uint64_t s_off = 0, s_len = 0;
  DirectReads::Sectors(1000, 224, &s_off, &s_len);
  EXPECT_EQ(s_off, 512u);
  EXPECT_EQ(s_len, 1024u);  // 1000..1224 spans sectors 1 and 2
  std::vector<uint8_t> sec(s_len);
  for (size_t i = 0; i < sec.size(); ++i) sec[i] = static_cast<uint8_t>(i);
  std::vector<uint8_t> out(224);
  EXPECT_FALSE(d.Lookup(1000, 224, out.data()));
  d.Fill(s_off, s_len, sec.data(), d.BeginSync());
  ASSERT_TRUE(d.Lookup(1000, 224, out.data()));
  EXPECT_EQ(out[0], static_cast<uint8_t>(1000 - 512));
  // A sector 128 sectors on maps to the same slot: it evicts.
  std::vector<uint8_t> other(512, 7);
  d.Fill(512 + 128 * 512, 512, other.data(), d.BeginSync());
  EXPECT_FALSE(d.Lookup(1000, 224, out.data()));
  d.Fill(s_off, s_len, sec.data(), d.BeginSync());
  d.Written(1100, 4);  // invalidates sector 2
  EXPECT_FALSE(d.Lookup(1000, 224, out.data()));
  // A read issued before a write does not fill what the write touched.
  const uint64_t issued = d.BeginSync();
  d.Written(600, 1);
  d.Fill(s_off, s_len, sec.data(), issued);
  EXPECT_FALSE(d.Lookup(1000, 224, out.data()));
}

}  // namespace
}  // namespace fawnlab::silt
