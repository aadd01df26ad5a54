// FAWN-DS on a real file against LevelDB on the same machine (issue 4, part 6): `n` random
// 1 KB puts, then `n` random gets, each system in a fresh temporary directory that is removed
// afterwards. Native only (`fawnlab_bench --suite kv`). Figures per system: puts/s, gets/s,
// DRAM bytes per key (FAWN-DS: its hash index; LevelDB: its approximate-memory-usage
// property, i.e. memtables and block cache) and the process's anonymous-RSS growth per key
// (both). LevelDB is Debian's libleveldb-dev, linked only when CMake found it; without it the
// LevelDB figure is a row saying how to install it.
#ifndef FAWNLAB_BENCH_KV_BENCH_H_
#define FAWNLAB_BENCH_KV_BENCH_H_

#include <cstdint>
#include <vector>

#include "bench/kernel_bench.h"

namespace fawnlab::bench {

std::vector<BenchFigure> KvFawnds(uint64_t n);
std::vector<BenchFigure> KvLevelDb(uint64_t n);

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_KV_BENCH_H_
