// Fuzz target: ParseJson must accept or reject any bytes with a Status, never crash, hang or
// overflow the stack; and whatever it accepts must survive a write/parse round trip.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/json_reader.h"
#include "base/json_writer.h"

namespace {

void Write(const fawnlab::JsonValue& v, fawnlab::JsonWriter* w) {
  using T = fawnlab::JsonValue::Type;
  switch (v.type()) {
    case T::kNull: w->Null(); break;
    case T::kBool: w->Bool(v.bool_value()); break;
    case T::kNumber: w->Number(v.number_value()); break;
    case T::kString: w->String(v.string_value()); break;
    case T::kArray:
      w->BeginArray();
      for (const auto& item : v.array_items()) Write(item, w);
      w->EndArray();
      break;
    case T::kObject:
      w->BeginObject();
      for (const auto& m : v.object_members()) {
        w->Key(m.first);
        Write(m.second, w);
      }
      w->EndObject();
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto parsed = fawnlab::ParseJson(text);
  if (!parsed.ok()) {
    assert(!parsed.status().message().empty());
    return 0;
  }
  fawnlab::JsonWriter w;
  Write(parsed.value(), &w);
  auto again = fawnlab::ParseJson(w.str());
  assert(again.ok());
  fawnlab::JsonWriter w2;
  Write(again.value(), &w2);
  assert(w.str() == w2.str());
  return 0;
}
