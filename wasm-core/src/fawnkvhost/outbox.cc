#include "fawnkvhost/outbox.h"

#include <utility>

#include "fawnkv/codec.h"

namespace fawnlab::fawnkvhost {

void Outbox::Send(fawnkv::Message m) {
  // A heartbeat still goes to an endpoint declared down: the coordinator probes whether a node
  // declared failed is alive after all, and resets one that is (coordinator.h, set_on_alive).
  const bool probe = m.kind == fawnkv::MsgKind::kHeartbeat || m.kind == fawnkv::MsgKind::kReset;
  if ((down_.count(m.to) && !probe) || down_.count(m.from)) {
    ++dropped_;
    return;
  }
  m.bytes = fawnkv::WireBytes(m);
  if (m.to == self_) {
    if (loopback_) loopback_(std::move(m));
    return;
  }
  Frame f;
  f.to = m.to;
  f.bytes = fawnkv::codec::Encode(m);
  ++frames_;
  bytes_ += f.bytes.size();
  frames_out_.push_back(std::move(f));
}

void Outbox::SetUp(fawnkv::Endpoint e, bool up) {
  if (up) {
    down_.erase(e);
  } else {
    down_.insert(e);
  }
}

std::vector<Frame> Outbox::Take() {
  std::vector<Frame> out;
  out.swap(frames_out_);
  return out;
}

}  // namespace fawnlab::fawnkvhost
