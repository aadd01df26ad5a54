// SILT on the Stores lab's machine (the CONA thesis's, scaled 1/1000 like cona::Machine: a
// Crucial M500 behind a write-back page cache of (8 GB - 3 GB) / 1000) with the LogStore scaled
// to the file (LogSlotsForEntries): a 25K-record load of 20 B keys and 200 B values, then 25K
// uniform gets, one at a time, once the background is idle. Prints the figures (puts/s and
// gets/s in virtual time, store and FTL write amplification, B/key) and checks their shape:
// SILT's memory, ~1 read per get, a real merge load.
#include <cstdio>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "cona/machine.h"
#include "device/page_cache.h"
#include "device/profiles.h"
#include "silt/store.h"
#include "silt/test_rig.h"
#include "ycsb/keys.h"

namespace fawnlab::silt {
namespace {

TEST(SiltLabTest, LoadAndGetsOnTheThesisMachineAtScale) {
  constexpr uint64_t kRecords = 25000;
  const double scale = 1.0 / 1000;
  sim::Simulator sim;
  Options o;
  o.log_slots = 0;  // from the region: 128 slots for 50K entries
  o.region_bytes = SiltStore::FileBytes(o, 2 * kRecords);
  const device::FlashProfile& prof = device::CrucialM500Profile();
  const uint64_t block = uint64_t{prof.pages_per_block} * prof.page_bytes;
  uint64_t capacity = std::max<uint64_t>(static_cast<uint64_t>(cona::kThesisFlashBytes * scale), o.region_bytes);
  capacity = (capacity + block - 1) / block * block;
  auto flash = device::MakeFlash(&sim, prof, capacity);
  ASSERT_TRUE(flash.ok());
  const uint64_t cache = static_cast<uint64_t>((cona::kThesisDramBytes - cona::kThesisOsBytes) * scale);
  device::WriteBackOptions wb;
  wb.enabled = true;
  wb.dirty_background_bytes = cache / 10;
  wb.dirty_limit_bytes = cache / 5;
  wb.writeback_max_bytes = 512 * 1024;
  device::PageCache pc(flash.value().get(), cache, 250, wb);
  auto created = SiltStore::Create(&pc, o);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  std::unique_ptr<SiltStore> store = std::move(created).value();
  EXPECT_EQ(store->layout().log_slots, 128u);
  std::string k, v;
  for (uint64_t i = 0; i < kRecords; ++i) {
    ycsb::KeyFor(i, 20, &k);
    ycsb::ValueFor(i, 0, 200, &v);
    bool done = false;
    ASSERT_TRUE(store->Put(k, v, [&](const Status& s) { EXPECT_TRUE(s.ok()); done = true; }).ok());
    ASSERT_TRUE(testing::RunUntilFlag(&sim, &done));
  }
  const kv::KvCounters load = store->counters();
  // The gets start once the background has finished the load's merges (and its sync).
  while (!store->idle() && sim.Step()) {}
  for (int i = 0; i < 1000 && sim.Step(); ++i) {}
  const uint64_t flash_host0 = flash.value()->counters().host_write_bytes;
  const uint64_t flash_media0 = flash.value()->counters().media_write_bytes;
  sim::Rng rng(1);
  uint64_t hits = 0;
  for (uint64_t i = 0; i < kRecords; ++i) {
    ycsb::KeyFor(rng.UniformU64(kRecords), 20, &k);
    bool done = false;
    ASSERT_TRUE(store->Get(k, [&](const Status& s, std::string) { hits += s.ok(); done = true; }).ok());
    ASSERT_TRUE(testing::RunUntilFlag(&sim, &done));
  }
  const kv::KvCounters all = store->counters();
  const SiltStats& st = store->stats();
  const double puts_s = kRecords / (load.write_ns / 1e9);
  const double gets_s = kRecords / ((all.read_ns - load.read_ns) / 1e9);
  const double wa = static_cast<double>(load.store_bytes_written) / static_cast<double>(load.user_bytes);
  const double ftl_wa = flash_host0 ? static_cast<double>(flash_media0) / static_cast<double>(flash_host0) : 0;
  const double bpk = static_cast<double>(store->dram_bytes()) / kRecords;
  std::printf("SILT lab (25K records, log %u slots): load %.0f puts/s (stall %.1f%%, background busy %.3f s of %.3f s), "
              "%.0f gets/s (%llu direct reads, %llu sector cache hits, %llu buffered), %.4f reads/get, store WA %.2f, FTL WA "
              "%.2f, %.3f B/key DRAM; %llu conversions, %llu merges\n",
              store->layout().log_slots, puts_s, 100.0 * load.stall_ns / load.write_ns, load.background_ns / 1e9, load.write_ns / 1e9,
              gets_s, static_cast<unsigned long long>(st.direct_reads), static_cast<unsigned long long>(st.sector_cache_hits),
              static_cast<unsigned long long>(st.buffered_reads), static_cast<double>(all.lookup_reads - load.lookup_reads) / kRecords, wa, ftl_wa, bpk,
              static_cast<unsigned long long>(st.conversions), static_cast<unsigned long long>(st.merges));
  EXPECT_EQ(hits, kRecords);
  EXPECT_GT(st.merges, 5u);
  EXPECT_GT(wa, 2.0);
  EXPECT_LT(bpk, 1.5);
  EXPECT_LT(static_cast<double>(all.lookup_reads - load.lookup_reads) / kRecords, 1.02);
}

}  // namespace
}  // namespace fawnlab::silt
