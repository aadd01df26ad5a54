#include "base/params.h"

#include <gtest/gtest.h>

#include <string>

namespace fawnlab {
namespace {

std::vector<ParamSpec> Schema() {
  return {ParamSpec::Int("servers", 1, 1, 64, "servers", "k"),
          ParamSpec::Real("service_us", 10, 0.1, 1e6, "µs", "S"),
          ParamSpec::Choice("mode", "fifo", {"fifo", "lifo"}, "discipline"),
          ParamSpec::Bool("trace", false, "record")};
}

ParamValues MustResolve(const std::string& json) {
  auto v = ParseJson(json);
  EXPECT_TRUE(v.ok());
  auto p = ResolveParams("test.exp", Schema(), v.value());
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.value();
}

std::string ErrorOf(const std::string& json) {
  auto v = ParseJson(json);
  EXPECT_TRUE(v.ok());
  auto p = ResolveParams("test.exp", Schema(), v.value());
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
  return p.status().message();
}

TEST(Params, DefaultsFillInInSchemaOrder) {
  ParamValues p = MustResolve(R"({"trace": true, "servers": 4})");
  EXPECT_EQ(p.Int("servers"), 4);
  EXPECT_EQ(p.Real("service_us"), 10);
  EXPECT_EQ(p.Choice("mode"), "fifo");
  EXPECT_TRUE(p.Bool("trace"));
  ASSERT_EQ(p.entries().size(), 4u);
  EXPECT_EQ(p.entries()[0].first, "servers");
  JsonWriter w;
  p.WriteJson(&w);
  EXPECT_EQ(w.str(), "{\n  \"servers\": 4,\n  \"service_us\": 10,\n  \"mode\": \"fifo\",\n  \"trace\": true\n}");
}

TEST(Params, ErrorsNameTheParameterAndWhatItAccepts) {
  EXPECT_EQ(ErrorOf(R"({"servers": 0})"), "parameter 'servers' = 0 is out of range [1, 64] servers for test.exp");
  EXPECT_EQ(ErrorOf(R"({"servers": 2.5})"), "parameter 'servers' of test.exp must be an integer, got 2.5");
  EXPECT_EQ(ErrorOf(R"({"service_us": "fast"})"),
            "parameter 'service_us' of test.exp must be a number in [0.1, 1000000] µs, got string");
  EXPECT_EQ(ErrorOf(R"({"mode": "random"})"), "parameter 'mode' = 'random' is not one of 'fifo', 'lifo' for test.exp");
  EXPECT_EQ(ErrorOf(R"({"trace": 1})"), "parameter 'trace' of test.exp must be true or false, got number");
  EXPECT_EQ(ErrorOf(R"({"srevers": 2})"),
            "unknown parameter 'srevers' for test.exp; known parameters: servers, service_us, mode, trace");
  EXPECT_EQ(ErrorOf("[1]"), "parameters for test.exp must be a JSON object, got array");
}

TEST(Params, CommandLineStringsAreParsedByType) {
  auto p = ResolveParamStrings("test.exp", Schema(), {{"servers", "8"}, {"mode", "lifo"}, {"trace", "true"}});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p.value().Int("servers"), 8);
  EXPECT_EQ(p.value().Choice("mode"), "lifo");
  auto bad = ResolveParamStrings("test.exp", Schema(), {{"servers", "8x"}});
  EXPECT_EQ(bad.status().message(), "parameter 'servers' of test.exp must be a number in [1, 64] servers, got '8x'");
  auto twice = ResolveParamStrings("test.exp", Schema(), {{"servers", "8"}, {"servers", "9"}});
  EXPECT_EQ(twice.status().message(), "parameter 'servers' given twice");
  auto nan = ResolveParamStrings("test.exp", Schema(), {{"service_us", "nan"}});
  EXPECT_EQ(nan.status().message(), "parameter 'service_us' of test.exp must be a finite number");
}

TEST(Params, SessionConfigsAndPatches) {
  const std::vector<std::string> live = {"servers", "trace"};
  auto full = ResolveSessionConfig("test session", Schema(), ParseJson(R"({"mode": "lifo", "script": [1]})").value(), false, live,
                                   {"script"});
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  EXPECT_EQ(full.value().Choice("mode"), "lifo");
  auto patch = ResolveSessionConfig("test session", Schema(), ParseJson(R"({"servers": 3})").value(), true, live, {"script"});
  ASSERT_TRUE(patch.ok()) << patch.status().ToString();
  EXPECT_EQ(patch.value().Int("servers"), 3);
  EXPECT_EQ(patch.value().entries().size(), 2u) << "only the live fields";
  EXPECT_EQ(ResolveSessionConfig("test session", Schema(), ParseJson(R"({"mode": "fifo"})").value(), true, live).status().message(),
            "test session: 'mode' cannot change while running (only servers, trace); start a new session");
  EXPECT_FALSE(ResolveSessionConfig("test session", Schema(), ParseJson(R"({"script": []})").value(), true, live, {"script"}).ok());
  EXPECT_EQ(ResolveSessionConfig("test session", Schema(), ParseJson("3").value(), false, live).status().message(),
            "test session config must be a JSON object");
}

}  // namespace
}  // namespace fawnlab
