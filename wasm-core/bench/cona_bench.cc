#include "bench/cona_bench.h"

#include <chrono>
#include <memory>
#include <string>

#include "cona/machine.h"
#include "sim/rng.h"
#include "ycsb/keys.h"

namespace fawnlab::bench {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::unique_ptr<cona::Machine> MachineFor(uint64_t records) {
  cona::MachineConfig c;
  c.records = records;
  c.scale = static_cast<double>(records) / static_cast<double>(cona::kThesisRecords);
  return cona::Machine::Create(c).value();
}

// Puts records [0, n) into the machine's store, running the simulator every 256 puts.
uint64_t Load(cona::Machine* m, uint64_t n) {
  std::string key, value;
  uint64_t acked = 0;
  const cona::StoreOptions& o = m->store_options();
  for (uint64_t i = 0; i < n; ++i) {
    ycsb::KeyFor(i, o.key_bytes, &key);
    ycsb::ValueFor(i, 0, o.value_bytes, &value);
    (void)m->store()->Put(key, value, [&acked](const Status& s) { acked += s.ok(); });
    if (i % 256 == 255) m->sim()->Run(UINT64_MAX);
  }
  m->sim()->Run(UINT64_MAX);
  return acked;
}

constexpr uint64_t kLookupRecords = 100000;

}  // namespace

BenchFigure ConaInserts(uint64_t puts) {
  std::unique_ptr<cona::Machine> m = MachineFor(puts);
  double t0 = Now();
  uint64_t acked = Load(m.get(), puts);
  double dt = Now() - t0;
  return {"cona.inserts_220b", static_cast<double>(puts) / dt, "inserts/s", dt,
          acked ^ m->store()->stats().merge_moves ^ static_cast<uint64_t>(m->sim()->now())};
}

BenchFigure ConaLookups(uint64_t gets) {
  const uint64_t records = gets < kLookupRecords ? (gets > 1000 ? gets : 1000) : kLookupRecords;
  std::unique_ptr<cona::Machine> m = MachineFor(records);
  Load(m.get(), records);
  sim::Rng rng(3);
  std::string key;
  uint64_t found = 0;
  const uint32_t key_bytes = m->store_options().key_bytes;
  double t0 = Now();
  for (uint64_t i = 0; i < gets; ++i) {
    ycsb::KeyFor(rng.UniformU64(records), key_bytes, &key);
    (void)m->store()->Get(key, [&found](const Status& s, std::string) { found += s.ok(); });
    if (i % 256 == 255) m->sim()->Run(UINT64_MAX);
  }
  m->sim()->Run(UINT64_MAX);
  double dt = Now() - t0;
  BenchFigure f{"cona.lookups_220b", static_cast<double>(gets) / dt, "lookups/s", dt,
                found ^ static_cast<uint64_t>(m->sim()->now())};
  if (found != gets) {
    f.failures = gets - found;
    f.note = "loaded keys not found";
  }
  return f;
}

BenchFigure ConaDramBytesPerKey() {
  std::unique_ptr<cona::Machine> m = MachineFor(kLookupRecords);
  Load(m.get(), kLookupRecords);
  const uint64_t bytes = m->store()->dram_bytes();
  return {"cona.dram_bytes_per_key", static_cast<double>(bytes) / static_cast<double>(kLookupRecords), "bytes", 0, bytes};
}

}  // namespace fawnlab::bench
