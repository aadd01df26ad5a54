// Test rig for the CONA store's tests: a simulator, an NVM device (fast, exact), optionally a
// fault injector and a page cache, and helpers that run the simulator until an op completes.
#ifndef FAWNLAB_CONA_STORE_TEST_UTIL_H_
#define FAWNLAB_CONA_STORE_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>

#include "cona/store.h"
#include "device/nvm.h"
#include "sim/rng.h"
#include "sim/simulator.h"

namespace fawnlab::cona::testing {

// A uniformly distributed key of `bytes` bytes for record `i` (splitmix64 of i, repeated).
inline std::string TestKey(uint64_t i, uint32_t bytes) {
  std::string k(bytes, '\0');
  uint64_t x = i * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  for (uint32_t j = 0; j < bytes; ++j) {
    if (j % 8 == 0) {
      x += 0x9E3779B97F4A7C15ull;
      uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      for (int b = 0; b < 8 && j + b < bytes; ++b) k[j + b] = static_cast<char>(z >> (8 * b));
    }
  }
  return k;
}

inline std::unique_ptr<device::NvmDevice> TestDevice(sim::Simulator* sim, uint64_t bytes = uint64_t{1} << 30) {
  device::NvmConfig c;
  c.capacity_bytes = bytes;
  return std::make_unique<device::NvmDevice>(sim, "nvm-4ch", c);
}

// Runs until `flag` is set (or the event budget ends). Returns whether it was.
inline bool RunUntilFlag(sim::Simulator* sim, const bool* flag, uint64_t budget = 100000000) {
  while (!*flag && budget-- > 0 && sim->Step()) {}
  return *flag;
}

// A store on a fresh NVM device with blocking helpers.
struct Rig {
  sim::Simulator sim;
  std::unique_ptr<device::NvmDevice> dev;
  std::unique_ptr<Store> store;

  explicit Rig(StoreOptions o, uint64_t device_bytes = uint64_t{1} << 30) {
    dev = TestDevice(&sim, device_bytes);
    auto s = Store::Create(dev.get(), o);
    if (s.ok()) store = std::move(s).value();
    else create_error = s.status();
  }
  Status create_error;

  Status Put(const std::string& k, const std::string& v) {
    bool done = false;
    Status got;
    Status st = store->Put(k, v, [&](const Status& x) { got = x; done = true; });
    if (!st.ok()) return st;
    if (!RunUntilFlag(&sim, &done)) return Status::Internal("put never completed");
    return got;
  }
  Status Delete(const std::string& k) {
    bool done = false;
    Status got;
    Status st = store->Delete(k, [&](const Status& x) { got = x; done = true; });
    if (!st.ok()) return st;
    if (!RunUntilFlag(&sim, &done)) return Status::Internal("delete never completed");
    return got;
  }
  // OK and the value, NotFound, or another error.
  Status Get(const std::string& k, std::string* value, LookupTrace* trace = nullptr) {
    bool done = false;
    Status got;
    Status st = store->Get(k, [&](const Status& x, std::string v) { got = x; *value = std::move(v); done = true; }, trace);
    if (!st.ok()) return st;
    if (!RunUntilFlag(&sim, &done)) return Status::Internal("get never completed");
    return got;
  }
  Status Sync() {
    bool done = false;
    Status got;
    Status st = store->Sync([&](const Status& x) { got = x; done = true; });
    if (!st.ok()) return st;
    if (!RunUntilFlag(&sim, &done)) return Status::Internal("sync never completed");
    return got;
  }
  // Runs until the merge actor is idle.
  void Drain() {
    uint64_t budget = 100000000;
    while (!store->idle() && budget-- > 0 && sim.Step()) {}
  }
};

}  // namespace fawnlab::cona::testing

#endif  // FAWNLAB_CONA_STORE_TEST_UTIL_H_
