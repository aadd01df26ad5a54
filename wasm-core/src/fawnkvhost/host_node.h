// HostNode: one real-cluster process's FAWN-KV node — the front-end (FrontEnd, Coordinator,
// Routes, Ring) or one back-end (Backend on a file) — driven by its host (the Node server)
// through a polling API; C++ never calls the host. The same protocol classes as the
// simulation run here (choices: docs/decisions.md, "Real cluster mode"; the server's side,
// wire and limits: docs/cluster.md).
//
// Time: a sim::Simulator whose clock is the host's monotonic clock in ns from 0. Advance(now)
// runs every timer and completion due by `now`; NextTimerNs() says when the next one is due
// (−1: none) so the host can sleep. Deliver(from, frame) decodes one codec frame (codec.h)
// from peer `from`, hands it to the node at its current time and runs what is due; a bad
// frame (undecodable, claiming another sender, addressed elsewhere) is dropped with an error
// naming the problem. Every message the node sends is encoded into the outbox; TakeOutbox()
// hands the frames over in send order (per destination FIFO, as TCP keeps them).
//
// Front-end: Put/Get/Del/MultiGet take the user's key bytes (hashed with SHA-1 onto the
// ring; 1 … kMaxKeyBytes bytes; values ≤ 1 MiB; ≤ kMaxMultiGet keys) and return a request
// id; TakeDone() returns the finished requests. A request refused at once (bad key) is
// finished with ok = false, the reason and a status (DoneOp::status). The ring starts empty; AddBackend(id) queues a
// join (the first node takes the whole ring), RemoveBackend a leave, FailBackend a failure
// (also declared by heartbeats); one change runs at a time. A restarted back-end with an id
// the ring still holds must be failed, then added again (its ranges are copied afresh).
// AddBackend of a node declared failed, and a node declared failed that answers heartbeats
// again, first reset it (it drops all it holds: coordinator.h) and join it once it answered.
// RestoreRing/RingJson/RingVersion: the persisted ring of a whole-cluster restart (front_host.h).
// Back-end: a FAWN-DS node on dataDir/card.img, recovered at start when the file holds one
// (RecoveredJson), checkpointed every checkpointMs.
#ifndef FAWNLAB_FAWNKVHOST_HOST_NODE_H_
#define FAWNLAB_FAWNKVHOST_HOST_NODE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "fawnkv/frontend.h"
#include "fawnkv/message.h"
#include "fawnkvhost/host_config.h"
#include "fawnkvhost/outbox.h"
#include "sim/simulator.h"

namespace fawnlab::fawnkvhost {

constexpr size_t kMaxKeyBytes = 250;   // memcached's key limit (docs/cluster.md)
constexpr size_t kMaxMultiGet = 256;

struct DoneOp {
  uint64_t req = 0;
  std::string op;  // "put", "get", "del", "multiget"
  bool ok = false, found = false;
  std::string value;
  std::vector<fawnkv::KeyAnswer> values;  // multiget: one per key
  std::string error;
  // Why not ok: "" (not failed), "no-space" (the store refused the write: definitely not
  // applied; HTTP 507), "too-large" (a value over the limit; 413), "bad-request" (a bad key or
  // too many keys; 400) or "timeout" (no answer in time: a write may or may not have taken effect; 504).
  std::string status;
  int64_t latency_ns = 0;
  int served_by = -1;  // the back-end that answered (−1: none, the cache, or a multiget)
  bool cache_hit = false;
};

class HostNode {
 public:
  static StatusOr<std::unique_ptr<HostNode>> Create(std::string_view config_json);
  virtual ~HostNode() = default;

  bool frontend() const { return config_.frontend; }
  fawnkv::Endpoint endpoint() const { return out_.self(); }
  int64_t now_ns() const { return sim_.now(); }

  void Advance(int64_t now_ns);
  Status Deliver(fawnkv::Endpoint from, std::string_view frame);
  std::vector<Frame> TakeOutbox() { return out_.Take(); }
  int64_t NextTimerNs() const;

  // Front-end only (a back-end refuses them).
  virtual StatusOr<uint64_t> Put(std::string_view key, std::string_view value);
  virtual StatusOr<uint64_t> Get(std::string_view key);
  virtual StatusOr<uint64_t> Del(std::string_view key);
  virtual StatusOr<uint64_t> MultiGet(const std::vector<std::string>& keys);
  virtual std::vector<DoneOp> TakeDone() { return {}; }
  virtual Status AddBackend(int id);
  virtual Status RemoveBackend(int id);
  virtual Status FailBackend(int id);
  // Front-end, whole-cluster restart (front_host.h): restores the ring persisted by RingJson
  // into an empty front-end; RingVersion changes whenever RingJson would (write it then).
  virtual Status RestoreRing(std::string_view json);
  virtual std::string RingJson() const { return ""; }
  virtual uint64_t RingVersion() const { return 0; }
  // Front-end: nodes, ring, chains, changes, request counters, events since the last call.
  // Back-end: its stores, counters and recovery.
  virtual std::string StatusJson() = 0;
  // Back-end only: {"stores": k, "records": n, "ranges": [[start, end], ...], "detail": ""}.
  virtual std::string RecoveredJson() const { return "{}"; }

 protected:
  explicit HostNode(const HostConfig& c, fawnkv::Endpoint self) : config_(c), out_(self) {}
  virtual void Receive(fawnkv::Message& m) = 0;
  void RunDue() { sim_.RunUntil(sim_.now(), kMaxEventsPerCall); }

  static constexpr uint64_t kMaxEventsPerCall = 5000000;  // a bound, so a call always returns
  HostConfig config_;
  sim::Simulator sim_;
  Outbox out_;
};

}  // namespace fawnlab::fawnkvhost

#endif  // FAWNLAB_FAWNKVHOST_HOST_NODE_H_
