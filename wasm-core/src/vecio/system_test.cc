// VectorSystem: every cost is charged exactly once per event of its kind, every request is
// answered exactly once, the patterns issue the commands they should, bad configs are named,
// and runs are deterministic by seed.
#include "vecio/system.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "sim/simulator.h"

namespace fawnlab::vecio {
namespace {

size_t K(CostKind k) { return static_cast<size_t>(k); }

struct Drained {
  Counters c;
  uint64_t completions = 0;
  std::map<int, uint64_t> rpcs_by_keys;
  uint64_t in_flight = 0;
};

// Runs `c` for `run` of virtual time, stops the clients and lets everything in flight finish.
Drained RunAndDrain(const SystemConfig& c, sim::SimDuration run, uint64_t seed = 1) {
  sim::Simulator sim;
  auto s = VectorSystem::Create(&sim, c, seed);
  EXPECT_TRUE(s.ok()) << s.status().message();
  Drained d;
  if (!s.ok()) return d;
  VectorSystem& v = *s.value();
  v.set_on_complete([&](sim::SimTime, sim::SimDuration lat, int keys) {
    ++d.completions;
    ++d.rpcs_by_keys[keys];
    EXPECT_GT(lat, 0);
  });
  v.Start();
  sim.RunUntil(sim.now() + run, 50'000'000);
  v.StopClients();
  sim.Run(50'000'000);
  d.c = v.counters();
  v.ForEachInFlight([&](const RpcView&) { ++d.in_flight; });
  return d;
}

SystemConfig Small(int g, int r, double load) {
  SystemConfig c;
  c.multiget = g;
  c.multiread = r;
  c.load_per_s = load;
  c.keys = 4096;
  c.queue_timeout_us = 2000;  // so a partly filled queue drains at the end
  return c;
}

void ExpectEachCostOnce(const Counters& c, const HostProfile& p) {
  EXPECT_EQ(c.events[K(CostKind::kNicIrq)], c.nic_irqs);
  EXPECT_EQ(c.events[K(CostKind::kTcp)], c.packets_in + c.packets_out);
  EXPECT_EQ(c.events[K(CostKind::kSyscall)], c.syscalls);
  EXPECT_EQ(c.events[K(CostKind::kRpc)], 2 * c.rpcs_done);            // deserialise + serialise
  EXPECT_EQ(c.events[K(CostKind::kLookup)], c.completed_keys);         // one FAWN-DS lookup per key
  EXPECT_EQ(c.events[K(CostKind::kQueue)], 2 * c.queue_items);         // enqueue + dequeue
  EXPECT_EQ(c.events[K(CostKind::kSubmit)], c.commands);
  EXPECT_EQ(c.events[K(CostKind::kIoIrq)], c.io_irqs);
  EXPECT_EQ(c.events[K(CostKind::kWakeup)], c.wakeups);
  EXPECT_EQ(c.io_irqs, c.commands);
  EXPECT_EQ(c.wakeups, c.commands);
  // Core time: each event at its profile price (rpc: per RPC plus per key, twice).
  EXPECT_EQ(c.busy_ns[K(CostKind::kNicIrq)], static_cast<int64_t>(c.nic_irqs) * p.nic_irq_ns);
  EXPECT_EQ(c.busy_ns[K(CostKind::kTcp)], static_cast<int64_t>(c.packets_in + c.packets_out) * p.tcp_ns);
  // RPC and syscall work costs its price, or warm_factor of it when the thread repeats a step.
  const double rpc_full = static_cast<double>(2 * c.rpcs_done * p.rpc_ns + 2 * c.completed_keys * p.rpc_key_ns);
  EXPECT_LE(c.busy_ns[K(CostKind::kRpc)], rpc_full + static_cast<double>(c.rpcs_done));
  EXPECT_GE(c.busy_ns[K(CostKind::kRpc)], rpc_full * p.warm_factor - static_cast<double>(c.rpcs_done));
  EXPECT_LE(c.busy_ns[K(CostKind::kSyscall)], static_cast<int64_t>(c.syscalls) * p.syscall_ns);
  EXPECT_GE(c.busy_ns[K(CostKind::kSyscall)], static_cast<double>(c.syscalls * p.syscall_ns) * p.warm_factor - 1.0 * c.syscalls);
  EXPECT_EQ(c.busy_ns[K(CostKind::kLookup)], static_cast<int64_t>(c.completed_keys) * p.lookup_ns);
  EXPECT_EQ(c.busy_ns[K(CostKind::kSubmit)], static_cast<int64_t>(c.commands) * p.submit_ns);
  EXPECT_EQ(c.busy_ns[K(CostKind::kIoIrq)], static_cast<int64_t>(c.commands) * p.io_irq_ns);
  EXPECT_EQ(c.busy_ns[K(CostKind::kWakeup)], static_cast<int64_t>(c.commands) * p.wakeup_ns);
  EXPECT_EQ(c.busy_ns[K(CostKind::kQueue)], static_cast<int64_t>(2 * c.queue_items) * p.queue_ns);
}

TEST(VectorSystem, EachCostChargedOncePerEventDirect) {
  const Drained d = RunAndDrain(Small(4, 2, 100000), 20 * sim::kMs);
  ASSERT_GT(d.c.rpcs_done, 100u);
  ExpectEachCostOnce(d.c, *FindHostProfile("xeon-x5570"));
  EXPECT_EQ(d.c.queue_items, 0u);
  EXPECT_EQ(d.c.commands, 2 * d.c.rpcs_done);  // G=4 > R=2: ⌈4/2⌉ commands per RPC
  // Requests are one frame each; replies one frame each; the rest in are ACKs.
  EXPECT_EQ(d.c.packets_out, d.c.rpcs_done);
  EXPECT_GT(d.c.packets_in, d.c.rpcs_done);
}

TEST(VectorSystem, EachCostChargedOncePerEventQueue) {
  const Drained d = RunAndDrain(Small(1, 8, 100000), 20 * sim::kMs);
  ASSERT_GT(d.c.rpcs_done, 100u);
  ExpectEachCostOnce(d.c, *FindHostProfile("xeon-x5570"));
  EXPECT_EQ(d.c.queue_items, d.c.completed_keys);
  EXPECT_LT(d.c.commands, d.c.rpcs_done);  // multireads of up to 8
  EXPECT_GE(d.c.commands * 8, d.c.rpcs_done);
}

TEST(VectorSystem, ConservationEveryRequestAnsweredOnce) {
  for (const SystemConfig& c : {Small(1, 1, 80000), Small(32, 32, 400000), Small(3, 8, 200000), Small(32, 4, 200000)}) {
    const Drained d = RunAndDrain(c, 15 * sim::kMs);
    EXPECT_EQ(d.in_flight, 0u);
    EXPECT_EQ(d.completions, d.c.rpcs_done);
    EXPECT_EQ(d.c.completed_keys, d.c.offered_keys);
    EXPECT_EQ(d.rpcs_by_keys.size(), 1u);
    EXPECT_EQ(d.rpcs_by_keys.begin()->first, c.multiget);
    EXPECT_EQ(d.rpcs_by_keys.begin()->second * static_cast<uint64_t>(c.multiget), d.c.completed_keys);
  }
}

TEST(VectorSystem, GreaterThanRIssuesCeilGOverRCommandsInTurn) {
  for (int r : {1, 3, 5, 32}) {
    const Drained d = RunAndDrain(Small(32, r, 100000), 10 * sim::kMs);
    ASSERT_GT(d.c.rpcs_done, 0u);
    EXPECT_EQ(d.c.commands, d.c.rpcs_done * static_cast<uint64_t>((32 + r - 1) / r)) << "R=" << r;
  }
}

TEST(VectorSystem, QueuePatternForcedAtEqualWidths) {
  SystemConfig c = Small(8, 8, 200000);
  const Drained direct = RunAndDrain(c, 10 * sim::kMs);
  c.pattern = Pattern::kQueue;
  const Drained queue = RunAndDrain(c, 10 * sim::kMs);
  EXPECT_EQ(direct.c.queue_items, 0u);
  EXPECT_EQ(queue.c.queue_items, queue.c.completed_keys);
  EXPECT_EQ(queue.c.events[K(CostKind::kQueue)], 2 * queue.c.completed_keys);
  EXPECT_EQ(direct.c.commands, direct.c.rpcs_done);
}

TEST(VectorSystem, BadConfigNamed) {
  SystemConfig c;
  c.multiget = 0;
  EXPECT_NE(Validate(c).message().find("multiget"), std::string::npos);
  c = SystemConfig{};
  c.multiread = 300;
  EXPECT_NE(Validate(c).message().find("multiread"), std::string::npos);
  c = SystemConfig{};
  c.host = "pentium";
  EXPECT_NE(Validate(c).message().find("host"), std::string::npos);
  c = SystemConfig{};
  c.load_per_s = 0;
  EXPECT_NE(Validate(c).message().find("load_per_s"), std::string::npos);
  sim::Simulator sim;
  c = SystemConfig{};
  c.clients = 0;
  auto s = VectorSystem::Create(&sim, c, 1);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("clients"), std::string::npos);
  EXPECT_TRUE(Validate(SystemConfig{}).ok());
}

TEST(VectorSystem, ReconfigureLiveAndRefusesOthers) {
  sim::Simulator sim;
  auto s = VectorSystem::Create(&sim, Small(1, 1, 50000), 3);
  ASSERT_TRUE(s.ok());
  VectorSystem& v = *s.value();
  v.Start();
  sim.RunUntil(sim.now() + 5 * sim::kMs);
  SystemConfig c = v.config();
  c.multiget = 8;
  c.multiread = 8;
  c.load_per_s = 200000;
  ASSERT_TRUE(v.Reconfigure(c).ok());
  const uint64_t before = v.counters().offered_keys;
  sim.RunUntil(sim.now() + 10 * sim::kMs);
  const double rate = static_cast<double>(v.counters().offered_keys - before) / 0.010;
  EXPECT_NEAR(rate, 200000, 40000);
  c.keys = 1000;
  Status st = v.Reconfigure(c);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("keys"), std::string::npos);
}

