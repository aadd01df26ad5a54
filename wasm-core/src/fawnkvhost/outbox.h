// Outbox: the real cluster's fawnkv::Transport. Each message sent is encoded (codec.h) and
// queued as a frame for the host to carry over TCP; messages to an endpoint marked down are
// dropped, as the simulated network drops a dead node's. A message to the node itself is
// handed back through `loopback` on the next turn of its simulator.
#ifndef FAWNLAB_FAWNKVHOST_OUTBOX_H_
#define FAWNLAB_FAWNKVHOST_OUTBOX_H_

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "fawnkv/transport.h"

namespace fawnlab::fawnkvhost {

struct Frame {
  fawnkv::Endpoint to = 0;
  std::string bytes;
};

class Outbox : public fawnkv::Transport {
 public:
  explicit Outbox(fawnkv::Endpoint self) : self_(self) {}
  void set_loopback(std::function<void(fawnkv::Message)> f) { loopback_ = std::move(f); }

  void Send(fawnkv::Message m) override;
  bool up(fawnkv::Endpoint e) const override { return !down_.count(e); }
  void SetUp(fawnkv::Endpoint e, bool up) override;

  std::vector<Frame> Take();
  fawnkv::Endpoint self() const { return self_; }
  uint64_t frames_sent() const { return frames_; }
  uint64_t bytes_sent() const { return bytes_; }
  uint64_t dropped() const { return dropped_; }

 private:
  fawnkv::Endpoint self_;
  std::function<void(fawnkv::Message)> loopback_;
  std::set<fawnkv::Endpoint> down_;
  std::vector<Frame> frames_out_;
  uint64_t frames_ = 0, bytes_ = 0, dropped_ = 0;
};

}  // namespace fawnlab::fawnkvhost

#endif  // FAWNLAB_FAWNKVHOST_OUTBOX_H_
