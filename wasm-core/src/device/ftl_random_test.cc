// Randomized FTL test: millions of random writes, trims, reads and flushes through a flash
// device (controller buffer + FTL + NAND), checked against a reference copy of the logical
// bytes after every read; the FTL's invariants are checked as it goes; and the same seed
// must reproduce the same device byte for byte. The seed is printed; set FAWNLAB_TEST_SEED
// to replay one.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "device/flash_device.h"
#include "device/ftl_block.h"
#include "device/ftl_page.h"
#include "sim/rng.h"

namespace fawnlab::device {
namespace {

uint64_t TestSeed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 20261121;
}

struct Rig {
  sim::Simulator sim;
  std::unique_ptr<FlashDevice> dev;
};

std::unique_ptr<Rig> MakeRig(bool block_mapped) {
  auto rig = std::make_unique<Rig>();
  NandGeometry g;
  g.channels = block_mapped ? 1 : 2;
  g.chips = block_mapped ? 1 : 4;
  g.blocks = block_mapped ? 48 : 96;
  g.pages_per_block = 16;
  g.page_bytes = 512;
  NandTiming t;
  t.read_ns = 20000;
  t.program_ns = 100000;
  t.erase_ns = 1000000;
  t.transfer_ns_per_kb = 5000;
  t.copy_back = !block_mapped;
  auto nand = std::make_unique<Nand>(g, t);
  std::unique_ptr<Ftl> ftl;
  uint64_t logical;
  if (block_mapped) {
    logical = 36 * 16;
    ftl = BlockMappedFtl::Create(nand.get(), logical, 4, 4).value();
  } else {
    logical = 64 * 16;
    ftl = PageMappedFtl::Create(nand.get(), logical, 2).value();
  }
  FlashControllerConfig c;
  c.command_ns = 2000;
  c.bus_ns_per_kb = 4000;
  c.write_buffer_pages = 8;
  c.readahead_pages = block_mapped ? 4 : 0;
  rig->dev = std::make_unique<FlashDevice>(&rig->sim, DeviceInfo{"test", "flash", logical * 512, 512}, std::move(nand),
                                           std::move(ftl), c);
  return rig;
}

// Runs `ops` random operations; returns a digest of the final device contents and counters.
uint64_t Torture(bool block_mapped, uint64_t seed, uint64_t ops) {
  auto rig = MakeRig(block_mapped);
  FlashDevice& dev = *rig->dev;
  const uint64_t cap = dev.info().capacity_bytes;
  std::vector<uint8_t> ref(cap, 0), buf(4096);
  sim::Rng rng(seed);
  for (uint64_t i = 0; i < ops; ++i) {
    uint64_t kind = rng.UniformU64(100);
    uint64_t len = 1 + rng.UniformU64(rng.Bernoulli(0.5) ? 512 : 2048);
    uint64_t off = rng.UniformU64(cap - len + 1);
    if (rng.Bernoulli(0.3)) off -= off % 512;  // often page-aligned
    if (kind < 55) {
      for (uint64_t b = 0; b < len; ++b) buf[b] = static_cast<uint8_t>(rng.NextU64());
      if (!dev.Submit(IoCommand::Single(IoEntry::Write(off, len, buf.data())), nullptr).ok()) {
        ADD_FAILURE() << "submit refused at op " << i;
        return 0;
      }
      std::copy(buf.begin(), buf.begin() + static_cast<long>(len), ref.begin() + static_cast<long>(off));
    } else if (kind < 62) {
      // Trim discards whole pages only; the reference follows the device's rule.
      if (!dev.Submit(IoCommand::Single(IoEntry::Trim(off, len)), nullptr).ok()) {
        ADD_FAILURE() << "submit refused at op " << i;
        return 0;
      }
      for (uint64_t p = (off + 511) / 512; (p + 1) * 512 <= off + len; ++p) {
        std::fill(ref.begin() + static_cast<long>(p * 512), ref.begin() + static_cast<long>(p * 512 + 512), 0);
      }
    } else if (kind < 64) {
      if (!dev.Submit(IoCommand::Single(IoEntry::Erase(off, len)), nullptr).ok()) {
        ADD_FAILURE() << "submit refused at op " << i;
        return 0;
      }
      std::fill(ref.begin() + static_cast<long>(off), ref.begin() + static_cast<long>(off + len), 0);
    } else if (kind < 65) {
      if (!dev.Submit(IoCommand::Single(IoEntry::Flush()), nullptr).ok()) {
        ADD_FAILURE() << "submit refused at op " << i;
        return 0;
      }
    } else {
      if (!dev.Submit(IoCommand::Single(IoEntry::Read(off, len, buf.data())), nullptr).ok()) {
        ADD_FAILURE() << "submit refused at op " << i;
        return 0;
      }
      for (uint64_t b = 0; b < len; ++b) {
        if (buf[b] != ref[off + b]) {
          ADD_FAILURE() << "stale or lost byte at offset " << off + b << " after op " << i << " (seed " << seed << ")";
          return 0;
        }
      }
    }
    if (i % 997 == 0) rig->sim.Run(UINT64_MAX);
    if (i % 20011 == 0) {
      std::string bad = dev.ftl().CheckInvariants();
      if (!bad.empty()) {
        ADD_FAILURE() << "FTL invariant broken after op " << i << ": " << bad << " (seed " << seed << ")";
        return 0;
      }
    }
  }
  rig->sim.Run(UINT64_MAX);
  EXPECT_EQ(dev.ftl().CheckInvariants(), "");
  // The whole device still reads back as the reference.
  std::vector<uint8_t> all(cap);
  dev.Peek(0, cap, all.data());
  EXPECT_TRUE(all == ref) << "device contents differ from the reference (seed " << seed << ")";
  uint64_t h = 1469598103934665603ull;
  for (uint8_t b : all) h = (h ^ b) * 1099511628211ull;
  const DeviceCounters& c = dev.counters();
  for (uint64_t v : {c.media_write_bytes, c.media_read_bytes, c.erases, c.gc_moves, static_cast<uint64_t>(rig->sim.now())}) {
    h = (h ^ v) * 1099511628211ull;
  }
  EXPECT_GT(c.erases, 0u) << "the collector never ran: the test did not exercise GC";
  return h;
}

// The sanitizer run checks memory and needs fewer operations; the native run checks the FTL.
#if defined(__SANITIZE_ADDRESS__)
constexpr uint64_t kOpsDivisor = 8;
#else
constexpr uint64_t kOpsDivisor = 1;
#endif

TEST(FtlRandomTest, PageMappedMatchesReferenceAndIsDeterministic) {
  uint64_t seed = TestSeed();
  std::cout << "FtlRandomTest page-mapped seed=" << seed << " (FAWNLAB_TEST_SEED to replay)\n";
  uint64_t a = Torture(false, seed, 1000000 / kOpsDivisor);
  uint64_t b = Torture(false, seed, 1000000 / kOpsDivisor);
  EXPECT_NE(a, 0u);
  EXPECT_EQ(a, b) << "the same seed gave a different device";
}

TEST(FtlRandomTest, BlockMappedMatchesReferenceAndIsDeterministic) {
  uint64_t seed = TestSeed() + 1;
  std::cout << "FtlRandomTest block-mapped seed=" << seed << " (FAWNLAB_TEST_SEED to replay)\n";
  uint64_t a = Torture(true, seed, 400000 / kOpsDivisor);
  uint64_t b = Torture(true, seed, 400000 / kOpsDivisor);
  EXPECT_NE(a, 0u);
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace fawnlab::device
