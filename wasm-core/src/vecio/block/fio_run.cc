// RunFio (contract in fio_run.h).
#include "vecio/block/fio_run.h"

#include <algorithm>

namespace fawnlab::vecio::block {

double GapMode(const std::vector<uint64_t>& hist, int lo_us, int hi_us, int width_us) {
  const int last = static_cast<int>(hist.size()) - 1;  // the overflow bin is not a gap length
  int best = -1;
  uint64_t best_n = 0;
  for (int b = lo_us; b + width_us <= hi_us && b + width_us <= last; b += width_us) {
    uint64_t n = 0;
    for (int k = b; k < b + width_us; ++k) n += hist[static_cast<size_t>(k)];
    if (n > best_n) {
      best = b;
      best_n = n;
    }
  }
  return best < 0 ? 0 : best + width_us / 2.0;
}

StatusOr<FioResult> RunFio(const BlockConfig& c, sim::SimDuration warmup, sim::SimDuration measure, uint64_t seed) {
  Status st = Validate(c);
  if (!st.ok()) return st;
  sim::Simulator sim;
  BlockSim b(&sim, c, seed);
  const sim::SimTime t0 = warmup, t1 = warmup + measure;
  FioResult r;
  r.gap_hist.assign(401, 0);
  std::vector<double> issue;
  double last_c = -1, last_q = -1, min_gap = 1e18;
  std::vector<double> qq;
  uint64_t done = 0, irqs = 0, irq_done = 0;
  std::array<double, 4> phase_sum{};
  b.set_on_complete([&](const IoRecord& rec) {
    if (rec.c < t0 || rec.c >= t1) {
      last_c = rec.c;
      return;
    }
    ++done;
    if (last_c >= 0) {
      const double gap = (rec.c - last_c) / 1000.0;
      min_gap = std::min(min_gap, gap);
      r.gap_hist[static_cast<size_t>(std::min(400.0, gap))]++;
    }
    last_c = rec.c;
  });
  b.set_on_issue([&](const IoRecord& rec) {
    if (rec.q < t0 || rec.q >= t1) return;
    issue.push_back(rec.issue_cpu_ns / 1000.0);
    if (last_q >= 0) qq.push_back((rec.q - last_q) / 1000.0);
    last_q = rec.q;
  });
  b.set_on_irq([&](const IrqRecord& irq) {
    if (irq.t < t0 || irq.t >= t1) return;
    ++irqs;
    irq_done += irq.n;
  });
  b.Start();
  sim.RunUntil(t0, 50'000'000);
  const BlockCounters base = b.counters();
  sim.RunUntil(t1, 50'000'000);
  if (sim.now() < t1) return Status::Internal("block simulation ran out of its event budget");
  const BlockCounters& end = b.counters();
  const double secs = sim::NsToSec(measure);
  r.completed = done;
  r.iops = static_cast<double>(done) / secs;
  r.interrupts_per_s = static_cast<double>(irqs) / secs;
  r.completions_per_irq = irqs ? static_cast<double>(irq_done) / static_cast<double>(irqs) : 0;
  r.mbps = r.iops * (c.block_bytes / 1024.0) / 1000.0;
  const double issued = static_cast<double>(end.phase_events[0] - base.phase_events[0]);
  for (size_t p = 0; p < 4; ++p)
    r.phase_mean_us[p] = issued > 0 ? (end.phase_busy_ns[p] - base.phase_busy_ns[p]) / issued / 1000.0 : 0;
  (void)phase_sum;
  if (!issue.empty()) {
    std::sort(issue.begin(), issue.end());
    r.issue_min_us = issue.front();
    r.issue_median_us = issue[issue.size() / 2];
    double s = 0;
    for (double v : issue) s += v;
    r.issue_mean_us = s / static_cast<double>(issue.size());
  }
  if (!qq.empty()) {
    std::sort(qq.begin(), qq.end());
    r.qq_median_us = qq[qq.size() / 2];
  }
  r.min_gap_us = done > 1 ? min_gap : 0;
  r.max_ncq = b.device().max_outstanding();
  return r;
}

}  // namespace fawnlab::vecio::block
