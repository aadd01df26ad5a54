// JsonValue and ParseJson: a strict, bounded JSON (RFC 8259) reader for the small documents
// that cross into the core (experiment parameters, session commands).
//
// Strict: no comments, no trailing commas, no NaN, no leading zeros, no lone surrogates
// escaped as \u, one top-level value surrounded only by whitespace. Bounded: at most
// kMaxJsonDepth nesting levels and kMaxJsonBytes of input, so hostile input cannot exhaust the
// stack or memory. Errors name the byte offset and what was expected.
//
// Object members keep their input order; a duplicate key is an error (it is always a
// mistake in a parameter set, and silently picking one would hide it).
#ifndef FAWNLAB_BASE_JSON_READER_H_
#define FAWNLAB_BASE_JSON_READER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace fawnlab {

constexpr int kMaxJsonDepth = 64;
constexpr size_t kMaxJsonBytes = 1 << 20;

class JsonValue {
 public:
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };

  JsonValue() = default;
  static JsonValue MakeBool(bool b);
  static JsonValue MakeNumber(double v);
  static JsonValue MakeString(std::string s);
  static JsonValue MakeArray(std::vector<JsonValue> items);
  static JsonValue MakeObject(std::vector<std::pair<std::string, JsonValue>> members);

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_number() const { return type_ == Type::kNumber; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  // REQUIRES: the matching type.
  bool bool_value() const;
  double number_value() const;
  const std::string& string_value() const;
  const std::vector<JsonValue>& array_items() const;
  const std::vector<std::pair<std::string, JsonValue>>& object_members() const;

  // The member named `key`, or nullptr. REQUIRES: is_object().
  const JsonValue* Find(std::string_view key) const;

 private:
  Type type_ = Type::kNull;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

// The lower-case name of a type ("number"), for error messages.
const char* JsonTypeName(JsonValue::Type type);

// Parses `text` as one JSON document. Errors are kInvalidArgument and read like
// "JSON error at byte 12: expected ':' after object key".
StatusOr<JsonValue> ParseJson(std::string_view text);

}  // namespace fawnlab

#endif  // FAWNLAB_BASE_JSON_READER_H_
