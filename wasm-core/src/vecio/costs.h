// Costs of the networked FAWN-KV back-end (vector thesis Ch. 7 §7.4, SoCC'12 §5): the kinds of
// work a core does (CostKind), where an RPC is (Stage), and the host profiles that price each
// event of each kind. A profile holds per-EVENT costs only (one NIC interrupt, one packet, one
// system call, one RPC, one key looked up, one queued item, one command submitted, one storage
// interrupt, one thread wake-up); throughput and latency come from these events queueing on
// the cores and the device (host.h, server.h), never from a formula. The Xeon constants are
// fitted to the published points (docs/vector/net.md lists each fit and its source).
#ifndef FAWNLAB_VECIO_COSTS_H_
#define FAWNLAB_VECIO_COSTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.h"

namespace fawnlab::vecio {

// Where a core's time goes (the stacked utilisation view, and cost counting in tests).
enum class CostKind : uint8_t { kNicIrq, kTcp, kSyscall, kRpc, kLookup, kQueue, kSubmit, kIoIrq, kWakeup, kCount };
const char* CostKindName(CostKind k);  // "nic_irq","tcp","syscall","rpc","lookup","queue","submit","io_irq","wakeup"
constexpr size_t kCostKinds = static_cast<size_t>(CostKind::kCount);

// Where an RPC is (the pipeline view's dots).
enum class Stage : uint8_t { kClient, kWireIn, kNic, kThread, kQueue, kDevice, kIrq, kReply, kWireOut, kCount };
const char* StageName(Stage s);  // "client","wire_in","nic","thread","queue","device","irq","reply","wire_out"

struct HostProfile {
  std::string id, label, source;
  int cores = 8;
  // Core time per event, ns.
  sim::SimDuration nic_irq_ns = 0;   // one burst of received packets: its interrupt, or a softirq pass
  sim::SimDuration tcp_ns = 0;       // kernel TCP/IP per packet, rx or tx, data or ACK
  sim::SimDuration syscall_ns = 0;   // one recv() or send()
  sim::SimDuration rpc_ns = 0;       // one Thrift deserialise or serialise of an RPC ...
  sim::SimDuration rpc_key_ns = 0;   // ... plus this per key it carries
  sim::SimDuration lookup_ns = 0;    // FAWN-DS per key: hash, 6-byte index probe, full-key check
  sim::SimDuration queue_ns = 0;     // intermediate queue: one enqueue, or one dequeue, of an item
  sim::SimDuration submit_ns = 0;    // one device command (vector or single)
  sim::SimDuration io_irq_ns = 0;    // one storage completion interrupt (one per command)
  sim::SimDuration wakeup_ns = 0;    // waking the thread that waits for a command
  // Fraction of the syscall and RPC costs paid by a thread repeating the same step with hot
  // code and data (server.h: the implicit cache benefit of batching).
  double warm_factor = 1;
  // Not core time of the server: the Atom client's own stack, per RPC (half before sending,
  // half after the reply arrives), a delay in the end-to-end latency.
  sim::SimDuration client_ns = 0;
};

// "xeon-x5570" (default, 8 cores) and "atom-d510".
const std::vector<HostProfile>& HostProfiles();
// The profile with `id`, or nullptr.
const HostProfile* FindHostProfile(const std::string& id);
// Core time of one event of `kind` (for kRpc: an RPC of `keys` keys).
sim::SimDuration EventCost(const HostProfile& p, CostKind kind, int keys = 0);

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_COSTS_H_
