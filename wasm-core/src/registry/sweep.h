// Helpers shared by experiments that sweep a parameter: progress across the sweep's steps,
// and grids of sweep values.
#ifndef FAWNLAB_REGISTRY_SWEEP_H_
#define FAWNLAB_REGISTRY_SWEEP_H_

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "registry/experiments.h"

namespace fawnlab {

// Maps each step's own progress (0..1) onto the whole run's, weighting steps by their cost.
class SweepProgress {
 public:
  SweepProgress(RunContext* ctx, double total_units) : ctx_(ctx), total_(total_units > 0 ? total_units : 1) {}

  // A progress function for the next step, which costs `units`. Call Done() after the step.
  std::function<bool(double)> Step(double units) {
    step_ = units;
    return [this](double f) { return ctx_->Progress((done_ + f * step_) / total_); };
  }
  void Done() {
    done_ += step_;
    step_ = 0;
  }

 private:
  RunContext* ctx_;
  double total_;
  double done_ = 0;
  double step_ = 0;
};

// Rounds to 6 decimal places (so 0.1 + 8 * 0.05 lands exactly on 0.5).
inline double Round6(double v) { return std::floor(v * 1e6 + 0.5) / 1e6; }

// `points` evenly spaced values from lo to hi inclusive, rounded by Round6. REQUIRES: points >= 2.
std::vector<double> Linspace(double lo, double hi, int points);

// Sorted, duplicate-free union of `values` and `extra`.
std::vector<double> UnionSorted(std::vector<double> values, const std::vector<double>& extra);

// 1..min(8, max), then roughly x1.35 steps up to `max` (always included).
std::vector<int> ClientGrid(int max);

// Powers of two up to `max`, plus `max` itself.
std::vector<int> PowersOfTwo(int max);

// "0.9" -> "0_9": a value as it appears in a metric name.
std::string MetricSuffix(double v);

}  // namespace fawnlab

#endif  // FAWNLAB_REGISTRY_SWEEP_H_
