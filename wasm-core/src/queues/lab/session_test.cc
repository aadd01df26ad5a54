#include "queues/lab/session.h"

#include <gtest/gtest.h>

#include <string>

#include "base/json_reader.h"

namespace fawnlab::queues {
namespace {

JsonValue Snap(QueueSession& s) {
  auto v = ParseJson(s.SnapshotJson());
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.value();
}

TEST(QueueSession, RunsAndReportsCountersNearTheory) {
  auto s = QueueSession::Create(R"({"servers": 2, "arrival_rate_per_s": 150000, "service_us": 10})", 3);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  QueueSession& q = *s.value();
  q.Advance(2 * sim::kSec, 100000000);
  JsonValue snap = Snap(q);
  const JsonValue& c = *snap.Find("counters");
  const JsonValue& th = *snap.Find("theory");
  EXPECT_EQ(th.Find("model")->string_value(), "M/M/2");
  EXPECT_NEAR(th.Find("rho")->number_value(), 0.75, 1e-12);
  double mean = c.Find("mean_response_us")->number_value();
  EXPECT_NEAR(mean, th.Find("mean_response_us")->number_value(), 0.05 * mean);
  EXPECT_NEAR(c.Find("mean_in_system")->number_value(), c.Find("littles_x_times_r")->number_value(), 0.02);
  EXPECT_EQ(snap.Find("servers")->array_items().size(), 2u);
  EXPECT_EQ(snap.Find("recent")->array_items().size(), static_cast<size_t>(QueueSession::kRecentDepartures));
  EXPECT_EQ(snap.Find("now_ns")->number_value(), 2e9);
}

TEST(QueueSession, SameSeedSameSnapshots) {
  auto a = QueueSession::Create("{}", 9);
  auto b = QueueSession::Create("{}", 9);
  for (int i = 0; i < 50; ++i) {
    a.value()->Step();
    b.value()->Step();
  }
  a.value()->Advance(1000000, 1000);
  b.value()->Advance(1000000, 1000);
  EXPECT_EQ(a.value()->SnapshotJson(), b.value()->SnapshotJson());
}

TEST(QueueSession, StepRunsOneEventAndQueueBoundDrops) {
  auto s = QueueSession::Create(R"({"arrival_rate_per_s": 1000000, "service_us": 1000, "queue_limit": 5})", 1);
  QueueSession& q = *s.value();
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(q.Step());
  JsonValue snap = Snap(q);
  EXPECT_EQ(snap.Find("queue_length")->number_value(), 5);
  EXPECT_GT(snap.Find("counters")->Find("dropped")->number_value(), 100);
  EXPECT_FALSE(snap.Find("theory")->Find("stable")->bool_value());
}

TEST(QueueSession, ReconfigureChangesRateAndRejectsStructuralChanges) {
  auto s = QueueSession::Create("{}", 1);
  QueueSession& q = *s.value();
  q.Advance(sim::kMs, 1000000);
  EXPECT_TRUE(q.Reconfigure(R"({"arrival_rate_per_s": 20000, "service": "deterministic"})").ok());
  EXPECT_EQ(q.config().arrival_rate_per_s, 20000);
  EXPECT_EQ(Snap(q).Find("theory")->Find("model")->string_value(), "M/D/1");
  Status bad = q.Reconfigure(R"({"servers": 3})");
  EXPECT_EQ(bad.message(), "parameter 'servers' cannot change while the queue runs (only arrival_rate_per_s, service_us, service); start a new session");
  Status range = q.Reconfigure(R"({"service_us": -1})");
  EXPECT_NE(range.message().find("out of range"), std::string::npos);
}

TEST(QueueSession, BadConfigIsAClearError) {
  auto s = QueueSession::Create(R"({"servers": 99})", 1);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "parameter 'servers' = 99 is out of range [1, 16] servers for the queue");
  auto t = QueueSession::Create("{oops", 1);
  EXPECT_NE(t.status().message().find("JSON error at byte 1"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab::queues
