#include "srcmap/active.h"

#include <gtest/gtest.h>

namespace fawnlab::srcmap {
namespace {

std::vector<std::vector<int>> AllOthers(int n, int per) {
  std::vector<std::vector<int>> t;
  for (int v = 0; v < n; ++v)
    for (int s = 0; s < per; ++s) {
      std::vector<int> x;
      for (int j = 0; j < n; ++j)
        if (j != v) x.push_back(j);
      t.push_back(x);
    }
  return t;
}

// Fig 3.6: mdisks M1..M4 by descending P. The load needs two disks, so M3 and M4 (the smallest
// P) stay active. The inactive disk with the smaller P, V2 (the figure's V_k), chooses first and
// takes the first active disk in descending P, M3 (M_{k+1}); M3 is then full, so V1 goes to M4
// (M_N): large-P inactive disks land on small-P active ones.
TEST(SrcmapActive, Figure36Example) {
  ActiveInput in;
  in.p = {0.9, 0.7, 0.5, 0.3};           // M1..M4 (indices 0..3)
  in.capacity = {10, 10, 10, 10};
  in.unit_vdisk = {0, 1, 2, 3};
  in.unit_load = {3, 3, 5, 4};           // total 15 > 10: two disks
  in.unit_targets = AllOthers(4, 1);
  ActiveResult r = IdentifyActive(in);
  EXPECT_EQ(r.active, (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(r.selected, 2);
  EXPECT_EQ(r.added, 0);
  EXPECT_EQ(r.serve[1], 2);  // V2 -> M3: M3 has 10 - 5 = 5 spare, takes 3, 2 left
  EXPECT_EQ(r.serve[0], 3);  // V1 -> M4: M3's 2 is too little; M4 has 10 - 4 = 6
  EXPECT_EQ(r.serve[2], 2);
  EXPECT_EQ(r.serve[3], 3);
}

TEST(SrcmapActive, FailureAddsTheNextDisk) {
  ActiveInput in;
  in.p = {0.9, 0.7, 0.5, 0.3};
  in.capacity = {10, 10, 10, 10};
  in.unit_vdisk = {0, 1, 2, 3};
  in.unit_load = {3, 3, 5, 4};
  in.unit_targets = {{2}, {2}, {}, {}};  // V1 and V2 both only on M3, which has room for one
  ActiveResult r = IdentifyActive(in);
  EXPECT_EQ(r.added, 1);
  EXPECT_EQ(r.active, (std::vector<bool>{false, true, true, true}));
  EXPECT_EQ(r.serve[0], 2);
  EXPECT_EQ(r.serve[1], 1);
}

// §3.6.3's fragmentation example: 10 identical mdisks of capacity C with load C/2 + δ each.
// Step I picks 6 (6C > 5C + 10δ), but no disk can take a second vdisk, so every disk ends up
// active. Split into two sub-volumes, each active disk takes one other sub-volume: 7 suffice.
TEST(SrcmapActive, SubVolumesUndoFragmentation) {
  const double c = 100, d = 1;
  ActiveInput in;
  for (int i = 0; i < 10; ++i) {
    in.p.push_back(1.0 - 0.01 * i);
    in.capacity.push_back(c);
    in.unit_vdisk.push_back(i);
    in.unit_load.push_back(c / 2 + d);
  }
  in.unit_targets = AllOthers(10, 1);
  ActiveResult whole = IdentifyActive(in);
  EXPECT_EQ(whole.selected, 6);
  EXPECT_EQ(whole.added, 4);
  ActiveInput sub = in;
  sub.unit_vdisk.clear();
  sub.unit_load.clear();
  for (int i = 0; i < 10; ++i)
    for (int s = 0; s < 2; ++s) {
      sub.unit_vdisk.push_back(i);
      sub.unit_load.push_back(c / 4 + d / 2);
    }
  sub.unit_targets = AllOthers(10, 2);
  ActiveResult split = IdentifyActive(sub);
  int active = 0;
  for (bool a : split.active) active += a;
  EXPECT_EQ(active, 7);
}

TEST(SrcmapActive, AlwaysAtLeastOneDisk) {
  ActiveInput in;
  in.p = {0.5, 0.6};
  in.capacity = {10, 10};
  in.unit_vdisk = {0, 1};
  in.unit_load = {0, 0};
  in.unit_targets = {{1}, {0}};
  ActiveResult r = IdentifyActive(in);
  EXPECT_EQ(r.active, (std::vector<bool>{true, false}));
  EXPECT_EQ(r.serve[1], 0);
}

}  // namespace
}  // namespace fawnlab::srcmap
