// Benchmarks exposed to Node (the WASM half of `npm run bench`); only in the Node build.
//   runBenchmarks(scale) -> one JSON object per line, as the native fawnlab_bench prints.
//   runStoresBenchmarks(scale) -> the Stores lab's stores emulated (bench/stores_bench.h
//     StoresSimSpeed: 25K records and 25K ops of YCSB A, × scale), the same lines.
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "bench/kernel_bench.h"
#include "bench/stores_bench.h"

namespace {

std::string RunBenchmarks(double scale) {
  if (!(scale > 0 && scale <= 100)) return "";
  return fawnlab::bench::RunAllJsonLines(scale);
}

std::string RunStoresBenchmarks(double scale) {
  if (!(scale > 0 && scale <= 100)) return "";
  const uint64_t n = std::max<uint64_t>(1, static_cast<uint64_t>(25000 * scale));
  std::string out;
  for (const fawnlab::bench::BenchFigure& f : fawnlab::bench::StoresSimSpeed(n, n)) out += fawnlab::bench::FigureJson(f) + "\n";
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(fawnlab_bench) {
  emscripten::function("runBenchmarks", &RunBenchmarks);
  emscripten::function("runStoresBenchmarks", &RunStoresBenchmarks);
}
