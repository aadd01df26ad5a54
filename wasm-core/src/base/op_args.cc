#include "base/op_args.h"

namespace fawnlab {

Status CheckAppKey(const std::string& key, size_t max_bytes) {
  if (key.empty() || key.size() > max_bytes) {
    return Status::InvalidArgument("key must be 1 to " + std::to_string(max_bytes) + " characters (got " +
                                   std::to_string(key.size()) + ")");
  }
  for (unsigned char c : key) {
    if (c < 0x20 || c == 0x7f) return Status::InvalidArgument("key must not contain control characters");
  }
  return Status::Ok();
}

}  // namespace fawnlab
