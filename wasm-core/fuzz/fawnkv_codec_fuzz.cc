// Fuzz target: arbitrary bytes as a FAWN-KV frame (fawnkv/codec.h). Decode must accept or
// refuse them with a message naming a field, never crash or read out of bounds; whatever it
// accepts must encode back to the same bytes.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fawnkv/codec.h"

using namespace fawnlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto m = fawnkv::codec::Decode(bytes);
  if (!m.ok()) {
    assert(m.status().message().find("codec: ") == 0);
    return 0;
  }
  assert(fawnkv::codec::Encode(m.value()) == bytes);
  return 0;
}
