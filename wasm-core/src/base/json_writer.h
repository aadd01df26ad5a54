// JsonWriter: the one JSON writer whose bytes every build shares.
//
// Results must be byte-identical natively, under Node and in the browser, so numbers are
// formatted here and nowhere else: integral values below 2^53 print as integers; other finite
// values print as the shortest decimal that reads back to the same double ("%.*g" searched
// from 1 to 17 digits; glibc and Emscripten's musl both round correctly, so the search lands
// on the same digits). NaN and infinities have no JSON form: they are written as null, and
// callers should not produce them.
//
// Layout: objects and arrays open on one line and put each member on its own line, indented
// by two spaces per level, except "inline" arrays (BeginArray(true)), which stay on one line:
// series points print as [x, y] pairs.
//
// Not thread-safe; one writer per output string.
#ifndef FAWNLAB_BASE_JSON_WRITER_H_
#define FAWNLAB_BASE_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fawnlab {

// Formats `v` as JsonWriter does (shortest round-trip, integers without exponent).
std::string FormatNumber(double v);

// Appends `s` as a JSON string literal (quoted, escaped) to `out`.
void AppendJsonString(std::string* out, std::string_view s);

class JsonWriter {
 public:
  JsonWriter() = default;

  void BeginObject();
  void EndObject();
  // inline_array: print all elements on the current line.
  void BeginArray(bool inline_array = false);
  void EndArray();

  // Writes a member key; the next value call supplies its value. REQUIRES: inside an object.
  void Key(std::string_view key);

  void String(std::string_view s);
  void Number(double v);
  void Int(int64_t v);
  void Bool(bool b);
  void Null();

  // The finished document. REQUIRES: every Begin has its End.
  const std::string& str() const { return out_; }

 private:
  struct Frame {
    bool is_object;
    bool is_inline;
    int count;
  };
  void BeforeValue();
  void Newline(int depth);

  std::string out_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
};

}  // namespace fawnlab

#endif  // FAWNLAB_BASE_JSON_WRITER_H_
