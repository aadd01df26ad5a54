#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "base/json_reader.h"
#include "base/json_writer.h"

namespace fawnlab {
namespace {

TEST(FormatNumber, ShortestRoundTrip) {
  EXPECT_EQ(FormatNumber(0.1), "0.1");
  EXPECT_EQ(FormatNumber(100), "100");
  EXPECT_EQ(FormatNumber(-3), "-3");
  EXPECT_EQ(FormatNumber(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(FormatNumber(2.5e-7), "2.5e-07");
  EXPECT_EQ(FormatNumber(1e21), "1e+21");
  EXPECT_EQ(FormatNumber(-0.0), "0");
  EXPECT_EQ(FormatNumber(NAN), "null");
  EXPECT_EQ(FormatNumber(9007199254740992.0), "9007199254740992");
  for (double v : {1.1, 123.456, 6.02214076e23, 5e-324, 0.30000000000000004}) {
    EXPECT_EQ(std::strtod(FormatNumber(v).c_str(), nullptr), v);
  }
}

TEST(JsonWriter, LayoutIsStable) {
  JsonWriter w;
  w.BeginObject();
  w.Key("a");
  w.Number(1);
  w.Key("pts");
  w.BeginArray();
  w.BeginArray(true);
  w.Number(0.5);
  w.Number(2);
  w.EndArray();
  w.EndArray();
  w.Key("s");
  w.String("q\"\n\x01");
  w.Key("e");
  w.BeginObject();
  w.EndObject();
  w.EndObject();
  EXPECT_EQ(w.str(), "{\n  \"a\": 1,\n  \"pts\": [\n    [0.5, 2]\n  ],\n  \"s\": \"q\\\"\\n\\u0001\",\n  \"e\": {}\n}");
}

TEST(JsonReader, ParsesAllTypes) {
  auto v = ParseJson(R"( {"n": -1.5e2, "s": "a\u00e9\ud83d\ude00", "b": [true, false, null], "o": {}} )");
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  const JsonValue& o = v.value();
  EXPECT_EQ(o.Find("n")->number_value(), -150);
  EXPECT_EQ(o.Find("s")->string_value(), "a\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(o.Find("b")->array_items().size(), 3u);
  EXPECT_TRUE(o.Find("b")->array_items()[2].is_null());
  EXPECT_TRUE(o.Find("o")->is_object());
  EXPECT_EQ(o.Find("missing"), nullptr);
}

TEST(JsonReader, RejectsWithAPositionAndAReason) {
  struct Case {
    const char* text;
    const char* expect;
  } cases[] = {
      {"", "expected a value"},
      {"{\"a\": 1,}", "expected a string key"},
      {"[1 2]", "expected ',' or ']'"},
      {"01", "unexpected text after"},
      {"1.", "digit after '.'"},
      {"\"abc", "unterminated string"},
      {"\"\\x\"", "invalid escape"},
      {"\"\\ud800\"", "high surrogate without"},
      {"{\"a\":1,\"a\":2}", "duplicate key"},
      {"1e400", "out of the range"},
      {"nul", "expected 'null'"},
      {"\"a\nb\"", "control character"},
  };
  for (const Case& c : cases) {
    auto v = ParseJson(c.text);
    ASSERT_FALSE(v.ok()) << c.text;
    EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(v.status().message().find(c.expect), std::string::npos) << c.text << " -> " << v.status().message();
    EXPECT_NE(v.status().message().find("at byte"), std::string::npos);
  }
}

TEST(JsonReader, BoundsDepthAndSize) {
  std::string deep(kMaxJsonDepth + 2, '[');
  deep += std::string(kMaxJsonDepth + 2, ']');
  auto v = ParseJson(deep);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("nesting deeper"), std::string::npos);
  std::string ok_depth(kMaxJsonDepth, '[');
  ok_depth += std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(ParseJson(ok_depth).ok());
  std::string big(kMaxJsonBytes + 1, ' ');
  EXPECT_NE(ParseJson(big).status().message().find("exceeds the limit"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab
