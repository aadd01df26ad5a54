// The page cache's write-back mode: dirty pages, the flusher, throttling, flush and the crash.
#include <cstdlib>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "device/host_driver.h"
#include "device/page_cache.h"
#include "device/profiles.h"
#include "sim/rng.h"

namespace fawnlab::device {
namespace {

constexpr uint64_t kMiB = 1 << 20;

WriteBackOptions Wb(uint64_t background, uint64_t limit, uint64_t max_run = 4 * kMiB) {
  WriteBackOptions o;
  o.enabled = true;
  o.dirty_background_bytes = background;
  o.dirty_limit_bytes = limit;
  o.writeback_max_bytes = max_run;
  return o;
}

std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7);
  return v;
}

class WriteBackTest : public ::testing::Test {
 protected:
  sim::Simulator sim;
  std::unique_ptr<Device> flash = MakeDevice(&sim, "sandisk-cf-4gb", 64 * kMiB).value();
};

TEST_F(WriteBackTest, WritesCompleteFromMemoryAndReachTheDeviceOnFlush) {
  PageCache cache(flash.get(), 8 * kMiB, 250, Wb(kMiB, 2 * kMiB));
  auto data = Pattern(10000, 3);
  auto w = SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(1000, data.size(), data.data())));
  ASSERT_TRUE(w.ok());
  EXPECT_LT(w.value().latency(), 10 * sim::kUs) << "a write-back write is a memory copy";
  EXPECT_EQ(cache.dirty_bytes(), 3u * PageCache::kPage);
  std::vector<uint8_t> dev(data.size());
  flash->Peek(1000, dev.size(), dev.data());
  EXPECT_NE(dev, data) << "nothing written back below the background threshold";
  std::vector<uint8_t> back(data.size());
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(1000, back.size(), back.data()))).ok());
  EXPECT_EQ(back, data);
  auto f = SubmitAndWait(&cache, IoCommand::Single(IoEntry::Flush()));
  ASSERT_TRUE(f.ok());
  EXPECT_GT(f.value().latency(), 100 * sim::kUs) << "the flush waited for the write-back";
  EXPECT_EQ(cache.dirty_bytes(), 0u);
  EXPECT_EQ(cache.stats().writeback_commands, 1u) << "three contiguous pages go back as one write";
  flash->Peek(1000, dev.size(), dev.data());
  EXPECT_EQ(dev, data);
}

TEST_F(WriteBackTest, TheFlusherCoalescesPerRegionAndThrottlesWriters) {
  PageCache cache(flash.get(), 32 * kMiB, 250, Wb(kMiB, 2 * kMiB, 256 * 1024));
  // Appends to four regions in turn, like four log files.
  auto data = Pattern(4096, 1);
  sim::SimDuration worst = 0;
  for (uint64_t i = 0; i < 2048; ++i) {
    uint64_t off = (i % 4) * 8 * kMiB + (i / 4) * 4096;
    auto w = SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(off, 4096, data.data())));
    ASSERT_TRUE(w.ok());
    worst = std::max(worst, w.value().latency());
    ASSERT_LE(cache.dirty_bytes(), 2 * kMiB + 4096);
  }
  EXPECT_GT(cache.stats().throttled_writes, 0u);
  EXPECT_GT(worst, sim::kMs) << "a throttled writer waits for the flusher";
  EXPECT_GT(cache.stats().writeback_commands, 0u);
  // Runs are per region: each command is many pages long.
  EXPECT_GE(cache.stats().writeback_bytes / cache.stats().writeback_commands, 64u * 1024);
}

TEST_F(WriteBackTest, DropAllLosesOnlyWhatWasNotFlushed) {
  PageCache cache(flash.get(), 8 * kMiB, 250, Wb(kMiB, 2 * kMiB));
  auto a = Pattern(4096, 5), b = Pattern(4096, 9);
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(0, 4096, a.data()))).ok());
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Flush())).ok());
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(0, 4096, b.data()))).ok());
  cache.DropAll();
  EXPECT_EQ(cache.cached_pages(), 0u);
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(0, 4096, back.data()))).ok());
  EXPECT_EQ(back, a);
}

