// Device benchmarks (the emulated devices' own speed, in wall-clock terms), shared by the
// native bench binary and the Node (WASM) build.
#ifndef FAWNLAB_BENCH_DEVICE_BENCH_H_
#define FAWNLAB_BENCH_DEVICE_BENCH_H_

#include <cstdint>

#include "bench/kernel_bench.h"

namespace fawnlab::bench {

// Random 4 KB overwrites of a written 1 GB intel-x25m (page-mapped FTL, greedy GC in steady
// state): host page writes emulated per wall second.
BenchFigure FtlPageRandomWrites(uint64_t writes);
// Random 1 KB writes to the sandisk-cf-4gb (block-mapped FTL: every write is a merge):
// NAND page programs (host and merge copies) emulated per wall second.
BenchFigure FtlBlockMergePrograms(uint64_t writes);
// 32-wide vectors of 512 B reads on nvm-4ch: I/Os per wall second.
BenchFigure NvmVectorReads(uint64_t ios);

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_DEVICE_BENCH_H_
