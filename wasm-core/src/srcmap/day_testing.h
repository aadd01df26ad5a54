// Test helper: a day report as text, every field (the additions included), so that two runs
// are the same day when their digests are equal.
#ifndef FAWNLAB_SRCMAP_DAY_TESTING_H_
#define FAWNLAB_SRCMAP_DAY_TESTING_H_

#include <cstdio>
#include <string>

#include "srcmap/day.h"

namespace fawnlab::srcmap {

// Every field of the report, additions included, as text.
inline std::string DayDigest(const DayReport& r) {
  std::string s = r.policy;
  auto add = [&](double x) {
    char b[32];
    std::snprintf(b, sizeof b, " %.17g", x);
    s += b;
  };
  for (double x : {r.hours, r.avg_watts, r.avg_spinning, r.per_disk_sum_watts, r.ideal_watts, r.all_on_watts}) add(x);
  for (uint64_t x : {r.requests, r.reads, r.writes, r.misses, r.copy_ins, r.overflows, r.dropped, r.spinup_waits,
                     r.miss_spinup_waits, r.sync_ios, r.remaps, r.retriggers})
    add(static_cast<double>(x));
  for (const auto& i : r.intervals) {
    for (double x : {i.start_h, i.watts, i.avg_spinning, i.load_iops, i.predicted_iops, i.capacity_iops}) add(x);
    for (uint64_t x : {i.requests, i.misses, i.sync_ios, i.spin_ups, i.retriggers}) add(static_cast<double>(x));
    add(i.planned_active);
    add(i.remaps);
  }
  for (const auto& d : r.disks) {
    for (uint64_t x : {d.spin_ups, d.planned_spin_ups, d.served, d.misses}) add(static_cast<double>(x));
    add(d.spinning_h);
    add(d.joules);
  }
  for (const auto* h : {&r.response_ns, &r.sync_ns})
    for (const auto& [v, f] : h->Cdf(100000)) {
      add(v);
      add(f);
    }
  for (const auto& m : r.minutes)
    for (double x : {m.t_h, m.watts, m.spinning, m.load_iops, m.capacity_iops}) add(x);
  for (const auto& e : r.spin_up_events) {
    add(e.t_h);
    add(e.disk);
    add(e.planned);
  }
  for (const auto* v : {&r.volume_iops, &r.disk_iops, &r.disk_watts})
    for (const auto& row : *v)
      for (double x : row) add(x);
  for (const auto& row : r.disk_active)
    for (bool b : row) add(b);
  for (bool b : r.start_active) add(b);
  return s;
}

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_DAY_TESTING_H_
