#include "ycsb/closed_loop.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "ycsb/keys.h"

namespace fawnlab::ycsb {
namespace {

// A store in a map: each operation completes 1 µs after its call, in call order. `fault`
// makes it misbehave on one record's key.
struct MapStore {
  enum class Fault { kNone, kWrongValue, kLoseWrites, kRefusePut, kNeverAnswer };
  sim::Simulator sim;
  std::map<std::string, std::string> data;
  Fault fault = Fault::kNone;
  std::string fault_key;
};

class MapLoop : public ClosedLoop {
 public:
  MapLoop(MapStore* s, std::vector<uint32_t>* versions, int clients, const PhaseSpec& spec,
          const std::function<bool(double)>& progress, std::vector<uint64_t>* samples, OpCounts* counts)
      : ClosedLoop(&s->sim, versions, 20, 64, clients, spec, progress), s_(s), samples_(samples), counts_(counts) {}

 protected:
  Status StorePut(uint64_t, const std::string& key, const std::string& value, Done done) override {
    const bool faulty = key == s_->fault_key;
    if (faulty && s_->fault == MapStore::Fault::kRefusePut) return Status::InvalidArgument("log full");
    if (faulty && s_->fault == MapStore::Fault::kNeverAnswer) return Status::Ok();
    if (!(faulty && s_->fault == MapStore::Fault::kLoseWrites)) s_->data[key] = value;
    s_->sim.Schedule(s_->sim.now() + 1000, [done = std::move(done)] { done(Status::Ok()); });
    return Status::Ok();
  }
  Status StoreGet(const std::string& key, GetDone done) override {
    auto it = s_->data.find(key);
    Status st = it == s_->data.end() ? Status::NotFound("no such key") : Status::Ok();
    std::string v = it == s_->data.end() ? "" : it->second;
    if (key == s_->fault_key && s_->fault == MapStore::Fault::kWrongValue) v += "!";
    s_->sim.Schedule(s_->sim.now() + 1000, [st, v, done = std::move(done)] { done(st, v); });
    return Status::Ok();
  }
  Status StoreScan(uint64_t, const std::string&, int, Done done) override {
    s_->sim.Schedule(s_->sim.now() + 1000, [done = std::move(done)] { done(Status::Ok()); });
    return Status::Ok();
  }
  void OnWriteDone(uint64_t, sim::SimTime issued) override { EXPECT_EQ(sim()->now() - issued, 1000); }
  void Begin() override { samples_->clear(); }
  void Sample(uint64_t completed) override { samples_->push_back(completed); }
  void Finish(const OpCounts& counts) override { *counts_ = counts; }

