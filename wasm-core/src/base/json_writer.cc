#include "base/json_writer.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fawnlab {

std::string FormatNumber(double v) {
  if (!std::isfinite(v)) return "null";
  if (v == 0) return "0";  // also folds -0 into 0
  char buf[40];
  if (std::fabs(v) < 9007199254740992.0 && v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out->append(buf);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

void JsonWriter::Newline(int depth) {
  out_.push_back('\n');
  out_.append(static_cast<size_t>(depth) * 2, ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Frame& f = stack_.back();
  assert(!f.is_object && "value inside an object needs a Key() first");
  if (f.count++ > 0) out_.push_back(',');
  if (f.is_inline) {
    if (f.count > 1) out_.push_back(' ');
  } else {
    Newline(static_cast<int>(stack_.size()));
  }
}

void JsonWriter::Key(std::string_view key) {
  assert(!stack_.empty() && stack_.back().is_object && !after_key_);
  Frame& f = stack_.back();
  if (f.count++ > 0) out_.push_back(',');
  if (f.is_inline) {
    if (f.count > 1) out_.push_back(' ');
  } else {
    Newline(static_cast<int>(stack_.size()));
  }
  AppendJsonString(&out_, key);
  out_.append(": ");
  after_key_ = true;
}

void JsonWriter::BeginObject() {
  BeforeValue();
  out_.push_back('{');
  bool parent_inline = !stack_.empty() && stack_.back().is_inline;
  stack_.push_back(Frame{true, parent_inline, 0});
}

void JsonWriter::EndObject() {
  assert(!stack_.empty() && stack_.back().is_object && !after_key_);
  Frame f = stack_.back();
  stack_.pop_back();
  if (f.count > 0 && !f.is_inline) Newline(static_cast<int>(stack_.size()));
  out_.push_back('}');
}

void JsonWriter::BeginArray(bool inline_array) {
  BeforeValue();
  out_.push_back('[');
  bool parent_inline = !stack_.empty() && stack_.back().is_inline;
  stack_.push_back(Frame{false, inline_array || parent_inline, 0});
}

void JsonWriter::EndArray() {
  assert(!stack_.empty() && !stack_.back().is_object);
  Frame f = stack_.back();
  stack_.pop_back();
  if (f.count > 0 && !f.is_inline) Newline(static_cast<int>(stack_.size()));
  out_.push_back(']');
}

void JsonWriter::String(std::string_view s) {
  BeforeValue();
  AppendJsonString(&out_, s);
}

void JsonWriter::Number(double v) {
  BeforeValue();
  out_.append(FormatNumber(v));
}

void JsonWriter::Int(int64_t v) {
  BeforeValue();
  out_.append(std::to_string(v));
}

void JsonWriter::Bool(bool b) {
  BeforeValue();
  out_.append(b ? "true" : "false");
}

void JsonWriter::Null() {
  BeforeValue();
  out_.append("null");
}

}  // namespace fawnlab
