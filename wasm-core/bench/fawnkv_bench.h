// FAWN-KV benchmarks (wall-clock speed of the simulated cluster and of the checker), shared
// by the native bench binary and the Node (WASM) build.
#ifndef FAWNLAB_BENCH_FAWNKV_BENCH_H_
#define FAWNLAB_BENCH_FAWNKV_BENCH_H_

#include <cstdint>

#include "bench/kernel_bench.h"

namespace fawnlab::bench {

// A 21-node cluster (R = 3) answering Poisson gets and puts (1:9) at 20,000 requests/s:
// simulated client requests per wall second.
BenchFigure FawnkvClusterRequests(uint64_t requests);
// The linearizability checker over a recorded history: operations checked per wall second.
BenchFigure FawnkvCheckerOps(uint64_t ops);

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_FAWNKV_BENCH_H_
