#include "stores/page_io_recorder.h"

#include <vector>

#include "device/nvm.h"
#include "gtest/gtest.h"

namespace fawnlab::stores {
namespace {

TEST(StoresPageIoRecorder, RecordsAndOverlaysUntilSent) {
  sim::Simulator sim;
  device::NvmConfig c;
  c.capacity_bytes = 1 << 20;
  device::NvmDevice real(&sim, "nvm-4ch", c);
  std::vector<uint8_t> old(4096, 1), fresh(4096, 2), got(4096, 0);
  real.Poke(8192, 4096, old.data());
  PageIoRecorder rec(&real);
  EXPECT_EQ(rec.info().capacity_bytes, real.info().capacity_bytes);
  // A write and a read on the recorder complete at once, off the shared clock.
  auto w = device::SubmitAndWait(&rec, device::IoCommand::Single(device::IoEntry::Write(8192, 4096, fresh.data())));
  ASSERT_TRUE(w.ok());
  auto r = device::SubmitAndWait(&rec, device::IoCommand::Single(device::IoEntry::Read(8192 + 100, 200, got.data())));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(got[0], 2);    // the unsent write is seen
  EXPECT_EQ(sim.now(), 0);  // the shared simulator did not move
  EXPECT_EQ(sim.pending(), 0u);
  std::vector<RecordedIo> ios = rec.Take();
  ASSERT_EQ(ios.size(), 2u);
  EXPECT_EQ(ios[0].op, device::IoOp::kWrite);
  EXPECT_EQ(ios[1].op, device::IoOp::kRead);
  EXPECT_EQ(ios[1].offset, 8192u + 100);
  EXPECT_TRUE(rec.Take().empty());
  real.Peek(8192, 1, got.data());
  EXPECT_EQ(got[0], 1);  // the real device has not seen it yet
  // Replayed: the real device holds it, and the overlay lets go.
  ASSERT_TRUE(real.Submit(device::IoCommand::Single(device::IoEntry::Write(8192, 4096, ios[0].data->data())), nullptr).ok());
  rec.Sent(ios[0]);
  rec.Peek(8192, 1, got.data());
  EXPECT_EQ(got[0], 2);
}

}  // namespace
}  // namespace fawnlab::stores
