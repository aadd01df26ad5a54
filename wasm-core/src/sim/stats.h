// Streaming statistics that need no stored samples.
//
// RunningStats: count, mean, variance (Welford), min, max of a sequence of doubles.
// TimeAverage:  the time-average of a piecewise-constant quantity (queue length, busy
//               servers), the integral divided by the elapsed virtual time. Used for Little's
//               law checks, where L is measured independently of per-request response times.
// BatchMeans:   a 95% confidence half-width for the mean of a correlated sequence (response
//               times in a queue), from the means of kBatches equal consecutive batches.
#ifndef FAWNLAB_SIM_STATS_H_
#define FAWNLAB_SIM_STATS_H_

#include <cstdint>
#include <vector>

#include "sim/time.h"

namespace fawnlab::sim {

class RunningStats {
 public:
  void Add(double x);
  uint64_t count() const { return n_; }
  double mean() const { return mean_; }
  // Sample variance (n - 1 denominator); 0 with fewer than two samples.
  double variance() const { return n_ > 1 ? m2_ / static_cast<double>(n_ - 1) : 0.0; }
  double min() const { return n_ ? min_ : 0.0; }
  double max() const { return n_ ? max_ : 0.0; }

 private:
  uint64_t n_ = 0;
  double mean_ = 0, m2_ = 0, min_ = 0, max_ = 0;
};

class TimeAverage {
 public:
  // Starts (or restarts) measuring at `now` with the quantity at `value`.
  void Reset(SimTime now, double value);
  // The quantity changes to `value` at `now`. REQUIRES: now >= the last update.
  void Set(SimTime now, double value);
  // The time-average over [start, now]; the current value if no time has passed.
  double Average(SimTime now) const;
  double value() const { return value_; }

 private:
  SimTime start_ = 0, last_ = 0;
  double value_ = 0;
  double area_ = 0;  // value-ns
};

class BatchMeans {
 public:
  static constexpr int kBatches = 20;
  // `expected` is the number of samples that will be added; batches are expected/kBatches
  // long (the remainder goes into the last batch). REQUIRES: expected >= kBatches.
  explicit BatchMeans(uint64_t expected);
  void Add(double x);
  double mean() const;
  // 95% confidence half-width of the mean (Student t with kBatches - 1 dof).
  double HalfWidth95() const;

 private:
  uint64_t batch_len_;
  uint64_t in_batch_ = 0;
  double batch_sum_ = 0;
  std::vector<double> means_;
  double total_ = 0;
  uint64_t n_ = 0;
};

}  // namespace fawnlab::sim

#endif  // FAWNLAB_SIM_STATS_H_
