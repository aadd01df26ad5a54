// fawnlab_bench: native benchmarks. Prints one JSON object per line (figures, not gates).
//   fawnlab_bench [--scale X] [--suite speed|soak|kv|stores] [--seed N]
//     speed  the simulator, device and FAWN-DS speed figures (the WASM build runs the same)
//     soak   FAWN-DS reliability: 10,000 crash points and a 1M-op model run (× scale)
//     kv     FAWN-DS on a real file against LevelDB: 1M random 1 KB puts, then 1M gets (× scale)
//     stores the Stores lab (bench/stores_bench.h): the LSM against real LevelDB on a 1M-record
//            YCSB load (write amplification, levels); CONA on a file against LevelDB under
//            YCSB A-D, F (200K records, 200K ops each); every lab store's emulation speed
//            (25K records, 25K ops of A) (× scale)
// X multiplies the default sizes (default 1).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench/kernel_bench.h"
#include "bench/kv_bench.h"
#include "bench/soak_bench.h"
#include "bench/stores_bench.h"

int main(int argc, char** argv) {
  using namespace fawnlab::bench;
  double scale = 1;
  std::string suite = "speed";
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
      scale = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--suite") == 0 && i + 1 < argc) {
      suite = argv[++i];
    } else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "error: unknown argument '%s' (usage: fawnlab_bench [--scale X] [--suite speed|soak|kv|stores] [--seed N])\n", argv[i]);
      return 2;
    }
  }
  if (!(scale > 0 && scale <= 100)) {
    std::fprintf(stderr, "error: --scale must be in (0, 100]\n");
    return 2;
  }
  auto count = [scale](double n) { return static_cast<uint64_t>(n * scale) > 0 ? static_cast<uint64_t>(n * scale) : 1; };
  if (suite == "speed") {
    std::fputs(RunAllJsonLines(scale).c_str(), stdout);
  } else if (suite == "soak") {
    std::printf("%s\n", FigureJson(SoakCrashPoints(count(10000), seed)).c_str());
    std::fflush(stdout);
    std::printf("%s\n", FigureJson(SoakModel(count(1000000), seed)).c_str());
  } else if (suite == "kv") {
    for (const BenchFigure& f : KvFawnds(count(1000000))) std::printf("%s\n", FigureJson(f).c_str());
    std::fflush(stdout);
    for (const BenchFigure& f : KvLevelDb(count(1000000))) std::printf("%s\n", FigureJson(f).c_str());
  } else if (suite == "stores") {
    for (const BenchFigure& f : StoresLsmCheck(count(1000000))) std::printf("%s\n", FigureJson(f).c_str());
    std::fflush(stdout);
    for (const BenchFigure& f : StoresConaVsLevelDb(count(200000), count(200000))) std::printf("%s\n", FigureJson(f).c_str());
    std::fflush(stdout);
    for (const BenchFigure& f : StoresSimSpeed(count(25000), count(25000))) std::printf("%s\n", FigureJson(f).c_str());
  } else {
    std::fprintf(stderr, "error: --suite must be speed, soak, kv or stores, not '%s'\n", suite.c_str());
    return 2;
  }
  return 0;
}
