#include "sim/simulator.h"

#include <utility>

namespace fawnlab::sim {

uint64_t Simulator::ClosureTable::Add(std::function<void()> fn) {
  if (!free_.empty()) {
    uint64_t slot = free_.back();
    free_.pop_back();
    slots_[slot] = std::move(fn);
    return slot;
  }
  slots_.push_back(std::move(fn));
  return slots_.size() - 1;
}

void Simulator::ClosureTable::OnEvent(Simulator& sim, uint64_t tag) {
  // Move the closure out first: it may schedule more closures, which can grow slots_.
  std::function<void()> fn = std::move(slots_[tag]);
  slots_[tag] = nullptr;
  free_.push_back(tag);
  fn();
}

void Simulator::Schedule(SimTime time, std::function<void()> fn) {
  At(time, &closures_, closures_.Add(std::move(fn)));
}

bool Simulator::Step() {
  if (queue_.empty()) return false;
  Dispatch();
  return true;
}

uint64_t Simulator::RunUntil(SimTime until, uint64_t max_events) {
  assert(until >= now_);
  stop_requested_ = false;
  uint64_t n = 0;
  while (n < max_events && !stop_requested_ && !queue_.empty() && queue_.Top().time <= until) {
    Dispatch();
    ++n;
  }
  if (!stop_requested_ && (queue_.empty() || queue_.Top().time > until)) now_ = until;
  return n;
}

uint64_t Simulator::Run(uint64_t max_events) {
  stop_requested_ = false;
  uint64_t n = 0;
  while (n < max_events && !stop_requested_ && !queue_.empty()) {
    Dispatch();
    ++n;
  }
  return n;
}

}  // namespace fawnlab::sim
