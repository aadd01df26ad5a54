#include "sim/stats.h"

#include <cassert>
#include <cmath>

namespace fawnlab::sim {

void RunningStats::Add(double x) {
  ++n_;
  if (n_ == 1) {
    min_ = max_ = x;
  } else {
    if (x < min_) min_ = x;
    if (x > max_) max_ = x;
  }
  double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
}

void TimeAverage::Reset(SimTime now, double value) {
  start_ = last_ = now;
  value_ = value;
  area_ = 0;
}

void TimeAverage::Set(SimTime now, double value) {
  assert(now >= last_);
  area_ += value_ * static_cast<double>(now - last_);
  last_ = now;
  value_ = value;
}

double TimeAverage::Average(SimTime now) const {
  assert(now >= last_);
  double span = static_cast<double>(now - start_);
  if (span <= 0) return value_;
  return (area_ + value_ * static_cast<double>(now - last_)) / span;
}

BatchMeans::BatchMeans(uint64_t expected) : batch_len_(expected / kBatches) {
  assert(expected >= static_cast<uint64_t>(kBatches));
  means_.reserve(kBatches);
}

void BatchMeans::Add(double x) {
  ++n_;
  total_ += x;
  batch_sum_ += x;
  ++in_batch_;
  // The last batch absorbs the remainder.
  if (in_batch_ == batch_len_ && static_cast<int>(means_.size()) < kBatches - 1) {
    means_.push_back(batch_sum_ / static_cast<double>(in_batch_));
    batch_sum_ = 0;
    in_batch_ = 0;
  }
}

double BatchMeans::mean() const { return n_ ? total_ / static_cast<double>(n_) : 0.0; }

double BatchMeans::HalfWidth95() const {
  std::vector<double> m = means_;
  if (in_batch_ > 0) m.push_back(batch_sum_ / static_cast<double>(in_batch_));
  const size_t k = m.size();
  if (k < 2) return 0.0;
  double avg = 0;
  for (double v : m) avg += v;
  avg /= static_cast<double>(k);
  double ss = 0;
  for (double v : m) ss += (v - avg) * (v - avg);
  double sd = std::sqrt(ss / static_cast<double>(k - 1));
  // Student t quantiles (0.975) for 1..19 degrees of freedom.
  static const double kT975[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093};
  double t = kT975[k - 2 < 19 ? k - 2 : 18];
  return t * sd / std::sqrt(static_cast<double>(k));
}

}  // namespace fawnlab::sim
