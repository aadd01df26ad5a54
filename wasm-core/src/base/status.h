// Status: the result of an operation that can fail for reasons the caller must handle
// (a bad parameter, a corrupt record, a full device). Programmer errors are asserts instead.
//
// A Status is either OK or carries a code and a human-readable message that names the
// problem ("parameter 'servers' = 0 is out of range [1, 64]"). The WASM bindings turn it into
// {ok, code, message} for JavaScript; C++ exceptions never cross that edge.
//
// StatusOr<T> holds either a value or a non-OK Status.
#ifndef FAWNLAB_BASE_STATUS_H_
#define FAWNLAB_BASE_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace fawnlab {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad input from a user: parameter, request, JSON
  kNotFound,         // unknown experiment id, missing key
  kCorruption,       // bytes that do not parse as what they claim to be
  kCancelled,        // the caller asked to stop
  kResourceExhausted,
  kUnavailable,      // a device that crashed (fault injection) or is not there
  kInternal,
};

// Returns the stable lower-case name of `code` ("invalid_argument"), used in JSON errors.
const char* StatusCodeName(StatusCode code);

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string msg) { return Status(StatusCode::kInvalidArgument, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(StatusCode::kNotFound, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(StatusCode::kCorruption, std::move(msg)); }
  static Status Cancelled(std::string msg) { return Status(StatusCode::kCancelled, std::move(msg)); }
  static Status ResourceExhausted(std::string msg) {
    return Status(StatusCode::kResourceExhausted, std::move(msg));
  }
  static Status Unavailable(std::string msg) { return Status(StatusCode::kUnavailable, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(StatusCode::kInternal, std::move(msg)); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "invalid_argument: parameter 'x' ..." or "ok".
  std::string ToString() const;

 private:
  Status(StatusCode code, std::string msg) : code_(code), message_(std::move(msg)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
class StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  // REQUIRES: ok().
  const T& value() const& { assert(ok()); return *value_; }
  T& value() & { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace fawnlab

#endif  // FAWNLAB_BASE_STATUS_H_
