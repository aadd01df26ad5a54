#include "ycsb/generator.h"

namespace fawnlab::ycsb {

Generator::Generator(const Workload& w, uint64_t record_count, uint64_t seed, uint64_t operation_count)
    : w_(w),
      loaded_(record_count),
      records_(record_count),
      op_rng_(sim::Rng::ForStream(seed, 1)),
      key_rng_(sim::Rng::ForStream(seed, 2)),
      scan_rng_(sim::Rng::ForStream(seed, 3)) {
  const uint64_t ops = operation_count ? operation_count : record_count;
  if (w_.dist == Distribution::kZipfian) {
    const uint64_t expected_new = static_cast<uint64_t>(static_cast<double>(ops) * w_.insert * 2.0);
    zipf_ = std::make_unique<ScrambledZipfian>(0, record_count + expected_new);
  } else if (w_.dist == Distribution::kLatest) {
    latest_ = std::make_unique<SkewedLatest>(record_count > 0 ? record_count - 1 : 0);
  }
}

OpType Generator::NextType() {
  const double p[5] = {w_.read, w_.update, w_.insert, w_.scan, w_.rmw};
  const OpType t[5] = {OpType::kRead, OpType::kUpdate, OpType::kInsert, OpType::kScan, OpType::kReadModifyWrite};
  double sum = 0;
  for (double x : p) sum += x;
  double val = op_rng_.UniformDouble();
  int last = 0;
  for (int i = 0; i < 5; ++i) {
    if (p[i] <= 0) continue;
    last = i;
    if (val < p[i] / sum) return t[i];
    val -= p[i] / sum;
  }
  return t[last];  // rounding left val just above the last share
}

uint64_t Generator::NextRecord() {
  const uint64_t newest = records_ - 1;
  switch (w_.dist) {
    case Distribution::kUniform:
      return key_rng_.UniformU64(loaded_ > 0 ? loaded_ : records_);
    case Distribution::kLatest:
      return latest_->Next(key_rng_, newest);
    case Distribution::kZipfian:
      break;
  }
  for (;;) {
    const uint64_t r = zipf_->Next(key_rng_);
    if (r <= newest) return r;
  }
}

Op Generator::Next() {
  OpType type = records_ == 0 ? OpType::kInsert : NextType();
  Op op{type, 0, 0};
  if (type == OpType::kInsert) {
    op.record = records_++;
    return op;
  }
  op.record = NextRecord();
  if (type == OpType::kScan) op.scan_length = static_cast<int>(scan_rng_.UniformInt(1, w_.max_scan));
  return op;
}

}  // namespace fawnlab::ycsb