TEST(VectorSystem, LiveSwitchFromQueueToDirectFlushesTheQueue) {
  sim::Simulator sim;
  SystemConfig c = Small(1, 32, 20000);  // no timeout: keys wait for 32 per connection
  c.queue_timeout_us = 0;
  auto s = VectorSystem::Create(&sim, c, 4);
  ASSERT_TRUE(s.ok());
  VectorSystem& v = *s.value();
  v.Start();
  sim.RunUntil(sim.now() + 5 * sim::kMs);
  int queued = 0;
  for (int conn = 0; conn < c.clients; ++conn) queued += v.queue_depth(conn);
  ASSERT_GT(queued, 0);
  c.multiget = 8;
  c.multiread = 8;
  ASSERT_TRUE(v.Reconfigure(c).ok());
  v.StopClients();
  sim.Run(10'000'000);
  for (int conn = 0; conn < c.clients; ++conn) EXPECT_EQ(v.queue_depth(conn), 0);
  EXPECT_EQ(v.counters().completed_keys, v.counters().offered_keys);
}

TEST(VectorSystem, BurstsShareInterruptsAndAcks) {
  // Interrupt coalescing: at load, one NIC interrupt serves several packets.
  const Drained g1 = RunAndDrain(Small(1, 1, 100000), 20 * sim::kMs);
  EXPECT_LT(g1.c.nic_irqs * 10, g1.c.packets_in * 9);
  // Multiread's implicit benefit: R replies leave as one burst, so fewer segments go out and
  // fewer ACKs come back per RPC than with R = 1 at the same load.
  const Drained r8 = RunAndDrain(Small(1, 8, 100000), 20 * sim::kMs);
  const double in1 = static_cast<double>(g1.c.packets_in) / g1.c.rpcs_done;
  const double in8 = static_cast<double>(r8.c.packets_in) / r8.c.rpcs_done;
  const double out1 = static_cast<double>(g1.c.packets_out) / g1.c.rpcs_done;
  const double out8 = static_cast<double>(r8.c.packets_out) / r8.c.rpcs_done;
  EXPECT_LT(in8, in1 - 0.3);
  EXPECT_LT(out8, 0.5 * out1);
}

