// fawnlab_cli: the native build's experiment runner. Same registry, same JSON as the WASM
// builds; the determinism tests compare its bytes with Node's and the browser's.
//
//   fawnlab_cli list
//   fawnlab_cli sessions      every live session's schema (the build writes it to dist/sessions.json)
//   fawnlab_cli run <experiment-id> [--param k=v]... [--params '{"k": v}'] [--seed N]
//                   [--format json|csv] [--progress]
//
// stdout carries only the result; errors and progress go to stderr. Exit status: 0 on
// success, 2 on bad input (unknown id, bad parameter), 1 on any other failure.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "registry/experiments.h"
#include "registry/sessions.h"

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: fawnlab_cli list\n"
               "       fawnlab_cli sessions\n"
               "       fawnlab_cli run <experiment-id> [--param k=v]... [--params JSON] [--seed N]\n"
               "                       [--format json|csv] [--progress]\n");
  return 2;
}

bool ParseSeed(const char* text, uint64_t* out) {
  if (!*text) return false;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (*end || text[0] == '-') return false;
  *out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  std::string cmd = argv[1];
  if ((cmd == "list" || cmd == "sessions") && argc > 2) {
    std::fprintf(stderr, "fawnlab_cli %s takes no arguments (got '%s')\n", cmd.c_str(), argv[2]);
    return Usage();
  }
  if (cmd == "list") {
    std::fputs(fawnlab::ListExperimentsJson().c_str(), stdout);
    return 0;
  }
  if (cmd == "sessions") {
    std::fputs(fawnlab::DescribeSessionsJson().c_str(), stdout);
    return 0;
  }
  if (cmd != "run" || argc < 3) return Usage();
  std::string id = argv[2];
  std::vector<std::pair<std::string, std::string>> kv;
  std::string params_json;
  uint64_t seed = 1;
  std::string format = "json";
  bool progress = false;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--param" && i + 1 < argc) {
      std::string p = argv[++i];
      size_t eq = p.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::fprintf(stderr, "error: --param expects name=value, got '%s'\n", p.c_str());
        return 2;
      }
      kv.emplace_back(p.substr(0, eq), p.substr(eq + 1));
    } else if (a == "--params" && i + 1 < argc) {
      params_json = argv[++i];
    } else if (a == "--seed" && i + 1 < argc) {
      if (!ParseSeed(argv[++i], &seed) || seed > fawnlab::kMaxSeed) {
        std::fprintf(stderr, "error: --seed expects an integer in [0, %llu], got '%s'\n",
                     static_cast<unsigned long long>(fawnlab::kMaxSeed), argv[i]);
        return 2;
      }
    } else if (a == "--format" && i + 1 < argc) {
      format = argv[++i];
      if (format != "json" && format != "csv") {
        std::fprintf(stderr, "error: --format expects json or csv, got '%s'\n", format.c_str());
        return 2;
      }
    } else if (a == "--progress") {
      progress = true;
    } else {
      std::fprintf(stderr, "error: unknown argument '%s'\n", a.c_str());
      return Usage();
    }
  }
  if (!kv.empty() && !params_json.empty()) {
    std::fprintf(stderr, "error: use either --param or --params, not both\n");
    return 2;
  }
  const fawnlab::Experiment* e = fawnlab::FindExperiment(id);
  fawnlab::StatusOr<fawnlab::ParamValues> params =
      e && params_json.empty() ? fawnlab::ResolveParamStrings(id, e->info.params, kv)
                               : fawnlab::ResolveExperimentParams(id, params_json);
  if (!params.ok()) {
    std::fprintf(stderr, "error: %s\n", params.status().message().c_str());
    return 2;
  }
  auto report = [progress](double f) {
    if (progress) std::fprintf(stderr, "\rprogress %3.0f%%", f * 100);
    return true;
  };
  fawnlab::StatusOr<fawnlab::Result> r = fawnlab::RunExperiment(id, params.value(), seed, report);
  if (progress) std::fputc('\n', stderr);
  if (!r.ok()) {
    std::fprintf(stderr, "error: %s\n", r.status().message().c_str());
    return r.status().code() == fawnlab::StatusCode::kInvalidArgument ? 2 : 1;
  }
  std::string out = format == "csv" ? fawnlab::ResultToCsv(r.value()) : fawnlab::ResultToJson(r.value());
  std::fputs(out.c_str(), stdout);
  return 0;
}
