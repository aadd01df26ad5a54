// Test rig for the SILT store's tests: a store on an NVM device (fast, exact), optionally behind
// a write-back page cache (then lookups take SILT's direct path past it), and blocking helpers
// that run the simulator until an op completes.
#ifndef FAWNLAB_SILT_TEST_RIG_H_
#define FAWNLAB_SILT_TEST_RIG_H_

#include <cstdint>
#include <memory>
#include <string>

#include "cona/store_test_util.h"
#include "device/page_cache.h"
#include "silt/store.h"

namespace fawnlab::silt::testing {

using cona::testing::RunUntilFlag;
using cona::testing::TestKey;

struct Rig {
  sim::Simulator sim;
  std::unique_ptr<device::NvmDevice> dev;
  std::unique_ptr<device::PageCache> cache;
  std::unique_ptr<SiltStore> store;
  Status create_error;

  // The region is sized for `entries` puts and deletes. cache_bytes > 0: a write-back page
  // cache of that size (dirty limits 1/4 and 1/2 of it) between the store and the device.
  Rig(Options o, uint64_t entries, uint64_t cache_bytes = 0) {
    dev = cona::testing::TestDevice(&sim, uint64_t{2} << 30);
    o.region_bytes = SiltStore::FileBytes(o, entries);
    device::Device* d = dev.get();
    if (cache_bytes > 0) {
      device::WriteBackOptions wb;
      wb.enabled = true;
      wb.dirty_background_bytes = cache_bytes / 4;
      wb.dirty_limit_bytes = cache_bytes / 2;
      wb.writeback_max_bytes = 64 * 1024;
      cache = std::make_unique<device::PageCache>(dev.get(), cache_bytes, 250, wb);
      d = cache.get();
    }
    auto s = SiltStore::Create(d, o);
    if (s.ok()) store = std::move(s).value();
    else create_error = s.status();
  }
  Status Put(const std::string& k, const std::string& v) {
    bool done = false;
    Status got;
    Status st = store->Put(k, v, [&](const Status& x) { got = x; done = true; });
    if (!st.ok()) return st;
    return RunUntilFlag(&sim, &done) ? got : Status::Internal("put never completed");
  }
  Status Delete(const std::string& k) {
    bool done = false;
    Status got;
    Status st = store->Delete(k, [&](const Status& x) { got = x; done = true; });
    if (!st.ok()) return st;
    return RunUntilFlag(&sim, &done) ? got : Status::Internal("delete never completed");
  }
  Status Get(const std::string& k, std::string* value) {
    bool done = false;
    Status got;
    Status st = store->Get(k, [&](const Status& x, std::string v) { got = x; *value = std::move(v); done = true; });
    if (!st.ok()) return st;
    return RunUntilFlag(&sim, &done) ? got : Status::Internal("get never completed");
  }
  // Runs until the background has nothing left to do.
  void Drain() {
    while (!store->idle() && sim.Step()) {}
  }
};

}  // namespace fawnlab::silt::testing

#endif  // FAWNLAB_SILT_TEST_RIG_H_
