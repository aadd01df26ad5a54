// The long reliability runs of FAWN-DS (fawnds/reliability.h: the same code as the short
// runs in the test suite), as bench figures: counts, failures and wall time. Native only
// (`fawnlab_bench --suite soak`).
#ifndef FAWNLAB_BENCH_SOAK_BENCH_H_
#define FAWNLAB_BENCH_SOAK_BENCH_H_

#include <cstdint>

#include "bench/kernel_bench.h"

namespace fawnlab::bench {

// Crash points recovered and checked (value), across puts, deletes, syncs, checkpoints,
// splits, merges and compactions; `failures` counts those whose recovery or check failed.
BenchFigure SoakCrashPoints(uint64_t crash_points, uint64_t seed);
// Operations of the randomized node run with maintenance interleaved (value), checked
// against std::unordered_map; `failures` counts mismatched reads and broken invariants.
BenchFigure SoakModel(uint64_t ops, uint64_t seed);

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_SOAK_BENCH_H_