TEST_F(WriteBackTest, RandomOperationsMatchAReferenceAndFlushMakesTheDeviceEqual) {
  const uint64_t seed = std::getenv("FAWNLAB_TEST_SEED") ? std::strtoull(std::getenv("FAWNLAB_TEST_SEED"), nullptr, 10) : 7;
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  for (int mode = 0; mode < 3; ++mode) {  // plain; mmap's write faults; both Linux options
  SCOPED_TRACE("mode " + std::to_string(mode));
  sim::Simulator sim;
  auto flash = MakeDevice(&sim, "sandisk-cf-4gb", 64 * kMiB).value();
  sim::Rng rng(seed);
  const uint64_t span = 4 * kMiB;
  WriteBackOptions o = Wb(128 * 1024, 256 * 1024, 64 * 1024);
  o.fault_on_write = mode >= 1;
  o.linux_balance = mode == 2;
  PageCache cache(flash.get(), kMiB, 250, o);
  std::vector<uint8_t> ref(span);
  flash->Peek(0, span, ref.data());
  int outstanding = 0;
  for (int op = 0; op < 4000; ++op) {
    const uint64_t off = rng.UniformU64(span - 9000), len = 1 + rng.UniformU64(9000);
    const uint64_t kind = rng.UniformU64(10);
    if (kind < 6) {
      auto d = Pattern(len, static_cast<uint8_t>(op));
      ++outstanding;
      ASSERT_TRUE(cache.Submit(IoCommand::Single(IoEntry::Write(off, len, d.data())), [&](const IoCompletion&) { --outstanding; }).ok());
      std::copy(d.begin(), d.end(), ref.begin() + static_cast<long>(off));
    } else if (kind < 9) {
      std::vector<uint8_t> back(len);
      ++outstanding;
      ASSERT_TRUE(cache.Submit(IoCommand::Single(IoEntry::Read(off, len, back.data())), [&](const IoCompletion&) { --outstanding; }).ok());
      ASSERT_TRUE(std::equal(back.begin(), back.end(), ref.begin() + static_cast<long>(off))) << "op " << op;
    } else {
      ++outstanding;
      ASSERT_TRUE(cache.Submit(IoCommand::Single(IoEntry::Flush()), [&](const IoCompletion&) { --outstanding; }).ok());
    }
    if (rng.UniformU64(4) == 0) sim.RunUntil(sim.now() + 200 * sim::kUs);
  }
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Flush())).ok());
  sim.RunUntil(sim.now() + sim::kSec);
  EXPECT_EQ(outstanding, 0) << "every command completed";
  std::vector<uint8_t> dev(span);
  flash->Peek(0, span, dev.data());
  EXPECT_TRUE(dev == ref) << "after the last flush the device holds every write";
  if (mode >= 1) {
    EXPECT_GT(cache.stats().write_faults, 0u);
  }
  }
}

TEST_F(WriteBackTest, AMappedStoreFaultsInAPageOnTheDeviceButNotAHole) {
  WriteBackOptions o = Wb(kMiB, 2 * kMiB);
  o.fault_on_write = true;
  PageCache cache(flash.get(), 8 * kMiB, 250, o);
  auto a = Pattern(4 * PageCache::kPage, 2), b = Pattern(4 * PageCache::kPage, 6);
  // A hole: no write ever reached these pages, so the store completes from memory.
  auto w = SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(0, a.size(), a.data())));
  ASSERT_TRUE(w.ok());
  EXPECT_LT(w.value().latency(), 10 * sim::kUs);
  EXPECT_EQ(cache.stats().write_faults, 0u);
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Flush())).ok());
  cache.DropAll();  // forget the pages (they are on the device now)
  // Whole pages again: a mapping reads each missing page before the store lands.
  w = SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(0, b.size(), b.data())));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(cache.stats().write_faults, 4u);
  EXPECT_GT(w.value().latency(), 100 * sim::kUs) << "the store waited for the fault's read";
  EXPECT_EQ(cache.misses(), 0u) << "write faults are not read misses";
  std::vector<uint8_t> back(b.size());
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(0, back.size(), back.data()))).ok());
  EXPECT_EQ(back, b);
  // Cached now: the next store does not fault.
  w = SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(0, a.size(), a.data())));
  EXPECT_LT(w.value().latency(), 10 * sim::kUs);
  EXPECT_EQ(cache.stats().write_faults, 4u);
}

TEST_F(WriteBackTest, LinuxBalanceThrottlesOnlyWritesThatDirtyNewPages) {
  for (bool linux_balance : {false, true}) {
    sim::Simulator s;
    auto dev = MakeDevice(&s, "sandisk-cf-4gb", 64 * kMiB).value();
    WriteBackOptions o = Wb(256 * 1024, 512 * 1024, 128 * 1024);
    o.linux_balance = linux_balance;
    PageCache cache(dev.get(), 8 * kMiB, 250, o);
    auto d = Pattern(4096, 4);
    // Dirty 1 MB (over the limit), then rewrite the last page, which is dirty, many times.
    for (uint64_t i = 0; i < 256; ++i) cache.Submit(IoCommand::Single(IoEntry::Write(i * 4096, 4096, d.data())), nullptr);
    const uint64_t before = cache.stats().throttled_writes;
    ASSERT_GT(before, 0u);
    for (int i = 0; i < 50; ++i) cache.Submit(IoCommand::Single(IoEntry::Write(255 * 4096, 4096, d.data())), nullptr);
    if (linux_balance) {
      EXPECT_EQ(cache.stats().throttled_writes, before) << "a dirty page's rewrite is not throttled";
    } else {
      EXPECT_EQ(cache.stats().throttled_writes, before + 50);
    }
    s.RunUntil(s.now() + 10 * sim::kSec);
    EXPECT_LE(cache.dirty_bytes(), 512u * 1024);
  }
}

}  // namespace
}  // namespace fawnlab::device
