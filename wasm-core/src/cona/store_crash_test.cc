// Crash points through the fault injector: a run of puts, updates and deletes with syncs is
// crashed at many command counts (unsynced writes lost; some crashing writes torn), the store
// is recovered from its manifest, and every key must read its value as of the last completed
// Sync or a later one; nothing acknowledged before a completed Sync is lost. Also with a
// write-back page cache between the store and the injector (its DRAM dropped at the crash).
// Prints the number of crash points checked and its seed (FAWNLAB_TEST_SEED).
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cona/store.h"
#include "cona/store_test_util.h"
#include "device/fault_injector.h"
#include "device/page_cache.h"
#include "sim/rng.h"

namespace fawnlab::cona {
namespace {

uint64_t Seed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 1616;
}

StoreOptions CrashOptions() {
  StoreOptions o;
  o.key_bytes = 8;
  o.value_bytes = 16;
  o.buffer_bytes = 6 * 28;  // 6 entries per buffer
  o.merge_chunk_bytes = 512;
  o.region_bytes = 0;
  return o;
}

constexpr uint64_t kKeys = 60;
constexpr uint64_t kOps = 700;

struct Outcome {
  bool crashed = false;
  uint64_t commands = 0;
  uint64_t keys_checked = 0;
  uint64_t recovered_cells = 0, recovered_buffer = 0;
  bool torn_refused = false;
};

// One run; crash_at = 0 runs to the end without crashing (to count the commands).
Outcome RunOnce(uint64_t seed, uint64_t crash_at, bool torn, bool page_cache, bool durable_links = true) {
  Outcome out;
  sim::Simulator sim;
  auto nvm = testing::TestDevice(&sim, uint64_t{64} << 20);
  device::FaultInjector fi(nvm.get());
  std::unique_ptr<device::PageCache> pc;
  device::Device* dev = &fi;
  if (page_cache) {
    device::WriteBackOptions wb;
    wb.enabled = true;
    wb.dirty_background_bytes = 16 << 10;
    wb.dirty_limit_bytes = 64 << 10;
    wb.writeback_max_bytes = 16 << 10;
    pc = std::make_unique<device::PageCache>(&fi, uint64_t{8} << 20, 250, wb);
    dev = pc.get();
  }
  StoreOptions o = CrashOptions();
  o.durable_links = durable_links;
  auto created = Store::Create(dev, o);
  EXPECT_TRUE(created.ok()) << created.status().ToString();
  if (!created.ok()) return out;
  std::unique_ptr<Store> store = std::move(created).value();
  if (crash_at) {
    device::FaultPlan plan;
    plan.crash_at = crash_at;
    plan.lose_unsynced = true;
    plan.tear_crashing_write = torn;
    plan.torn_bytes = torn ? 100 : 0;
    EXPECT_TRUE(fi.Arm(plan).ok());
  }
  const uint64_t base = fi.commands_seen();
  sim::Rng rng(seed);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < kKeys; ++i) keys.push_back(testing::TestKey(i + seed * 7919, 8));
  // History per key: (op index, value; nullopt = deleted).
  std::map<std::string, std::vector<std::pair<uint64_t, std::optional<std::string>>>> hist;
  uint64_t synced_at = 0;  // ops before this index are durable
  for (uint64_t i = 1; i <= kOps && !fi.crashed(); ++i) {
    bool done = false;
    Status st;
    const uint64_t dice = rng.UniformU64(100);
    const std::string& k = keys[rng.UniformU64(kKeys)];
    if (dice < 8) {
      st = store->Sync([&, i](const Status& x) { done = true; if (x.ok()) synced_at = i; });
    } else if (dice < 25) {
      hist[k].emplace_back(i, std::nullopt);
      st = store->Delete(k, [&](const Status&) { done = true; });
    } else {
      std::string v = "v" + std::to_string(i);
      hist[k].emplace_back(i, v);
      st = store->Put(k, v, [&](const Status&) { done = true; });
    }
    if (!st.ok()) break;  // the device refused (crashed) before the op was queued
    while (!done && !fi.crashed() && sim.Step()) {}
    if (!done && !fi.crashed()) {
      ADD_FAILURE() << "op " << i << " never completed without a crash";
      return out;
    }
  }
  out.commands = fi.commands_seen() - base;
  if (!crash_at) {
    // Let merges finish (their commands count too).
    while (!store->idle() && sim.Step()) {}
    out.commands = fi.commands_seen() - base;
    return out;
  }
  if (!fi.crashed()) {
    while (!store->idle() && !fi.crashed() && sim.Step()) {}
  }
  out.crashed = fi.crashed();
  if (!out.crashed) return out;
  // The power fails: the store object and the page cache's DRAM are gone.
  store.reset();
  if (pc) pc->DropAll();
  fi.Restart();
  RecoveryReport rep;
  auto rec = Store::Recover(dev, o, &rep);
  if (!durable_links && torn && !rec.ok()) {
    // Without durable links a torn write may hit a cell the last sync named: named, not silent.
    EXPECT_EQ(rec.status().code(), StatusCode::kCorruption) << rec.status().ToString();
    out.torn_refused = true;
    return out;
  }
  EXPECT_TRUE(rec.ok()) << "crash at command " << crash_at << (torn ? " (torn)" : "") << (page_cache ? " (page cache)" : "")
                        << ": " << rec.status().ToString();
  if (!rec.ok()) return out;
  store = std::move(rec).value();
  out.recovered_cells = rep.cells;
  out.recovered_buffer = rep.buffer_entries;
  for (const auto& c : store->structure().cells) {
    // Shadows were discarded; a merge the recovered structure made due may have begun.
    if (!c.visible) { EXPECT_TRUE(store->structure().merging) << "a shadow survived recovery"; }
  }
  for (const std::string& k : keys) {
    // Allowed: the value as of synced_at, or any later one.
    std::vector<std::optional<std::string>> allowed;
    std::optional<std::string> at_sync;
    for (const auto& [idx, v] : hist[k]) {
      if (idx < synced_at) at_sync = v;
      else allowed.push_back(v);
    }
    allowed.push_back(at_sync);
    bool done = false;
    std::optional<std::string> got;
    Status st = store->Get(k, [&](const Status& x, std::string v) {
      done = true;
      if (x.ok()) got = v;
      else EXPECT_EQ(x.code(), StatusCode::kNotFound) << x.ToString();
    });
    EXPECT_TRUE(st.ok());
    while (!done && sim.Step()) {}
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == got;
    EXPECT_TRUE(ok) << "crash at command " << crash_at << (torn ? " (torn)" : "") << (page_cache ? " (page cache)" : "")
                    << ": key #" << (&k - &keys[0]) << " reads " << (got ? *got : "nothing") << ", synced "
                    << (at_sync ? *at_sync : "nothing") << " at op " << synced_at;
    ++out.keys_checked;
  }
  return out;
}

