// The Crucial M500 profile against its spec sheet (device/profiles.cc): the two fitted figures
// (sequential read and write) within 5%; random 4 KB reads and writes measured and printed
// beside the spec (not fitted: the model serves one command at a time).
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "device/profiles.h"
#include "gtest/gtest.h"
#include "sim/rng.h"

namespace fawnlab::device {
namespace {

constexpr uint64_t kCapacity = uint64_t{512} << 20;

// Keeps `depth` commands outstanding until `count` have completed; next(i) gives command i.
// Returns the virtual seconds from the first submission to the last completion.
double ClosedLoop(Device* d, int depth, uint64_t count, const std::function<IoEntry(uint64_t)>& next) {
  sim::Simulator* sim = d->sim();
  const sim::SimTime t0 = sim->now();
  uint64_t issued = 0, done = 0;
  std::function<void()> issue = [&]() {
    if (issued >= count) return;
    IoEntry e = next(issued++);
    Status s = d->Submit(IoCommand::Single(e), [&](const IoCompletion&) {
      ++done;
      issue();
    });
    ASSERT_TRUE(s.ok()) << s.message();
  };
  for (int i = 0; i < depth; ++i) issue();
  while (done < count && sim->Step()) {
  }
  EXPECT_EQ(done, count);
  return sim::NsToSec(sim->now() - t0);
}

struct Figures {
  double seq_read_mb_s, seq_read_128k_mb_s, seq_write_mb_s, rand_read_iops, rand_write_iops;
};

Figures Measure() {
  const FlashProfile& p = CrucialM500Profile();
  Figures f{};
  std::vector<uint8_t> buf(128 * 1024, 0x5a);
  {  // sequential 1 MB reads of a full drive, depth 32
    std::vector<uint8_t> big(1 << 20);
    sim::Simulator sim;
    auto dev = MakeFlash(&sim, p, kCapacity).value();
    dev->FillSequential([](uint64_t lpn) { return lpn; });
    const uint64_t n = (256u << 20) / big.size();
    double s = ClosedLoop(dev.get(), 32, n, [&](uint64_t i) { return IoEntry::Read(i * big.size(), big.size(), big.data()); });
    f.seq_read_mb_s = static_cast<double>(n * big.size()) / s / 1e6;
  }
  {  // sequential 128 KB reads
    sim::Simulator sim;
    auto dev = MakeFlash(&sim, p, kCapacity).value();
    dev->FillSequential([](uint64_t lpn) { return lpn; });
    const uint64_t n = (256u << 20) / buf.size();
    double s = ClosedLoop(dev.get(), 32, n, [&](uint64_t i) { return IoEntry::Read(i * buf.size(), buf.size(), buf.data()); });
    f.seq_read_128k_mb_s = static_cast<double>(n * buf.size()) / s / 1e6;
  }
  {  // sequential 128 KB writes of a fresh drive, depth 32
    sim::Simulator sim;
    auto dev = MakeFlash(&sim, p, kCapacity).value();
    const uint64_t n = (256u << 20) / buf.size();
    double s = ClosedLoop(dev.get(), 32, n, [&](uint64_t i) { return IoEntry::Write(i * buf.size(), buf.size(), buf.data()); });
    f.seq_write_mb_s = static_cast<double>(n * buf.size()) / s / 1e6;
  }
  {  // random 4 KB reads, depth 32
    sim::Simulator sim;
    auto dev = MakeFlash(&sim, p, kCapacity).value();
    dev->FillSequential([](uint64_t lpn) { return lpn; });
    sim::Rng rng(1);
    const uint64_t n = 40000;
    double s = ClosedLoop(dev.get(), 32, n, [&](uint64_t) {
      return IoEntry::Read(rng.UniformU64(kCapacity / 4096) * 4096, 4096, buf.data());
    });
    f.rand_read_iops = static_cast<double>(n) / s;
  }
  {  // random 4 KB writes to a fresh drive over a quarter of it, depth 32 (the spec's setting)
    sim::Simulator sim;
    auto dev = MakeFlash(&sim, p, kCapacity).value();
    sim::Rng rng(2);
    const uint64_t n = 20000;
    double s = ClosedLoop(dev.get(), 32, n, [&](uint64_t) {
      return IoEntry::Write(rng.UniformU64(kCapacity / 4 / 4096) * 4096, 4096, buf.data());
    });
    f.rand_write_iops = static_cast<double>(n) / s;
  }
  return f;
}

TEST(ProfileM500, FittedFiguresMatchTheSpecSheet) {
  Figures f = Measure();
  std::printf("crucial-m500: sequential read %.0f MB/s in 1 MB reads, %.0f in 128 KB (spec 500), sequential write "
              "%.0f MB/s (spec 250), random 4 KB read %.0f IOPS (spec 72,000 at depth 32; not fitted), random 4 KB "
              "write %.0f IOPS (spec 60,000; not fitted)\n",
              f.seq_read_mb_s, f.seq_read_128k_mb_s, f.seq_write_mb_s, f.rand_read_iops, f.rand_write_iops);
  EXPECT_NEAR(f.seq_read_mb_s, 500, 25);
  EXPECT_NEAR(f.seq_write_mb_s, 250, 12.5);
  // One command at a time: a random read costs command + t_R + the page over its channel + 4 KB
  // over the link.
  EXPECT_NEAR(1e6 / f.rand_read_iops, 10 + 115 + 64 + 4 * 1.864, 3);
  EXPECT_GT(f.rand_write_iops, 0);
}

TEST(ProfileM500, FoundByNameButNotInTheSweptList) {
  EXPECT_NE(FindFlashProfile("crucial-m500"), nullptr);
  for (const FlashProfile& p : FlashProfiles()) EXPECT_NE(p.name, "crucial-m500");
  sim::Simulator sim;
  auto d = MakeDevice(&sim, "crucial-m500", uint64_t{64} << 20);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d.value()->info().unit_bytes, 16384u);
  auto bad = MakeDevice(&sim, "floppy");
  EXPECT_NE(bad.status().message().find("crucial-m500"), std::string::npos);
}

// The scaled thesis machine's device: 240 GB x 1/1000, whole erase blocks, never smaller
// than the file it must hold.
TEST(ProfileM500, ScaledFlashBytesRoundsUpToBlocksAndHoldsTheFile) {
  const FlashProfile& p = CrucialM500Profile();
  const uint64_t block = uint64_t{p.pages_per_block} * p.page_bytes;
  const uint64_t scaled = ScaledFlashBytes(p, 240'000'000'000ULL, 1.0 / 1000, 0);
  EXPECT_EQ(scaled % block, 0u);
  EXPECT_GE(scaled, 240'000'000u);
  EXPECT_LT(scaled, 240'000'000u + block);
  const uint64_t file = 300'000'001;
  const uint64_t held = ScaledFlashBytes(p, 240'000'000'000ULL, 1.0 / 1000, file);
  EXPECT_EQ(held % block, 0u);
  EXPECT_GE(held, file);
  EXPECT_LT(held, file + block);
}

}  // namespace
}  // namespace fawnlab::device
