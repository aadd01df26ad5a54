#include "vecio/costs.h"

namespace fawnlab::vecio {

const char* CostKindName(CostKind k) {
  switch (k) {
    case CostKind::kNicIrq: return "nic_irq";
    case CostKind::kTcp: return "tcp";
    case CostKind::kSyscall: return "syscall";
    case CostKind::kRpc: return "rpc";
    case CostKind::kLookup: return "lookup";
    case CostKind::kQueue: return "queue";
    case CostKind::kSubmit: return "submit";
    case CostKind::kIoIrq: return "io_irq";
    case CostKind::kWakeup: return "wakeup";
    case CostKind::kCount: break;
  }
  return "?";
}

const char* StageName(Stage s) {
  switch (s) {
    case Stage::kClient: return "client";
    case Stage::kWireIn: return "wire_in";
    case Stage::kNic: return "nic";
    case Stage::kThread: return "thread";
    case Stage::kQueue: return "queue";
    case Stage::kDevice: return "device";
    case Stage::kIrq: return "irq";
    case Stage::kReply: return "reply";
    case Stage::kWireOut: return "wire_out";
    case Stage::kCount: break;
  }
  return "?";
}

namespace {

HostProfile Xeon() {
  HostProfile p;
  p.id = "xeon-x5570";
  p.label = "Xeon X5570 ×8 (2.93 GHz)";
  p.source = "vector thesis §7.1.2 / SoCC'12 §2.2 back-end; per-event costs fitted to Figs 7.8-7.12 (docs/vector/net.md)";
  p.cores = 8;
  p.nic_irq_ns = 21000;
  p.tcp_ns = 10200;
  p.syscall_ns = 4000;
  p.rpc_ns = 8250;
  p.rpc_key_ns = 250;
  p.lookup_ns = 1650;
  p.queue_ns = 950;
  p.submit_ns = 3000;
  p.io_irq_ns = 6300;
  p.wakeup_ns = 3300;
  p.warm_factor = 0.35;
  p.client_ns = 23000;
  return p;
}

// [INF] The Atom D510 (2 cores, 4 hardware threads, 1.66 GHz): every per-event cost 5× the
// Xeon's, the ratio of the Atom's to the "Xeon"'s block-layer issue path (thesis Fig 6.4:
// 33-40 µs vs 6.7 µs).
HostProfile Atom() {
  HostProfile p = Xeon();
  p.id = "atom-d510";
  p.label = "Atom D510 ×4 (1.66 GHz, 2 cores × 2 threads)";
  p.source = "vector thesis §6.2 host; per-event costs 5× the Xeon's (issue path 33-40 µs vs 6.7 µs, Fig 6.4) [inferred]";
  p.cores = 4;
  for (sim::SimDuration* c : {&p.nic_irq_ns, &p.tcp_ns, &p.syscall_ns, &p.rpc_ns, &p.rpc_key_ns, &p.lookup_ns, &p.queue_ns,
                              &p.submit_ns, &p.io_irq_ns, &p.wakeup_ns}) {
    *c *= 5;
  }
  return p;
}

}  // namespace

const std::vector<HostProfile>& HostProfiles() {
  static const std::vector<HostProfile> profiles = {Xeon(), Atom()};
  return profiles;
}

const HostProfile* FindHostProfile(const std::string& id) {
  for (const HostProfile& p : HostProfiles()) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

sim::SimDuration EventCost(const HostProfile& p, CostKind kind, int keys) {
  switch (kind) {
    case CostKind::kNicIrq: return p.nic_irq_ns;
    case CostKind::kTcp: return p.tcp_ns;
    case CostKind::kSyscall: return p.syscall_ns;
    case CostKind::kRpc: return p.rpc_ns + p.rpc_key_ns * keys;
    case CostKind::kLookup: return p.lookup_ns;
    case CostKind::kQueue: return p.queue_ns;
    case CostKind::kSubmit: return p.submit_ns;
    case CostKind::kIoIrq: return p.io_irq_ns;
    case CostKind::kWakeup: return p.wakeup_ns;
    case CostKind::kCount: break;
  }
  return 0;
}

}  // namespace fawnlab::vecio
