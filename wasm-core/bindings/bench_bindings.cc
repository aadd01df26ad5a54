// Benchmarks exposed to Node (the WASM half of `npm run bench`); only in the Node build.
//   runBenchmarks(scale) -> one JSON object per line, as the native fawnlab_bench prints.
#include <emscripten/bind.h>

#include <string>

#include "bench/kernel_bench.h"

namespace {

std::string RunBenchmarks(double scale) {
  if (!(scale > 0 && scale <= 100)) return "";
  return fawnlab::bench::RunAllJsonLines(scale);
}

}  // namespace

EMSCRIPTEN_BINDINGS(fawnlab_bench) { emscripten::function("runBenchmarks", &RunBenchmarks); }
