// EnergyMeter: joules from power states and virtual time.
//
// Each component (a server, a flash chip, a disk, a switch) has a fixed list of power states,
// each with a draw in watts, and is in exactly one state at a time. The meter keeps the
// nanoseconds each component spent in each state, as integers, so energy = sum over states of
// watts x seconds is exact up to the final multiplication and independent of how often the
// state changed. Deterministic; single-threaded.
#ifndef FAWNLAB_SIM_ENERGY_H_
#define FAWNLAB_SIM_ENERGY_H_

#include <string>
#include <vector>

#include "sim/time.h"

namespace fawnlab::sim {

struct PowerState {
  std::string name;  // "idle", "active", "standby", "spin-up"
  double watts;
};

class EnergyMeter {
 public:
  using ComponentId = int;

  // Adds a component that is in `initial_state` from `now` on. REQUIRES: states non-empty,
  // watts >= 0, 0 <= initial_state < states.size().
  ComponentId AddComponent(std::string name, std::vector<PowerState> states, int initial_state, SimTime now);

  // Moves `id` into `state` at `now` (a no-op if it is already there).
  // REQUIRES: now >= the component's last change.
  void SetState(ComponentId id, int state, SimTime now);

  int state(ComponentId id) const { return components_[id].state; }
  double watts(ComponentId id) const { return components_[id].states[components_[id].state].watts; }
  int num_components() const { return static_cast<int>(components_.size()); }
  const std::string& name(ComponentId id) const { return components_[id].name; }

  // Nanoseconds `id` has spent in `state` up to `now`.
  SimDuration TimeInState(ComponentId id, int state, SimTime now) const;
  // Joules consumed by `id` up to `now`.
  double Joules(ComponentId id, SimTime now) const;
  // Joules of all components up to `now`, summed in component order.
  double TotalJoules(SimTime now) const;
  // Average power of all components over [0, now] (or over their lifetimes). 0 when now == 0.
  double AverageWatts(SimTime now) const;

 private:
  struct Component {
    std::string name;
    std::vector<PowerState> states;
    std::vector<SimDuration> ns_in_state;
    int state;
    SimTime since;
    SimTime created;
  };
  std::vector<Component> components_;
};

}  // namespace fawnlab::sim

#endif  // FAWNLAB_SIM_ENERGY_H_
