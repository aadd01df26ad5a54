#include "base/json_reader.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fawnlab {

JsonValue JsonValue::MakeBool(bool b) {
  JsonValue v;
  v.type_ = Type::kBool;
  v.bool_ = b;
  return v;
}
JsonValue JsonValue::MakeNumber(double d) {
  JsonValue v;
  v.type_ = Type::kNumber;
  v.number_ = d;
  return v;
}
JsonValue JsonValue::MakeString(std::string s) {
  JsonValue v;
  v.type_ = Type::kString;
  v.string_ = std::move(s);
  return v;
}
JsonValue JsonValue::MakeArray(std::vector<JsonValue> items) {
  JsonValue v;
  v.type_ = Type::kArray;
  v.items_ = std::move(items);
  return v;
}
JsonValue JsonValue::MakeObject(std::vector<std::pair<std::string, JsonValue>> members) {
  JsonValue v;
  v.type_ = Type::kObject;
  v.members_ = std::move(members);
  return v;
}

bool JsonValue::bool_value() const { assert(is_bool()); return bool_; }
double JsonValue::number_value() const { assert(is_number()); return number_; }
const std::string& JsonValue::string_value() const { assert(is_string()); return string_; }
const std::vector<JsonValue>& JsonValue::array_items() const { assert(is_array()); return items_; }
const std::vector<std::pair<std::string, JsonValue>>& JsonValue::object_members() const {
  assert(is_object());
  return members_;
}

