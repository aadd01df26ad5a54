#include "sim/latency_recorder.h"

#include <cassert>

namespace fawnlab::sim {

LatencyRecorder::LatencyRecorder(uint64_t warmup, uint64_t measure)
    : warmup_(warmup), measure_(measure), batch_means_(measure) {
  assert(warmup >= 1);
}

void LatencyRecorder::OnDone(Simulator& sim, const Job& job) {
  ++completions_;
  if (completions_ <= warmup_) {
    if (completions_ == warmup_) {
      window_start_ = sim.now();
      if (on_window_start_) on_window_start_(sim.now());
    }
    return;
  }
  if (measured_ == measure_) return;
  SimDuration latency = sim.now() - job.arrival;
  assert(latency >= 0);
  hist_.Record(static_cast<uint64_t>(latency));
  batch_means_.Add(static_cast<double>(latency));
  ++measured_;
  if (measured_ == measure_) {
    window_end_ = sim.now();
    sim.RequestStop();
  }
}

double LatencyRecorder::Throughput() const {
  SimDuration span = window_end_ - window_start_;
  return span > 0 ? static_cast<double>(measured_) / NsToSec(span) : 0.0;
}

double LatencyRecorder::Progress() const {
  return static_cast<double>(completions_) / static_cast<double>(warmup_ + measure_);
}

}  // namespace fawnlab::sim
