#include "sim/energy.h"

#include <cassert>
#include <utility>

namespace fawnlab::sim {

EnergyMeter::ComponentId EnergyMeter::AddComponent(std::string name, std::vector<PowerState> states,
                                                   int initial_state, SimTime now) {
  assert(!states.empty());
  assert(initial_state >= 0 && initial_state < static_cast<int>(states.size()));
  for (const PowerState& s : states) assert(s.watts >= 0);
  Component c;
  c.name = std::move(name);
  c.ns_in_state.assign(states.size(), 0);
  c.states = std::move(states);
  c.state = initial_state;
  c.since = now;
  c.created = now;
  components_.push_back(std::move(c));
  return static_cast<ComponentId>(components_.size() - 1);
}

void EnergyMeter::SetState(ComponentId id, int state, SimTime now) {
  Component& c = components_[id];
  assert(state >= 0 && state < static_cast<int>(c.states.size()));
  assert(now >= c.since);
  if (state == c.state) return;
  c.ns_in_state[c.state] += now - c.since;
  c.state = state;
  c.since = now;
}

SimDuration EnergyMeter::TimeInState(ComponentId id, int state, SimTime now) const {
  const Component& c = components_[id];
  assert(now >= c.since);
  SimDuration t = c.ns_in_state[state];
  if (state == c.state) t += now - c.since;
  return t;
}

double EnergyMeter::Joules(ComponentId id, SimTime now) const {
  const Component& c = components_[id];
  double j = 0;
  for (size_t s = 0; s < c.states.size(); ++s) {
    j += c.states[s].watts * NsToSec(TimeInState(id, static_cast<int>(s), now));
  }
  return j;
}

double EnergyMeter::TotalJoules(SimTime now) const {
  double j = 0;
  for (int i = 0; i < num_components(); ++i) j += Joules(i, now);
  return j;
}

double EnergyMeter::AverageWatts(SimTime now) const {
  double w = 0;
  for (int i = 0; i < num_components(); ++i) {
    SimDuration life = now - components_[i].created;
    if (life > 0) w += Joules(i, now) / NsToSec(life);
  }
  return w;
}

}  // namespace fawnlab::sim
