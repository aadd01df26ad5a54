// FAWN-DS benchmarks (wall-clock speed of the emulated store), shared by the native bench
// binary and the Node (WASM) build.
#ifndef FAWNLAB_BENCH_FAWNDS_BENCH_H_
#define FAWNLAB_BENCH_FAWNDS_BENCH_H_

#include <cstdint>

#include "bench/kernel_bench.h"

namespace fawnlab::bench {

// Puts of 256 B values into one store on nvm-4ch: simulated inserts per wall second.
BenchFigure FawndsInserts(uint64_t puts);
// Random gets of existing keys (after the inserts): simulated lookups per wall second.
BenchFigure FawndsLookups(uint64_t gets);
// DRAM bytes the hash index takes per bucket (the paper's 6).
BenchFigure FawndsIndexBytesPerEntry();

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_FAWNDS_BENCH_H_
