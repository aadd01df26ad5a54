// Arguments of a live session's operations: one JSON object with "op" and the operation's own
// fields (fawnds/lab/session.h, fawnkv/lab/session.h). Each check returns a Status whose
// message names the field and what it accepts, for the page to show as is.
#ifndef FAWNLAB_BASE_OP_ARGS_H_
#define FAWNLAB_BASE_OP_ARGS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/json_reader.h"
#include "base/status.h"

namespace fawnlab {

// An operation a session accepts: its name and the fields it takes.
struct OpSpec {
  const char* name;
  std::vector<std::string> fields;
};

// The spec in `ops` that `op` names. Refuses anything but a JSON object whose "op" is a string
// naming one of `ops` and whose other members are that operation's fields; the messages list
// the known operations or fields.
StatusOr<const OpSpec*> FindOp(const JsonValue& op, const std::vector<OpSpec>& ops);

// op[name] as an integer in [min, max]; `def` when it is absent and not required.
// REQUIRES: op.is_object().
StatusOr<uint64_t> UIntArg(const JsonValue& op, const char* name, uint64_t def, uint64_t min, uint64_t max, bool required);

// An application key: 1 to max_bytes bytes, no control characters.
Status CheckAppKey(const std::string& key, size_t max_bytes);

}  // namespace fawnlab

#endif  // FAWNLAB_BASE_OP_ARGS_H_
