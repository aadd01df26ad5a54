#include "srcmap/placement.h"

#include <gtest/gtest.h>

namespace fawnlab::srcmap {
namespace {

// Three vdisks, equal weights; every number below is worked by hand in the comments.
std::vector<VdiskFacts> Three() {
  return {VdiskFacts{10, 1, 10, 0}, VdiskFacts{20, 1, 5, 0}, VdiskFacts{40, 2, 1, 0}};
}
std::vector<PlacementUnit> Whole(const std::vector<VdiskFacts>& v) {
  std::vector<PlacementUnit> u;
  for (size_t i = 0; i < v.size(); ++i) u.push_back(PlacementUnit{static_cast<int>(i), v[i].ws_bytes, 0});
  return u;
}

TEST(SrcmapPlacement, Eq32ByHand) {
  auto p = OrderingP(Three(), PlacementWeights{}).value();
  // P0 = .25(10/10) + .25(1/1) + .25(1/10) + .25(1/1) = 0.775
  // P1 = .25(10/20) + .25(1/1) + .25(1/5)  + .25      = 0.675
  // P2 = .25(10/40) + .25(1/2) + .25(1/1)  + .25      = 0.6875
  EXPECT_DOUBLE_EQ(p[0], 0.775);
  EXPECT_DOUBLE_EQ(p[1], 0.675);
  EXPECT_DOUBLE_EQ(p[2], 0.6875);
  // Misses, add-one smoothed: m = (0, 3, 1) gives the last terms .25, .25/4, .25/2.
  auto v = Three();
  v[1].misses = 3;
  v[2].misses = 1;
  auto q = OrderingP(v, PlacementWeights{}).value();
  EXPECT_DOUBLE_EQ(q[1], 0.675 - 0.25 + 0.0625);
  EXPECT_DOUBLE_EQ(q[2], 0.6875 - 0.25 + 0.125);
  // Only one weight: P is that term alone.
  auto r = OrderingP(Three(), PlacementWeights{1, 0, 0, 0}).value();
  EXPECT_DOUBLE_EQ(r[2], 0.25);
}

TEST(SrcmapPlacement, GreedyFillByHand) {
  auto v = Three();
  auto pl = PlaceReplicas(v, Whole(v), {30, 30, 30}, PlacementWeights{}).value();
  // Targets by P: M0 (.775), M2 (.6875), M1 (.675).
  EXPECT_EQ(pl.target_order, (std::vector<int>{0, 2, 1}));
  // M0: V2 (w .6875, 40 > 30) skipped; V1 (w .675) placed; Eq 3.3: w(V1,*) = .775 × .675.
  // M2: V0 (.775) placed, V1 (.523) placed (10 + 20 = 30). M1: V2 (.6875) skipped, V0 (.533) placed.
  EXPECT_EQ(pl.targets[0], (std::vector<int>{2, 1}));
  EXPECT_EQ(pl.targets[1], (std::vector<int>{0, 2}));
  EXPECT_TRUE(pl.targets[2].empty());
  EXPECT_EQ(pl.used_bytes, (std::vector<double>{20, 10, 30}));
  ASSERT_GE(pl.steps.size(), 2u);
  EXPECT_EQ(pl.steps[0].unit, 2);
  EXPECT_FALSE(pl.steps[0].placed);
  EXPECT_DOUBLE_EQ(pl.steps[0].weight, 0.6875);
  // At M2, V1's edge carries Eq 3.3's recalibrated weight P0·P1.
  bool found = false;
  for (const auto& s : pl.steps) {
    if (s.target == 2 && s.unit == 1) {
      EXPECT_DOUBLE_EQ(s.weight, 0.775 * 0.675);
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(SrcmapPlacement, Eq33DecidesTheLastTarget) {
  // M1 with 45: V2 (no replica yet, w .6875) now outranks V0 (w .6875 × .775 = .533 after its
  // replica on M2) and takes 40, leaving 5, too little for V0. Without Eq 3.3, V0 (.775) would
  // come first and V2 would not fit.
  auto v = Three();
  auto pl = PlaceReplicas(v, Whole(v), {30, 45, 30}, PlacementWeights{}).value();
  EXPECT_EQ(pl.targets[0], (std::vector<int>{2}));
  EXPECT_EQ(pl.targets[1], (std::vector<int>{0, 2}));
  EXPECT_EQ(pl.targets[2], (std::vector<int>{1}));
}

TEST(SrcmapPlacement, SubVolumesNeverShareATarget) {
  auto v = Three();
  std::vector<PlacementUnit> u;
  for (int i = 0; i < 3; ++i)
    for (int s = 0; s < 2; ++s) u.push_back(PlacementUnit{i, v[static_cast<size_t>(i)].ws_bytes / 2, 1});
  auto pl = PlaceReplicas(v, u, {100, 100, 100}, PlacementWeights{}).value();
  for (size_t j = 0; j < 3; ++j) {
    std::vector<int> seen;
    for (int h : pl.hosted[j]) {
      int vd = u[static_cast<size_t>(h)].vdisk;
      EXPECT_NE(vd, static_cast<int>(j));
      for (int s : seen) EXPECT_NE(s, vd);
      seen.push_back(vd);
    }
    EXPECT_EQ(pl.hosted[j].size(), 2u);  // one sub-volume of each other vdisk
  }
}

TEST(SrcmapPlacement, RejectsBadInput) {
  EXPECT_FALSE(OrderingP({}, PlacementWeights{}).ok());
  auto v = Three();
  v[1].ppr = 0;
  EXPECT_FALSE(OrderingP(v, PlacementWeights{}).ok());
  EXPECT_FALSE(PlaceReplicas(Three(), Whole(Three()), {1, 2}, PlacementWeights{}).ok());
}

}  // namespace
}  // namespace fawnlab::srcmap
