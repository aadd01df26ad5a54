#include "stores/factory.h"

#include <memory>

#include "device/nvm.h"
#include "gtest/gtest.h"

namespace fawnlab::stores {
namespace {

TEST(StoresFactory, KindsInTheLabsOrder) {
  const auto& k = StoreKinds();
  ASSERT_EQ(k.size(), 6u);
  const char* want[] = {"cona", "cona-1t", "silt", "lsm", "fawnds", "btree"};
  for (size_t i = 0; i < k.size(); ++i) {
    EXPECT_EQ(k[i].id, want[i]);
    EXPECT_FALSE(k[i].label.empty());
  }
}

TEST(StoresFactory, Errors) {
  sim::Simulator sim;
  device::NvmConfig c;
  c.capacity_bytes = uint64_t{64} << 20;
  device::NvmDevice dev(&sim, "nvm-4ch", c);
  StoreParams p;
  auto s = MakeStore("rocks", p, &dev, 0, 1 << 20, 0);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("unknown store 'rocks'"), std::string::npos) << s.status().message();
  EXPECT_NE(s.status().message().find("cona, cona-1t, silt, lsm, fawnds, btree"), std::string::npos);
  EXPECT_EQ(FileBytesFor("rocks", p, 100), 0u);

  StoreParams bad = p;
  bad.cpu_scale = 0;
  s = MakeStore("cona", bad, &dev, 0, FileBytesFor("cona", p, 100), 0);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("cpu_scale"), std::string::npos);
  bad = p;
  bad.key_bytes = 16;
  s = MakeStore("cona", bad, &dev, 0, FileBytesFor("cona", p, 100), 0);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("key_bytes"), std::string::npos);

  s = MakeStore("cona", p, nullptr, 0, 1 << 20, 0);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("no device"), std::string::npos);

  // Every kind either builds on a region of the size it asks for, or says it is not built yet.
  for (const StoreInfo& k : StoreKinds()) {
    const uint64_t bytes = FileBytesFor(k.id, p, 1000);
    auto st = MakeStore(k.id, p, &dev, 0, bytes ? bytes : (1 << 20), 0);
    if (st.ok()) {
      EXPECT_GT(bytes, 0u) << k.id;
      EXPECT_EQ(st.value()->kind(), k.id);
      EXPECT_EQ(st.value()->has_scan(), k.has_scan) << k.id;
    } else {
      EXPECT_NE(st.status().message().find("is not built yet"), std::string::npos) << k.id << ": " << st.status().message();
    }
  }
}

}  // namespace
}  // namespace fawnlab::stores
