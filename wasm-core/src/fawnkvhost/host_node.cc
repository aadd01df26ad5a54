#include "fawnkvhost/host_node.h"

#include "fawnkv/codec.h"
#include "fawnkvhost/back_host.h"
#include "fawnkvhost/front_host.h"

namespace fawnlab::fawnkvhost {

StatusOr<std::unique_ptr<HostNode>> HostNode::Create(std::string_view config_json) {
  StatusOr<HostConfig> c = ParseHostConfig(config_json);
  if (!c.ok()) return c.status();
  if (c.value().frontend) return MakeFrontHost(c.value());
  return MakeBackHost(c.value());
}

void HostNode::Advance(int64_t now_ns) {
  if (now_ns < sim_.now()) return;  // the host's clock is monotonic; a stale reading changes nothing
  sim_.RunUntil(now_ns, kMaxEventsPerCall);
}

int64_t HostNode::NextTimerNs() const {
  const sim::SimTime t = sim_.next_event_time();
  return t == sim::kTimeMax ? -1 : t;
}

Status HostNode::Deliver(fawnkv::Endpoint from, std::string_view frame) {
  StatusOr<fawnkv::Message> m = fawnkv::codec::Decode(frame);
  if (!m.ok()) return Status::InvalidArgument("frame from endpoint " + std::to_string(from) + " dropped: " + m.status().message());
  if (m.value().from != from) {
    return Status::InvalidArgument("frame from endpoint " + std::to_string(from) + " dropped: it claims to come from " +
                                   std::to_string(m.value().from));
  }
  if (m.value().to != endpoint()) {
    return Status::InvalidArgument("frame from endpoint " + std::to_string(from) + " dropped: it is addressed to " +
                                   std::to_string(m.value().to) + ", not this node (" + std::to_string(endpoint()) + ")");
  }
  Receive(m.value());
  RunDue();
  return Status::Ok();
}

namespace {
Status NotFront(const char* what) { return Status::InvalidArgument(std::string(what) + ": only the front-end takes client requests and membership changes"); }
}  // namespace

StatusOr<uint64_t> HostNode::Put(std::string_view, std::string_view) { return NotFront("put"); }
StatusOr<uint64_t> HostNode::Get(std::string_view) { return NotFront("get"); }
StatusOr<uint64_t> HostNode::Del(std::string_view) { return NotFront("del"); }
StatusOr<uint64_t> HostNode::MultiGet(const std::vector<std::string>&) { return NotFront("multiget"); }
Status HostNode::AddBackend(int) { return NotFront("addBackend"); }
Status HostNode::RemoveBackend(int) { return NotFront("removeBackend"); }
Status HostNode::FailBackend(int) { return NotFront("failBackend"); }
Status HostNode::RestoreRing(std::string_view) { return NotFront("restoreRing"); }

}  // namespace fawnlab::fawnkvhost
