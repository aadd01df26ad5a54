#include "srcmap/flat_map.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "sim/rng.h"

namespace fawnlab::srcmap {
namespace {

TEST(SrcmapFlatMap, AgreesWithStdMap) {
  const uint64_t seed = 77;
  std::printf("seed %llu\n", (unsigned long long)seed);
  sim::Rng rng(seed);
  FlatMap<uint32_t> f;
  std::map<uint64_t, uint32_t> m;
  for (int i = 0; i < 200000; ++i) {
    uint64_t k = rng.UniformU64(3000) * 0x10001ull;  // clustered keys collide in the table
    int op = static_cast<int>(rng.UniformU64(3));
    if (op == 0) {
      f[k] += 1;
      m[k] += 1;
    } else if (op == 1) {
      ASSERT_EQ(f.Erase(k), m.erase(k) == 1);
    } else {
      const uint32_t* v = f.Find(k);
      auto it = m.find(k);
      ASSERT_EQ(v != nullptr, it != m.end());
      if (v) ASSERT_EQ(*v, it->second);
    }
    ASSERT_EQ(f.size(), m.size());
  }
  size_t n = 0;
  f.ForEach([&](uint64_t k, uint32_t v) {
    ASSERT_EQ(m.at(k), v);
    ++n;
  });
  EXPECT_EQ(n, m.size());
}

}  // namespace
}  // namespace fawnlab::srcmap
