// Measures a block trace's statistics, the ones the thesis gives of its traces, so that a
// generated (or imported) workload can be printed beside its targets: per volume, the request
// and byte counts by type, the unique bytes read and written (counted in 4 KB blocks, Table 3.1),
// the average and the busiest one-minute IOPS (Table 3.2), the intensity's dynamic range in
// decades over one-minute and one-hour bins (Obs 2, Fig 3.1; RangeDecades) and the read-idle periods (Obs 4, Fig 3.3: the
// gaps between consecutive reads that hold at least one write).
#ifndef FAWNLAB_SRCMAP_TRACE_STATS_H_
#define FAWNLAB_SRCMAP_TRACE_STATS_H_

#include <cstdint>
#include <vector>

#include "srcmap/workload.h"

namespace fawnlab::srcmap {

struct VolumeStats {
  uint64_t reads = 0, writes = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  uint64_t uniq_read_bytes = 0, uniq_write_bytes = 0, uniq_bytes = 0;  // 4 KB blocks x 4096
  double avg_iops = 0, max_iops = 0;    // over the trace's span; busiest one-minute bin
  double decades = 0;                   // log10(busiest minute / quietest non-empty minute)
  double decades_hour = 0;              // the same over one-hour bins
  uint64_t read_idle_periods = 0;
  double read_idle_max_s = 0;
  double read_idle_le_2min = 0, read_idle_le_5min = 0, read_idle_lt_30min = 0;  // fractions
};

struct TraceStats {
  double span_s = 0;
  std::vector<VolumeStats> volumes;
};

// Obs 2's measure: log10(busiest bin / quietest non-empty bin) of per-minute request counts
// summed into bins of `bin_minutes` (0 when every bin is empty). In request counts the range can
// never exceed log10(requests in the busiest bin).
double RangeDecades(const std::vector<uint32_t>& per_minute, int bin_minutes);

// Reads `src` to the end. `num_volumes`: requests of other volumes are an error. `span_ns`:
// the trace's length (0: up to the last request).
StatusOr<TraceStats> MeasureTrace(RequestSource* src, int num_volumes, int64_t span_ns = 0);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_TRACE_STATS_H_