 private:
  MapStore* s_;
  std::vector<uint64_t>* samples_;
  OpCounts* counts_;
};

struct Outcome {
  Status status;
  OpCounts load, run;
  std::vector<uint64_t> load_samples, samples;
};

Outcome RunOn(MapStore* s, const RunConfig& c, uint64_t records, const std::function<bool(double)>& progress = {}) {
  Outcome out;
  auto plan = PlanRun(c, records);
  if (!plan.ok()) {
    out.status = plan.status();
    return out;
  }
  std::vector<uint32_t> versions(records, 0);
  out.status = RunPhasesInto(
      c, plan.value(), &out,
      [&](const PhaseSpec& p, OpCounts* counts, std::vector<uint64_t>* samples) {
        return MapLoop(s, &versions, c.clients, p, progress, samples, counts);
      },
      [] { return Status::Ok(); });
  return out;
}

TEST(YcsbClosedLoop, LoadsThenRunsEveryWorkloadReadingBackEveryValue) {
  for (const char* w : {"a", "b", "c", "d", "e", "f"}) {
    MapStore s;
    RunConfig c;
    c.workload = w;
    c.operations = 900;
    c.clients = 3;
    c.sample_every = 100;
    Outcome o = RunOn(&s, c, 600);
    ASSERT_TRUE(o.status.ok()) << w << ": " << o.status.message();
    EXPECT_EQ(o.load.ops, 600u);
    EXPECT_EQ(o.load.inserts, 600u);
    EXPECT_EQ(o.load.writes, 600u);
    EXPECT_EQ(o.load_samples, (std::vector<uint64_t>{100, 200, 300, 400, 500, 600}));
    EXPECT_EQ(o.run.not_found, 0u);
    EXPECT_EQ(o.run.reads + o.run.updates + o.run.inserts + o.run.scans + o.run.rmws, o.run.ops)
        << w << ": a RMW weighs two, its read counted in reads";
    EXPECT_GE(o.run.ops, 900u) << w;
    EXPECT_LE(o.run.ops, 901u) << w << ": one RMW may pass the count by one";
    EXPECT_EQ(o.samples.back(), o.run.ops) << w << ": a last sample at the phase's end";
  }
}

TEST(YcsbClosedLoop, ReadModifyWriteWeighsAsRunConfigSays) {
  MapStore two, one;
  RunConfig c;
  c.workload = "f";
  c.operations = 500;
  Outcome a = RunOn(&two, c, 300);
  c.rmw_counts_two = false;
  Outcome b = RunOn(&one, c, 300);
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  EXPECT_EQ(a.run.reads + a.run.writes, a.run.ops);
  EXPECT_EQ(b.run.ops, 500u);
  EXPECT_EQ(b.run.reads, 500u) << "every F operation reads once";
  EXPECT_EQ(b.run.writes, b.run.rmws);
}

TEST(YcsbClosedLoop, AWrongOrMissingValueFailsNamingTheRecord) {
  std::string key;
  KeyFor(7, 20, &key);
  MapStore wrong;
  wrong.fault = MapStore::Fault::kWrongValue;
  wrong.fault_key = key;
  RunConfig c;
  c.workload = "c";
  c.operations = 2000;
  Outcome o = RunOn(&wrong, c, 50);
  EXPECT_EQ(o.status.code(), StatusCode::kInternal);
  EXPECT_NE(o.status.message().find("record 7 returned the wrong value"), std::string::npos) << o.status.message();

  MapStore lost;
  lost.fault = MapStore::Fault::kLoseWrites;
  lost.fault_key = key;
  o = RunOn(&lost, c, 50);
  EXPECT_EQ(o.status.code(), StatusCode::kInternal);
  EXPECT_NE(o.status.message().find("record 7 found nothing"), std::string::npos) << o.status.message();
}

TEST(YcsbClosedLoop, ARefusedPutAndAStallAreErrors) {
  std::string key;
  KeyFor(3, 20, &key);
  MapStore refuse;
  refuse.fault = MapStore::Fault::kRefusePut;
  refuse.fault_key = key;
  RunConfig c;
  c.run = false;
  Outcome o = RunOn(&refuse, c, 10);
  EXPECT_EQ(o.status.code(), StatusCode::kInternal);
  EXPECT_NE(o.status.message().find("put of record 3 refused: log full"), std::string::npos) << o.status.message();

  MapStore silent;
  silent.fault = MapStore::Fault::kNeverAnswer;
  silent.fault_key = key;
  o = RunOn(&silent, c, 10);
  EXPECT_EQ(o.status.code(), StatusCode::kInternal);
  EXPECT_NE(o.status.message().find("stalled: 3 of 10"), std::string::npos) << o.status.message();
}

TEST(YcsbClosedLoop, ProgressSpansBothPhasesAndCanCancel) {
  MapStore s;
  RunConfig c;
  c.operations = 20000;
  std::vector<double> seen;
  Outcome o = RunOn(&s, c, 20000, [&](double f) {
    seen.push_back(f);
    return true;
  });
  ASSERT_TRUE(o.status.ok()) << o.status.message();
  ASSERT_GT(seen.size(), 4u);
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]);
  EXPECT_LT(seen.front(), 0.1);
  EXPECT_GT(seen.back(), 0.9);
  EXPECT_LE(seen.back(), 1.0);

  MapStore t;
  o = RunOn(&t, c, 20000, [](double f) { return f < 0.25; });
  EXPECT_EQ(o.status.code(), StatusCode::kCancelled);
}

TEST(YcsbClosedLoop, PlanRunChecksTheConfig) {
  RunConfig c;
  c.workload = "z";
  auto p = PlanRun(c, 10);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("parameter 'workload'"), std::string::npos);
  c.workload = "a";
  c.clients = 0;
  p = PlanRun(c, 10);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("'clients' must be in 1..1024"), std::string::npos);
  c.clients = 1;
  c.operations = 0;
  p = PlanRun(c, 10);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.value().load, 10u);
  EXPECT_EQ(p.value().ops, 10u) << "0 operations: as many as the records";
  c.load = false;
  c.run = false;
  p = PlanRun(c, 10);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.value().load + p.value().ops, 0u);
}

}  // namespace
}  // namespace fawnlab::ycsb
