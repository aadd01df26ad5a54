// Fuzz target: arbitrary bytes as the parameter JSON of every experiment. Resolution must
// succeed or fail with an invalid_argument message naming the problem; never crash.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>

#include "registry/experiments.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  for (const fawnlab::Experiment& e : fawnlab::AllExperiments()) {
    auto p = fawnlab::ResolveExperimentParams(e.info.id, text);
    if (!p.ok()) {
      assert(p.status().code() == fawnlab::StatusCode::kInvalidArgument);
      assert(!p.status().message().empty());
      continue;
    }
    if (e.validate) (void)e.validate(p.value());
  }
  return 0;
}
