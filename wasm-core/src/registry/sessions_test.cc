// The session contract, checked over every registered session: each is created from its
// defaults and from a script, advances and snapshots; bad configs, patches, operations and
// views are refused with a message naming what is wrong; the description lists them all.
#include "registry/sessions.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "sim/time.h"

namespace fawnlab {
namespace {

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// An operation of `op` with every required argument at a valid value (its default; "k1" for
// a string).
// With `name` (if given) set to the JSON text `value` instead.
std::string OpWithRequiredArgs(const OpInfo& op, const std::string& name = "", const std::string& value = "") {
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(op.name);
  for (const ArgSpec& a : op.args) {
    if (!a.required || a.spec.name == name) continue;
    w.Key(a.spec.name);
    switch (a.spec.type) {
      case ParamType::kString: w.String("k1"); break;
      case ParamType::kChoice: w.String(a.spec.default_choice); break;
      case ParamType::kBool: w.Bool(a.spec.default_value != 0); break;
      default: w.Number(a.spec.default_value);
    }
  }
  w.EndObject();
  std::string out = w.str();
  if (!name.empty()) out = out.substr(0, out.rfind('}')) + ", \"" + name + "\": " + value + "}";
  return out;
}

std::unique_ptr<LabSession> Make(const std::string& id, const std::string& config, uint64_t seed = 1) {
  auto s = CreateSession(id, config, seed);
  EXPECT_TRUE(s.ok()) << id << " " << config << ": " << s.status().message();
  return s.ok() ? std::move(s).value() : nullptr;
}

std::string CreateError(const std::string& id, const std::string& config) {
  auto s = CreateSession(id, config, 1);
  EXPECT_FALSE(s.ok()) << id << " " << config << " should be refused";
  return s.ok() ? "" : s.status().message();
}

TEST(SessionRegistryTest, TheFiveLabSessionsAreRegistered) {
  std::set<std::string> ids;
  for (const SessionInfo& s : AllSessions()) {
    EXPECT_TRUE(ids.insert(s.id).second) << "duplicate id " << s.id;
    EXPECT_EQ(s.id, s.view.empty() ? s.lab : s.lab + "." + s.view);
    EXPECT_FALSE(s.title.empty() || s.summary.empty() || s.noun.empty()) << s.id;
    EXPECT_TRUE(s.create) << s.id;
    for (const std::string& live : s.live) {
      bool found = false;
      for (const ParamSpec& p : s.params) found = found || p.name == live;
      EXPECT_TRUE(found) << s.id << ": live field " << live << " is not a parameter";
    }
  }
  for (const char* id : {"queues", "devices.flash", "devices.disk", "fawnds", "fawnkv"}) {
    EXPECT_TRUE(ids.count(id)) << id;
    EXPECT_NE(FindSession(id), nullptr) << id;
  }
  EXPECT_EQ(FindSession("nope"), nullptr);
  auto bad = CreateSession("nope", "{}", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(Contains(bad.status().message(), "known sessions: queues")) << bad.status().message();
}

TEST(SessionRegistryTest, EverySessionRunsFromItsDefaultsAndFromAScript) {
  for (const SessionInfo& info : AllSessions()) {
    SCOPED_TRACE(info.id);
    auto s = Make(info.id, "{}");
    ASSERT_TRUE(s);
    EXPECT_EQ(&s->info(), &info);
    EXPECT_EQ(s->params().entries().size(), info.params.size()) << "every field resolved";
    const std::string before = s->SnapshotJson();
    EXPECT_TRUE(ParseJson(before).ok());
    s->Advance(50 * sim::kMs, 1'000'000);
    EXPECT_TRUE(s->Step() || true);
    const std::string after = s->SnapshotJson();
    ASSERT_TRUE(ParseJson(after).ok()) << after.substr(0, 200);
    EXPECT_NE(before, after) << "virtual time moved";
    for (const ViewInfo& v : info.views) {
      auto c = s->Columns(v.name, "{}");
      EXPECT_TRUE(c.ok()) << v.name << ": " << c.status().message();
    }
    if (!info.script) {
      EXPECT_TRUE(Contains(CreateError(info.id, R"({"script": []})"), "'script'"));
      continue;
    }
    ASSERT_FALSE(info.ops.empty());
    // A script of the first operation (its required arguments at valid values), then an
    // Advance, runs at creation.
    const std::string config = "{\"script\": [" + OpWithRequiredArgs(info.ops[0]) + "]}";
    auto scripted = Make(info.id, config);
    ASSERT_TRUE(scripted);
    EXPECT_NE(scripted->SnapshotJson(), Make(info.id, "{}")->SnapshotJson()) << "the script ran";
    scripted->Advance(10 * sim::kMs, 1'000'000);
    EXPECT_TRUE(ParseJson(scripted->SnapshotJson()).ok());
    EXPECT_TRUE(Contains(CreateError(info.id, R"({"script": {"op": "x"}})"), "script must be an array"));
    EXPECT_TRUE(Contains(CreateError(info.id, R"({"script": [{"op": "explode"}]})"), "script operation 0: unknown operation 'explode'"));
  }
}

TEST(SessionRegistryTest, BadConfigsPatchesOpsAndViewsNameTheProblem) {
  for (const SessionInfo& info : AllSessions()) {
    SCOPED_TRACE(info.id);
    EXPECT_TRUE(Contains(CreateError(info.id, R"({"colour": "red"})"), "'colour'"));
    EXPECT_TRUE(Contains(CreateError(info.id, "[1]"), "JSON object"));
    EXPECT_TRUE(Contains(CreateError(info.id, "{"), "config"));
    for (const ParamSpec& p : info.params) {
      if (p.type != ParamType::kInt && p.type != ParamType::kReal) continue;
      const std::string msg = CreateError(info.id, "{\"" + p.name + "\": " + FormatNumber(p.max + 1) + "}");
      EXPECT_TRUE(Contains(msg, "'" + p.name + "'")) << msg;
    }
    auto s = Make(info.id, "{}");
    ASSERT_TRUE(s);
    for (const ParamSpec& p : info.params) {
      JsonWriter w;
      w.BeginObject();
      w.Key(p.name);
      switch (p.type) {
        case ParamType::kChoice:
        case ParamType::kString: w.String(p.default_choice); break;
        case ParamType::kBool: w.Bool(p.default_value != 0); break;
        default: w.Number(p.default_value);
      }
      w.EndObject();
      const Status st = s->Reconfigure(w.str());
      if (info.IsLive(p.name)) {
        EXPECT_TRUE(st.ok()) << p.name << ": " << st.message();
      } else {
        ASSERT_FALSE(st.ok()) << p.name << " is not live";
        EXPECT_TRUE(Contains(st.message(), "'" + p.name + "' cannot change while")) << st.message();
      }
    }
    EXPECT_TRUE(Contains(s->Reconfigure(R"({"colour": 1})").message(), "'colour'"));
    EXPECT_TRUE(Contains(s->Reconfigure("[]").message(), "JSON object"));

    auto unknown = s->Apply(R"({"op": "explode"})");
    ASSERT_FALSE(unknown.ok());
    EXPECT_TRUE(Contains(unknown.status().message(), "unknown operation 'explode'")) << unknown.status().message();
    EXPECT_TRUE(Contains(s->Apply("not json").status().message(), "operation"));
    EXPECT_TRUE(Contains(s->Apply(R"({"no": "op"})").status().message(), "\"op\""));
    for (const OpInfo& op : info.ops) {
      auto extra = s->Apply("{\"op\": \"" + op.name + "\", \"bogus\": 1}");
      ASSERT_FALSE(extra.ok()) << op.name;
      EXPECT_TRUE(Contains(extra.status().message(), "unknown field 'bogus' for " + op.name)) << extra.status().message();
      for (const ArgSpec& a : op.args) {
        if (a.required) {  // the first required argument is the one named
          auto missing = s->Apply("{\"op\": \"" + op.name + "\"}");
          ASSERT_FALSE(missing.ok()) << op.name;
          EXPECT_TRUE(Contains(missing.status().message(), "is required: " + op.name + " needs")) << missing.status().message();
        }
        if (a.spec.type != ParamType::kInt) continue;
        auto out = s->Apply(OpWithRequiredArgs(op, a.spec.name, FormatNumber(a.spec.max + 1)));
        ASSERT_FALSE(out.ok()) << op.name << " " << a.spec.name;
        EXPECT_TRUE(Contains(out.status().message(), "'" + a.spec.name + "' must be an integer in")) << out.status().message();
        auto typed = s->Apply(OpWithRequiredArgs(op, a.spec.name, "\"x\""));
        ASSERT_FALSE(typed.ok());
        EXPECT_TRUE(Contains(typed.status().message(), "'" + a.spec.name + "'")) << typed.status().message();
      }
    }
    auto view = s->Columns("nope", "{}");
    ASSERT_FALSE(view.ok());
    EXPECT_TRUE(Contains(view.status().message(), "unknown view 'nope'")) << view.status().message();
    for (const ViewInfo& v : info.views) {
      EXPECT_TRUE(Contains(s->Columns(v.name, R"({"bogus": 1})").status().message(), "'bogus'"));
    }
  }
}

TEST(SessionRegistryTest, TheSameSeedGivesTheSameRun) {
  for (const SessionInfo& info : AllSessions()) {
    SCOPED_TRACE(info.id);
    auto a = Make(info.id, "{}", 7), b = Make(info.id, "{}", 7);
    ASSERT_TRUE(a && b);
    for (auto* s : {a.get(), b.get()}) {
      for (int i = 0; i < 5; ++i) s->Advance(20 * sim::kMs, 100'000);
    }
    EXPECT_EQ(a->SnapshotJson(), b->SnapshotJson());
  }
}

TEST(SessionRegistryTest, TheDescriptionListsEverySessionWithItsSchema) {
  auto v = ParseJson(DescribeSessionsJson());
  ASSERT_TRUE(v.ok()) << v.status().message();
  ASSERT_TRUE(v.value().is_array());
  ASSERT_EQ(v.value().array_items().size(), AllSessions().size());
  for (size_t i = 0; i < AllSessions().size(); ++i) {
    const SessionInfo& info = AllSessions()[i];
    const JsonValue& d = v.value().array_items()[i];
    EXPECT_EQ(d.Find("id")->string_value(), info.id);
    EXPECT_EQ(d.Find("lab")->string_value(), info.lab);
    EXPECT_EQ(d.Find("view")->string_value(), info.view);
    EXPECT_EQ(d.Find("script")->bool_value(), info.script);
    const auto& params = d.Find("params")->array_items();
    ASSERT_EQ(params.size(), info.params.size());
    for (size_t p = 0; p < params.size(); ++p) {
      EXPECT_EQ(params[p].Find("name")->string_value(), info.params[p].name);
      EXPECT_EQ(params[p].Find("live")->bool_value(), info.IsLive(info.params[p].name));
      for (const char* f : {"type", "default", "unit", "help"}) EXPECT_NE(params[p].Find(f), nullptr) << f;
    }
    const auto& ops = d.Find("ops")->array_items();
    ASSERT_EQ(ops.size(), info.ops.size());
    for (size_t o = 0; o < ops.size(); ++o) {
      EXPECT_EQ(ops[o].Find("name")->string_value(), info.ops[o].name);
      EXPECT_FALSE(ops[o].Find("help")->string_value().empty());
      const auto& args = ops[o].Find("args")->array_items();
      ASSERT_EQ(args.size(), info.ops[o].args.size());
      for (size_t a = 0; a < args.size(); ++a) EXPECT_EQ(args[a].Find("required")->bool_value(), info.ops[o].args[a].required);
    }
    EXPECT_EQ(d.Find("views")->array_items().size(), info.views.size());
  }
}

}  // namespace
}  // namespace fawnlab
