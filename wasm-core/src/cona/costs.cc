#include "cona/costs.h"

namespace fawnlab::cona {

// Sources (per field of HostCosts). All are ESTIMATES from the i7-3610QM's spec sheet (Intel
// ark: 2.3/3.3 GHz, 6 MB L3, DDR3-1600 dual channel, ~21 GB/s peak) until H2/H3 fit them to
// the thesis's Figs 3.4-3.14; a fitted constant says "fitted to <figure>" here.
//   op_base_ns 150: ~500 cycles of call/dispatch per request at 3.3 GHz (estimate).
//   key_compare_ns 6: a 20-byte memcmp plus a branch miss, ~20 cycles (estimate).
//   insert_move_ns_per_byte 0.1: memmove within L2 at ~10 GB/s (estimate).
//   trie_symbol_ns 4: ~13 cycles per table-driven Huffman symbol (estimate; SILT reports
//     ~1-2 µs per lookup over ~100-300 symbols at block 64).
//   cell_probe_ns 20: the trie bucket's header, ~1 cache miss (estimate).
//   fragment_compare_ns 2: a 2-byte load and compare, ~6 cycles (estimate).
//   entry_compare_ns 10: compare after the read (estimate).
//   induce_copy_ns_per_byte 0.2: memcpy into the mmapped file at ~5 GB/s, page faults
//     included (estimate; §3.2.1 says induce is bound by the memory subsystem).
//   build_ns_per_key 60: trie encode + fragment copy per key (estimate).
//   merge_ns_per_entry 40: two-way merge step and a 224-byte copy (estimate).
const HostCosts& I7_3610QM() {
  static const HostCosts kCosts{};
  return kCosts;
}

}  // namespace fawnlab::cona
