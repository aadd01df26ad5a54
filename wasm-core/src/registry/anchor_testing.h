// Test helpers for experiment suites: run an experiment by JSON parameters (checking that every
// anchor says whether it was fitted or emergent, and where it comes from), and assert that every
// anchored metric lies within its tolerance. GoogleTest only (tests include this).
#ifndef FAWNLAB_REGISTRY_ANCHOR_TESTING_H_
#define FAWNLAB_REGISTRY_ANCHOR_TESTING_H_

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "registry/experiments.h"

namespace fawnlab::exptest {

// Whether `metric` lies within its anchor's tolerance (REQUIRES: anchor i exists).
inline bool WithinTolerance(const Result& r, size_t i) {
  const auto& [metric, want] = r.anchors[i];
  const Tolerance& tol = r.tolerances[i].second;
  const double allowed = tol.relative ? tol.value * std::fabs(want) : tol.value;
  return std::fabs(r.Metric(metric) - want) <= allowed;
}

// Every anchor has a note, in the same order: a basis, a source and a why.
inline void ExpectAnchorNotes(const Result& r) {
  ASSERT_EQ(r.anchor_notes.size(), r.anchors.size()) << r.id;
  for (size_t i = 0; i < r.anchors.size(); ++i) {
    const std::string& metric = r.anchors[i].first;
    const AnchorNote& note = r.anchor_notes[i].second;
    EXPECT_EQ(r.anchor_notes[i].first, metric) << r.id;
    EXPECT_TRUE(note.basis == AnchorBasis::kFitted || note.basis == AnchorBasis::kEmergent) << r.id << " " << metric;
    EXPECT_FALSE(note.source.empty()) << r.id << " " << metric << ": no source";
    EXPECT_FALSE(note.why.empty()) << r.id << " " << metric << ": no why";
  }
}

// Every anchor the run misses carries the model's reason (for runs at the paper's setting:
// elsewhere an anchor may miss only because the parameters are not the paper's).
inline void ExpectMissesExplained(const Result& r) {
  for (size_t i = 0; i < r.anchors.size() && i < r.anchor_notes.size(); ++i) {
    if (WithinTolerance(r, i)) continue;
    EXPECT_FALSE(r.anchor_notes[i].second.miss.empty()) << r.id << " " << r.anchors[i].first << " misses its anchor ("
                                                        << r.Metric(r.anchors[i].first) << " vs " << r.anchors[i].second
                                                        << ") without saying why";
  }
}

// Runs `id` with JSON `params`; a failure is a test failure and an empty Result.
inline Result MustRun(const std::string& id, const std::string& params, uint64_t seed = 1) {
  auto r = RunExperimentJson(id, params, seed, nullptr);
  EXPECT_TRUE(r.ok()) << id << ": " << r.status().message();
  if (r.ok()) ExpectAnchorNotes(r.value());
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

#endif  // FAWNLAB_REGISTRY_ANCHOR_TESTING_H_
