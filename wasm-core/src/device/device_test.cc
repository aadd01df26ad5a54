#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "device/disk.h"
#include "device/fault_injector.h"
#include "device/file_device.h"
#include "device/host_driver.h"
#include "device/nvm.h"
#include "device/page_cache.h"
#include "device/profiles.h"
#include "sim/rng.h"

namespace fawnlab::device {
namespace {

std::vector<uint8_t> Bytes(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7);
  return v;
}

TEST(DeviceTest, BadCommandsAreRefusedWithTheProblemNamed) {
  sim::Simulator sim;
  NvmDevice d(&sim, "nvm-4ch", NvmConfig{});
  uint8_t b[16];
  Status s = d.Submit(IoCommand{}, nullptr);
  EXPECT_NE(s.message().find("no entries"), std::string::npos);
  s = d.Submit(IoCommand::Single(IoEntry::Read(0, 0, b)), nullptr);
  EXPECT_NE(s.message().find("length is 0"), std::string::npos);
  s = d.Submit(IoCommand::Single(IoEntry::Read(d.info().capacity_bytes - 8, 16, b)), nullptr);
  EXPECT_NE(s.message().find("beyond the device's capacity"), std::string::npos) << s.message();
  s = d.Submit(IoCommand::Single(IoEntry::Write(0, 16, nullptr)), nullptr);
  EXPECT_NE(s.message().find("no data"), std::string::npos);
  s = d.Submit(IoCommand::Single(IoEntry::Read(UINT64_MAX - 2, 16, b)), nullptr);  // overflow-safe
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(d.counters().commands, 0u) << "a refused command must change nothing";
}

TEST(DeviceTest, EveryProfileStoresAndReadsBackBytes) {
  for (const std::string& name : ProfileNames()) {
    sim::Simulator sim;
    auto made = MakeDevice(&sim, name, uint64_t{1} << 30);
    ASSERT_TRUE(made.ok()) << name << ": " << made.status().message();
    Device* d = made.value().get();
    auto data = Bytes(10000, 3);
    ASSERT_TRUE(SubmitAndWait(d, IoCommand::Single(IoEntry::Write(12345, data.size(), data.data()))).ok()) << name;
    std::vector<uint8_t> back(data.size());
    auto c = SubmitAndWait(d, IoCommand::Single(IoEntry::Read(12345, back.size(), back.data())));
    ASSERT_TRUE(c.ok()) << name;
    EXPECT_EQ(back, data) << name;
    EXPECT_GT(c.value().latency(), 0) << name << ": a read takes time";
    ASSERT_TRUE(SubmitAndWait(d, IoCommand::Single(IoEntry::Erase(12345, 100))).ok());
    d->Peek(12345, 100, back.data());
    for (int i = 0; i < 100; ++i) ASSERT_EQ(back[i], 0) << name << ": erase zeroes the range";
    EXPECT_GT(d->Joules(), 0) << name;
  }
}

TEST(DeviceTest, UnknownProfileListsTheKnownOnes) {
  sim::Simulator sim;
  auto d = MakeDevice(&sim, "floppy");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("sandisk-cf-4gb"), std::string::npos);
}

TEST(NvmTest, VectorLatencyIsFixedPlusPerEntryWithOneCompletion) {
  for (int w : {1, 32}) {
    sim::Simulator sim;
    NvmDevice d(&sim, "nvm-4ch", NvmConfig{});
    std::vector<uint8_t> buf(512 * w);
    IoCommand c;
    for (int i = 0; i < w; ++i) c.entries.push_back(IoEntry::Read(4096 * i, 512, buf.data() + 512 * i));
    int completions = 0;
    ASSERT_TRUE(d.Submit(c, [&](const IoCompletion& done) {
                   ++completions;
                   EXPECT_EQ(done.latency(), 7700 + 2260 * w);
                 }).ok());
    sim.Run(1000);
    EXPECT_EQ(completions, 1) << "one completion per command";
  }
}

