// SiltCosts: the CPU costs of SILT's own operations on the CONA thesis's host (Intel Core
// i7-3610QM, cona/costs.h), beside cona::HostCosts, which SILT reuses for every operation that
// is the same as CONA's (per-request overhead, the key compare after a read, trie symbol decode
// and bucket header, trie build per key, merge per entry moved, sort compares). Each constant
// here says where it comes from; all are multiplied by Options::cpu_scale, as are the reused
// HostCosts (Scaled()).
#ifndef FAWNLAB_SILT_COSTS_H_
#define FAWNLAB_SILT_COSTS_H_

#include "cona/costs.h"

namespace fawnlab::silt {

struct SiltCosts {
  // The key's two buckets and tag: a few shifts, masks and one multiply on the key's last
  // eight bytes (SILT keys are already hashes). Chosen: ~15 cycles at 3.3 GHz.
  double cuckoo_hash_ns = 5;
  // One bucket of the table read: 4 tags (and offsets) in one cache line, a likely L2/L3 miss
  // for a table of SILT's size (768 KB a LogStore). Chosen: ~70 cycles, as CONA's cell_probe_ns.
  double bucket_probe_ns = 20;
  // One slot's tag compared (a 2-byte load and compare in the line already read). Chosen: ~3 cycles.
  double tag_compare_ns = 1;
  // One cuckoo displacement: a random victim, its other bucket from its tag (no flash read,
  // SILT §3.1), the slot rewritten, the next bucket read (a miss). Chosen: ~80 cycles.
  double displacement_ns = 25;
  // One pread or pwritev system call (SILT reads a candidate entry's header and key with two
  // preads and a match's value with a third, and appends with one pwritev; CONA's mmap does
  // none). Chosen: ~1700 cycles of entry, file lookup and return on
  // Linux 3.x, the copy not included (the device or page cache times that).
  double syscall_ns = 500;
};

const SiltCosts& SiltI7();

// `c` with every field multiplied by `scale` (the host's speed relative to the i7-3610QM).
cona::HostCosts Scaled(const cona::HostCosts& c, double scale);
SiltCosts Scaled(const SiltCosts& c, double scale);

}  // namespace fawnlab::silt

#endif  // FAWNLAB_SILT_COSTS_H_
