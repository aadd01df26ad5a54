// Simulator: virtual time and the one event queue of a run.
//
// now() only moves forward, to the time of the event being dispatched (or to the target of
// RunUntil). Handlers schedule further events with At/After; an event may not be scheduled in
// the past. Every run is bounded: Run and RunUntil take an event budget, so a model that
// schedules forever cannot hang the page or the CLI.
//
// Two ways to receive events: an EventHandler (no allocation; the hot path), or a closure
// via Schedule() (convenient for sessions and tests; one std::function per pending event).
// Single-threaded; deterministic given the order of calls.
#ifndef FAWNLAB_SIM_SIMULATOR_H_
#define FAWNLAB_SIM_SIMULATOR_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/event_queue.h"
#include "sim/time.h"

namespace fawnlab::sim {

class Simulator {
 public:
  Simulator() = default;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  SimTime now() const { return now_; }
  size_t pending() const { return queue_.size(); }
  uint64_t events_processed() const { return processed_; }
  // Time of the next event, or kTimeMax when none is pending.
  SimTime next_event_time() const { return queue_.empty() ? kTimeMax : queue_.Top().time; }

  // Schedules handler->OnEvent(*this, tag) at `time`. REQUIRES: time >= now().
  void At(SimTime time, EventHandler* handler, uint64_t tag = 0) {
    assert(time >= now_ && "cannot schedule an event in the past");
    queue_.Push(time, handler, tag);
  }
  // Schedules after `delay` ns. REQUIRES: delay >= 0.
  void After(SimDuration delay, EventHandler* handler, uint64_t tag = 0) {
    assert(delay >= 0);
    queue_.Push(now_ + delay, handler, tag);
  }
  // Schedules a closure at `time`. REQUIRES: time >= now().
  void Schedule(SimTime time, std::function<void()> fn);

  // Dispatches the next event. Returns false (and does nothing) when none is pending.
  bool Step();
  // Dispatches events with time <= `until` (at most `max_events` of them). When no event at
  // or before `until` is left and no stop was requested, sets now() = until.
  // Returns the number of events dispatched.
  uint64_t RunUntil(SimTime until, uint64_t max_events = UINT64_MAX);
  // Dispatches events until none is pending, a stop is requested, or `max_events` ran.
  uint64_t Run(uint64_t max_events);
  // Makes the running Run/RunUntil return after the current event.
  void RequestStop() { stop_requested_ = true; }

 private:
  // Owns the closures scheduled through Schedule(); the tag is the slot index.
  class ClosureTable : public EventHandler {
   public:
    uint64_t Add(std::function<void()> fn);
    void OnEvent(Simulator& sim, uint64_t tag) override;

   private:
    std::vector<std::function<void()>> slots_;
    std::vector<uint64_t> free_;
  };

  void Dispatch() {
    Event e = queue_.Pop();
    now_ = e.time;
    ++processed_;
    e.handler->OnEvent(*this, e.tag);
  }

  SimTime now_ = 0;
  uint64_t processed_ = 0;
  bool stop_requested_ = false;
  EventQueue queue_;
  ClosureTable closures_;
};

}  // namespace fawnlab::sim

#endif  // FAWNLAB_SIM_SIMULATOR_H_
