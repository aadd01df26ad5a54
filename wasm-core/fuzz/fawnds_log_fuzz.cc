// Fuzz target: arbitrary bytes as a FAWN-DS data log. The first byte picks whether the store
// has a checkpointed index; the rest is written as the log. Recovery must finish — replaying
// the records that decode and stopping with a reason at the first that does not — and the
// recovered store must answer lookups; nothing may crash or hang. Each record's decoder is
// also run on the bytes directly.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "device/nvm.h"
#include "fawnds/record.h"
#include "fawnds/store.h"

using namespace fawnlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto rec = fawnds::DecodeRecord(bytes, 0, 0, 1);
  if (!rec.ok()) assert(!rec.status().message().empty());
  if (size < 1) return 0;

  sim::Simulator sim;
  device::NvmConfig c;
  c.capacity_bytes = 8 << 20;
  device::NvmDevice nvm(&sim, "nvm-4ch", c);
  fawnds::StoreOptions o;
  o.index_bits = 6;
  o.region_bytes = fawnds::DataStore::FileBytes(6, 2 << 20);
  o.nonce = 1;
  auto created = fawnds::DataStore::Create(&nvm, o);
  assert(created.ok());
  std::unique_ptr<fawnds::DataStore> store = std::move(created).value();
  if (data[0] & 1) {
    // A valid record first, then a checkpoint, so the fuzz bytes follow a checkpoint.
    (void)store->Put(fawnds::Key::FromU64(1), "seed", nullptr);
    (void)store->Checkpoint(nullptr);
    sim.Run(1000000);
  }
  const uint64_t at = o.region_offset + store->log_start() + store->log_end();
  const size_t n = std::min<size_t>(size - 1, o.region_bytes - store->log_start() - store->log_end());
  nvm.Poke(at, n, data + 1);
  store.reset();
  fawnds::RecoveryReport rep;
  auto r = fawnds::DataStore::Recover(&nvm, 0, o.region_bytes, 0, &rep);
  assert(r.ok());
  assert(!rep.end_reason.empty());
  bool answered = false;
  assert(r.value()->Get(fawnds::Key::FromU64(1), [&](const Status&, std::string) { answered = true; }).ok());
  sim.Run(1000000);
  assert(answered);
  return 0;
}