TEST(NvmTest, StreamsMapOntoFourChannels) {
  sim::Simulator sim;
  NvmDevice d(&sim, "nvm-4ch", NvmConfig{});
  uint8_t b[512];
  std::vector<sim::SimDuration> lat;
  for (int s = 0; s < 5; ++s) {
    ASSERT_TRUE(d.Submit(IoCommand::Single(IoEntry::Read(0, 512, b), s),
                         [&](const IoCompletion& c) { lat.push_back(c.latency()); }).ok());
  }
  sim.Run(100);
  ASSERT_EQ(lat.size(), 5u);
  EXPECT_EQ(lat[0], 9960);
  EXPECT_EQ(lat[3], 9960) << "streams 0-3 use separate channels";
  EXPECT_EQ(lat[4], 9960 + 2260) << "stream 4 shares channel 0 and waits";
}

TEST(NvmTest, WriteCostsArePerCommandOnceAndPerWriteEntry) {
  NvmConfig cfg;
  cfg.write_command_ns = 1000;
  cfg.write_entry_ns = 3000;
  for (int w : {1, 8}) {
    sim::Simulator sim;
    NvmDevice d(&sim, "nvm-4ch", cfg);
    std::vector<uint8_t> data = Bytes(512 * static_cast<size_t>(w), 9);
    IoCommand c;
    for (int i = 0; i < w; ++i) c.entries.push_back(IoEntry::Write(8192 * i, 512, data.data() + 512 * i));
    sim::SimDuration lat = 0;
    ASSERT_TRUE(d.Submit(c, [&](const IoCompletion& done) { lat = done.latency(); }).ok());
    uint8_t b[512];
    sim::SimDuration read_lat = 0;  // a read behind it on the same channel waits for the write's channel time
    ASSERT_TRUE(d.Submit(IoCommand::Single(IoEntry::Read(0, 512, b)), [&](const IoCompletion& done) {
                   read_lat = done.latency();
                 }).ok());
    sim.Run(100);
    EXPECT_EQ(lat, 7700 + 1000 + 3000 * w) << "one write command cost, then each write entry";
    EXPECT_EQ(read_lat, 7700 + 1000 + 3000 * w + 2260) << "reads keep entry_ns";
    EXPECT_EQ(std::vector<uint8_t>(b, b + 512), std::vector<uint8_t>(data.begin(), data.begin() + 512));
  }
}

TEST(DiskTest, SeekCurveHitsTheProfileFigures) {
  sim::Simulator sim;
  const DiskProfile& p = *FindDiskProfile("disk-7200");
  auto d = DiskDevice::Create(&sim, p.name, p.config).value();
  EXPECT_EQ(d->SeekNs(0), 0);
  EXPECT_NEAR(d->SeekNs(1) / 1e6, 0.8, 0.05);  // t_track plus the curve's first step
  EXPECT_NEAR(d->SeekNs(p.config.cylinders - 1) / 1e6, 17.0, 1e-6);
  // Mean over uniformly random pairs = the datasheet average.
  sim::Rng rng(5);
  double sum = 0;
  for (int i = 0; i < 200000; ++i) {
    uint64_t a = rng.UniformU64(p.config.cylinders), b = rng.UniformU64(p.config.cylinders);
    sum += static_cast<double>(d->SeekNs(a > b ? a - b : b - a));
  }
  EXPECT_NEAR(sum / 200000 / 1e6, 8.5, 0.05);
  EXPECT_EQ(d->revolution_ns(), 8333333);
}

TEST(DiskTest, ImpossibleSeekFiguresAreRejected) {
  sim::Simulator sim;
  DiskConfig c;
  c.seek_avg_ms = 16.5;  // too close to the full stroke for a concave curve
  auto d = DiskDevice::Create(&sim, "bad", c);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("average seek"), std::string::npos);
}

TEST(DiskTest, SpinsDownWhenIdleAndSpinsUpForARequest) {
  sim::Simulator sim;
  DiskConfig c = FindDiskProfile("disk-7200")->config;
  c.spin_down_s = 10;
  auto d = DiskDevice::Create(&sim, "disk-7200", c).value();
  sim.RunUntil(11 * sim::kSec);
  EXPECT_EQ(d->state(), DiskDevice::State::kStandby);
  uint8_t b[4096];
  auto done = SubmitAndWait(d.get(), IoCommand::Single(IoEntry::Read(0, 4096, b)));
  ASSERT_TRUE(done.ok());
  EXPECT_GE(done.value().latency(), 6 * sim::kSec) << "the request waits for the 6 s spin-up";
  EXPECT_EQ(d->stats().spin_ups, 1u);
  // Energy: 10 s idle at 6.5 W, 1 s standby at 2.48 W, 6 s spinning up at 24 W, then a read.
  EXPECT_NEAR(d->Joules(), 65 + 2.48 + 144, 1.0);
}

