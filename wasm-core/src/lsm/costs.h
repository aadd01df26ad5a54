// LsmCosts: the CPU costs of the LSM's own primitives on the CONA thesis's host (the Intel
// Core i7-3610QM of cona/costs.h). Operations that are the same as CONA's (a request's base
// cost, a key compare, memmove per byte, merge per entry moved) come from cona::HostCosts and
// are not repeated here. Every cost is multiplied by the store's cpu_scale (1.0 = the i7).
// Each constant's derivation is beside it in costs.cc ("chosen: ..." where no paper gives it).
#ifndef FAWNLAB_LSM_COSTS_H_
#define FAWNLAB_LSM_COSTS_H_

#include "cona/costs.h"

namespace fawnlab::lsm {

struct LsmCosts {
  // One level of LevelDB's skiplist visited by an insert or a search (FindGreaterOrEqual:
  // about one pointer chase and one or two internal-key compares per level).
  double skiplist_level_ns = 45;
  // Hashing a key for the Bloom filter (LevelDB's murmur-like Hash over the user key).
  double bloom_hash_ns = 12;
  // One of the k probes of a Bloom filter (a bit test; the filter line is rarely cached).
  double bloom_probe_ns = 5;
  // One step of a binary search in a block's restart array or the index block (decode the
  // restart offset and the key's varints, compare).
  double block_search_step_ns = 15;
  // Decoding one entry of a block (varints, the key's shared prefix) in a scan, a compaction's
  // read or the linear part of a block search.
  double block_decode_ns = 8;
  // Adding one entry to a table being built: shared-prefix compute, varints, the filter's
  // key hash (the copy is charged per byte with HostCosts::insert_move_ns_per_byte).
  double block_add_ns = 25;
  // CRC32C per byte (LevelDB checksums every log record and every block it writes).
  double crc_ns_per_byte = 0.1;
};

const LsmCosts& LsmI7_3610QM();

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_COSTS_H_
