// FawndsSession's operations: what the files that run them share (fawnds/lab/session.h).
// Internal to fawnds/lab/.
#ifndef FAWNLAB_FAWNDS_LAB_SESSION_OPS_H_
#define FAWNLAB_FAWNDS_LAB_SESSION_OPS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace fawnlab::fawndslab {

constexpr uint64_t kOpEvents = 50'000'000;  // an operation that waits runs at most this many events
constexpr size_t kMaxKey = 128;

// An application key: 1 to kMaxKey bytes, no control characters.
Status CheckKey(const std::string& k);
// `s`'s code with another message.
Status Rephrase(const Status& s, std::string msg);

}  // namespace fawnlab::fawndslab

#endif  // FAWNLAB_FAWNDS_LAB_SESSION_OPS_H_
