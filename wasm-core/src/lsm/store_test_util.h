// Test rig for the LSM's tests: a simulator, an NVM device (fast, exact), small LevelDB sizes
// (so a few thousand puts flush and compact through several levels), and blocking helpers
// (the Stores lab's, stores/test_util.h, plus a scan).
#ifndef FAWNLAB_LSM_STORE_TEST_UTIL_H_
#define FAWNLAB_LSM_STORE_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "device/nvm.h"
#include "lsm/store.h"
#include "sim/simulator.h"
#include "stores/test_util.h"

namespace fawnlab::lsm::testing {

// Sizes small enough that a test's puts reach level 3 or 4.
inline Options SmallOptions() {
  Options o;
  o.size_scale = 1.0;
  o.write_buffer_bytes = 16 << 10;
  o.max_file_bytes = 8 << 10;
  o.l1_bytes = 32 << 10;
  o.block_bytes = 1024;
  o.io_chunk_bytes = 16 << 10;
  return o;
}

// A uniformly distributed 20-byte key for record i (splitmix64 words).
inline std::string TestKey(uint64_t i, uint32_t bytes = 20) {
  std::string k(bytes, '\0');
  uint64_t x = i * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  for (uint32_t j = 0; j < bytes; j += 8) {
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (uint32_t b = 0; b < 8 && j + b < bytes; ++b) k[j + b] = static_cast<char>(z >> (8 * b));
  }
  return k;
}

using stores::testing::RunUntilFlag;

struct Rig {
  sim::Simulator sim;
  std::unique_ptr<device::NvmDevice> dev;
  std::unique_ptr<LsmStore> store;
  Status create_error;

  explicit Rig(Options o, uint64_t device_bytes = uint64_t{1} << 30) {
    device::NvmConfig c;
    c.capacity_bytes = device_bytes;
    dev = std::make_unique<device::NvmDevice>(&sim, "nvm-4ch", c);
    auto s = LsmStore::Create(dev.get(), std::move(o));
    if (s.ok()) store = std::move(s).value();
    else create_error = s.status();
  }
  Status Put(const std::string& k, const std::string& v) { return stores::testing::PutSync(&sim, store.get(), k, v); }
  Status Delete(const std::string& k) { return stores::testing::DeleteSync(&sim, store.get(), k); }
  Status Get(const std::string& k, std::string* value) { return stores::testing::GetSync(&sim, store.get(), k, value); }
  Status Scan(const std::string& start, int count, std::vector<std::pair<std::string, std::string>>* out) {
    bool done = false;
    Status got;
    Status st = store->Scan(start, count, [&](const Status& x, std::vector<std::pair<std::string, std::string>> r) {
      got = x;
      *out = std::move(r);
      done = true;
    });
    if (!st.ok()) return st;
    if (!RunUntilFlag(&sim, &done)) return Status::Internal("scan never completed");
    return got;
  }
  // Runs until the background is idle.
  void Drain() {
    uint64_t budget = 200000000;
    while (!store->idle() && budget-- > 0 && sim.Step()) {}
  }
};

}  // namespace fawnlab::lsm::testing

#endif  // FAWNLAB_LSM_STORE_TEST_UTIL_H_
