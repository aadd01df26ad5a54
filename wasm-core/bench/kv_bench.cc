#include "bench/kv_bench.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#ifdef FAWNLAB_HAVE_LEVELDB
#include <leveldb/db.h>
#endif

#include "bench/temp_dir.h"
#include "device/file_device.h"
#include "fawnds/store.h"
#include "sim/rng.h"

namespace fawnlab::bench {
namespace {

constexpr uint32_t kValueBytes = 1024;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The same workload for both systems: n random 160-bit keys put once each in a random order
// (the keys are random), 1 KB values that do not compress, then n gets of uniform keys.
struct Workload {
  explicit Workload(uint64_t n) : keys(n) {
    sim::Rng rng(2024);
    for (fawnds::Key& k : keys) {
      for (size_t i = 0; i < k.bytes.size(); i += 8) {
        const uint64_t r = rng.NextU64();
        std::memcpy(k.bytes.data() + i, &r, std::min<size_t>(8, k.bytes.size() - i));
      }
    }
  }
  // Value of key i: a xorshift stream seeded by i.
  static void Value(uint64_t i, char* out) {
    uint64_t x = i * 0x9E3779B97F4A7C15ull + 1;
    for (uint32_t w = 0; w < kValueBytes / 8; ++w) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      std::memcpy(out + 8 * w, &x, 8);
    }
  }
  static sim::Rng GetOrder() { return sim::Rng(77); }
  std::vector<fawnds::Key> keys;
};

// The process's anonymous resident memory (heap and stacks, not the page cache or mapped
// files), from /proc/self/status; 0 where there is none.
uint64_t RssAnonBytes() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("RssAnon:", 0) == 0) return std::strtoull(line.c_str() + 8, nullptr, 10) * 1024;
  }
  return 0;
}

BenchFigure Failed(const std::string& name, const std::string& why) {
  BenchFigure f{name, 0, "", 0, 0};
  f.failures = 1;
  f.note = why;
  return f;
}

}  // namespace

std::vector<BenchFigure> KvFawnds(uint64_t n) {
  const Workload w(n);
  TempDir dir;
  if (dir.path().empty()) return {Failed("kv.fawnds.puts", "cannot create a temporary directory")};
  int bits = 4;
  while ((uint64_t{1} << bits) < 2 * n) ++bits;  // sized at twice the keys (hash_index.h)
  fawnds::StoreOptions so;
  so.index_bits = bits;
  so.region_bytes = (fawnds::DataStore::FileBytes(bits, n * fawnds::RecordSize(kValueBytes) + (1 << 20)) + 4095) / 4096 * 4096;
  const uint64_t rss0 = RssAnonBytes();
  sim::Simulator sim;
  auto dev = device::FileDevice::Open(&sim, dir.path() + "/fawnds.store", so.region_bytes);
  if (!dev.ok()) return {Failed("kv.fawnds.puts", dev.status().message())};
  auto created = fawnds::DataStore::Create(dev.value().get(), so);  // trims (zeroes) the file first
  if (!created.ok()) return {Failed("kv.fawnds.puts", created.status().message())};
  std::unique_ptr<fawnds::DataStore> store = std::move(created).value();

  std::string value(kValueBytes, '\0');
  double t0 = Now();
  for (uint64_t i = 0; i < n; ++i) {
    Workload::Value(i, value.data());
    if (!store->Put(w.keys[i], value, nullptr).ok()) return {Failed("kv.fawnds.puts", "put " + std::to_string(i) + " refused")};
    if (i % 1024 == 1023) sim.Run(UINT64_MAX);
  }
  (void)store->Sync(nullptr);  // fsync, as LevelDB's last put is a synced write
  sim.Run(UINT64_MAX);
  const double put_s = Now() - t0;

  sim::Rng order = Workload::GetOrder();
  uint64_t found = 0;
  t0 = Now();
  for (uint64_t i = 0; i < n; ++i) {
    (void)store->Get(w.keys[order.UniformU64(n)], [&found](const Status& s, std::string v) {
      found += s.ok() && v.size() == kValueBytes;
    });
    if (i % 1024 == 1023) sim.Run(UINT64_MAX);
  }
  sim.Run(UINT64_MAX);
  const double get_s = Now() - t0;
  const uint64_t rss1 = RssAnonBytes();
  const uint64_t rss = rss1 - std::min(rss0, rss1);

  // Outside the timing: a sample of values must read back byte for byte.
  uint64_t wrong = n - found;
  std::string want(kValueBytes, '\0');
  for (uint64_t i = 0; i < n; i += std::max<uint64_t>(1, n / 1000)) {
    std::string got;
    (void)store->Get(w.keys[i], [&got](const Status&, std::string v) { got = std::move(v); });
    sim.Run(UINT64_MAX);
    Workload::Value(i, want.data());
    wrong += got != want;
  }
  const std::string err = dev.value()->last_error();
  const double keys = static_cast<double>(n);
  const std::string sizing = "6 B x 2^" + std::to_string(bits) + " buckets (sized at twice the keys) for " +
                             std::to_string(n) + " keys";
  std::vector<BenchFigure> out = {
      {"kv.fawnds.puts", keys / put_s, "puts/s", put_s, store->log_end()},
      {"kv.fawnds.gets", keys / get_s, "gets/s", get_s, found},
      {"kv.fawnds.dram_bytes_per_key", static_cast<double>(store->index().bytes()) / keys, "B/key", 0,
       store->index().bytes()},
      {"kv.fawnds.rss_bytes_per_key", static_cast<double>(rss) / keys, "B/key", 0, 0},
  };
  out[0].note = "FileDevice (pread/pwrite/fsync) on " + dir.path() + "; one store, " + std::to_string(kValueBytes) +
                " B values, a final fsync" + (err.empty() ? "" : "; I/O error: " + err);
  out[1].note = std::to_string(found) + " of " + std::to_string(n) + " found; " + std::to_string(wrong) +
                " wrong or missing (all gets plus a checked sample)";
  out[1].failures = wrong;
  out[2].note = "the in-DRAM hash index: " + sizing;
  out[3].note = "growth of the process's anonymous RSS (heap, not the page cache) across create, puts and gets";
  return out;
}

