// Test helpers for experiment suites: run an experiment by JSON parameters, and assert that
// every anchored metric lies within its tolerance. GoogleTest only (tests include this).
#ifndef FAWNLAB_EXPERIMENTS_ANCHOR_TESTING_H_
#define FAWNLAB_EXPERIMENTS_ANCHOR_TESTING_H_

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "experiments/registry.h"

namespace fawnlab::exptest {

// Runs `id` with JSON `params`; a failure is a test failure and an empty Result.
inline Result MustRun(const std::string& id, const std::string& params, uint64_t seed = 1) {
  auto r = RunExperimentJson(id, params, seed, nullptr);
  EXPECT_TRUE(r.ok()) << id << ": " << r.status().message();
  return r.ok() ? r.value() : Result{};
}

// Every anchor of `r` is met within its tolerance (and there is at least one).
inline void ExpectAnchorsMet(const Result& r) {
  ASSERT_FALSE(r.anchors.empty()) << r.id << ": no anchors";
  for (size_t i = 0; i < r.anchors.size(); ++i) {
    const auto& [metric, want] = r.anchors[i];
    const Tolerance& tol = r.tolerances[i].second;
    const double allowed = tol.relative ? tol.value * std::fabs(want) : tol.value;
    EXPECT_NEAR(r.Metric(metric), want, allowed) << r.id << " " << metric << " seed " << r.seed;
  }
}

}  // namespace fawnlab::exptest

#endif  // FAWNLAB_EXPERIMENTS_ANCHOR_TESTING_H_
