// The Ch. 6 block layer's per-event CPU costs (vector I/O thesis Ch. 6, Linux 2.6.36, fio
// libaio iodepth 64, direct 512 B random reads), per host profile and I/O scheduler.
//
// Contract: every number here is a cost per event (per blktrace phase of one I/O, per
// interrupt, per completion), never a throughput. Throughput emerges in BlockSim from these
// costs queueing on the issuing core and the X25 model. Each constant's fit and source is in
// docs/vector/block.md.
#ifndef FAWNLAB_VECIO_BLOCK_BLOCK_COSTS_H_
#define FAWNLAB_VECIO_BLOCK_BLOCK_COSTS_H_

#include <string>
#include <vector>

namespace fawnlab::vecio::block {

// Issue phases (blktrace): Q->G, G->I, I->D (the I/O scheduler), D->next Q (driver and fio's loop).
enum class Phase : int { kQG = 0, kGI, kID, kDQ, kCount };
// Interrupt-path events: hard IRQ (per interrupt, also per deferral timer), softIRQ, block-layer
// completion and application notify (each once per completed I/O), and a NAPI poll round.
enum class IrqCost : int { kHard = 0, kSoft, kBlock, kNotify, kPoll, kCount };

struct HostCosts {
  std::string id, label, source;
  int cores = 2;
  double phase_us[4];      // CFQ scheduler; noop replaces ID by id_noop_us
  double id_noop_us = 0;
  double irq_us[5];        // by IrqCost
  double jitter = 0.175;   // each I/O's path cost is scaled by U[1 - jitter, 1 + jitter]
  double vs_atom = 1;      // this host's costs over the Atom's (scales Atom-µs knobs such as tool_extra_us)
};

const std::vector<HostCosts>& HostProfiles();     // "atom-d510" (default), "xeon"
const HostCosts* FindHost(const std::string& id);  // nullptr if unknown
const char* PhaseName(Phase p);                    // "QG","GI","ID","DQ"

}  // namespace fawnlab::vecio::block

#endif  // FAWNLAB_VECIO_BLOCK_BLOCK_COSTS_H_
