// YCSB's core workloads A-F as YCSB defines them (workloads/workloada..workloadf of YCSB
// 0.1.4, the release the CONA thesis ran, §3.2 Table 3.1): operation proportions and the
// request distribution. E is defined too (the thesis omits it: its hashed keys make scans
// meaningless, digest §4.12).
//
// Contract: CoreWorkloads() lists "a".."f" in order; FindWorkload takes an id in either case
// ("a" or "A") and returns the workload, or NotFound naming the id given and the known ids.
#ifndef FAWNLAB_YCSB_WORKLOAD_H_
#define FAWNLAB_YCSB_WORKLOAD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace fawnlab::ycsb {

enum class OpType : uint8_t { kRead, kUpdate, kInsert, kScan, kReadModifyWrite };
// kZipfian: YCSB's ScrambledZipfianGenerator, constant 0.99; kLatest: its
// SkewedLatestGenerator (zipfian over the records counted back from the newest).
enum class Distribution : uint8_t { kUniform, kZipfian, kLatest };

struct Workload {
  std::string id, label;
  double read = 0, update = 0, insert = 0, scan = 0, rmw = 0;  // proportions (sum 1)
  Distribution dist = Distribution::kZipfian;
  int max_scan = 100;  // scans: length uniform in [1, max_scan] (YCSB's maxscanlength)
};

const std::vector<Workload>& CoreWorkloads();
StatusOr<Workload> FindWorkload(std::string_view id);

const char* OpTypeName(OpType t);             // "read", "update", "insert", "scan", "rmw"
const char* DistributionName(Distribution d);  // "uniform", "zipfian", "latest"

}  // namespace fawnlab::ycsb

#endif  // FAWNLAB_YCSB_WORKLOAD_H_
