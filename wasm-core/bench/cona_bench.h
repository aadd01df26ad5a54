// CONA benchmarks (wall-clock speed of the emulated store on the thesis's machine: the M500
// flash device, the page cache and the store, cona/machine.h), shared by the native bench
// binary and the Node (WASM) build.
#ifndef FAWNLAB_BENCH_CONA_BENCH_H_
#define FAWNLAB_BENCH_CONA_BENCH_H_

#include <cstdint>

#include "bench/kernel_bench.h"

namespace fawnlab::bench {

// Puts of YCSB records (20 B keys, 200 B values) into an empty store with the default
// configuration (B = 64 KB, the thesis's trie mix, 16-bit fragments, the merge thread):
// simulated inserts per wall second, merges and flips included.
BenchFigure ConaInserts(uint64_t puts);
// Uniform random gets of loaded keys (100,000 records, or fewer at small scale): simulated
// lookups per wall second.
BenchFigure ConaLookups(uint64_t gets);
// DRAM bytes per key of the loaded store (tries, fragments and the two buffers), real bytes.
BenchFigure ConaDramBytesPerKey();

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_CONA_BENCH_H_
