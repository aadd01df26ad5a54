#include "cona/store.h"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include "cona/store_test_util.h"

namespace fawnlab::cona {
namespace {

using testing::Rig;
using testing::TestKey;

StoreOptions Small(uint32_t buffer_bytes = 4 * 28) {
  StoreOptions o;
  o.key_bytes = 8;
  o.value_bytes = 16;
  o.buffer_bytes = buffer_bytes;  // E = 28: 4 entries per buffer
  o.merge_chunk_bytes = 512;
  return o;
}

TEST(ConaStore, PutsGetsAndDeletesThroughMerges) {
  Rig r(Small());
  ASSERT_TRUE(r.create_error.ok()) << r.create_error.ToString();
  std::map<std::string, std::string> ref;
  for (uint64_t i = 0; i < 500; ++i) {
    const std::string k = TestKey(i % 300, 8);
    const std::string v = "v" + std::to_string(i);
    ASSERT_TRUE(r.Put(k, v).ok());
    ref[k] = v;
    if (i % 7 == 3) {
      const std::string d = TestKey((i * 13) % 300, 8);
      ASSERT_TRUE(r.Delete(d).ok());
      ref.erase(d);
    }
  }
  for (uint64_t i = 0; i < 320; ++i) {
    const std::string k = TestKey(i, 8);
    std::string v;
    Status s = r.Get(k, &v);
    auto it = ref.find(k);
    if (it == ref.end()) {
      EXPECT_EQ(s.code(), StatusCode::kNotFound) << i;
    } else {
      ASSERT_TRUE(s.ok()) << i << " " << s.ToString();
      EXPECT_EQ(v, it->second) << i;
    }
  }
  r.Drain();
  const auto& st = r.store->stats();
  EXPECT_GT(st.induces, 100u);
  EXPECT_GT(st.merges, 50u);
  EXPECT_GE(r.store->structure().levels, 5);
}

}  // namespace
}  // namespace fawnlab::cona
