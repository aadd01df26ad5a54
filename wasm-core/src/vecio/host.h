// Host: the back-end's cores and the work that queues on them. Two kinds of work:
//   interrupts  (NIC and storage completion handlers) take the next free core ahead of any
//               thread work, in the order raised;
//   thread work (one thread per connection, SEDA-like) runs item by item, in order, on one
//               core at a time; ready threads take free cores round-robin.
// Nothing preempts: an item holds its core for its whole cost. An item's Begin runs when it
// takes a core and returns its Charges (so a NIC handler can price the packets waiting at that
// moment); its End runs when the cost has elapsed. Every charge is counted per CostKind
// (events and core time), which is how tests check each cost is charged once per event.
#ifndef FAWNLAB_VECIO_HOST_H_
#define FAWNLAB_VECIO_HOST_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "sim/simulator.h"
#include "vecio/costs.h"

namespace fawnlab::vecio {

// The cost events one work item charges.
struct Charges {
  std::array<uint32_t, kCostKinds> events{};
  std::array<sim::SimDuration, kCostKinds> ns{};
  sim::SimDuration total = 0;
  // `n` events of `kind`, `each` ns apiece.
  Charges& Add(CostKind kind, uint32_t n, sim::SimDuration each) {
    events[static_cast<size_t>(kind)] += n;
    ns[static_cast<size_t>(kind)] += each * n;
    total += each * n;
    return *this;
  }
};

class Host : public sim::EventHandler {
 public:
  using Begin = std::function<Charges()>;
  using End = std::function<void()>;

  // REQUIRES: cores >= 1, threads >= 1.
  Host(sim::Simulator* sim, int cores, int threads);

  void Interrupt(Begin begin, End end);
  // REQUIRES: 0 <= thread < threads.
  void Run(int thread, Begin begin, End end);
  // Fixed charges.
  void Interrupt(const Charges& c, End end) { Interrupt([c] { return c; }, std::move(end)); }
  void Run(int thread, const Charges& c, End end) { Run(thread, [c] { return c; }, std::move(end)); }

  int cores() const { return static_cast<int>(cores_.size()); }
  sim::SimDuration core_busy_ns(int core) const { return cores_[static_cast<size_t>(core)].busy_ns; }
  const std::array<uint64_t, kCostKinds>& events() const { return events_; }
  const std::array<sim::SimDuration, kCostKinds>& busy_ns() const { return busy_; }
  // Items waiting for a core (interrupts, thread work).
  size_t waiting_interrupts() const { return irqs_.size(); }

  void OnEvent(sim::Simulator& sim, uint64_t tag) override;

 private:
  struct Item {
    int thread = -1;  // -1: an interrupt
    Begin begin;
    End end;
  };
  struct Core {
    bool busy = false;
    sim::SimDuration busy_ns = 0;
    Item item;
  };
  struct Thread {
    std::deque<Item> items;
    bool running = false, ready = false;
  };
  void Dispatch();
  void MakeReady(int t);

  sim::Simulator* sim_;
  std::vector<Core> cores_;
  std::vector<Thread> threads_;
  std::deque<Item> irqs_;
  std::deque<int> ready_;
  std::array<uint64_t, kCostKinds> events_{};
  std::array<sim::SimDuration, kCostKinds> busy_{};
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_HOST_H_
