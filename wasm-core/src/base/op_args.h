// Checks for a live session's operation arguments beyond their schema (registry/sessions.h
// checks each argument's type and range against the op's ParamSpec). The Status message names
// the problem, for the page to show as is.
#ifndef FAWNLAB_BASE_OP_ARGS_H_
#define FAWNLAB_BASE_OP_ARGS_H_

#include <cstddef>
#include <string>

#include "base/status.h"

namespace fawnlab {

// An application key: 1 to max_bytes bytes, no control characters.
Status CheckAppKey(const std::string& key, size_t max_bytes);

}  // namespace fawnlab

#endif  // FAWNLAB_BASE_OP_ARGS_H_
