#include "sim/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/rng.h"

namespace fawnlab::sim {
namespace {

TEST(EventQueue, PopsInTimeThenScheduleOrder) {
  EventQueue q;
  q.Push(30, nullptr, 0);
  q.Push(10, nullptr, 1);
  q.Push(30, nullptr, 2);
  q.Push(10, nullptr, 3);
  q.Push(20, nullptr, 4);
  std::vector<uint64_t> tags;
  while (!q.empty()) tags.push_back(q.Pop().tag);
  EXPECT_EQ(tags, (std::vector<uint64_t>{1, 3, 4, 0, 2}));
}

TEST(EventQueue, RandomizedAgainstSortedModel) {
  const uint64_t seed = 20261121;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  Rng rng(seed);
  EventQueue q;
  std::vector<std::tuple<SimTime, uint64_t, uint64_t>> model;  // (time, seq, tag)
  uint64_t seq = 0;
  for (int round = 0; round < 60000; ++round) {
    if (model.empty() || rng.UniformU64(3) != 0) {
      SimTime t = static_cast<SimTime>(rng.UniformU64(1000));  // many ties
      uint64_t tag = rng.NextU64();
      q.Push(t, nullptr, tag);
      model.emplace_back(t, seq++, tag);
    } else {
      auto it = std::min_element(model.begin(), model.end());
      Event e = q.Pop();
      ASSERT_EQ(e.time, std::get<0>(*it));
      ASSERT_EQ(e.seq, std::get<1>(*it));
      ASSERT_EQ(e.tag, std::get<2>(*it));
      model.erase(it);
    }
    ASSERT_EQ(q.size(), model.size());
  }
}

}  // namespace
}  // namespace fawnlab::sim
