// The prototype experiments' shared runs: a window's requests generated once give the day
// driver's own report for that window, and the window's bounds are checked.
#include "srcmap/experiments/prototype_common.h"

#include <gtest/gtest.h>

namespace fawnlab::srcmap_exp {
namespace {

TEST(SrcmapPrototypeCommon, AWindowRunIsTheDayDriversRun) {
  auto tb = MakeTestbed(7, 0.05, 4);
  ASSERT_TRUE(tb.ok()) << tb.status().message();
  srcmap::DayConfig c;
  c.level = 3;
  c.from_h = 5;
  c.to_h = 9;
  const Window w = MakeWindow(tb.value(), c.from_h, c.to_h);
  auto a = RunOn(tb.value(), c);
  auto b = RunOnWindow(tb.value(), w, c);
  ASSERT_TRUE(a.ok() && b.ok());
  const srcmap::DayReport &x = a.value(), &y = b.value();
  // The window holds the warm start's interval before it too (hours 3-5), uncounted.
  size_t in_window = 0;
  for (const srcmap::Request& q : w.requests) in_window += q.t_ns >= 4 * srcmap::kDayNs + 5 * int64_t{3600000000000};
  EXPECT_LT(in_window, w.requests.size());
  EXPECT_EQ(x.requests, in_window);
  EXPECT_EQ(x.requests, y.requests);
  EXPECT_EQ(x.avg_watts, y.avg_watts);
  EXPECT_EQ(x.misses, y.misses);
  EXPECT_EQ(x.sync_ios, y.sync_ios);
  EXPECT_EQ(x.response_ns.count(), y.response_ns.count());
  EXPECT_EQ(x.response_ns.Quantile(0.9), y.response_ns.Quantile(0.9));
  ASSERT_EQ(x.minutes.size(), y.minutes.size());
  EXPECT_EQ(x.minutes.size(), 240u);
  for (size_t i = 0; i < x.minutes.size(); ++i) {
    EXPECT_NEAR(x.minutes[i].t_h, y.minutes[i].t_h, 1e-12);
    EXPECT_EQ(x.minutes[i].watts, y.minutes[i].watts);
  }
  EXPECT_NEAR(y.minutes.front().t_h, 5, 1e-12);
  ASSERT_EQ(x.spin_up_events.size(), y.spin_up_events.size());
  for (size_t i = 0; i < x.spin_up_events.size(); ++i) EXPECT_NEAR(x.spin_up_events[i].t_h, y.spin_up_events[i].t_h, 1e-12);
}

TEST(SrcmapPrototypeCommon, TheWindowMustEndByMidnight) {
  auto e = FindExperiment("srcmap.timeline");
  ASSERT_NE(e, nullptr);
  auto r = RunExperimentJson("srcmap.timeline", R"({"from_h": 20, "hours": 8})", 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("from_h (20) + hours (8) must end by 24:00"), std::string::npos)
      << r.status().message();
}

TEST(SrcmapPrototypeCommon, BandAnchorsAndTheirNote) {
  Result r;
  r.AddMetric("x", 12);
  r.AddMetric("y", 1);
  AddBandAnchor(&r, "x", 0, 8, Emergent("s", "w", "because"));
  AddBandAnchor(&r, "y", 0, 2, Emergent("s", "w", ""));
  EXPECT_EQ(r.anchors[0].second, 4);
  EXPECT_FALSE(r.tolerances[0].second.relative);
  EXPECT_EQ(r.tolerances[0].second.value, 4);
  CloseNotes(&r);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("(1 of 2 anchors): x = 12 (thesis < 8): because."), std::string::npos) << r.notes[0];
}

}  // namespace
}  // namespace fawnlab::srcmap_exp
