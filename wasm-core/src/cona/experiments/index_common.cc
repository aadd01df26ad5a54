// See index_common.h.
#include "cona/experiments/index_common.h"

#include <cmath>
#include <utility>

#include "base/json_writer.h"

namespace fawnlab::cona {

StoreDelta Diff(const StoreStats& after, const StoreStats& before) {
  StoreDelta d;
  d.puts = after.puts + after.deletes - before.puts - before.deletes;
  d.gets = after.gets - before.gets;
  d.merge_moves = after.merge_moves - before.merge_moves;
  d.merges = after.merges - before.merges;
  d.induces = after.induces - before.induces;
  d.insert_s = sim::NsToSec(after.insert_ns - before.insert_ns);
  d.induce_s = sim::NsToSec(after.induce_ns - before.induce_ns);
  d.exposed_s = sim::NsToSec(after.exposed_merge_ns - before.exposed_merge_ns);
  d.merge_s = sim::NsToSec(after.merge_ns - before.merge_ns);
  d.read_s = sim::NsToSec(after.read_ns - before.read_ns);
  d.served_by = after.served_by;
  for (size_t i = 0; i < d.served_by.size() && i < before.served_by.size(); ++i) d.served_by[i] -= before.served_by[i];
  d.trie_symbols = after.trie_symbols - before.trie_symbols;
  d.flash_reads = after.flash_reads - before.flash_reads;
  return d;
}

StatusOr<std::unique_ptr<Machine>> MakeMachine(double scale, const StoreOptions& o, bool mmap_faults) {
  MachineConfig c;
  c.fault_on_write = mmap_faults;
  c.scale = scale;
  c.records = static_cast<uint64_t>(static_cast<double>(kThesisRecords) * scale);
  c.store = o;
  return Machine::Create(c);
}

StatusOr<YcsbRun> RunPhase(Machine* m, const std::string& workload, uint64_t operations, uint64_t seed,
                           const std::function<bool(double)>& progress, StoreDelta* delta) {
  RunConfig rc;
  rc.load = workload.empty();
  rc.run = !workload.empty();
  rc.workload = workload.empty() ? "a" : workload;
  rc.operations = operations;
  rc.seed = seed;
  const StoreStats before = m->store()->stats();
  auto r = RunYcsb(m, rc, progress);
  if (!r.ok()) return r.status();
  *delta = Diff(m->store()->stats(), before);
  return r;
}

ParamSpec ScaleParam() {
  return ParamSpec::Real("scale", 0.001, 0.0002, 0.05, "× the thesis's machine",
                         "Records (25M ×), DRAM and SSD as a fraction of the thesis's.");
}

ParamSpec OperationsParam(const std::string& help) {
  return ParamSpec::Int("operations", 0, 0, 10000000, "operations", help + " (0: as many as the records).");
}

ParamSpec BufferKbParam() {
  return ParamSpec::Int("buffer_kb", 64, 8, 1024, "KB", "Insertion buffer B (64 KB in the thesis).");
}

ParamSpec MergeEntryNsParam() {
  return ParamSpec::Real("merge_entry_ns", I7_3610QM().merge_ns_per_entry, 0, 100000, "ns",
                         "The merge actor's host time per entry moved (default: cona/costs.h's i7-3610QM). 880 is "
                         "one 220 B entry at the M500's 250 MB/s sequential write.");
}

ParamSpec MmapFaultsParam() {
  return ParamSpec::Bool("mmap_faults", false,
                         "What-if: a store into a page of the mmapped file that is not in memory reads it from the SSD "
                         "first, as Linux's mmap does (off by default: at 1/1000 the upper levels' slots fall out of the "
                         "scaled page cache between induces, which the thesis's 5 GB would not do).");
}

bool MmapFaults(const ParamValues& p) { return p.Has("mmap_faults") && p.Bool("mmap_faults"); }

StoreOptions OptionsFor(const ParamValues& p, uint32_t buffer_kb) {
  StoreOptions o;
  o.buffer_bytes = buffer_kb * 1024;
  if (p.Has("merge_entry_ns")) o.costs.merge_ns_per_entry = p.Real("merge_entry_ns");
  return o;
}

std::string ScaleName(double scale) {
  const double inv = 1 / scale;
  const double whole = std::floor(inv + 0.5);
  if (std::fabs(inv - whole) < 1e-6 * inv) return "1/" + FormatNumber(whole);
  return FormatNumber(scale);
}

std::string BufferName(uint32_t kb) { return kb >= 1024 ? std::to_string(kb / 1024) + " MB" : std::to_string(kb) + " KB"; }

}  // namespace fawnlab::cona