TEST(ConaStoreCrash, NothingSyncedIsLost) {
  const uint64_t seed = Seed();
  std::cout << "seed " << seed << " (FAWNLAB_TEST_SEED)\n";
  uint64_t points = 0, keys = 0, refused = 0;
  for (bool durable_links : {true, false}) {
    for (bool page_cache : {false, true}) {
      const Outcome full = RunOnce(seed, 0, false, page_cache, durable_links);
      ASSERT_GT(full.commands, 100u);
      const uint64_t step = std::max<uint64_t>(1, full.commands / 150);
      for (uint64_t c = 1; c <= full.commands; c += step) {
        for (bool torn : {false, true}) {
          Outcome r = RunOnce(seed, c, torn, page_cache, durable_links);
          if (::testing::Test::HasFailure()) return;
          if (!r.crashed) continue;
          ++points;
          keys += r.keys_checked;
          refused += r.torn_refused ? 1 : 0;
        }
      }
      std::cout << "  durable_links " << durable_links << (page_cache ? ", write-back page cache: " : ", on the device: ")
                << full.commands << " commands in the run\n";
    }
  }
  std::cout << "  " << points << " crash points checked, " << keys << " key reads after recovery; " << refused
            << " torn crashes without durable links refused with a Corruption error\n";
  EXPECT_GT(points, 600u);
}

TEST(ConaStoreCrash, CorruptOrMissingManifestIsNamed) {
  sim::Simulator sim;
  auto nvm = testing::TestDevice(&sim, uint64_t{16} << 20);
  StoreOptions o = CrashOptions();
  RecoveryReport rep;
  auto none = Store::Recover(nvm.get(), o, &rep);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kCorruption);
  EXPECT_NE(none.status().message().find("no valid CONA manifest"), std::string::npos) << none.status().ToString();
  {
    auto s = Store::Create(nvm.get(), o);
    ASSERT_TRUE(s.ok());
  }
  // Flip a byte in the manifest: CRC mismatch named.
  uint8_t b = 0;
  nvm->Peek(20, 1, &b);
  b ^= 0x40;
  nvm->Poke(20, 1, &b);
  auto bad = Store::Recover(nvm.get(), o, &rep);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("CRC"), std::string::npos) << bad.status().ToString();
  // Other options than the store was written with: named.
  b ^= 0x40;
  nvm->Poke(20, 1, &b);
  StoreOptions other = o;
  other.value_bytes = 32;
  auto mismatch = Store::Recover(nvm.get(), other, &rep);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.status().message().find("value_bytes"), std::string::npos) << mismatch.status().ToString();
}

}  // namespace
}  // namespace fawnlab::cona
