#include "ycsb/live_stream.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

#include "ycsb/workload.h"

namespace fawnlab::ycsb {

LiveStream::LiveStream(uint64_t seed, std::string load_only_id, std::string workload, double rate)
    : seed_(seed),
      load_only_id_(std::move(load_only_id)),
      workload_(std::move(workload)),
      rate_(rate),
      arrival_rng_(sim::Rng::ForStream(seed, 1)) {}

void LiveStream::Attach(sim::Simulator* sim, sim::EventHandler* handler, uint64_t arrival_tag) {
  sim_ = sim;
  handler_ = handler;
  arrival_tag_ = arrival_tag;
}

void LiveStream::Rebuild(uint64_t records) {
  generator_.reset();
  if (workload_ == load_only_id_) return;
  auto w = FindWorkload(workload_);
  if (!w.ok()) return;  // the sessions' schemas take their choices from CoreWorkloads()
  generator_ = std::make_unique<Generator>(w.value(), records, sim::Rng::ForStream(seed_, 100 + builds_++).NextU64());
}

void LiveStream::ScheduleNext() {
  if (stopped_ || rate_ <= 0) return;
  assert(sim_ != nullptr && "LiveStream: Attach before the first arrival");
  const double gap_ns = arrival_rng_.Exponential(1e9 / rate_);
  const sim::SimDuration gap = std::max<sim::SimDuration>(1, static_cast<sim::SimDuration>(std::llround(gap_ns)));
  sim_->After(gap, handler_, (token_ << 2) | arrival_tag_);
}

void LiveStream::Stop() {
  stopped_ = true;
  ++token_;
}

void LiveStream::Start() {
  stopped_ = false;
  ScheduleNext();
}

void LiveStream::Reconfigure(const ParamValues& patch, const std::string& workload, double rate, uint64_t records) {
  if (patch.Has("workload") && workload != workload_) {
    workload_ = workload;
    Rebuild(records);
  }
  if (patch.Has("rate_ops_per_s") && rate != rate_) {
    rate_ = rate;
    ++token_;  // the pending arrival belongs to the old rate
    ScheduleNext();
  }
}

}  // namespace fawnlab::ycsb
