#include "lsm/costs.h"

namespace fawnlab::lsm {

// Sources. No paper measures these on the i7-3610QM (2.3/3.3 GHz, 6 MB L3, DDR3-1600); all are
// CHOSEN from the hardware's figures, like cona/costs.cc's estimates:
//   skiplist_level_ns 45: a 4 MB memtable (~17K nodes) outgrows L2; each level is about one
//     dependent load partly missing to L3 (~35 cycles at 3.3 GHz, ~10 ns) or DRAM (~60-80 ns),
//     plus ~1.3 compares of 28-byte internal keys through a virtual comparator (~12 ns each).
//     With ~8 levels at 17K nodes: ~0.4 us per insert, the order of LevelDB's own fillrandom
//     figures for its memtable alone (its README: ~2 us per random write, log included).
//   bloom_hash_ns 12: LevelDB's Hash over 20 bytes: five 4-byte rounds of multiply, shift, xor
//     (~40 cycles).
//   bloom_probe_ns 5: one bit test per probe, one cache line of a per-block filter (~15 cycles).
//   block_search_step_ns 15: one restart point: a 4-byte load, three varint decodes and a
//     memcmp of up to 28 bytes (~50 cycles).
//   block_decode_ns 8: three varints and a shared-prefix copy per entry (~25 cycles).
//   block_add_ns 25: prefix compare with the previous key, three varint encodes, the filter's
//     key append (~80 cycles).
//   crc_ns_per_byte 0.1: CRC32C with SSE4.2 (the i7's crc32 instruction, LevelDB's
//     3-way interleaved loop: ~10 GB/s).
const LsmCosts& LsmI7_3610QM() {
  static const LsmCosts kCosts{};
  return kCosts;
}

}  // namespace fawnlab::lsm
