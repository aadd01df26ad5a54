#include "vecio/run_point.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "sim/simulator.h"

namespace fawnlab::vecio {
namespace {

double Percentile(std::vector<double>* v, double q) {
  if (v->empty()) return 0;
  const size_t k = std::min(v->size() - 1, static_cast<size_t>(std::floor(q * static_cast<double>(v->size()))));
  std::nth_element(v->begin(), v->begin() + static_cast<long>(k), v->end());
  return (*v)[k];
}

// A run that offers more than the system can take grows its backlog without bound; the budget
// only stops a pathological config from hanging the caller.
constexpr uint64_t kEventBudget = 60'000'000;

}  // namespace

StatusOr<PointResult> RunPoint(const SystemConfig& c, sim::SimDuration warmup, sim::SimDuration measure, uint64_t seed) {
  if (warmup < 0 || measure <= 0) return Status::InvalidArgument("RunPoint: warmup must be >= 0 and measure > 0");
  sim::Simulator sim;
  auto made = VectorSystem::Create(&sim, c, seed);
  if (!made.ok()) return made.status();
  VectorSystem& s = *made.value();
  const sim::SimTime t0 = sim.now() + warmup, t1 = t0 + measure;
  std::vector<double> lat;
  double keys = 0, sum = 0;
  s.set_on_complete([&](sim::SimTime done, sim::SimDuration latency, int k) {
    if (done < t0 || done >= t1) return;
    lat.push_back(sim::NsToUs(latency));
    sum += sim::NsToUs(latency);
    keys += k;
  });
  s.Start();
  sim.RunUntil(t0, kEventBudget);
  const Counters before = s.counters();
  sim.RunUntil(t1, kEventBudget);
  if (sim.now() < t1) return Status::ResourceExhausted("RunPoint: the event budget ran out before the window ended");
  const Counters& after = s.counters();
  PointResult r;
  r.offered_per_s = c.load_per_s;
  r.rpcs = lat.size();
  r.throughput_per_s = keys / sim::NsToSec(measure);
  r.mean_us = lat.empty() ? 0 : sum / static_cast<double>(lat.size());
  r.p50_us = Percentile(&lat, 0.5);
  r.p99_us = Percentile(&lat, 0.99);
  double busy = 0;
  for (size_t k = 0; k < kCount; ++k) {
    const double ns = static_cast<double>(after.busy_ns[k] - before.busy_ns[k]);
    busy += ns;
    r.core_us_per_key[k] = keys > 0 ? ns / 1000.0 / keys : 0;
  }
  r.cores_busy = busy / static_cast<double>(measure);
  return r;
}

bool MeetsRule(const PointResult& p) { return p.rpcs > 0 && p.p50_us < kRuleP50Us && p.p99_us < kRuleP99Us; }

const PointResult* BestUnderRule(const std::vector<PointResult>& points) {
  const PointResult* best = nullptr;
  for (const PointResult& p : points) {
    if (MeetsRule(p) && (best == nullptr || p.offered_per_s > best->offered_per_s)) best = &p;
  }
  return best;
}

StatusOr<PointResult> SearchRule(SystemConfig c, double lo, double hi, int scan, int refine, sim::SimDuration warmup,
                                 sim::SimDuration measure, uint64_t seed, std::vector<PointResult>* trace) {
  if (!(lo > 0 && hi > lo && scan >= 2 && refine >= 0)) {
    return Status::InvalidArgument("SearchRule: needs 0 < lo < hi, scan >= 2, refine >= 0");
  }
  auto run = [&](double load) -> StatusOr<PointResult> {
    c.load_per_s = load;
    auto p = RunPoint(c, warmup, measure, seed);
    if (p.ok() && trace != nullptr) trace->push_back(p.value());
    return p;
  };
  // The scan runs every load (the queue pattern's latency is U-shaped: low loads may fail the
  // rule while higher ones pass); the refinement lies between the highest passing load and
  // the next one up.
  const double ratio = std::pow(hi / lo, 1.0 / (scan - 1));
  PointResult pass;
  bool have = false;
  double fail = 0;
  for (int i = 0; i < scan; ++i) {
    const double load = i + 1 == scan ? hi : lo * std::pow(ratio, i);
    auto p = run(load);
    if (!p.ok()) return p.status();
    if (MeetsRule(p.value())) {
      pass = p.value();
      have = true;
      fail = 0;
    } else if (have && fail == 0) {
      fail = load;
    }
  }
  if (!have) return Status::InvalidArgument("SearchRule: no load in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]/s meets the rule");
  if (fail == 0) return pass;
  for (int i = 0; i < refine; ++i) {
    const double mid = std::sqrt(pass.offered_per_s * fail);
    auto p = run(mid);
    if (!p.ok()) return p.status();
    if (MeetsRule(p.value())) {
      pass = p.value();
    } else {
      fail = mid;
    }
  }
  return pass;
}

}  // namespace fawnlab::vecio