TEST(DiskTest, ShortestSeekFirstBeatsFifoAtDepth) {
  double qps[2];
  for (int sstf = 0; sstf < 2; ++sstf) {
    sim::Simulator sim;
    DiskConfig c = FindDiskProfile("disk-7200")->config;
    c.sstf = sstf;
    auto d = DiskDevice::Create(&sim, "disk-7200", c).value();
    sim::Rng rng(9);
    std::vector<uint8_t> b(4096);
    LoopSpec spec;
    spec.depth = 16;
    spec.ops = 2000;
    spec.make = [&](uint64_t) {
      return IoCommand::Single(IoEntry::Read(rng.UniformU64(d->info().capacity_bytes / 4096) * 4096, 4096, b.data()));
    };
    qps[sstf] = RunClosedLoop(d.get(), spec).value().ops_per_sec();
  }
  EXPECT_GT(qps[1], qps[0] * 1.3);
}

TEST(PageCacheTest, HitsAreServedFromMemory) {
  sim::Simulator sim;
  auto disk = MakeDevice(&sim, "disk-7200").value();
  PageCache cache(disk.get(), 1 << 20);
  auto data = Bytes(8192, 1);
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(0, 8192, data.data()))).ok());
  std::vector<uint8_t> back(8192);
  auto hit = SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(0, 8192, back.data())));
  EXPECT_EQ(back, data);
  EXPECT_LT(hit.value().latency(), 10 * sim::kUs);
  EXPECT_EQ(cache.hits(), 2u);
  auto miss = SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(1 << 28, 4096, back.data())));
  EXPECT_GT(miss.value().latency(), sim::kMs) << "a miss goes to the disk";
  EXPECT_EQ(cache.misses(), 1u);
}

TEST(PageCacheTest, EvictsLeastRecentlyUsed) {
  sim::Simulator sim;
  NvmDevice nvm(&sim, "nvm-4ch", NvmConfig{});
  PageCache cache(&nvm, 2 * PageCache::kPage);
  uint8_t b[4096];
  for (uint64_t p : {0, 1, 0, 2}) ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(p * 4096, 4096, b))).ok());
  // Page 1 was least recently used when page 2 came in.
  uint64_t misses = cache.misses();
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(0, 4096, b))).ok());
  EXPECT_EQ(cache.misses(), misses);
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(4096, 4096, b))).ok());
  EXPECT_EQ(cache.misses(), misses + 1);
}

class FaultTest : public ::testing::Test {
 protected:
  sim::Simulator sim;
  std::unique_ptr<Device> flash = MakeDevice(&sim, "intel-x25m", uint64_t{1} << 30).value();
  FaultInjector f{flash.get()};
  Status Write(uint64_t off, const std::vector<uint8_t>& d) {
    auto c = SubmitAndWait(&f, IoCommand::Single(IoEntry::Write(off, d.size(), d.data())));
    return c.ok() ? Status::Ok() : c.status();
  }
  Status Flush() {
    auto c = SubmitAndWait(&f, IoCommand::Single(IoEntry::Flush()));
    return c.ok() ? Status::Ok() : c.status();
  }
  std::vector<uint8_t> Read(uint64_t off, size_t n) {
    std::vector<uint8_t> v(n);
    f.Peek(off, n, v.data());
    return v;
  }
};

