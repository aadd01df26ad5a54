#include "sim/histogram.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace fawnlab::sim {
namespace {

int Log2Floor(uint64_t v) {
  assert(v != 0);
  return 63 - __builtin_clzll(v);
}

}  // namespace

LogHistogram::LogHistogram() : counts_(kNumBuckets, 0) {}

int LogHistogram::BucketOf(uint64_t value) {
  if (value < kSubBuckets) return static_cast<int>(value);
  int e = Log2Floor(value);  // >= 7
  int shift = e - kSubBucketBits;
  uint64_t sub = (value >> shift) - kSubBuckets;  // 0..127
  return static_cast<int>(kSubBuckets + static_cast<uint64_t>(shift) * kSubBuckets + sub);
}

uint64_t LogHistogram::BucketLow(int bucket) {
  assert(bucket >= 0 && bucket < kNumBuckets);
  uint64_t b = static_cast<uint64_t>(bucket);
  if (b < kSubBuckets) return b;
  uint64_t shift = (b - kSubBuckets) / kSubBuckets;
  uint64_t sub = (b - kSubBuckets) % kSubBuckets;
  return (kSubBuckets + sub) << shift;
}

uint64_t LogHistogram::BucketHigh(int bucket) {
  assert(bucket >= 0 && bucket < kNumBuckets);
  uint64_t b = static_cast<uint64_t>(bucket);
  if (b < kSubBuckets) return b + 1;
  uint64_t shift = (b - kSubBuckets) / kSubBuckets;
  uint64_t low = BucketLow(bucket);
  uint64_t width = uint64_t{1} << shift;
  return low > UINT64_MAX - width ? UINT64_MAX : low + width;
}

void LogHistogram::RecordN(uint64_t value, uint64_t count) {
  if (count == 0) return;
  counts_[BucketOf(value)] += count;
  count_ += count;
  sum_ += static_cast<double>(value) * static_cast<double>(count);
  if (value < min_) min_ = value;
  if (value > max_) max_ = value;
}

void LogHistogram::Merge(const LogHistogram& other) {
  for (int i = 0; i < kNumBuckets; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  if (other.count_) {
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
  }
}

void LogHistogram::Clear() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = 0;
  sum_ = 0;
  min_ = UINT64_MAX;
  max_ = 0;
}

double LogHistogram::Quantile(double q) const {
  if (count_ == 0) return 0.0;
  q = std::min(1.0, std::max(0.0, q));
  uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  if (rank < 1) rank = 1;
  uint64_t seen = 0;
  for (int b = 0; b < kNumBuckets; ++b) {
    seen += counts_[b];
    if (seen >= rank) {
      uint64_t lo = BucketLow(b);
      uint64_t hi = BucketHigh(b);
      double mid = hi - lo <= 1 ? static_cast<double>(lo)
                                : static_cast<double>(lo) + static_cast<double>(hi - lo) / 2.0;
      mid = std::max(mid, static_cast<double>(min_));
      mid = std::min(mid, static_cast<double>(max_));
      return mid;
    }
  }
  return static_cast<double>(max_);
}

std::vector<std::pair<double, double>> LogHistogram::Cdf(int max_points) const {
  std::vector<std::pair<double, double>> all;
  if (count_ == 0 || max_points <= 0) return all;
  uint64_t seen = 0;
  for (int b = 0; b < kNumBuckets; ++b) {
    if (counts_[b] == 0) continue;
    seen += counts_[b];
    double edge = b < static_cast<int>(kSubBuckets) ? static_cast<double>(BucketLow(b))
                                                      : static_cast<double>(BucketHigh(b));
    edge = std::min(edge, static_cast<double>(max_));
    all.emplace_back(edge, static_cast<double>(seen) / static_cast<double>(count_));
  }
  if (static_cast<int>(all.size()) <= max_points) return all;
  std::vector<std::pair<double, double>> thin;
  thin.reserve(static_cast<size_t>(max_points));
  const size_t n = all.size();
  for (int i = 0; i < max_points - 1; ++i) {
    size_t idx = static_cast<size_t>(i) * (n - 1) / static_cast<size_t>(max_points - 1);
    thin.push_back(all[idx]);
  }
  thin.push_back(all.back());
  return thin;
}

}  // namespace fawnlab::sim
