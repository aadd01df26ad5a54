// X25 NCQ device model (contract in x25.h).
#include "vecio/block/x25.h"

#include <algorithm>
#include <cassert>

namespace fawnlab::vecio::block {

void X25::Submit(uint32_t io, int bytes) {
  assert(outstanding_ < kNcqDepth);
  ++outstanding_;
  max_outstanding_ = std::max(max_outstanding_, outstanding_);
  const sim::SimTime start = std::max(sim_->now(), controller_free_);
  controller_free_ = start + sim::UsToNs(ServiceUs(bytes));
  sim_->Schedule(controller_free_ + sim::UsToNs(kMediaUs * (1 - kMediaSpread + 2 * kMediaSpread * rng_.UniformDouble())), [this, io]() { on_done_(io); });
}

void X25::Collect() {
  assert(outstanding_ > 0);
  --outstanding_;
}

}  // namespace fawnlab::vecio::block
