#include "fawnkv/history_text.h"

#include <gtest/gtest.h>

namespace fawnlab::fawnkv {
namespace {

TEST(HistoryText, ParsesEveryKindAndChecksIt) {
  const std::string text =
      "put\tk\tv1\t0\t0\t10\t1\n"
      "get\tk\tv1\t1\t20\t30\t1\n"
      "del\tk\t\t0\t40\t50\t1\n"
      "get\tk\t\t0\t60\t70\t1\n"
      "put\tk\tv2\t0\t80\t-1\t0\n";
  auto h = ParseHistoryText(text);
  ASSERT_TRUE(h.ok()) << h.status().message();
  ASSERT_EQ(h.value().size(), 5u);
  EXPECT_EQ(h.value().op(2).kind, HistoryOp::Kind::kDelete);
  EXPECT_EQ(h.value().op(4).complete_ns, -1);
  const std::string report = CheckHistoryText(text);
  EXPECT_NE(report.find("\"violations\": 0"), std::string::npos) << report;
}

TEST(HistoryText, AStaleReadIsAViolation) {
  // v2 acknowledged at 30, then a get invoked at 40 returns v1.
  const std::string report = CheckHistoryText(
      "put\tk\tv1\t0\t0\t10\t1\nput\tk\tv2\t0\t20\t30\t1\nget\tk\tv1\t1\t40\t50\t1\n");
  EXPECT_NE(report.find("\"violations\": 1"), std::string::npos) << report;
}

TEST(HistoryText, BadLinesAreNamed) {
  EXPECT_EQ(ParseHistoryText("put\tk\tv\t0\t0\t1\n").status().message(), "history line 1: expected 7 tab-separated fields, got 6");
  EXPECT_EQ(ParseHistoryText("\nset\tk\tv\t0\t0\t1\t1\n").status().message(), "history line 2: kind must be put, get or del, got 'set'");
  EXPECT_EQ(ParseHistoryText("get\tk\t\t2\t0\t1\t1\n").status().message(), "history line 1: found must be 0 or 1");
  EXPECT_EQ(ParseHistoryText("get\tk\t\t0\tx\t1\t1\n").status().message(), "history line 1: invoke ns must be an integer ≥ 0");
  EXPECT_EQ(ParseHistoryText("get\tk\t\t0\t5\t1\t1\n").status().message(),
            "history line 1: an ok operation must complete no earlier than it was invoked");
  EXPECT_NE(CheckHistoryText("bogus").find("\"ok\": false"), std::string::npos);
}

}  // namespace
}  // namespace fawnlab::fawnkv