TEST(VectorSystem, HostProfileAndCoresSetCapacity) {
  auto answered = [](const std::string& host, int cores) {
    SystemConfig c = Small(1, 1, 400000);  // far beyond every host here
    c.host = host;
    c.cores = cores;
    sim::Simulator sim;
    auto s = VectorSystem::Create(&sim, c, 1);
    EXPECT_TRUE(s.ok());
    s.value()->Start();
    sim.RunUntil(sim.now() + 10 * sim::kMs);
    EXPECT_EQ(s.value()->cores(), cores > 0 ? cores : FindHostProfile(host)->cores);
    return s.value()->counters().completed_keys;
  };
  const uint64_t xeon = answered("xeon-x5570", 0), xeon2 = answered("xeon-x5570", 2), atom = answered("atom-d510", 0);
  EXPECT_LT(xeon2 * 3, xeon);
  EXPECT_LT(atom * 5, xeon);
  EXPECT_GT(atom, 0u);
}

TEST(VectorSystem, DefaultConfigPreloadsEveryKey) {
  sim::Simulator sim;
  auto s = VectorSystem::Create(&sim, SystemConfig{}, 1);  // 65536 records of 512 B
  ASSERT_TRUE(s.ok()) << s.status().message();
  VectorSystem& v = *s.value();
  EXPECT_EQ(v.device().counters().writes, 65536u + 1);  // the records, plus the store's superblock
  v.Start();
  sim.RunUntil(sim.now() + 2 * sim::kMs);
  EXPECT_GT(v.counters().completed_keys, 0u);
}

TEST(VectorSystem, InFlightViewsAndChannels) {
  sim::Simulator sim;
  auto s = VectorSystem::Create(&sim, Small(16, 16, 800000), 2);
  ASSERT_TRUE(s.ok());
  VectorSystem& v = *s.value();
  v.Start();
  sim.RunUntil(sim.now() + 3 * sim::kMs);
  int on_device = 0, n = 0;
  v.ForEachInFlight([&](const RpcView& r) {
    ++n;
    EXPECT_EQ(r.keys, 16);
    if (r.stage == Stage::kDevice) {
      ++on_device;
      EXPECT_EQ(r.channel, r.conn % 4);
    } else {
      EXPECT_EQ(r.channel, -1);
    }
  });
  EXPECT_GT(n, 0);
  EXPECT_GT(on_device, 0);
  EXPECT_EQ(v.cores(), 8);
  EXPECT_GT(v.core_busy_ns(0), 0);
}

}  // namespace
}  // namespace fawnlab::vecio
