// Imports a real block trace in the MSR Cambridge CSV format, one request a line:
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
// Timestamp and ResponseTime in Windows filetime ticks (100 ns), Type "Read" or "Write" (any
// case), Offset and Size in bytes. A first line whose Timestamp is not a number is taken as a
// header; empty lines are skipped. Each distinct (Hostname, DiskNumber) is one volume, in order
// of first appearance; times start at the first request; requests are sorted by time (stable).
// A volume's size is its highest byte touched, rounded up to `extent_bytes`.
// Every malformed line is an error naming its line number and the problem.
#ifndef FAWNLAB_SRCMAP_TRACE_IMPORT_H_
#define FAWNLAB_SRCMAP_TRACE_IMPORT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "srcmap/workload.h"

namespace fawnlab::srcmap {

struct ImportedTrace {
  std::vector<std::string> volume_names;  // "host:disk"
  std::vector<uint64_t> volume_bytes;
  std::vector<Request> requests;
  int64_t span_ns = 0;  // first to last arrival
};

// `max_volumes`: more distinct volumes than this is an error (the testbed has 8 disks).
StatusOr<ImportedTrace> ImportMsrCsv(std::string_view text, int max_volumes = 8, uint32_t extent_bytes = 65536);

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_TRACE_IMPORT_H_
