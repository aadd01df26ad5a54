// Test helpers for the Stores lab's stores (any kv::KvStore): blocking calls that run the
// simulator until an operation completes, and a randomized check against a reference map
// (puts, updates, deletes, gets, and scans where the store has them) that prints its seed.
// Set FAWNLAB_TEST_SEED to replay a failure.
#ifndef FAWNLAB_STORES_TEST_UTIL_H_
#define FAWNLAB_STORES_TEST_UTIL_H_

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "device/nvm.h"
#include "gtest/gtest.h"
#include "kv/kv_store.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "ycsb/keys.h"

namespace fawnlab::stores::testing {

// A fast, exact device for the adapters' tests (256 MB of NVM).
inline std::unique_ptr<device::NvmDevice> Nvm(sim::Simulator* sim) {
  device::NvmConfig c;
  c.capacity_bytes = uint64_t{256} << 20;
  return std::make_unique<device::NvmDevice>(sim, "nvm-4ch", c);
}

inline uint64_t TestSeed(uint64_t fallback) {
  const char* s = std::getenv("FAWNLAB_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : fallback;
}

inline bool RunUntilFlag(sim::Simulator* sim, const bool* flag, uint64_t budget = 200000000) {
  while (!*flag && budget-- > 0 && sim->Step()) {
  }
  return *flag;
}

inline Status PutSync(sim::Simulator* sim, kv::KvStore* s, const std::string& k, const std::string& v) {
  bool done = false;
  Status got;
  Status st = s->Put(k, v, [&](const Status& x) {
    got = x;
    done = true;
  });
  if (!st.ok()) return st;
  if (!RunUntilFlag(sim, &done)) return Status::Internal("put never completed");
  return got;
}

inline Status DeleteSync(sim::Simulator* sim, kv::KvStore* s, const std::string& k) {
  bool done = false;
  Status got;
  Status st = s->Delete(k, [&](const Status& x) {
    got = x;
    done = true;
  });
  if (!st.ok()) return st;
  if (!RunUntilFlag(sim, &done)) return Status::Internal("delete never completed");
  return got;
}

inline Status GetSync(sim::Simulator* sim, kv::KvStore* s, const std::string& k, std::string* value) {
  bool done = false;
  Status got;
  Status st = s->Get(k, [&](const Status& x, std::string v) {
    got = x;
    *value = std::move(v);
    done = true;
  });
  if (!st.ok()) return st;
  if (!RunUntilFlag(sim, &done)) return Status::Internal("get never completed");
  return got;
}

inline Status SyncSync(sim::Simulator* sim, kv::KvStore* s) {
  bool done = false;
  Status got;
  Status st = s->Sync([&](const Status& x) {
    got = x;
    done = true;
  });
  if (!st.ok()) return st;
  if (!RunUntilFlag(sim, &done)) return Status::Internal("sync never completed");
  return got;
}

struct RandomCounts {
  uint64_t puts = 0, deletes = 0, gets = 0, scans = 0, syncs = 0;
};

// `ops` random operations on `keyspace` YCSB keys: 45% puts (new keys and updates, values of
// 1..max_value bytes), 10% deletes, 40% gets checked against a std::map, 5% scans checked
// (stores with scans). Several operations are issued back to back before the simulator runs
// (the store must serve them in call order). Ends with every key checked.
// `sync_fraction` of the operations (default none) are syncs, which must complete Ok.
inline RandomCounts RandomAgainstMap(sim::Simulator* sim, kv::KvStore* s, uint64_t seed, uint64_t ops,
                                     uint64_t keyspace, uint32_t max_value, double sync_fraction = 0) {
  std::cout << "seed " << seed << " (FAWNLAB_TEST_SEED), store " << s->kind() << "\n";
  sim::Rng rng(seed);
  std::map<std::string, std::string> ref;
  std::vector<std::string> keys(keyspace);
  for (uint64_t i = 0; i < keyspace; ++i) ycsb::KeyFor(i + seed * 7919, 20, &keys[i]);
  RandomCounts n;
  uint64_t done_ops = 0;
  bool failed = false;
  while (done_ops < ops && !failed) {
    // A burst of 1..4 operations issued together, each checked when it completes.
    const int burst = static_cast<int>(rng.UniformInt(1, 4));
    int pending = 0;
    for (int b = 0; b < burst && done_ops < ops; ++b, ++done_ops) {
      const std::string& k = keys[rng.UniformU64(keyspace)];
      const double x = rng.UniformDouble();
      if (sync_fraction > 0 && rng.UniformDouble() < sync_fraction) {
        ++pending;
        ++n.syncs;
        Status st = s->Sync([&](const Status& r) {
          --pending;
          if (!r.ok()) {
            ADD_FAILURE() << "sync failed: " << r.message();
            failed = true;
          }
        });
        if (!st.ok()) {
          ADD_FAILURE() << "sync refused: " << st.message();
          return n;
        }
      } else if (x < 0.45) {
        std::string v(static_cast<size_t>(rng.UniformInt(1, max_value)), '\0');
        for (char& c : v) c = static_cast<char>('a' + rng.UniformU64(26));
        ref[k] = v;
        ++pending;
        ++n.puts;
        Status st = s->Put(k, v, [&, k](const Status& r) {
          --pending;
          if (!r.ok()) {
            ADD_FAILURE() << "put failed: " << r.message();
            failed = true;
          }
        });
        if (!st.ok()) {
          ADD_FAILURE() << "put refused: " << st.message();
          return n;
        }
      } else if (x < 0.55) {
        ref.erase(k);
        ++pending;
        ++n.deletes;
        Status st = s->Delete(k, [&](const Status& r) {
          --pending;
          if (!r.ok()) {
            ADD_FAILURE() << "delete failed: " << r.message();
            failed = true;
          }
        });
        if (!st.ok()) {
          ADD_FAILURE() << "delete refused: " << st.message();
          return n;
        }
      } else if (x < 0.95 || !s->has_scan()) {
        auto it = ref.find(k);
        const bool want = it != ref.end();
        const std::string wantv = want ? it->second : "";
        ++pending;
        ++n.gets;
        Status st = s->Get(k, [&, want, wantv](const Status& r, std::string v) {
          --pending;
          if (want && (!r.ok() || v != wantv)) {
            ADD_FAILURE() << "get: wrong value (" << r.message() << ")";
            failed = true;
          } else if (!want && r.code() != StatusCode::kNotFound) {
            ADD_FAILURE() << "get of an absent key: " << (r.ok() ? "found" : r.message());
            failed = true;
          }
        });
        if (!st.ok()) {
          ADD_FAILURE() << "get refused: " << st.message();
          return n;
        }
      } else {
        const int count = static_cast<int>(rng.UniformInt(1, 20));
        std::vector<std::pair<std::string, std::string>> want;
        for (auto it = ref.lower_bound(k); it != ref.end() && static_cast<int>(want.size()) < count; ++it) {
          want.push_back(*it);
        }
        ++pending;
        ++n.scans;
        Status st = s->Scan(k, count, [&, want](const Status& r, std::vector<std::pair<std::string, std::string>> got) {
          --pending;
          if (!r.ok() || got != want) {
            ADD_FAILURE() << "scan: wrong entries (" << r.message() << ")";
            failed = true;
          }
        });
        if (!st.ok()) {
          ADD_FAILURE() << "scan refused: " << st.message();
          return n;
        }
      }
    }
    while (pending > 0 && sim->Step()) {
    }
    if (pending > 0) {
      ADD_FAILURE() << "operations never completed";
      return n;
    }
  }
  for (uint64_t i = 0; i < keyspace && !failed; ++i) {
    std::string v;
    Status st = GetSync(sim, s, keys[i], &v);
    auto it = ref.find(keys[i]);
    if (it == ref.end()) {
      EXPECT_EQ(st.code(), StatusCode::kNotFound) << "key " << i;
    } else {
      EXPECT_TRUE(st.ok()) << "key " << i << ": " << st.message();
      EXPECT_EQ(v, it->second) << "key " << i;
    }
  }
  return n;
}

}  // namespace fawnlab::stores::testing

#endif  // FAWNLAB_STORES_TEST_UTIL_H_
