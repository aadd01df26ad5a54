// BlockSession ("vector.block"): the Ch. 6 Linux block stack live — fio on the Atom or the
// Xeon, CFQ or noop, interrupt coalescing none/NAPI/defer, over the X25 (vecio/block/).
//
// Contract (pinned in the COMMON15.md; the web's block view draws it):
//   config: host {atom-d510, xeon}, scheduler {cfq, noop}, coalescing {none, napi, defer},
//     defer_us [10, 1000] = 160, iodepth [1, 64] = 64, block_bytes {"512" .. "16384"} = "512";
//     live: all but host.
//   snapshot: {t_ns, iops, completions_per_s, interrupts_per_s, completions_per_irq,
//     cpu_busy: [per core], device_queue (commands in the drive), ncq_depth: 31,
//     issue_us {median, min} (issue-path CPU per I/O), phases_us {QG, GI, ID, DQ} (wall
//     medians), gap_hist {bin_us, counts} (inter-completion gaps), totals {issued, completed,
//     interrupts}}; rates and recent statistics over the last 50 ms of virtual time.
//   view "timeline" {window_us [100, 20000] = 1000}: every I/O and interrupt overlapping
//     [t_end - window, t_end]: io U32, cpu U8, q/g/i/d/c F64 (ns; -1 not reached), irq_t F64,
//     irq_n U16, irq_cpu U8, t_end_ns number.
// Deterministic: the same config, seed and calls give the same snapshots.
#ifndef FAWNLAB_VECIO_LAB_BLOCK_SESSION_H_
#define FAWNLAB_VECIO_LAB_BLOCK_SESSION_H_

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "registry/sessions.h"
#include "sim/simulator.h"
#include "vecio/block/block_sim.h"

namespace fawnlab::vecio {

class BlockSession : public LabSession {
 public:
  static constexpr sim::SimDuration kRecent = 50 * sim::kMs;   // rates and statistics
  static constexpr sim::SimDuration kKeep = 20 * sim::kMs;     // the timeline's longest window
  static std::vector<ParamSpec> Schema();
  static std::vector<ViewInfo> Views();
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  static StatusOr<std::unique_ptr<BlockSession>> Create(const std::string& config_json, uint64_t seed);

  std::string SnapshotJson() override;
  uint64_t version() override { return sim_.events_processed(); }
  const block::BlockSim& model() const { return *model_; }

 private:
  struct Sample {
    sim::SimTime t;
    uint64_t issued, completed, interrupts, irq_completions;
    std::vector<double> busy;
  };
  BlockSession() = default;
  static block::BlockConfig FromParams(const ParamValues& p);
  sim::Simulator* simulator() override { return &sim_; }
  void Advanced() override;
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;
  StatusOr<ColumnSet> View(const std::string& name, const ParamValues& args) override;
  Sample Now() const;
  void Trim();

  sim::Simulator sim_;
  std::unique_ptr<block::BlockSim> model_;
  std::deque<block::IoRecord> issued_;     // by issue order: D reached (for phases, DQ = next Q - D)
  std::deque<block::IoRecord> completed_;  // by completion order
  std::deque<block::IrqRecord> irqs_;
  std::deque<Sample> samples_;
  uint64_t irq_completions_ = 0;
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_LAB_BLOCK_SESSION_H_
