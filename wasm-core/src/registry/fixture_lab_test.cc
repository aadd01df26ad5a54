// A fixture lab compiled only into the test build, written by following docs/adding-a-lab.md
// ("C++ core"): a tick counter — a simulator event every `period_us` adds `step` to a count —
// with one operation, one column view, a live field and a fixed one. It registers through the
// same kind of function a real lab lists in registry/sessions.cc, and is then driven only
// through the registry's contract (CreateSession, Apply, Columns, Reconfigure,
// DescribeSessionsJson), as the bindings drive a real lab.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "registry/sessions.h"
#include "sim/simulator.h"

namespace fawnlab {
namespace ticklab {

// The session: what a lab's <system>/lab/session.{h,cc} holds.
class TickSession : public LabSession, private sim::EventHandler {
 public:
  static constexpr size_t kHistory = 8;

  TickSession(const ParamValues& config, uint64_t seed) : step_(config.Int("step")), period_us_(config.Real("period_us")) {
    count_ = static_cast<uint64_t>(config.Int("start")) + seed % 2;  // the seed shows in the run
    sim_.At(Period(), this);
  }

  std::string SnapshotJson() override {
    JsonWriter w;
    w.BeginObject();
    w.Key("now_ns");
    w.Number(static_cast<double>(sim_.now()));
    w.Key("count");
    w.Number(static_cast<double>(count_));
    w.EndObject();
    return w.str();
  }
  uint64_t version() override { return ticks_; }

 protected:
  sim::Simulator* simulator() override { return &sim_; }
  StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue&) override {
    // The registry has checked the name and the arguments against the schema.
    count_ += static_cast<uint64_t>(args.Has("amount") ? args.Int("amount") : 1);
    return "{\"op\": \"" + name + "\", \"count\": " + std::to_string(count_) + "}";
  }
  Status Reconfigured(const ParamValues& config, const ParamValues&) override {
    step_ = config.Int("step");
    return Status::Ok();
  }
  StatusOr<ColumnSet> View(const std::string&, const ParamValues& args) override {
    const size_t n = std::min<size_t>(static_cast<size_t>(args.Int("last")), history_.size());
    ColumnSet c;
    c.U32("counts", std::vector<uint32_t>(history_.end() - static_cast<long>(n), history_.end()));
    c.Number("count", static_cast<double>(count_));
    return c;
  }

 private:
  sim::SimDuration Period() const { return static_cast<sim::SimDuration>(period_us_ * 1000); }
  void OnEvent(sim::Simulator& sim, uint64_t) override {
    count_ += static_cast<uint64_t>(step_);
    ++ticks_;
    history_.push_back(static_cast<uint32_t>(count_));
    if (history_.size() > kHistory) history_.erase(history_.begin());
    sim.At(sim.now() + Period(), this);
  }

  sim::Simulator sim_;
  long long step_;
  double period_us_;
  uint64_t count_ = 0, ticks_ = 0;
  std::vector<uint32_t> history_;
};

// The registration: what a lab's <system>/lab/schema.cc holds.
void RegisterTickSessions(std::vector<SessionInfo>* out) {
  SessionInfo s;
  s.id = "ticklab";
  s.lab = "ticklab";
  s.title = "Tick counter";
  s.summary = "A counter that a periodic event advances (a test fixture).";
  s.noun = "the tick counter";
  s.params = {
      ParamSpec::Int("start", 0, 0, 1000, "", "the count at creation"),
      ParamSpec::Int("step", 1, 1, 100, "", "added at every tick"),
      ParamSpec::Real("period_us", 1000, 1, 1e6, "µs", "time between ticks"),
  };
  s.live = {"step"};
  s.script = true;
  s.ops = {{"add", "add to the count", {{ParamSpec::Int("amount", 1, 1, 50, "", "how much"), false}}}};
  s.views = {{"history", "the count after each of the last ticks", {ParamSpec::Int("last", 4, 1, 8, "ticks", "how many")}}};
  s.create = [](const ParamValues& config, uint64_t seed) -> StatusOr<std::unique_ptr<LabSession>> {
    return std::unique_ptr<LabSession>(new TickSession(config, seed));
  };
  out->push_back(std::move(s));
}

// A real lab's Register function is one line in registry/sessions.cc; a test-only lab adds
// itself before the registry is first used.
const bool kRegistered = AddSessionRegistrar(&RegisterTickSessions);

TEST(FixtureLabTest, RegisteredAndDescribedLikeARealLab) {
  ASSERT_TRUE(kRegistered);
  ASSERT_NE(FindSession("ticklab"), nullptr);
  auto d = ParseJson(DescribeSessionsJson());
  ASSERT_TRUE(d.ok());
  const JsonValue* tick = nullptr;
  for (const JsonValue& s : d.value().array_items()) tick = s.Find("id")->string_value() == "ticklab" ? &s : tick;
  ASSERT_NE(tick, nullptr);
  EXPECT_EQ(tick->Find("params")->array_items()[1].Find("live")->bool_value(), true);
  EXPECT_EQ(tick->Find("params")->array_items()[0].Find("live")->bool_value(), false);
  EXPECT_EQ(tick->Find("ops")->array_items()[0].Find("args")->array_items()[0].Find("required")->bool_value(), false);
  EXPECT_EQ(tick->Find("views")->array_items()[0].Find("name")->string_value(), "history");
}

TEST(FixtureLabTest, DrivenThroughTheContract) {
  auto made = CreateSession("ticklab", R"({"start": 10, "script": [{"op": "add", "amount": 5}]})", 2);
  ASSERT_TRUE(made.ok()) << made.status().message();
  LabSession& s = *made.value();
  EXPECT_EQ(ParseJson(s.SnapshotJson()).value().Find("count")->number_value(), 15) << "the script ran at creation";
  EXPECT_EQ(s.Advance(3500 * sim::kUs, 100), 3u);
  EXPECT_EQ(s.version(), 3u);
  ASSERT_TRUE(s.Reconfigure(R"({"step": 10})").ok());
  EXPECT_TRUE(s.Step());
  auto r = s.Apply(R"({"op": "add"})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(ParseJson(r.value()).value().Find("count")->number_value(), 15 + 3 + 10 + 1);
  auto c = s.Columns("history", R"({"last": 2})");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c.value().Find("counts")->u32, (std::vector<uint32_t>{18, 28}));
  EXPECT_EQ(c.value().Find("count")->number, 29);

  // The registry refuses what the schema does not allow, naming it; the session never sees it.
  EXPECT_NE(s.Reconfigure(R"({"start": 3})").message().find("'start' cannot change while the tick counter runs"), std::string::npos);
  EXPECT_NE(s.Apply(R"({"op": "add", "amount": 99})").status().message().find("'amount' must be an integer in [1, 50]"), std::string::npos);
  EXPECT_NE(s.Columns("history", R"({"last": 9})").status().message().find("'last'"), std::string::npos);
  auto bad = CreateSession("ticklab", R"({"period_us": 0})", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'period_us'"), std::string::npos);
}

}  // namespace ticklab
}  // namespace fawnlab
