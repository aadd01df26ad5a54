// BlockSim: fio (libaio, iodepth N, direct random reads) on the Linux 2.6.36 block stack of
// vector I/O thesis Ch. 6, over the X25 NCQ model, in virtual time.
//
// Contract. fio runs on core 0 and issues each I/O through four CPU tasks, the blktrace phases
// QG, GI, ID (CFQ or noop cost) and DQ; the I/O reaches the driver at D and goes to the X25
// when an NCQ tag is free (else it waits in the driver's queue). Completions run on the CPU
// that issued the I/O: a hard IRQ collects every completion the drive has posted (freeing
// their tags), then each completion costs softIRQ + block completion + notify on that core.
// Interrupt work goes before process work on a core; tasks are not preempted. Coalescing:
//   none   one interrupt whenever a completion is posted and no interrupt is pending;
//   napi   (blk-iopoll) interrupts off after one; poll rounds take completions while any are
//          posted, each round costs a poll; interrupts back on when a round finds none;
//   defer  a hard IRQ arms a timer D µs out (interrupts off, nothing completed); timer
//          interrupts every D µs then complete everything posted while the drive holds
//          commands; when it holds none, interrupts are back on.
// Each cost is charged once per event of its kind (counters()). Throughput is not computed
// anywhere: it is the rate of C events. Deterministic per seed (one RNG stream for jitter).
#ifndef FAWNLAB_VECIO_BLOCK_BLOCK_SIM_H_
#define FAWNLAB_VECIO_BLOCK_BLOCK_SIM_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "vecio/block/block_costs.h"
#include "vecio/block/x25.h"

namespace fawnlab::vecio::block {

struct BlockConfig {
  std::string host = "atom-d510";
  std::string scheduler = "cfq";   // cfq | noop
  std::string coalescing = "none"; // none | napi | defer
  double defer_us = 160;           // [10, 1000]
  int iodepth = 64;                // [1, 64]
  int block_bytes = 512;           // 512 .. 16384
  double tool_extra_us = 0;        // extra DQ CPU per I/O in Atom µs (scaled per host): Tables 6.1/6.2's tool
};
Status Validate(const BlockConfig& c);  // names the field and its range

// One I/O's blktrace timestamps (ns; -1 = not reached yet).
struct IoRecord {
  uint32_t id = 0;
  uint8_t cpu = 0;
  double q = -1, g = -1, i = -1, d = -1, c = -1;
  double issue_cpu_ns = 0;  // the four phases' CPU time
};
struct IrqRecord {
  double t = 0;     // when the interrupt handler started (ns)
  uint16_t n = 0;   // completions it collected
  uint8_t cpu = 0;
};

struct BlockCounters {
  uint64_t issued = 0, dispatched = 0, collected = 0, completed = 0, interrupts = 0;
  std::array<uint64_t, 4> phase_events{};
  std::array<uint64_t, 5> irq_events{};
  std::array<double, 4> phase_busy_ns{};
  std::array<double, 5> irq_busy_ns{};
};

class BlockSim {
 public:
  // REQUIRES: Validate(c).ok(); `sim` outlives this.
  BlockSim(sim::Simulator* sim, const BlockConfig& c, uint64_t seed);
  void Start();                               // fio starts issuing at sim->now()
  void Reconfigure(const BlockConfig& c);     // scheduler, coalescing, defer, iodepth, block size: new I/Os use them
  const BlockConfig& config() const { return cfg_; }
  const HostCosts& host() const { return *host_; }
  const BlockCounters& counters() const { return counters_; }
  int cores() const { return static_cast<int>(cores_.size()); }
  double core_busy_ns(int core) const { return cores_[static_cast<size_t>(core)].busy_ns; }
  int driver_queue() const { return static_cast<int>(driver_q_.size()); }
  int inflight() const { return inflight_; }
  const X25& device() const { return *x25_; }

  // Observers (each may be empty): an I/O's D and C events; an interrupt (reported when its
  // batch ends, with every completion it collected; t is when its handler started).
  void set_on_complete(std::function<void(const IoRecord&)> fn) { on_complete_ = std::move(fn); }
  void set_on_issue(std::function<void(const IoRecord&)> fn) { on_issue_ = std::move(fn); }
  void set_on_irq(std::function<void(const IrqRecord&)> fn) { on_irq_ = std::move(fn); }
  // Every I/O not yet completed (for the session's timeline).
  void ForEachOpen(const std::function<void(const IoRecord&)>& fn) const;

 private:
  struct Task {
    sim::SimDuration dur;
    std::function<void(sim::SimTime start)> done;
  };
  struct Core {
    std::deque<Task> irq, proc;
    bool running = false;
    double busy_ns = 0;
  };
  void Push(int core, bool irq, sim::SimDuration dur, std::function<void(sim::SimTime)> done);
  void RunNext(int core);
  void StartIo();
  void Dispatch();
  void Posted(uint32_t io);
  void RaiseIrq();
  void Collect(sim::SimTime start, bool batch);
  void AfterBatch();
  void ArmTimer(sim::SimTime at);
  void FlushIrq();
  void CompleteTask(uint32_t io);
  sim::SimDuration Cost(double atom_scaled_us) const;
  IoRecord& Rec(uint32_t io);

  sim::Simulator* sim_;
  BlockConfig cfg_;
  const HostCosts* host_;
  sim::Rng rng_;
  std::unique_ptr<X25> x25_;
  std::vector<Core> cores_;
  BlockCounters counters_;
  std::deque<IoRecord> open_;  // issued, not completed, by id (id - open_base_)
  uint32_t open_base_ = 0;
  uint32_t next_id_ = 0;
  std::deque<uint32_t> driver_q_;
  std::deque<uint32_t> posted_;
  int inflight_ = 0;            // issued, not yet notified
  bool waiting_ = false;        // fio blocked at iodepth
  bool irq_enabled_ = true, irq_pending_ = false;
  sim::SimTime timer_at_ = 0;  // the deferral timer's last expiry
  IrqRecord open_irq_;         // the interrupt whose batch is running (napi, defer)
  bool irq_open_ = false;
  int batch_left_ = 0;          // completion tasks queued by the current napi/defer batch
  std::function<void(const IoRecord&)> on_complete_, on_issue_;
  std::function<void(const IrqRecord&)> on_irq_;
};

}  // namespace fawnlab::vecio::block

#endif  // FAWNLAB_VECIO_BLOCK_BLOCK_SIM_H_
