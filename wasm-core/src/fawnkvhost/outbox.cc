#include "fawnkvhost/outbox.h"

#include <utility>

#include "fawnkv/codec.h"

namespace fawnlab::fawnkvhost {

void Outbox::Send(fawnkv::Message m) {
  if (down_.count(m.to) || down_.count(m.from)) {
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
