// HostCosts: the CPU costs of the CONA store's work on the thesis's host, an Intel Core
// i7-3610QM (4 cores, 2.3 GHz, 3.3 GHz turbo, 6 MB L3, DDR3-1600; thesis §3.2 "Implementation").
// Every constant is in one place (here) with its source: a spec-sheet figure, an estimate from
// it, or "fitted to <thesis number>" once H2/H3 calibrate against Figs 3.4-3.14. Costs are
// charged by the store on a FIFO core (cona/cpu.h): the foreground client thread's core for
// puts, deletes, gets, scans and induces; the merge actor's own core for merges.
#ifndef FAWNLAB_CONA_COSTS_H_
#define FAWNLAB_CONA_COSTS_H_

#include <cstdint>

#include "sim/time.h"

namespace fawnlab::cona {

struct HostCosts {
  // Per foreground request: call overhead, locking, the client thread's dispatch.
  double op_base_ns = 150;
  // One key comparison in a binary search of a buffer (20-byte memcmp, L1/L2 resident).
  double key_compare_ns = 6;
  // The sorted-array insert's memmove, per byte moved ("every insert incurs a sort of the
  // buffer", §3.2.1): (entries after the insertion point) × entry bytes.
  double insert_move_ns_per_byte = 0.1;
  // One Huffman symbol decoded by a trie lookup (table-driven decode of a few bits).
  double trie_symbol_ns = 4;
  // Per cell consulted: locating the trie's bucket (its header, likely a cache miss).
  double cell_probe_ns = 20;
  // The fragment compare at the trie's rank (a 2-byte load from the fragment array).
  double fragment_compare_ns = 2;
  // Comparing a read entry's key with the lookup key (after the flash read).
  double entry_compare_ns = 10;
  // Induce: the memcpy of the frozen buffer into the mmapped file, per byte (§3.2.1: bounded
  // by the memory subsystem's throughput).
  double induce_copy_ns_per_byte = 0.2;
  // Building a cell's trie and fragment array, per key (induce and merge).
  double build_ns_per_key = 60;
  // The merge actor's CPU per entry moved (compare, copy of one entry, fragment).
  double merge_ns_per_entry = 40;

  sim::SimDuration ns(double x) const { return static_cast<sim::SimDuration>(x + 0.5); }
};

// The i7-3610QM's costs (see each field's comment for its source).
const HostCosts& I7_3610QM();

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_COSTS_H_
