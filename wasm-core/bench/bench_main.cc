// fawnlab_bench: native benchmarks. Prints one JSON object per line (figures, not gates).
//   fawnlab_bench [--scale X]   (X multiplies the default sizes; default 1)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench/kernel_bench.h"

int main(int argc, char** argv) {
  double scale = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0 && i + 1 < argc) scale = std::atof(argv[++i]);
  }
  if (!(scale > 0 && scale <= 100)) {
    std::fprintf(stderr, "error: --scale must be in (0, 100]\n");
    return 2;
  }
  std::fputs(fawnlab::bench::RunAllJsonLines(scale).c_str(), stdout);
  return 0;
}
