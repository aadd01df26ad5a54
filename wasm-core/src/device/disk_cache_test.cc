// DiskDevice's write-back cache (disk.h): acknowledgement from the cache, destaging on the head,
// filling and blocking, flush and spin-down only with a clean cache, data through every layer.
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "device/disk.h"
#include "device/profiles.h"
#include "sim/rng.h"

namespace fawnlab::device {
namespace {

DiskConfig Cached(double cache_mb) {
  DiskConfig c = FindDiskProfile("disk-7200")->config;
  c.cache_mb = cache_mb;
  c.interface_mb_s = 300e6 / 1048576;  // SATA 3 Gb/s
  return c;
}

std::unique_ptr<DiskDevice> Make(sim::Simulator* sim, const DiskConfig& c) {
  return DiskDevice::Create(sim, "disk-7200", c).value();
}

// Submits and records the completion time by id.
uint64_t Submit(DiskDevice* d, const IoCommand& cmd, std::map<uint64_t, sim::SimTime>* done) {
  uint64_t id = d->next_id();
  EXPECT_TRUE(d->Submit(cmd, [done, id](const IoCompletion& c) { (*done)[id] = c.completed; }).ok());
  return id;
}

TEST(DiskCacheTest, AWriteIsAcknowledgedFromTheCacheAndDestagedLater) {
  sim::Simulator sim;
  auto d = Make(&sim, Cached(16));
  std::vector<uint8_t> data(4096, 0xab), back(4096, 0);
  const uint64_t off = d->info().capacity_bytes / 2 + 12345 * 512;  // far from the head
  auto w = SubmitAndWait(d.get(), IoCommand::Single(IoEntry::Write(off, 4096, data.data())));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w.value().latency(), d->CacheTransferNs(4096));
  EXPECT_LT(w.value().latency(), 200 * sim::kUs) << "0.1 ms controller time + 4 KB at 300 MB/s";
  EXPECT_EQ(d->stats().cached_writes, 1u);
  // Read back at once: served from the cache, the destage still on the head.
  EXPECT_TRUE(d->destaging());
  auto r = SubmitAndWait(d.get(), IoCommand::Single(IoEntry::Read(off, 4096, back.data())));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(back, data);
  EXPECT_EQ(r.value().latency(), d->CacheTransferNs(4096));
  EXPECT_EQ(d->stats().cache_read_hits, 1u);
  sim.Run(1000);
  EXPECT_TRUE(d->write_cache()->empty());
  EXPECT_EQ(d->stats().destages, 1u);
  EXPECT_GT(d->stats().destage_ns, 1 * sim::kMs) << "the destage paid a seek and a rotation";
  EXPECT_EQ(d->state(), DiskDevice::State::kIdle);
  // Without the cache the same write pays the mechanism.
  sim::Simulator sim2;
  auto plain = Make(&sim2, FindDiskProfile("disk-7200")->config);
  auto w2 = SubmitAndWait(plain.get(), IoCommand::Single(IoEntry::Write(off, 4096, data.data())));
  EXPECT_GT(w2.value().latency(), 1 * sim::kMs);
}

TEST(DiskCacheTest, AFullCacheMakesTheWriteWaitForADestage) {
  sim::Simulator sim;
  auto d = Make(&sim, Cached(64.0 / 1024));  // 64 KB
  std::vector<uint8_t> data(16384, 1);
  std::map<uint64_t, sim::SimTime> done;
  std::vector<uint64_t> ids;
  for (int i = 0; i < 6; ++i) {
    uint64_t off = (static_cast<uint64_t>(i) * 7919 % 97) * (d->info().capacity_bytes / 100) / 512 * 512;
    ids.push_back(Submit(d.get(), IoCommand::Single(IoEntry::Write(off, 16384, data.data())), &done));
  }
  sim.Run(10000);
  const sim::SimDuration ack = d->CacheTransferNs(16384);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(done[ids[static_cast<size_t>(i)]], (i + 1) * ack) << "write " << i;
  EXPECT_GT(done[ids[4]] - 4 * ack, 1 * sim::kMs) << "the fifth write waited for a destage to free space";
  EXPECT_GT(done[ids[5]], done[ids[4]]);
  EXPECT_GE(d->stats().cache_full_waits, 1u);
  EXPECT_EQ(d->stats().destages, 6u);
  EXPECT_TRUE(d->write_cache()->empty());
}

TEST(DiskCacheTest, FlushWaitsForTheCacheAndTheDiskSpinsDownOnlyClean) {
  sim::Simulator sim;
  DiskConfig c = Cached(16);
  c.spin_down_s = 0.001;  // shorter than one destage: a dirty disk must not spin down
  auto d = Make(&sim, c);
  std::vector<uint8_t> data(65536, 3);
  std::map<uint64_t, sim::SimTime> done;
  for (int i = 0; i < 4; ++i) {
    Submit(d.get(), IoCommand::Single(IoEntry::Write((17 + 23 * static_cast<uint64_t>(i)) * (d->info().capacity_bytes / 100) / 512 * 512,
                                                     65536, data.data())), &done);
  }
  bool clean_at_flush = false;
  uint64_t fid = d->next_id();
  ASSERT_TRUE(d->Submit(IoCommand::Single(IoEntry::Flush()), [&](const IoCompletion& cc) {
    done[fid] = cc.completed;
    clean_at_flush = d->write_cache()->empty();
  }).ok());
  bool dirty_standby = false;
  sim::SimTime standby_at = -1;
  while (sim.Step()) {
    if (d->state() == DiskDevice::State::kStandby && standby_at < 0) {
      standby_at = sim.now();
      dirty_standby = !d->write_cache()->empty();
    }
  }
  ASSERT_TRUE(done.count(fid));
  EXPECT_TRUE(clean_at_flush);
  EXPECT_GT(done[fid], done[4] + 2 * sim::kMs) << "the flush waited for four destages";
  EXPECT_FALSE(dirty_standby);
  EXPECT_EQ(standby_at, done[fid] + 1 * sim::kMs) << "standby 1 ms after the cache ran clean";
  EXPECT_EQ(d->stats().destages, 4u);
  // Reading it back spins the disk up and reads the platter.
  std::vector<uint8_t> back(65536);
  ASSERT_TRUE(SubmitAndWait(d.get(), IoCommand::Single(IoEntry::Read(17 * (d->info().capacity_bytes / 100) / 512 * 512, 65536,
                                                                     back.data()))).ok());
  EXPECT_EQ(back, data);
  EXPECT_EQ(d->stats().spin_ups, 1u);
  EXPECT_EQ(d->stats().cache_read_hits, 0u);
}

// Random writes, trims and reads over a small region through a small cache: every read, at any
// time, returns the newest bytes; at the end the platter alone holds them.
struct Outcome {
  std::vector<sim::SimTime> completions;
  double joules = 0;
  DiskDevice::Stats stats;
};

Outcome RandomRun(uint64_t seed, bool verify) {
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  sim::Simulator sim;
  auto d = Make(&sim, Cached(0.25));
  const uint64_t region = 4 << 20, base = d->info().capacity_bytes / 3 / 512 * 512;
  std::vector<uint8_t> ref(region, 0);
  sim::Rng rng(seed);
  std::map<uint64_t, sim::SimTime> done;
  std::vector<uint8_t> buf(32768), back(32768);
  int64_t t = 0;
  for (int i = 0; i < 4000; ++i) {
    t += static_cast<int64_t>(rng.Exponential(i % 500 < 250 ? 0.0005 : 0.02) * 1e9) + 1;
    sim.RunUntil(t);
    uint64_t len = (1 + rng.UniformU64(64)) * 512;
    uint64_t off = rng.UniformU64((region - len) / 512) * 512;
    double p = rng.UniformDouble();
    if (p < 0.6) {
      for (uint64_t k = 0; k < len; ++k) buf[k] = static_cast<uint8_t>(rng.UniformU64(256));
      std::copy(buf.begin(), buf.begin() + static_cast<long>(len), ref.begin() + static_cast<long>(off));
      Submit(d.get(), IoCommand::Single(IoEntry::Write(base + off, len, buf.data())), &done);
    } else if (p < 0.65) {
      std::fill(ref.begin() + static_cast<long>(off), ref.begin() + static_cast<long>(off + len), 0);
      Submit(d.get(), IoCommand::Single(IoEntry::Trim(base + off, len)), &done);
    } else {
      Submit(d.get(), IoCommand::Single(IoEntry::Read(base + off, len, back.data())), &done);
      if (verify) {
        EXPECT_TRUE(std::equal(back.begin(), back.begin() + static_cast<long>(len), ref.begin() + static_cast<long>(off)))
            << "read " << i << " at " << off;
      }
    }
  }
  sim.Run(10000000);
  Outcome o;
  for (const auto& kv : done) o.completions.push_back(kv.second);
  o.joules = d->Joules();
  o.stats = d->stats();
  if (verify) {
    EXPECT_EQ(done.size(), 4000u);
    EXPECT_TRUE(d->write_cache()->empty());
    std::vector<uint8_t> platter(region);
    d->Peek(base, region, platter.data());  // a clean cache: the platter's bytes
    EXPECT_TRUE(platter == ref) << "every byte written reached the platter";
  }
  return o;
}

TEST(DiskCacheTest, EveryWriteReadsBackFromTheCacheOrThePlatter) {
  Outcome o = RandomRun(21, true);
  EXPECT_GT(o.stats.cached_writes, 1000u);
  EXPECT_GT(o.stats.cache_full_waits, 0u) << "the bursts filled the 256 KB cache";
  EXPECT_GT(o.stats.cache_read_hits, 0u);
  EXPECT_EQ(o.stats.destages > 0, true);
}

TEST(DiskCacheTest, Deterministic) {
  Outcome a = RandomRun(22, false), b = RandomRun(22, false);
  EXPECT_EQ(a.completions, b.completions);
  EXPECT_EQ(a.joules, b.joules);
}

TEST(DiskCacheTest, ACacheNeedsTheLinkRate) {
  sim::Simulator sim;
  DiskConfig c = FindDiskProfile("disk-7200")->config;
  c.cache_mb = 8;
  auto d = DiskDevice::Create(&sim, "x", c);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("interface_mb_s"), std::string::npos);
  c.cache_mb = -1;
  EXPECT_FALSE(DiskDevice::Create(&sim, "x", c).ok());
}

}  // namespace
}  // namespace fawnlab::device
