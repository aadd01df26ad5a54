// Randomized ops against a std::map reference: puts, updates, deletes, gets and a few scans,
// with merges interleaved (small buffers, so there are many levels). Prints its seed; set
// FAWNLAB_TEST_SEED to replay one, FAWNLAB_CONA_RANDOM_OPS to change the op count.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cona/store.h"
#include "cona/store_test_util.h"
#include "sim/rng.h"

namespace fawnlab::cona {
namespace {

uint64_t Seed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 16016;
}

uint64_t Ops() {
  const char* env = std::getenv("FAWNLAB_CONA_RANDOM_OPS");
  return env ? std::strtoull(env, nullptr, 10) : 1000000;
}

struct Params {
  uint32_t buffer_bytes;
  bool merge_thread;
  TrieMix trie;
  int last_fragment_bits;
  uint64_t keyspace;
  uint64_t ops;
  bool durable_links = false;
  uint64_t restart_every = 0;  // ops between clean restarts (sync, reopen); 0: none
};

void RunRandom(const Params& p, uint64_t seed) {
  StoreOptions o;
  o.key_bytes = 8;
  o.value_bytes = 16;
  o.buffer_bytes = p.buffer_bytes;
  o.merge_thread = p.merge_thread;
  o.trie = p.trie;
  o.last_fragment_bits = p.last_fragment_bits;
  o.merge_chunk_bytes = 1024;
  o.durable_links = p.durable_links;
  sim::Simulator sim;
  auto dev = testing::TestDevice(&sim, uint64_t{4} << 30);
  o.region_bytes = Store::FileBytes(o, p.ops);
  auto created = Store::Create(dev.get(), o);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  std::unique_ptr<Store> store = std::move(created).value();
  sim::Rng rng(seed);
  std::map<std::string, std::string> ref;
  std::vector<std::string> keys;
  keys.reserve(p.keyspace);
  for (uint64_t i = 0; i < p.keyspace; ++i) keys.push_back(testing::TestKey(i + seed * 1000003, 8));
  uint64_t mismatches = 0, checked = 0, scans_checked = 0, completed = 0, issued = 0, restarts = 0;
  std::string first_mismatch;
  for (uint64_t i = 0; i < p.ops; ++i) {
    const uint64_t dice = rng.UniformU64(100);
    const std::string& k = keys[rng.UniformU64(p.keyspace)];
    Status s;
    if (dice < 45) {
      std::string v = "v" + std::to_string(i);
      v.resize(rng.UniformU64(17), 'x');
      ref[k] = v;
      s = store->Put(k, v, [&](const Status& x) { ++completed; EXPECT_TRUE(x.ok()); });
    } else if (dice < 55) {
      ref.erase(k);
      s = store->Delete(k, [&](const Status& x) { ++completed; EXPECT_TRUE(x.ok()); });
    } else if (dice < 99) {
      auto it = ref.find(k);
      const bool want = it != ref.end();
      std::string wantv = want ? it->second : std::string();
      s = store->Get(k, [&, want, wantv, i](const Status& x, std::string v) {
        ++completed;
        ++checked;
        const bool got = x.ok();
        if (got != want || (got && v != wantv)) {
          if (mismatches++ == 0) first_mismatch = "op " + std::to_string(i) + ": got " + (got ? v : x.ToString()) +
                                                 " want " + (want ? wantv : "not found");
        }
      });
    } else {
      // A scan of up to 5 keys from `k`.
      std::vector<std::pair<std::string, std::string>> want;
      for (auto it = ref.lower_bound(k); it != ref.end() && want.size() < 5; ++it) want.push_back(*it);
      s = store->Scan(k, 5, [&, want, i](const Status& x, std::vector<std::pair<std::string, std::string>> got) {
        ++completed;
        ++scans_checked;
        if (!x.ok() || got != want) {
          if (mismatches++ == 0) first_mismatch = "scan at op " + std::to_string(i);
        }
      });
    }
    ASSERT_TRUE(s.ok()) << "op " << i << ": " << s.ToString();
    ++issued;
    // Now and then a clean restart: sync, let everything finish, reopen from the manifest.
    if (p.restart_every && i % p.restart_every == p.restart_every - 1) {
      while (issued != completed && sim.Step()) {}
      bool synced = false;
      ASSERT_TRUE(store->Sync([&](const Status& x) { synced = x.ok(); }).ok());
      while (!synced && sim.Step()) {}
      while (!store->idle() && sim.Step()) {}
      const uint64_t levels = static_cast<uint64_t>(store->structure().levels);
      store.reset();
      RecoveryReport rep;
      auto rec = Store::Recover(dev.get(), o, &rep);
      ASSERT_TRUE(rec.ok()) << "restart at op " << i << ": " << rec.status().ToString();
      store = std::move(rec).value();
      ++restarts;
      EXPECT_LE(static_cast<uint64_t>(store->structure().levels), levels);
    }
    // A few ops in flight at a time (the client keeps some outstanding), merges run meanwhile.
    if (issued - completed >= 4) {
      while (issued - completed >= 2 && sim.Step()) {}
    }
  }
  while (!store->idle() && sim.Step()) {}
  EXPECT_EQ(completed, issued);
  EXPECT_EQ(mismatches, 0u) << first_mismatch;
  // Everything reads back at the end.
  uint64_t final_bad = 0;
  for (uint64_t i = 0; i < p.keyspace; ++i) {
    const std::string& k = keys[i];
    auto it = ref.find(k);
    bool done = false;
    ASSERT_TRUE(store->Get(k, [&](const Status& x, std::string v) {
      done = true;
      if (x.ok() != (it != ref.end()) || (x.ok() && v != it->second)) ++final_bad;
    }).ok());
    while (!done && sim.Step()) {}
  }
  EXPECT_EQ(final_bad, 0u);
  const StoreStats& st = store->stats();
  const Structure str = store->structure();
  std::cout << "  buffer " << p.buffer_bytes << " B, merge_thread " << p.merge_thread << ", trie " << TrieMixName(p.trie) << (p.durable_links ? ", durable links" : "")
            << ": " << p.ops << " ops, " << checked << " gets and " << scans_checked << " scans checked, "
            << st.induces << " induces, " << st.merges << " merges, " << st.links << " links, " << str.levels
            << " levels, " << st.false_positives << " false positives, " << st.dropped_tombstones
            << " markers dropped, " << restarts << " restarts, virtual " << sim::NsToSec(sim.now()) << " s\n";
  EXPECT_GT(st.merges, 100u);
  if (std::getenv("CONA_DUMP"))
    for (const auto& c : str.cells)
      std::cout << "    L" << c.level << " s" << c.slot << (c.visible ? " vis" : " sh") << " n=" << c.entries
                << " frag=" << c.fragment_bits << " block=" << c.block_size << " seq=" << c.seq << "\n";
}

TEST(ConaStoreRandom, MillionOpsAgainstAMap) {
  const uint64_t seed = Seed();
  std::cout << "seed " << seed << " (FAWNLAB_TEST_SEED)\n";
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t n = Ops();
  RunRandom({10 * 28, true, TrieMix::kThesis, 0, 20000, n * 6 / 10, false, 37337}, seed);
  RunRandom({16 * 28, false, TrieMix::k4, 8, 5000, n * 2 / 10}, seed + 1);
  RunRandom({64 * 28, true, TrieMix::k64, 0, 50000, n * 2 / 10, true}, seed + 2);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "  " << n << " ops in " << secs << " s wall\n";
}

}  // namespace
}  // namespace fawnlab::cona
