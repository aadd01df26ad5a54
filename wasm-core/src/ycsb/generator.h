// The YCSB run-phase generator (YCSB 0.1.4's CoreWorkload.doTransaction* choices): each Next()
// picks an operation by the workload's proportions (YCSB's DiscreteGenerator, in its order
// read, update, insert, scan, read-modify-write) and a record by the request distribution:
//   zipfian  ScrambledZipfian over [0, records + expected new keys], drawn again while the
//            record is not yet inserted (YCSB's nextKeynum loop);
//   latest   SkewedLatest from the newest record;
//   uniform  uniform over the records loaded at construction (YCSB's UniformLongGenerator).
// An insert takes the next record number (record_count() before the call) and counts as
// acknowledged at once (ops are served in order). A scan's length is uniform in [1, max_scan].
// The load phase needs no generator: it inserts records 0..record_count-1 in order.
//
// Deterministic from the seed (independent sim::Rng streams for the operation, the record and
// the scan length). With no records yet, every Next() is an insert until one exists.
#ifndef FAWNLAB_YCSB_GENERATOR_H_
#define FAWNLAB_YCSB_GENERATOR_H_

#include <cstdint>
#include <memory>

#include "sim/rng.h"
#include "ycsb/workload.h"
#include "ycsb/zipfian.h"

namespace fawnlab::ycsb {

struct Op {
  OpType type;
  uint64_t record;
  int scan_length = 0;
};

class Generator {
 public:
  // `operation_count` sizes YCSB's expected new keys for a zipfian workload with inserts (E):
  // operations x insert proportion x 2; 0 means as many operations as records (the thesis's
  // 25M ops on 25M records).
  Generator(const Workload& w, uint64_t record_count, uint64_t seed, uint64_t operation_count = 0);
  Op Next();
  uint64_t record_count() const { return records_; }  // loaded + inserted so far
  const Workload& workload() const { return w_; }

 private:
  OpType NextType();
  uint64_t NextRecord();

  Workload w_;
  uint64_t loaded_, records_;
  sim::Rng op_rng_, key_rng_, scan_rng_;
  std::unique_ptr<ScrambledZipfian> zipf_;
  std::unique_ptr<SkewedLatest> latest_;
};

}  // namespace fawnlab::ycsb

#endif  // FAWNLAB_YCSB_GENERATOR_H_
