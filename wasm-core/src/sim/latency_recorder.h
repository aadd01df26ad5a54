// LatencyRecorder: a JobListener that measures response times (completion - arrival) of the
// jobs completing after a warm-up, so a run reports steady-state behaviour rather than the
// start from an empty system.
//
// The first `warmup` completions are ignored; the next `measure` are recorded into a
// LogHistogram (percentiles, CDF) and BatchMeans (a confidence interval for the mean). When
// the last one completes the recorder asks the simulator to stop, and done() turns true.
// window_start() is the time of the last warm-up completion (when measurement began).
#ifndef FAWNLAB_SIM_LATENCY_RECORDER_H_
#define FAWNLAB_SIM_LATENCY_RECORDER_H_

#include <cstdint>
#include <functional>

#include "sim/histogram.h"
#include "sim/queueing.h"
#include "sim/stats.h"

namespace fawnlab::sim {

class LatencyRecorder : public JobListener {
 public:
  // REQUIRES: warmup >= 1, measure >= BatchMeans::kBatches.
  LatencyRecorder(uint64_t warmup, uint64_t measure);

  // Called once when measurement begins (e.g. to reset a station's occupancy counters).
  void set_on_window_start(std::function<void(SimTime)> fn) { on_window_start_ = std::move(fn); }

  void OnDone(Simulator& sim, const Job& job) override;
  void OnDropped(Simulator& sim, const Job& job) override { ++dropped_; }

  bool done() const { return measured_ == measure_; }
  uint64_t completions() const { return completions_; }
  uint64_t measured() const { return measured_; }
  uint64_t dropped() const { return dropped_; }
  SimTime window_start() const { return window_start_; }
  SimTime window_end() const { return window_end_; }
  // Measured completions per second over the window.
  double Throughput() const;
  // Fraction of the work done, for progress reports.
  double Progress() const;
  const LogHistogram& histogram() const { return hist_; }
  const BatchMeans& batch_means() const { return batch_means_; }

 private:
  uint64_t warmup_, measure_;
  uint64_t completions_ = 0, measured_ = 0, dropped_ = 0;
  SimTime window_start_ = 0, window_end_ = 0;
  LogHistogram hist_;
  BatchMeans batch_means_;
  std::function<void(SimTime)> on_window_start_;
};

}  // namespace fawnlab::sim

#endif  // FAWNLAB_SIM_LATENCY_RECORDER_H_
