#include "ycsb/workload.h"

namespace fawnlab::ycsb {
namespace {

Workload Make(const char* id, const char* label, double read, double update, double insert, double scan,
              double rmw, Distribution dist) {
  Workload w;
  w.id = id;
  w.label = label;
  w.read = read;
  w.update = update;
  w.insert = insert;
  w.scan = scan;
  w.rmw = rmw;
  w.dist = dist;
  w.max_scan = 100;  // YCSB's maxscanlength (workloade sets 100; the default is 1000 but only E scans)
  return w;
}

}  // namespace

const std::vector<Workload>& CoreWorkloads() {
  // YCSB workloads/workloada..f: readproportion, updateproportion, insertproportion,
  // scanproportion, readmodifywriteproportion, requestdistribution.
  static const std::vector<Workload> all = {
      Make("a", "A: update heavy (read/update 50/50, zipfian)", 0.5, 0.5, 0, 0, 0, Distribution::kZipfian),
      Make("b", "B: read mostly (read/update 95/5, zipfian)", 0.95, 0.05, 0, 0, 0, Distribution::kZipfian),
      Make("c", "C: read only (read 100, zipfian)", 1.0, 0, 0, 0, 0, Distribution::kZipfian),
      Make("d", "D: read latest (read/insert 95/5, latest)", 0.95, 0, 0.05, 0, 0, Distribution::kLatest),
      Make("e", "E: short ranges (scan/insert 95/5, zipfian, length 1-100)", 0, 0, 0.05, 0.95, 0,
           Distribution::kZipfian),
      Make("f", "F: read-modify-write (read/RMW 50/50, zipfian)", 0.5, 0, 0, 0, 0.5, Distribution::kZipfian),
  };
  return all;
}

StatusOr<Workload> FindWorkload(std::string_view id) {
  std::string lower(id);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  std::string known;
  for (const Workload& w : CoreWorkloads()) {
    if (w.id == lower) return w;
    known += (known.empty() ? "" : ", ") + w.id;
  }
  return Status::NotFound("unknown YCSB workload '" + std::string(id) + "'; known: " + known);
}

const char* OpTypeName(OpType t) {
  switch (t) {
    case OpType::kRead: return "read";
    case OpType::kUpdate: return "update";
    case OpType::kInsert: return "insert";
    case OpType::kScan: return "scan";
    case OpType::kReadModifyWrite: return "rmw";
  }
  return "?";
}

const char* DistributionName(Distribution d) {
  switch (d) {
    case Distribution::kUniform: return "uniform";
    case Distribution::kZipfian: return "zipfian";
    case Distribution::kLatest: return "latest";
  }
  return "?";
}

}  // namespace fawnlab::ycsb
