#include "vecio/host.h"

#include <cassert>
#include <utility>

namespace fawnlab::vecio {

Host::Host(sim::Simulator* sim, int cores, int threads)
    : sim_(sim), cores_(static_cast<size_t>(cores)), threads_(static_cast<size_t>(threads)) {
  assert(cores >= 1 && threads >= 1);
}

void Host::Interrupt(Begin begin, End end) {
  irqs_.push_back(Item{-1, std::move(begin), std::move(end)});
  Dispatch();
}

void Host::Run(int thread, Begin begin, End end) {
  Thread& t = threads_[static_cast<size_t>(thread)];
  t.items.push_back(Item{thread, std::move(begin), std::move(end)});
  MakeReady(thread);
  Dispatch();
}

void Host::MakeReady(int t) {
  Thread& th = threads_[static_cast<size_t>(t)];
  if (th.running || th.ready || th.items.empty()) return;
  th.ready = true;
  ready_.push_back(t);
}

void Host::Dispatch() {
  for (size_t c = 0; c < cores_.size(); ++c) {
    Core& core = cores_[c];
    if (core.busy) continue;
    if (!irqs_.empty()) {
      core.item = std::move(irqs_.front());
      irqs_.pop_front();
    } else if (!ready_.empty()) {
      const int t = ready_.front();
      ready_.pop_front();
      Thread& th = threads_[static_cast<size_t>(t)];
      th.ready = false;
      th.running = true;
      core.item = std::move(th.items.front());
      th.items.pop_front();
    } else {
      return;
    }
    core.busy = true;
    const Charges ch = core.item.begin ? core.item.begin() : Charges{};
    for (size_t k = 0; k < kCostKinds; ++k) {
      events_[k] += ch.events[k];
      busy_[k] += ch.ns[k];
    }
    core.busy_ns += ch.total;
    sim_->After(ch.total, this, c);
  }
}

void Host::OnEvent(sim::Simulator&, uint64_t tag) {
  Core& core = cores_[static_cast<size_t>(tag)];
  Item item = std::move(core.item);
  core.busy = false;
  if (item.thread >= 0) {
    threads_[static_cast<size_t>(item.thread)].running = false;
    MakeReady(item.thread);
  }
  if (item.end) item.end();
  Dispatch();
}

}  // namespace fawnlab::vecio