std::vector<BenchFigure> KvLevelDb(uint64_t n) {
#ifndef FAWNLAB_HAVE_LEVELDB
  (void)n;
  BenchFigure f{"kv.leveldb.missing", 0, "", 0, 0};
  f.note = "LevelDB not installed: apt-get install -y libleveldb-dev (sudo if not root), then rebuild (npm run bench does both)";
  return {f};
#else
  const Workload w(n);
  TempDir dir;
  if (dir.path().empty()) return {Failed("kv.leveldb.puts", "cannot create a temporary directory")};
  const uint64_t rss0 = RssAnonBytes();
  leveldb::Options opt;
  opt.create_if_missing = true;  // every other option at LevelDB's defaults
  leveldb::DB* raw = nullptr;
  leveldb::Status st = leveldb::DB::Open(opt, dir.path() + "/leveldb", &raw);
  if (!st.ok()) return {Failed("kv.leveldb.puts", st.ToString())};
  std::unique_ptr<leveldb::DB> db(raw);

  std::string value(kValueBytes, '\0');
  leveldb::WriteOptions wo;
  double t0 = Now();
  for (uint64_t i = 0; i < n; ++i) {
    Workload::Value(i, value.data());
    wo.sync = i + 1 == n;  // the last put syncs the log, as FAWN-DS's puts end with an fsync
    st = db->Put(wo, leveldb::Slice(reinterpret_cast<const char*>(w.keys[i].bytes.data()), 20), value);
    if (!st.ok()) return {Failed("kv.leveldb.puts", "put " + std::to_string(i) + ": " + st.ToString())};
  }
  const double put_s = Now() - t0;

  sim::Rng order = Workload::GetOrder();
  uint64_t found = 0;
  std::string got;
  t0 = Now();
  for (uint64_t i = 0; i < n; ++i) {
    const fawnds::Key& k = w.keys[order.UniformU64(n)];
    st = db->Get(leveldb::ReadOptions(), leveldb::Slice(reinterpret_cast<const char*>(k.bytes.data()), 20), &got);
    found += st.ok() && got.size() == kValueBytes;
  }
  const double get_s = Now() - t0;
  std::string mem;
  db->GetProperty("leveldb.approximate-memory-usage", &mem);
  const uint64_t rss1 = RssAnonBytes();
  const uint64_t rss = rss1 - std::min(rss0, rss1);

  uint64_t wrong = n - found;
  std::string want(kValueBytes, '\0');
  for (uint64_t i = 0; i < n; i += std::max<uint64_t>(1, n / 1000)) {
    st = db->Get(leveldb::ReadOptions(), leveldb::Slice(reinterpret_cast<const char*>(w.keys[i].bytes.data()), 20), &got);
    Workload::Value(i, want.data());
    wrong += !st.ok() || got != want;
  }
  db.reset();
  const double keys = static_cast<double>(n);
  const uint64_t approx = std::strtoull(mem.c_str(), nullptr, 10);
  std::vector<BenchFigure> out = {
      {"kv.leveldb.puts", keys / put_s, "puts/s", put_s, 0},
      {"kv.leveldb.gets", keys / get_s, "gets/s", get_s, found},
      {"kv.leveldb.dram_bytes_per_key", static_cast<double>(approx) / keys, "B/key", 0, approx},
      {"kv.leveldb.rss_bytes_per_key", static_cast<double>(rss) / keys, "B/key", 0, 0},
  };
  out[0].note = "LevelDB " + std::to_string(leveldb::kMajorVersion) + "." + std::to_string(leveldb::kMinorVersion) +
                " (Debian libleveldb-dev) on " + dir.path() + "; default options (4 MB write buffer, 8 MB block cache, " +
                "Snappy, no Bloom filter); the last put synced";
  out[1].note = std::to_string(found) + " of " + std::to_string(n) + " found; " + std::to_string(wrong) +
                " wrong or missing (all gets plus a checked sample)";
  out[1].failures = wrong;
  out[2].note = "leveldb.approximate-memory-usage after the gets (" + mem +
                " B: memtables and block cache; table indexes and the table cache are not in it)";
  out[3].note = "growth of the process's anonymous RSS (heap, not the page cache or mapped tables) across open, puts and gets";
  return out;
#endif
}

}  // namespace fawnlab::bench
