// KvRig: a FAWN-KV cluster (fawnkv/cluster.h) set up for the FAWN-KV experiments — a dataset
// spread over the ring, shrunk by `scale_div` together with each node's DRAM and card (as
// fawnds/experiments/rig.h shrinks one node), loaded into every replica — and the clients that drive it:
// a closed loop of random-key gets (the "maximum rate" of SOSP'09 §4.2) or Poisson arrivals
// at a set rate, with every answer counted per back-end in time bins.
#ifndef FAWNLAB_FAWNKV_EXPERIMENTS_RIG_H_
#define FAWNLAB_FAWNKV_EXPERIMENTS_RIG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "fawnkv/cluster.h"
#include "sim/histogram.h"
#include "sim/rng.h"

namespace fawnlab {

struct KvRigOptions {
  int nodes = 21;
  int vids = 1;
  int replication = 1;
  bool even = true;              // an operator's even spacing (docs/decisions.md)
  double dataset_gb = 20;        // at the paper's scale, before replication
  int scale_div = 128;
  uint64_t value_bytes = 256;
  bool separate_queues = true;
  size_t cache_entries = 0;
  sim::SimDuration lock_hold_ns = 25 * sim::kMs;
  uint64_t scan_chunk = 16 * 1024;  // maintenance scan reads (not in the papers; docs/decisions.md)
};

class KvRig {
 public:
  static StatusOr<std::unique_ptr<KvRig>> Create(const KvRigOptions& o, const std::function<bool(double)>& progress);

  static fawnds::Key KeyOf(uint64_t i);  // the dataset's i-th key (uniform over the ring)
  uint64_t keys() const { return keys_; }

  // Answers per back-end (index = node id) and their latencies, from Measure() on.
  struct Counts {
    std::vector<uint64_t> per_node;
    uint64_t total = 0, failed = 0;
    sim::LogHistogram latency_ns;
  };
  // Starts counting afresh.
  void Measure();
  const Counts& counts() const { return counts_; }
  // Answers per back-end in bins of `bin_ns` since Measure() (bins[t][node]).
  const std::vector<std::vector<uint64_t>>& bins() const { return bins_; }
  void set_bin(sim::SimDuration bin_ns) { bin_ns_ = bin_ns; }

  // Keeps `clients` random-key gets outstanding until Stop().
  void ClosedLoop(int clients, sim::Rng* rng, bool puts = false);
  // Keeps `clients` gets outstanding at each back-end: random keys among those it answers
  // for, so that one slow node does not hold the others' clients (many independent clients).
  void ClosedLoopPerNode(int clients, sim::Rng* rng);
  // Poisson gets (or puts) at `rate` per second until Stop(); `zipf_s` > 0 skews the keys.
  // `fresh` puts insert keys outside the dataset (no old record for FAWN-DS to check).
  void OpenLoop(double rate, sim::Rng* rng, bool puts = false, double zipf_s = 0, bool fresh = false);
  void Stop() { ++generation_; }
  // Runs `d` of virtual time.
  void Run(sim::SimDuration d) { cluster->sim().RunUntil(cluster->sim().now() + d); }
  sim::SimTime now() { return cluster->sim().now(); }

  std::unique_ptr<fawnkv::Cluster> cluster;

 private:
  void Issue(bool put, uint64_t key, std::function<void()> then);
  // A client loop's body, owned here (a closure that reschedules itself refers to it).
  std::function<void()>* NewLoop();
  std::vector<std::unique_ptr<std::function<void()>>> loops_;
  KvRigOptions o_;
  uint64_t keys_ = 0;
  uint64_t fresh_keys_ = 0;  // keys inserted beyond the dataset by fresh puts
  std::string value_;
  Counts counts_;
  std::vector<std::vector<uint64_t>> bins_;
  sim::SimDuration bin_ns_ = sim::kSec;
  sim::SimTime measure_from_ = 0;
  uint64_t generation_ = 0, puts_ = 0;
};

}  // namespace fawnlab

#endif  // FAWNLAB_FAWNKV_EXPERIMENTS_RIG_H_