const JsonValue* JsonValue::Find(std::string_view key) const {
  assert(is_object());
  for (const auto& m : members_) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

const char* JsonTypeName(JsonValue::Type type) {
  switch (type) {
    case JsonValue::Type::kNull: return "null";
    case JsonValue::Type::kBool: return "boolean";
    case JsonValue::Type::kNumber: return "number";
    case JsonValue::Type::kString: return "string";
    case JsonValue::Type::kArray: return "array";
    case JsonValue::Type::kObject: return "object";
  }
  return "unknown";
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  StatusOr<JsonValue> ParseDocument() {
    SkipSpace();
    JsonValue v;
    Status s = ParseValue(0, &v);
    if (!s.ok()) return s;
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the JSON value");
    return v;
  }

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidArgument("JSON error at byte " + std::to_string(pos_) + ": " + what);
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++pos_;
    }
  }

  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }

  Status ParseValue(int depth, JsonValue* out) {
    if (depth > kMaxJsonDepth) return Error("nesting deeper than " + std::to_string(kMaxJsonDepth));
    if (pos_ >= text_.size()) return Error("unexpected end of input, expected a value");
    char c = text_[pos_];
    switch (c) {
      case '{': return ParseObject(depth, out);
      case '[': return ParseArray(depth, out);
      case '"': {
        std::string s;
        Status st = ParseString(&s);
        if (!st.ok()) return st;
        *out = JsonValue::MakeString(std::move(s));
        return Status::Ok();
      }
      case 't':
        if (Consume("true")) { *out = JsonValue::MakeBool(true); return Status::Ok(); }
        return Error("invalid literal, expected 'true'");
      case 'f':
        if (Consume("false")) { *out = JsonValue::MakeBool(false); return Status::Ok(); }
        return Error("invalid literal, expected 'false'");
      case 'n':
        if (Consume("null")) { *out = JsonValue(); return Status::Ok(); }
        return Error("invalid literal, expected 'null'");
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
        return Error(std::string("unexpected character '") + Printable(c) + "', expected a value");
    }
  }

  static std::string Printable(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string(1, c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", u);
    return buf;
  }

  Status ParseNumber(JsonValue* out) {
    size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    if (pos_ >= text_.size()) return Error("unexpected end of input in a number");
    if (text_[pos_] == '0') {
      ++pos_;
    } else if (text_[pos_] >= '1' && text_[pos_] <= '9') {
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    } else {
      return Error("invalid number: expected a digit");
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (pos_ >= text_.size() || !IsDigit(text_[pos_])) return Error("invalid number: expected a digit after '.'");
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ >= text_.size() || !IsDigit(text_[pos_])) return Error("invalid number: expected a digit in the exponent");
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    }
    if (pos_ - start > 64) return Error("number longer than 64 characters");
    std::string digits(text_.substr(start, pos_ - start));
    double v = std::strtod(digits.c_str(), nullptr);
    if (!std::isfinite(v)) return Error("number out of the range of a double: " + digits);
    *out = JsonValue::MakeNumber(v);
    return Status::Ok();
  }

  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  Status ParseHex4(unsigned* out) {
    if (pos_ + 4 > text_.size()) return Error("unexpected end of input in a \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      int h = HexValue(text_[pos_ + i]);
      if (h < 0) return Error("invalid hex digit in a \\u escape");
      v = v * 16 + static_cast<unsigned>(h);
    }
    pos_ += 4;
    *out = v;
    return Status::Ok();
  }

  static void AppendUtf8(std::string* s, unsigned cp) {
    if (cp < 0x80) {
      s->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      s->push_back(static_cast<char>(0xc0 | (cp >> 6)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
      s->push_back(static_cast<char>(0xe0 | (cp >> 12)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else {
      s->push_back(static_cast<char>(0xf0 | (cp >> 18)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    }
  }

  Status ParseString(std::string* out) {
    assert(text_[pos_] == '"');
    ++pos_;
    while (true) {
      if (pos_ >= text_.size()) return Error("unterminated string");
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return Status::Ok();
      }
      if (c < 0x20) return Error("control character in a string (escape it)");
      if (c != '\\') {
        out->push_back(static_cast<char>(c));
        ++pos_;
        continue;
      }
      ++pos_;
      if (pos_ >= text_.size()) return Error("unterminated escape in a string");
      char e = text_[pos_++];
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          unsigned cp = 0;
          Status s = ParseHex4(&cp);
          if (!s.ok()) return s;
          if (cp >= 0xdc00 && cp <= 0xdfff) return Error("lone low surrogate in a \\u escape");
          if (cp >= 0xd800 && cp <= 0xdbff) {
            if (!Consume("\\u")) return Error("high surrogate without its low surrogate");
            unsigned lo = 0;
            s = ParseHex4(&lo);
            if (!s.ok()) return s;
            if (lo < 0xdc00 || lo > 0xdfff) return Error("high surrogate followed by a non-surrogate");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          return Error(std::string("invalid escape '\\") + Printable(e) + "' in a string");
      }
    }
  }

  Status ParseArray(int depth, JsonValue* out) {
    ++pos_;  // '['
    std::vector<JsonValue> items;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      *out = JsonValue::MakeArray(std::move(items));
      return Status::Ok();
    }
    while (true) {
      SkipSpace();
      JsonValue item;
      Status s = ParseValue(depth + 1, &item);
      if (!s.ok()) return s;
      items.push_back(std::move(item));
      SkipSpace();
      if (pos_ >= text_.size()) return Error("unexpected end of input, expected ',' or ']'");
      if (text_[pos_] == ',') { ++pos_; continue; }
      if (text_[pos_] == ']') { ++pos_; break; }
      return Error("expected ',' or ']' in an array");
    }
    *out = JsonValue::MakeArray(std::move(items));
    return Status::Ok();
  }

  Status ParseObject(int depth, JsonValue* out) {
    ++pos_;  // '{'
    std::vector<std::pair<std::string, JsonValue>> members;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      *out = JsonValue::MakeObject(std::move(members));
      return Status::Ok();
    }
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected a string key in an object");
      std::string key;
      Status s = ParseString(&key);
      if (!s.ok()) return s;
      for (const auto& m : members) {
        if (m.first == key) return Error("duplicate key \"" + key + "\"");
      }
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') return Error("expected ':' after object key");
      ++pos_;
      SkipSpace();
      JsonValue value;
      s = ParseValue(depth + 1, &value);
      if (!s.ok()) return s;
      members.emplace_back(std::move(key), std::move(value));
      SkipSpace();
      if (pos_ >= text_.size()) return Error("unexpected end of input, expected ',' or '}'");
      if (text_[pos_] == ',') { ++pos_; continue; }
      if (text_[pos_] == '}') { ++pos_; break; }
      return Error("expected ',' or '}' in an object");
    }
    *out = JsonValue::MakeObject(std::move(members));
    return Status::Ok();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

StatusOr<JsonValue> ParseJson(std::string_view text) {
  if (text.size() > kMaxJsonBytes) {
    return Status::InvalidArgument("JSON document of " + std::to_string(text.size()) +
                                   " bytes exceeds the limit of " + std::to_string(kMaxJsonBytes));
  }
  return Parser(text).ParseDocument();
}

}  // namespace fawnlab
