#include "cona/store.h"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include "cona/store_test_util.h"
#include "device/page_cache.h"
#include "fawnds/record.h"

namespace fawnlab::cona {
namespace {

using testing::Rig;
using testing::TestKey;

// 8-byte keys, 16-byte values: 28-byte entries, `n` per buffer.
StoreOptions Small(uint64_t n = 4) {
  StoreOptions o;
  o.key_bytes = 8;
  o.value_bytes = 16;
  o.buffer_bytes = static_cast<uint32_t>(n * 28);
  o.merge_chunk_bytes = 512;
  return o;
}

// "L1: v4 v4c | L2: v8 s8d ..." — per level its visible cells (entries, c = consumed) in slot
// order and its shadow (s<merged><d done | p in progress>).
std::string Describe(const Structure& s, bool marks = true) {
  std::string out;
  for (int l = 1; l <= s.levels; ++l) {
    std::string row;
    for (const auto& c : s.cells) {
      if (c.level != l) continue;
      row += c.visible ? " v" + std::to_string(c.entries) + (c.consumed && marks ? "c" : "")
                       : " s" + std::to_string(c.merged) + (marks ? (c.done ? "d" : "p") : "");
    }
    out += (out.empty() ? "" : " |") + std::string(" L") + std::to_string(l) + ":" + (row.empty() ? " -" : row);
  }
  return out.empty() ? "" : out.substr(1);
}

void PutN(Rig& r, uint64_t from, uint64_t n) {
  for (uint64_t i = from; i < from + n; ++i) ASSERT_TRUE(r.Put(TestKey(i, 8), "v" + std::to_string(i)).ok()) << i;
}

TEST(ConaStore, InduceSwapsTheBuffersOnlyWhenTheActiveOneIsFull) {
  Rig r(Small());
  ASSERT_TRUE(r.create_error.ok()) << r.create_error.ToString();
  PutN(r, 0, 4);
  Structure s = r.store->structure();
  EXPECT_EQ(s.buffer_capacity, 4u);
  EXPECT_EQ(s.active_entries, 4u);
  EXPECT_EQ(s.frozen_entries, 0u);
  PutN(r, 4, 1);  // the full active buffer becomes the frozen one
  s = r.store->structure();
  EXPECT_EQ(s.active_entries, 1u);
  EXPECT_EQ(s.frozen_entries, 4u);
  EXPECT_EQ(r.store->stats().induces, 0u);
  PutN(r, 5, 4);  // the fifth insert finds the active full: the frozen one is induced
  s = r.store->structure();
  EXPECT_EQ(r.store->stats().induces, 1u);
  EXPECT_EQ(Describe(s), "L1: v4");
  EXPECT_EQ(s.frozen_entries, 4u);
  EXPECT_EQ(s.active_entries, 1u);
  EXPECT_EQ(s.entries, 9u);
  EXPECT_GT(r.store->stats().induce_ns, 0);
  // The cell's bytes are on the device, sorted, in fixed-size entries.
  const Layout& L = r.store->layout();
  std::vector<uint8_t> bytes(4 * L.entry_bytes);
  r.dev->Peek(L.cell_offset(1, s.cells[0].file_slot), bytes.size(), bytes.data());
  std::string prev;
  for (int i = 0; i < 4; ++i) {
    std::string_view k, v;
    uint8_t kind;
    ASSERT_TRUE(DecodeEntry(L, bytes.data() + i * L.entry_bytes, &k, &kind, &v).ok());
    EXPECT_EQ(kind, kKindPut);
    EXPECT_LT(prev, std::string(k));
    prev = std::string(k);
  }
}

// Figure 3.3 (a)-(h), step by step, B = 4 entries (sizes in entries: B = 4, 2B = 8, 4B = 16).
TEST(ConaStore, Figure33SequenceStepByStep) {
  Rig r(Small());
  ASSERT_TRUE(r.create_error.ok());
  // Reach (a): L1 one cell, L2 one cell, both buffers full (5B in all).
  PutN(r, 0, 13);  // two induces: L1 [B|B], the merge into L2's shadow starts
  r.Drain();
  PutN(r, 13, 4);  // the writer needs a level-1 slot: links L2's shadow, induces
  PutN(r, 17, 3);
  r.Drain();
  Structure s = r.store->structure();
  ASSERT_EQ(Describe(s), "L1: v4 | L2: v8") << "(a)";
  EXPECT_EQ(s.active_entries, 4u);
  EXPECT_EQ(s.frozen_entries, 4u);
  EXPECT_EQ(s.entries, 20u);
  // (b) Buffer 2 is copied into the empty L1 cell, the buffers swap, L1's two cells start
  // merging into L2's shadow.
  PutN(r, 20, 1);
  s = r.store->structure();
  EXPECT_EQ(s.active_entries, 1u);
  EXPECT_TRUE(s.merging);
  EXPECT_EQ(s.merge_level, 1);
  EXPECT_EQ(Describe(s).substr(0, 16), "L1: v4 v4 | L2: ") << Describe(s);
  // (c) The L1 -> L2-shadow merge completes; L2's visible cell and its completed shadow count
  // as two full cells, so L2 -> L3's shadow is already under way when Buffer 1 fills.
  while (!(r.store->structure().merging && r.store->structure().merge_level == 2) && r.sim.Step()) {}
  PutN(r, 21, 3);
  s = r.store->structure();
  EXPECT_EQ(s.active_entries, 4u);
  EXPECT_TRUE(s.merging && s.merge_level == 2) << "(c) L3's merge is partial";
  EXPECT_EQ(Describe(s).substr(0, 27), "L1: v4c v4c | L2: v8 s8d | ") << Describe(s);
  // (c)->(d) No empty L1 cell: L1's cells are discarded, L2's shadow linked in their place,
  // Buffer 2 copied into L1.
  const uint64_t flips0 = r.store->stats().flips;
  PutN(r, 24, 1);
  s = r.store->structure();
  EXPECT_EQ(r.store->stats().flips, flips0 + 1);
  // (L3's merge may finish while the link's manifest is written.)
  EXPECT_EQ(Describe(s, false).substr(0, 26), "L1: v4 | L2: v8 v8 | L3: s") << Describe(s);
  // (e) By the time Buffer 1 fills, L2's two cells are merged into L3's shadow.
  r.Drain();
  PutN(r, 25, 3);
  s = r.store->structure();
  EXPECT_EQ(Describe(s), "L1: v4 | L2: v8c v8c | L3: s16d") << "(e)";
  // (f) L1 has a free cell: Buffer 2 is copied down, the buffers swap.
  PutN(r, 28, 1);
  // (g) During the next round L1's two cells merge into L2's shadow: L2 holds three cells.
  r.Drain();
  PutN(r, 29, 3);
  s = r.store->structure();
  EXPECT_EQ(Describe(s), "L1: v4c v4c | L2: v8c v8c s8d | L3: s16d") << "(g)";
  // (h) The flip: all four visible cells of L1 and L2 go, both shadows become visible (a
  // cascade of links), Buffer 2 is copied into L1: one cell per level, 3 levels.
  const uint64_t links0 = r.store->stats().links;
  PutN(r, 32, 1);
  s = r.store->structure();
  EXPECT_EQ(Describe(s), "L1: v4 | L2: v8 | L3: v16") << "(h)";
  EXPECT_EQ(r.store->stats().links, links0 + 2);
  EXPECT_EQ(s.entries, 33u) << "8B + 1: every entry conserved";
  for (uint64_t i = 0; i < 33; ++i) {
    std::string v;
    ASSERT_TRUE(r.Get(TestKey(i, 8), &v).ok()) << i;
    EXPECT_EQ(v, "v" + std::to_string(i));
  }
}

TEST(ConaStore, LookupsFindTheNewestVersionAndMergesKeepIt) {
  Rig r(Small());
  const std::string k = TestKey(1000, 8);
  ASSERT_TRUE(r.Put(k, "old").ok());
  PutN(r, 0, 40);  // push it down
  r.Drain();
  ASSERT_TRUE(r.Put(k, "new").ok());
  std::string v;
  ASSERT_TRUE(r.Get(k, &v).ok());
  EXPECT_EQ(v, "new");
  PutN(r, 40, 60);
  r.Drain();
  ASSERT_TRUE(r.Get(k, &v).ok());
  EXPECT_EQ(v, "new");
  EXPECT_GT(r.store->stats().dropped_duplicates, 0u) << "a merge dropped the older version";
}

TEST(ConaStore, DeletesHideOlderVersionsAndMarkersGoAtTheBottom) {
  Rig r(Small());
  PutN(r, 0, 30);
  r.Drain();
  const std::string k = TestKey(3, 8);
  ASSERT_TRUE(r.Delete(k).ok());
  std::string v;
  LookupTrace t;
  EXPECT_EQ(r.Get(k, &v, &t).code(), StatusCode::kNotFound);
  ASSERT_FALSE(t.steps.empty());
  EXPECT_EQ(t.steps.back().outcome, 3) << "the marker answered";
  EXPECT_EQ(t.steps.back().level, 0) << "from the buffer";
  EXPECT_FALSE(t.found);
  PutN(r, 30, 200);
  r.Drain();
  EXPECT_EQ(r.Get(k, &v).code(), StatusCode::kNotFound);
  EXPECT_GT(r.store->stats().dropped_tombstones, 0u) << "a merge into the deepest data dropped the marker";
  EXPECT_EQ(r.store->stats().deletes, 1u);
}

TEST(ConaStore, FragmentsFilterAbsentKeysWithoutFlashReads) {
  for (int frag : {16, 0}) {
    StoreOptions o = Small(16);
    o.fragment_bits = frag;
    o.last_fragment_bits = 8;
    Rig r(o);
    PutN(r, 0, 2000);
    r.Drain();
    int cells = 0;
    for (const auto& c : r.store->structure().cells) cells += c.visible ? 1 : 0;
    const uint64_t reads0 = r.store->stats().flash_reads;
    const uint64_t skips0 = r.store->stats().fragment_skips;
    for (uint64_t i = 0; i < 1000; ++i) {
      std::string v;
      EXPECT_EQ(r.Get(TestKey(1'000'000 + i, 8), &v).code(), StatusCode::kNotFound);
    }
    const uint64_t reads = r.store->stats().flash_reads - reads0;
    const uint64_t skips = r.store->stats().fragment_skips - skips0;
    if (frag == 16) {
      // 16-bit fragments above, 8 bits at the last level: ~1000 × (1/256 + cells × 2^-16) reads.
      EXPECT_LT(reads, 20u) << cells << " cells";
      EXPECT_GT(skips, 1000u * (static_cast<uint64_t>(cells) - 1) - 50);
      EXPECT_EQ(r.store->stats().false_positives, reads) << "every such read is a false positive";
    } else {
      // No fragments above the last level: every upper cell costs a read.
      EXPECT_GT(reads, 1000u * (static_cast<uint64_t>(cells) - 2));
    }
  }
}

TEST(ConaStore, TraceWalksBuffersThenLevelsNewestFirst) {
  sim::Simulator sim;
  auto nvm = testing::TestDevice(&sim);
  device::PageCache pc(nvm.get(), 64 << 20);
  auto s = Store::Create(&pc, Small());
  ASSERT_TRUE(s.ok());
  std::unique_ptr<Store> store = std::move(s).value();
  auto put = [&](uint64_t i) {
    bool done = false;
    ASSERT_TRUE(store->Put(TestKey(i, 8), "v" + std::to_string(i), [&](const Status&) { done = true; }).ok());
    testing::RunUntilFlag(&sim, &done);
  };
  for (uint64_t i = 0; i < 100; ++i) put(i);
  while (!store->idle() && sim.Step()) {}
  auto get = [&](uint64_t i, LookupTrace* t) {
    bool done = false;
    Status got;
    EXPECT_TRUE(store->Get(TestKey(i, 8), [&](const Status& x, std::string) { got = x; done = true; }, t).ok());
    testing::RunUntilFlag(&sim, &done);
    return got;
  };
  LookupTrace t;
  ASSERT_TRUE(get(0, &t).ok());  // the oldest key: at the deepest level
  ASSERT_GE(t.steps.size(), 3u);
  EXPECT_EQ(t.steps[0].level, 0);
  EXPECT_EQ(t.steps[0].slot, 0);
  EXPECT_EQ(t.steps[1].level, 0);
  EXPECT_EQ(t.steps[1].slot, 1);
  for (size_t i = 3; i < t.steps.size(); ++i) EXPECT_GE(t.steps[i].level, t.steps[i - 1].level);
  const LookupStep& last = t.steps.back();
  EXPECT_EQ(last.outcome, 1);
  EXPECT_TRUE(last.flash_read);
  EXPECT_TRUE(t.found);
  EXPECT_GT(t.latency_ns, 0);
  int reads = 0;
  for (const auto& st : t.steps) reads += st.flash_read ? 1 : 0;
  EXPECT_EQ(reads, 1) << "one flash read for a present key";
  // Partial pages are not cached by a write-through cache: the first read misses, the second hits.
  EXPECT_FALSE(last.cache_hit);
  LookupTrace t2;
  ASSERT_TRUE(get(0, &t2).ok());
  EXPECT_TRUE(t2.steps.back().cache_hit);
  const std::vector<uint64_t>& served = store->stats().served_by;
  EXPECT_EQ(served[static_cast<size_t>(last.level)], 2u);
}

TEST(ConaStore, MemoryIsTheRealBytesOfTriesFragmentsAndBuffers) {
  StoreOptions o = Small(32);
  Rig r(o);
  PutN(r, 0, 3000);
  r.Drain();
  const Structure s = r.store->structure();
  uint64_t trie = 0, frag = 0;
  for (const auto& c : s.cells) {
    trie += c.trie_bytes;
    frag += c.fragment_bytes;
    if (c.fragment_bits == 16) { EXPECT_EQ(c.fragment_bytes, 2 * c.entries); }
    if (c.fragment_bits == 0) { EXPECT_EQ(c.fragment_bytes, 0u); }
    EXPECT_GT(c.trie_bytes, 0u);
  }
  EXPECT_EQ(s.trie_bytes, trie);
  EXPECT_EQ(s.fragment_bytes, frag);
  EXPECT_EQ(s.buffer_bytes, 2u * 32 * 28);
  EXPECT_EQ(r.store->dram_bytes(), trie + frag + s.buffer_bytes);
}

TEST(ConaStore, SingleThreadVariantExposesAllMergeTime) {
  StoreOptions o = Small(8);
  Rig threaded(o);
  o.merge_thread = false;
  Rig inline_(o);
  for (Rig* r : {&threaded, &inline_}) {
    for (uint64_t i = 0; i < 2000; ++i) {
      ASSERT_TRUE(r->Put(TestKey(i, 8), "v").ok());
      // A client that also reads: the background actor merges meanwhile.
      std::string v;
      ASSERT_TRUE(r->Get(TestKey(i / 2, 8), &v).ok());
    }
    r->Drain();
  }
  const StoreStats& a = threaded.store->stats();
  const StoreStats& b = inline_.store->stats();
  EXPECT_EQ(a.merges, b.merges);
  EXPECT_EQ(a.merge_moves, b.merge_moves);
  EXPECT_GT(b.exposed_merge_ns, b.merge_ns * 9 / 10) << "inline: the writer waits for every merge";
  EXPECT_LT(a.exposed_merge_ns, b.exposed_merge_ns / 2) << "threaded: reads hide merge time";
  EXPECT_LT(a.insert_ns, b.insert_ns);
}

TEST(ConaStore, BadInputIsNamed) {
  Rig r(Small());
  auto msg = [](const Status& s) { return s.message(); };
  EXPECT_NE(msg(r.store->Put("short", "v", nullptr)).find("key_bytes"), std::string::npos);
  EXPECT_NE(msg(r.store->Put(TestKey(1, 8), std::string(17, 'x'), nullptr)).find("value_bytes"), std::string::npos);
  EXPECT_NE(msg(r.store->Get("toolongkey", nullptr)).find("key_bytes"), std::string::npos);
  EXPECT_NE(msg(r.store->Delete("", nullptr)).find("key_bytes"), std::string::npos);
  EXPECT_EQ(r.store->Scan(TestKey(1, 8), -1, nullptr).code(), StatusCode::kInvalidArgument);
  sim::Simulator sim;
  auto dev = testing::TestDevice(&sim, 1 << 20);
  StoreOptions o = Small();
  o.fragment_bits = 12;
  EXPECT_NE(Store::Create(dev.get(), o).status().message().find("fragment_bits"), std::string::npos);
  o = Small();
  o.buffer_bytes = 30;
  EXPECT_NE(Store::Create(dev.get(), o).status().message().find("buffer_bytes"), std::string::npos);
  o = Small();
  o.key_bytes = 2;
  EXPECT_NE(Store::Create(dev.get(), o).status().message().find("key_bytes"), std::string::npos);
  o = Small();
  o.region_bytes = 4096;
  EXPECT_NE(Store::Create(dev.get(), o).status().message().find("too small"), std::string::npos);
  o = Small();
  o.region_offset = 2 << 20;
  EXPECT_NE(Store::Create(dev.get(), o).status().message().find("beyond"), std::string::npos);
  EXPECT_EQ(Store::Create(nullptr, Small()).status().code(), StatusCode::kInvalidArgument);
  // A file for 40 entries refuses the put that would need another level.
  o = Small();
  o.region_bytes = Store::FileBytes(o, 40);
  auto s = Store::Create(dev.get(), o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  uint64_t accepted = 0;
  Status last;
  for (uint64_t i = 0; i < 1000 && last.ok(); ++i) {
    last = s.value()->Put(TestKey(i, 8), "v", nullptr);
    if (last.ok()) ++accepted;
  }
  EXPECT_EQ(last.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(last.message().find("full"), std::string::npos);
  EXPECT_GE(accepted, 40u);
  while (sim.Step()) {}
  EXPECT_TRUE(s.value()->idle());
}

TEST(ConaStore, ScansReturnKeysInOrderNewestVersions) {
  Rig r(Small());
  std::map<std::string, std::string> ref;
  for (uint64_t i = 0; i < 300; ++i) {
    const std::string k = TestKey(i % 120, 8), v = "v" + std::to_string(i);
    ASSERT_TRUE(r.Put(k, v).ok());
    ref[k] = v;
    if (i % 9 == 0) {
      ASSERT_TRUE(r.Delete(TestKey(i % 50, 8)).ok());
      ref.erase(TestKey(i % 50, 8));
    }
  }
  for (uint64_t j = 0; j < 20; ++j) {
    const std::string start = TestKey(5000 + j, 8);
    bool done = false;
    std::vector<std::pair<std::string, std::string>> got;
    ASSERT_TRUE(r.store->Scan(start, 10, [&](const Status& s, std::vector<std::pair<std::string, std::string>> v) {
      EXPECT_TRUE(s.ok());
      got = std::move(v);
      done = true;
    }).ok());
    testing::RunUntilFlag(&r.sim, &done);
    std::vector<std::pair<std::string, std::string>> want;
    for (auto it = ref.lower_bound(start); it != ref.end() && want.size() < 10; ++it) want.push_back(*it);
    EXPECT_EQ(got, want) << j;
  }
}

// A scan's reads are dependent (one thread's loads over the mmapped file, each waiting for
// its fault): the device never holds two of them at once, and the scan takes their sum.
TEST(ConaStore, AScansReadsGoOneAfterAnother) {
  Rig r(Small());
  for (uint64_t i = 0; i < 400; ++i) ASSERT_TRUE(r.Put(TestKey(i, 8), "v" + std::to_string(i)).ok());
  while (!r.store->idle() && r.sim.Step()) {}
  const uint64_t reads_before = r.dev->counters().reads;
  bool done = false;
  ASSERT_TRUE(r.store->Scan(TestKey(7000, 8), 20, [&](const Status& s, auto v) {
    EXPECT_TRUE(s.ok());
    EXPECT_EQ(v.size(), 20u);
    done = true;
  }).ok());
  int deepest = 0;
  while (!done && r.sim.Step()) deepest = std::max(deepest, r.dev->counters().queue_depth);
  ASSERT_TRUE(done);
  EXPECT_GT(r.dev->counters().reads - reads_before, 20u) << "binary searches and windows over several cells";
  EXPECT_EQ(deepest, 1) << "one read in flight at a time";
}

// The same ops give the same stats and the same bytes in the file.
TEST(ConaStore, DeterministicStatsAndBytes) {
  auto run = [](uint32_t* digest, StoreStats* stats) {
    Rig r(Small(8));
    for (uint64_t i = 0; i < 3000; ++i) {
      ASSERT_TRUE(r.store->Put(TestKey(i % 700, 8), "v" + std::to_string(i), nullptr).ok());
      if (i % 5 == 0) { ASSERT_TRUE(r.store->Get(TestKey(i / 3, 8), nullptr).ok()); }
      if (i % 11 == 0) { ASSERT_TRUE(r.store->Delete(TestKey(i / 2, 8), nullptr).ok()); }
      if (i % 3 == 0) r.Drain();
    }
    r.Drain();
    const Layout& L = r.store->layout();
    std::vector<uint8_t> bytes(L.bytes_for_levels(r.store->structure().levels));
    r.dev->Peek(0, bytes.size(), bytes.data());
    *digest = fawnds::Crc32c(bytes.data(), bytes.size());
    *stats = r.store->stats();
  };
  uint32_t d1 = 0, d2 = 0;
  StoreStats s1, s2;
  run(&d1, &s1);
  run(&d2, &s2);
  EXPECT_EQ(d1, d2);
  EXPECT_EQ(s1.merge_moves, s2.merge_moves);
  EXPECT_EQ(s1.insert_ns, s2.insert_ns);
  EXPECT_EQ(s1.merge_ns, s2.merge_ns);
  EXPECT_EQ(s1.read_ns, s2.read_ns);
  EXPECT_EQ(s1.store_bytes_written, s2.store_bytes_written);
  std::cout << "  file digest " << std::hex << d1 << std::dec << ", " << s1.merge_moves << " merge moves\n";
}

// The thesis's setup (20 B keys, 200 B values, B = 64 KB) at a small scale: the tries' real
// bytes per key by block-size mix, after a flip (one cell per level).
TEST(ConaStore, BytesPerKeyByTrieMix) {
  for (TrieMix mix : {TrieMix::k4, TrieMix::k16, TrieMix::k64, TrieMix::kThesis}) {
    StoreOptions o;
    o.trie = mix;
    sim::Simulator sim;
    auto dev = testing::TestDevice(&sim, uint64_t{2} << 30);
    auto st = Store::Create(dev.get(), o);
    ASSERT_TRUE(st.ok());
    Store* s = st.value().get();
    const uint64_t cap = s->structure().buffer_capacity;
    // 2^9 - 1 buffers induced, plus the two buffers: a flip leaves one cell at each of 9 levels.
    const uint64_t n = cap * ((1u << 9) - 1) + 2 * cap;
    std::string value(200, 'x');
    for (uint64_t i = 0; i < n; ++i) {
      bool done = false;
      ASSERT_TRUE(s->Put(TestKey(i, 20), value, [&](const Status&) { done = true; }).ok());
      testing::RunUntilFlag(&sim, &done);
    }
    while (!s->idle() && sim.Step()) {}
    const Structure str = s->structure();
    uint64_t keys = 0;
    for (const auto& c : str.cells) keys += c.visible ? c.entries : 0;
    std::cout << "  trie " << TrieMixName(mix) << ": " << str.levels << " levels, " << keys << " keys in cells, trie "
              << static_cast<double>(str.trie_bytes) / static_cast<double>(keys) << " B/key, fragments "
              << static_cast<double>(str.fragment_bytes) / static_cast<double>(keys) << " B/key\n";
    EXPECT_EQ(str.levels, 9);
  }
}

}  // namespace
}  // namespace fawnlab::cona

namespace fawnlab::cona {
namespace {

TEST(ConaStore, RecoverRebuildsTheCellsAndTheSyncedBuffers) {
  Rig r(Small(8));
  PutN(r, 0, 205);  // cells on several levels, both buffers partly full
  ASSERT_TRUE(r.Sync().ok());
  r.Drain();
  const Structure before = r.store->structure();
  r.store.reset();  // a restart
  RecoveryReport rep;
  auto rec = Store::Recover(r.dev.get(), Small(8), &rep);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  r.store = std::move(rec).value();
  uint64_t visible = 0, in_cells = 0;
  for (const auto& c : before.cells) {
    if (!c.visible) continue;
    ++visible;
    in_cells += c.entries;
  }
  EXPECT_EQ(rep.cells, visible);
  EXPECT_EQ(rep.cell_entries, in_cells);
  EXPECT_EQ(rep.buffer_entries, before.active_entries + before.frozen_entries);
  EXPECT_GT(rep.bytes_read, in_cells * r.store->layout().entry_bytes);
  EXPECT_GT(rep.duration_ns, 0) << "reads and index builds take virtual time";
  const Structure after = r.store->structure();
  EXPECT_EQ(after.active_entries, before.active_entries);
  EXPECT_EQ(after.frozen_entries, before.frozen_entries);
  EXPECT_EQ(after.trie_bytes, before.trie_bytes - [&] {
    uint64_t shadow = 0;
    for (const auto& c : before.cells) shadow += c.visible ? 0 : c.trie_bytes;
    return shadow;
  }());
  for (uint64_t i = 0; i < 205; ++i) {
    std::string v;
    ASSERT_TRUE(r.Get(TestKey(i, 8), &v).ok()) << i;
    EXPECT_EQ(v, "v" + std::to_string(i));
  }
  PutN(r, 205, 100);  // and it goes on
  std::string v;
  EXPECT_TRUE(r.Get(TestKey(300, 8), &v).ok());
}

}  // namespace
}  // namespace fawnlab::cona
