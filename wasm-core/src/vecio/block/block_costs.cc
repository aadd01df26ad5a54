// Host profiles for the Ch. 6 block layer: the Atom D510 costs fitted to Figs 6.2/6.4/6.6,
// the "Xeon" (Core i7 2.8 GHz) costs the Atom's scaled by the measured issue-path ratio 6.7/40
// (Fig 6.4: identical phase shares on both, so one factor). Fits: docs/vector/block.md.
#include "vecio/block/block_costs.h"

namespace fawnlab::vecio::block {
namespace {

HostCosts Atom() {
  HostCosts h;
  h.id = "atom-d510";
  h.label = "Atom D510 1.6 GHz";
  h.source = "vector I/O thesis §6.2-6.3 (Figs 6.2, 6.4, 6.6)";
  h.cores = 2;
  // Fig 6.4: median Q->Q 40 µs, DQ ~60%, ID ~30% (min ID 10.4 µs), QG+GI the rest.
  h.phase_us[0] = 1.6;
  h.phase_us[1] = 2.4;
  h.phase_us[2] = 12.0;
  h.phase_us[3] = 24.0;
  h.id_noop_us = 4.0;  // Fig 6.7: ID drops by 8 µs with noop
  // Fig 6.6: completions inside a deferred batch 6-8 µs apart -> soft+block+notify = 6.5 µs;
  // hard IRQ fitted so stock CFQ, one interrupt per completion, gives 19K IOPS (Fig 6.2).
  h.irq_us[0] = 6.1;
  h.irq_us[1] = 2.5;
  h.irq_us[2] = 2.0;
  h.irq_us[3] = 2.0;
  h.irq_us[4] = 1.5;  // a NAPI poll round that finds nothing more (assumed; thesis: polling costs the Atom)
  return h;
}

HostCosts Scaled(const HostCosts& a, double f) {
  HostCosts h = a;
  h.id = "xeon";
  h.label = "Core i7 2.8 GHz (\"Xeon\")";
  h.source = "vector I/O thesis Fig 6.4: whole issue path 6.7 µs vs the Atom's 40 µs, same phase shares";
  h.cores = 4;
  h.vs_atom = f;
  for (double& p : h.phase_us) p *= f;
  h.id_noop_us *= f;
  for (double& c : h.irq_us) c *= f;
  return h;
}

}  // namespace

const std::vector<HostCosts>& HostProfiles() {
  static const std::vector<HostCosts> all = {Atom(), Scaled(Atom(), 6.7 / 40.0)};
  return all;
}

const HostCosts* FindHost(const std::string& id) {
  for (const auto& h : HostProfiles())
    if (h.id == id) return &h;
  return nullptr;
}

const char* PhaseName(Phase p) {
  static const char* names[] = {"QG", "GI", "ID", "DQ"};
  return names[static_cast<int>(p)];
}

}  // namespace fawnlab::vecio::block