TEST_F(FaultTest, CrashLosesExactlyTheUnsyncedWrites) {
  auto a = Bytes(5000, 1), b = Bytes(5000, 2), c = Bytes(3000, 3);
  ASSERT_TRUE(f.Arm(FaultPlan{5, true, false, 0}).ok());
  ASSERT_TRUE(Write(0, a).ok());       // 1
  ASSERT_TRUE(Flush().ok());           // 2: a is durable
  ASSERT_TRUE(Write(2000, b).ok());    // 3: overlaps a, unsynced
  ASSERT_TRUE(Write(100000, c).ok());  // 4: unsynced
  EXPECT_EQ(f.unsynced_bytes(), 8000u);
  Status s = Write(50000, a);          // 5: the crash
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_TRUE(f.crashed());
  EXPECT_EQ(Read(0, 5000), a) << "synced data survives, and b's overwrite of it is undone";
  EXPECT_EQ(Read(100000, 3000), std::vector<uint8_t>(3000, 0)) << "the unsynced write is gone";
  EXPECT_EQ(Read(50000, 10), std::vector<uint8_t>(10, 0)) << "the crashing write never happened";
  EXPECT_EQ(Write(0, b).code(), StatusCode::kUnavailable) << "a crashed device refuses I/O";
  f.Restart();
  ASSERT_TRUE(Write(0, b).ok());
  EXPECT_EQ(Read(0, 5000), b);
}

TEST_F(FaultTest, AnUnsyncedTrimIsUndoneByACrashButIsNoUnsyncedData) {
  auto a = Bytes(8192, 4);
  ASSERT_TRUE(Write(0, a).ok());
  ASSERT_TRUE(Flush().ok());
  ASSERT_TRUE(SubmitAndWait(&f, IoCommand::Single(IoEntry::Trim(0, 1 << 20))).ok());
  EXPECT_EQ(f.unsynced_bytes(), 0u) << "a trim loses no data, so it is not unsynced data";
  ASSERT_TRUE(Write(16384, Bytes(100, 5)).ok());
  EXPECT_EQ(f.unsynced_bytes(), 100u);
  ASSERT_TRUE(f.Arm(FaultPlan{1, true, false, 0}).ok());
  EXPECT_FALSE(Write(32768, a).ok());
  EXPECT_EQ(Read(0, 8192), a) << "the crash undoes the unsynced trim";
}

TEST_F(FaultTest, TornWriteLandsAllButTheTailOfItsLastPage) {
  auto a = Bytes(3 * 4096, 5);
  ASSERT_TRUE(f.Arm(FaultPlan{1, false, true, 1000}).ok());
  EXPECT_FALSE(Write(8192, a).ok());
  auto got = Read(8192, a.size());
  EXPECT_TRUE(std::equal(a.begin(), a.begin() + 2 * 4096 + 1000, got.begin()));
  for (size_t i = 2 * 4096 + 1000; i < a.size(); ++i) ASSERT_EQ(got[i], 0) << "byte " << i << " must not land";
}

TEST_F(FaultTest, WithoutLossEverythingSubmittedSurvives) {
  auto a = Bytes(100, 9);
  ASSERT_TRUE(f.Arm(FaultPlan{2, false, false, 0}).ok());
  ASSERT_TRUE(Write(0, a).ok());
  EXPECT_FALSE(Write(4096, a).ok());
  EXPECT_EQ(Read(0, 100), a);
}

TEST_F(FaultTest, ACacheOverACrashingDeviceCountsEachCommandOnceAndStops) {
  PageCache cache(&f, 1 << 20);
  auto a = Bytes(4096, 1);
  ASSERT_TRUE(f.Arm(FaultPlan{3, false, false, 0}).ok());
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Write(0, 4096, a.data()))).ok());
  std::vector<uint8_t> back(4096);
  ASSERT_TRUE(SubmitAndWait(&cache, IoCommand::Single(IoEntry::Read(8192, 4096, back.data()))).ok());
  EXPECT_EQ(f.commands_seen(), 2u) << "one device command per cache command, counted once";
  bool completed = false;
  ASSERT_TRUE(cache.Submit(IoCommand::Single(IoEntry::Write(4096, 4096, a.data())), [&](const IoCompletion&) { completed = true; }).ok());
  sim.Run(1000000);
  EXPECT_TRUE(f.crashed());
  EXPECT_FALSE(completed) << "a command in flight at the crash never completes";
  EXPECT_EQ(cache.Submit(IoCommand::Single(IoEntry::Read(0, 10, back.data())), nullptr).code(), StatusCode::kUnavailable);
}

