#include "device/write_cache.h"

#include <gtest/gtest.h>

#include <vector>

namespace fawnlab::device {
namespace {

std::vector<uint8_t> Fill(size_t n, uint8_t v) { return std::vector<uint8_t>(n, v); }

TEST(WriteCacheTest, OverwriteReplacesOlderBytesAndCountsTheUnion) {
  WriteCache c(1 << 20, true);
  auto a = Fill(4096, 1), b = Fill(1024, 2);
  c.Insert(0, 4096, 10, a.data());
  c.Insert(1024, 1024, 20, b.data());  // splits the first segment in three
  EXPECT_EQ(c.dirty_bytes(), 4096u);
  EXPECT_EQ(c.segments(), 3u);
  std::vector<uint8_t> out(4096, 9);
  c.Overlay(0, 4096, out.data());
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1024], 2);
  EXPECT_EQ(out[2047], 2);
  EXPECT_EQ(out[2048], 1);
  EXPECT_TRUE(c.Covers(512, 3000));
  EXPECT_FALSE(c.Covers(4000, 200));
}

TEST(WriteCacheTest, SpaceIsCountedUntilTheDestageLands) {
  WriteCache c(8192, false);
  c.Insert(0, 4096, 0, nullptr);
  c.Insert(100000, 4096, 0, nullptr);
  EXPECT_FALSE(c.Fits(1));
  ASSERT_TRUE(c.TakeNext(0, 5));
  EXPECT_FALSE(c.Fits(1)) << "the segment in flight keeps its space";
  EXPECT_TRUE(c.Covers(0, 4096)) << "and is still served from the cache";
  c.DoneInflight();
  EXPECT_TRUE(c.Fits(4096));
  EXPECT_FALSE(c.Fits(4097));
}

TEST(WriteCacheTest, DestagesInElevatorOrderAndNeverBeforeTheDataArrived) {
  WriteCache c(1 << 20, false);
  for (uint64_t off : {50000u, 10000u, 90000u, 30000u}) c.Insert(off, 512, 0, nullptr);
  c.Insert(70000, 512, 100, nullptr);  // arrives at t = 100
  std::vector<uint64_t> order;
  while (c.TakeNext(40000, 50)) {  // C-LOOK from byte 40000 at t = 50: up, then wrap
    order.push_back(c.inflight().offset);
    c.DoneInflight();
  }
  EXPECT_EQ(order, (std::vector<uint64_t>{50000, 90000, 10000, 30000}));
  EXPECT_TRUE(c.has_dirty());
  EXPECT_EQ(c.EarliestReady(), 100);
  EXPECT_FALSE(c.TakeNext(0, 99));
  EXPECT_TRUE(c.TakeNext(0, 100));
  EXPECT_EQ(c.inflight().offset, 70000u);
}

TEST(WriteCacheTest, PatchRewritesCachedCopiesOnly) {
  WriteCache c(1 << 20, true);
  auto a = Fill(1024, 7);
  c.Insert(1024, 1024, 0, a.data());
  c.Patch(0, 1536, nullptr);  // zeros over [0, 1536): the cached part is [1024, 1536)
  std::vector<uint8_t> out(2048, 5);
  c.Overlay(0, 2048, out.data());
  EXPECT_EQ(out[0], 5) << "bytes the cache does not hold are left alone";
  EXPECT_EQ(out[1024], 0);
  EXPECT_EQ(out[1535], 0);
  EXPECT_EQ(out[1536], 7);
  EXPECT_EQ(c.dirty_bytes(), 1024u);
}

}  // namespace
}  // namespace fawnlab::device
