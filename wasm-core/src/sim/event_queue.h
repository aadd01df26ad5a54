// EventQueue: the pending events of one simulation, in a total order.
//
// Events are ordered by (time, seq), where seq is the order of Push calls: two events at the
// same instant run in the order they were scheduled, so a run is a pure function of its
// inputs. The queue is a 4-ary min-heap over a flat array of 32-byte (native) entries;
// Push and Pop are O(log n).
//
// Invariants:
//   1. seq values are unique and increase with every Push.
//   2. Top() is the entry with the least (time, seq).
// There is no cancel: a handler that no longer wants an event ignores it (compare the tag
// with a generation number it keeps).
#ifndef FAWNLAB_SIM_EVENT_QUEUE_H_
#define FAWNLAB_SIM_EVENT_QUEUE_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/time.h"

namespace fawnlab::sim {

class Simulator;

// Receives events. `tag` is whatever the scheduler passed (a request id, a server index).
class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void OnEvent(Simulator& sim, uint64_t tag) = 0;
};

struct Event {
  SimTime time;
  uint64_t seq;
  EventHandler* handler;
  uint64_t tag;
};

class EventQueue {
 public:
  EventQueue() = default;

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // Number of Push calls so far (the next seq to assign).
  uint64_t pushed() const { return next_seq_; }

  void Push(SimTime time, EventHandler* handler, uint64_t tag) {
    heap_.push_back(Event{time, next_seq_++, handler, tag});
    SiftUp(heap_.size() - 1);
  }

  // REQUIRES: !empty().
  const Event& Top() const {
    assert(!heap_.empty());
    return heap_[0];
  }

  // Removes and returns the least event. REQUIRES: !empty().
  Event Pop() {
    assert(!heap_.empty());
    Event top = heap_[0];
    Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) SiftDown(last);
    return top;
  }

  void Clear() { heap_.clear(); }

 private:
  static bool Less(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.seq < b.seq);
  }

  void SiftUp(size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      size_t parent = (i - 1) / 4;
      if (!Less(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  // Places `e` starting from the root hole.
  void SiftDown(const Event& e) {
    const size_t n = heap_.size();
    size_t i = 0;
    for (;;) {
      size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      size_t end = first + 4 < n ? first + 4 : n;
      for (size_t c = first + 1; c < end; ++c) {
        if (Less(heap_[c], heap_[best])) best = c;
      }
      if (!Less(heap_[best], e)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace fawnlab::sim

#endif  // FAWNLAB_SIM_EVENT_QUEUE_H_