TEST_F(FaultTest, BadPlanIsRejected) {
  Status s = f.Arm(FaultPlan{1, false, true, 4096});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

TEST(FileDeviceTest, WritesReachTheFileAndFlushSyncs) {
  std::string path = ::testing::TempDir() + "fawnlab_file_device_test.img";
  std::remove(path.c_str());
  sim::Simulator sim;
  auto d = FileDevice::Open(&sim, path, 1 << 20, 50 * sim::kUs).value();
  auto data = Bytes(3000, 4);
  auto w = SubmitAndWait(d.get(), IoCommand{{IoEntry::Write(1000, data.size(), data.data()), IoEntry::Flush()}});
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w.value().latency(), 50 * sim::kUs);
  EXPECT_EQ(d->fsyncs(), 1u);
  d.reset();
  auto again = FileDevice::Open(&sim, path, 1 << 20).value();  // a new process opening the file
  std::vector<uint8_t> back(3000);
  ASSERT_TRUE(SubmitAndWait(again.get(), IoCommand::Single(IoEntry::Read(1000, 3000, back.data()))).ok());
  EXPECT_EQ(back, data);
  std::remove(path.c_str());
  auto bad = FileDevice::Open(&sim, "/nonexistent-dir/x.img", 4096);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("/nonexistent-dir/x.img"), std::string::npos);
}

TEST(FlashTest, SingleChipCardMakesAReadWaitBehindALargeWrite) {
  sim::Simulator sim;
  auto cf = MakeFlash(&sim, *FindFlashProfile("sandisk-cf-4gb"), uint64_t{64} << 20).value();
  cf->FillSequential([](uint64_t lpn) { return lpn; });
  uint8_t b[1024];
  auto alone = SubmitAndWait(cf.get(), IoCommand::Single(IoEntry::Read(1 << 20, 1024, b))).value().latency();
  std::vector<uint8_t> big(1 << 20, 7);
  ASSERT_TRUE(cf->Submit(IoCommand::Single(IoEntry::Write(32 << 20, big.size(), big.data())), nullptr).ok());
  auto behind = SubmitAndWait(cf.get(), IoCommand::Single(IoEntry::Read(2 << 20, 1024, b))).value().latency();
  EXPECT_GT(behind, 10 * alone) << "one chip: the read queues behind the write's programs";
}

TEST(FlashTest, RandomSmallWritesCostAMergeOnTheCard) {
  sim::Simulator sim;
  auto cf = MakeFlash(&sim, *FindFlashProfile("sandisk-cf-4gb"), uint64_t{64} << 20).value();
  cf->FillSequential([](uint64_t lpn) { return lpn; });
  sim::Rng rng(3);
  std::vector<uint8_t> b(1024, 1);
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(SubmitAndWait(cf.get(), IoCommand::Single(IoEntry::Write(rng.UniformU64(65536) * 1024, 1024, b.data()))).ok());
  }
  EXPECT_GT(cf->counters().write_amplification(), 50) << "each 1 KB write rewrites most of a 128 KB block";
  EXPECT_GT(cf->counters().gc_moves, 200u * 50);
}

}  // namespace
}  // namespace fawnlab::device

namespace fawnlab::device {
namespace {

TEST(PageImageTest, CompactFormsReadBackExactly) {
  std::vector<uint8_t> page(512);
  for (size_t i = 0; i < page.size(); ++i) page[i] = static_cast<uint8_t>(0x10 + (i % 8));  // one repeated word
  PageImage img = PageImage::FromBytes(page.data(), 512);
  EXPECT_TRUE(img.is_uniform());
  for (uint32_t off : {0u, 1u, 7u, 13u}) {
    for (uint32_t len : {1u, 7u, 8u, 9u, 100u}) {
      std::vector<uint8_t> out(len);
      img.CopyTo(out.data(), off, len);
      EXPECT_TRUE(std::equal(out.begin(), out.end(), page.begin() + off)) << off << "+" << len;
    }
  }
  uint8_t odd = 0xAB;
  img.Overwrite(512, 100, &odd, 1);
  EXPECT_FALSE(img.is_uniform());
  page[100] = 0xAB;
  std::vector<uint8_t> out(512);
  img.CopyTo(out.data(), 0, 512);
  EXPECT_EQ(out, page);
}

}  // namespace
}  // namespace fawnlab::device
