// What the CONA microbenchmarks (index_*.cc) share: the thesis's machine built from a run's
// parameters, a load phase and a run phase through the YCSB runner (cona/runner.h), and the
// store's counters differenced around a phase (the runner's PhaseTotals lack induce time and
// reads served per level).
#ifndef FAWNLAB_CONA_EXPERIMENTS_INDEX_COMMON_H_
#define FAWNLAB_CONA_EXPERIMENTS_INDEX_COMMON_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "cona/machine.h"
#include "cona/runner.h"
#include "cona/store.h"

namespace fawnlab::cona {

// The store's counters over one phase (after minus before).
struct StoreDelta {
  uint64_t puts = 0, gets = 0, merge_moves = 0, merges = 0, induces = 0;
  double insert_s = 0, induce_s = 0, exposed_s = 0, merge_s = 0, read_s = 0;
  std::vector<uint64_t> served_by;  // [0] buffers, [i] level i
  uint64_t trie_symbols = 0, flash_reads = 0;
};
StoreDelta Diff(const StoreStats& after, const StoreStats& before);

// The machine at `scale` of the thesis's (records = 25M × scale), with `o`'s store options;
// `mmap_faults` turns on the page cache's write faults (MachineConfig::fault_on_write).
StatusOr<std::unique_ptr<Machine>> MakeMachine(double scale, const StoreOptions& o, bool mmap_faults = false);

// One phase through the runner: the load (records 0..n-1) when `workload` is empty, else
// `operations` operations of the workload (0: as many as the records) on the loaded store.
// `delta` receives the store's counters over the phase. Cancels when `progress` says so.
StatusOr<YcsbRun> RunPhase(Machine* m, const std::string& workload, uint64_t operations, uint64_t seed,
                           const std::function<bool(double)>& progress, StoreDelta* delta);

// The parameters the store's microbenchmarks share: `scale` (of the thesis's machine and 25M
// records), `operations` (a run phase's; 0: as many as the records) and `buffer_kb` (B).
ParamSpec ScaleParam();
ParamSpec OperationsParam(const std::string& help);
ParamSpec BufferKbParam();
// `merge_entry_ns`: the merge actor's host cost per entry moved, the i7-3610QM's by default
// (cona/costs.h); a what-if for the experiments whose figures the merges shape.
ParamSpec MergeEntryNsParam();
// `mmap_faults`: a what-if, mmap's write faults on (off by default, cona/machine.h says why).
ParamSpec MmapFaultsParam();
bool MmapFaults(const ParamValues& p);
// Store options for a run: B and the merge cost from the parameters (when present).
StoreOptions OptionsFor(const ParamValues& p, uint32_t buffer_kb);

// "1/1000" when 1/scale is a whole number, else the number.
std::string ScaleName(double scale);

// "8 KB", "64 KB", "1 MB".
std::string BufferName(uint32_t kb);

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_EXPERIMENTS_INDEX_COMMON_H_
