#include "bench/fawnds_bench.h"

#include <chrono>
#include <memory>
#include <string>

#include "device/nvm.h"
#include "fawnds/store.h"
#include "sim/rng.h"

namespace fawnlab::bench {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Rig {
  sim::Simulator sim;
  std::unique_ptr<device::NvmDevice> nvm;
  std::unique_ptr<fawnds::DataStore> store;
  explicit Rig(uint64_t keys) {
    device::NvmConfig c;
    c.capacity_bytes = uint64_t{1} << 30;
    nvm = std::make_unique<device::NvmDevice>(&sim, "nvm-4ch", c);
    fawnds::StoreOptions o;
    o.index_bits = 20;
    o.region_bytes = fawnds::DataStore::FileBytes(20, keys * fawnds::RecordSize(256) + (1 << 20));
    store = fawnds::DataStore::Create(nvm.get(), o).value();
  }
};

fawnds::Key KeyOf(uint64_t i) { return fawnds::Key::FromU64(i * 0x9E3779B97F4A7C15ull + 1); }

}  // namespace

BenchFigure FawndsInserts(uint64_t puts) {
  Rig rig(puts);
  std::string value(256, 'v');
  uint64_t acked = 0;
  double t0 = Now();
  for (uint64_t i = 0; i < puts; ++i) {
    value[0] = static_cast<char>(i);
    (void)rig.store->Put(KeyOf(i % 600000), value, [&](const Status&) { ++acked; });
    if (i % 1024 == 0) rig.sim.Run(UINT64_MAX);
  }
  rig.sim.Run(UINT64_MAX);
  double dt = Now() - t0;
  return {"fawnds.inserts_256b", static_cast<double>(puts) / dt, "inserts/s", dt, acked ^ rig.store->log_end()};
}

BenchFigure FawndsLookups(uint64_t gets) {
  const uint64_t keys = 500000;
  Rig rig(keys);
  std::string value(256, 'v');
  for (uint64_t i = 0; i < keys; ++i) {
    (void)rig.store->Put(KeyOf(i), value, nullptr);
    if (i % 1024 == 0) rig.sim.Run(UINT64_MAX);
  }
  rig.sim.Run(UINT64_MAX);
  sim::Rng rng(3);
  uint64_t found = 0;
  double t0 = Now();
  for (uint64_t i = 0; i < gets; ++i) {
    (void)rig.store->Get(KeyOf(rng.UniformU64(keys)), [&](const Status& s, std::string) { found += s.ok(); });
    if (i % 1024 == 0) rig.sim.Run(UINT64_MAX);
  }
  rig.sim.Run(UINT64_MAX);
  double dt = Now() - t0;
  return {"fawnds.lookups_256b", static_cast<double>(gets) / dt, "lookups/s", dt, found ^ static_cast<uint64_t>(rig.sim.now())};
}

BenchFigure FawndsIndexBytesPerEntry() {
  fawnds::HashIndex idx(16);
  return {"fawnds.index_bytes_per_entry", static_cast<double>(idx.bytes()) / static_cast<double>(idx.buckets()), "bytes",
          0, idx.bytes()};
}

}  // namespace fawnlab::bench
