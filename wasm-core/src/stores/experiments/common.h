// What the Stores lab's experiments (stores.ycsb, stores.memory, stores.amplification,
// stores.energy) share: the metric names' store ids, one store's machine and YCSB run
// (stores/machine.h, stores/runner.h), a load with checkpoints, and the "not built yet" skip.
//
// Every number comes from a store that ran: a machine per store and run (the thesis ran one
// store at a time on the same machine), its records put and read back through the store.
// A store kind the factory does not build yet (MakeStore's "not built yet") is skipped: its
// metrics are absent and the result's notes say so.
#ifndef FAWNLAB_STORES_EXPERIMENTS_COMMON_H_
#define FAWNLAB_STORES_EXPERIMENTS_COMMON_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "registry/experiments.h"
#include "stores/machine.h"
#include "stores/runner.h"

namespace fawnlab::stores_exp {

using stores::Machine;
using stores::MachineConfig;
using stores::YcsbRun;

// `s` with `prefix` before its message, the same code.
Status Prefixed(const std::string& prefix, const Status& s);

// The thesis's 25M records (CONA thesis §3.2: "construct 25M pairs").
constexpr uint64_t kThesisRecords = 25'000'000;

// The five designs the memory, amplification and energy experiments compare (CONA's
// single-thread variant has CONA's structures): cona, silt, lsm, fawnds, btree.
const std::vector<std::string>& Kinds();

// "cona-1t" -> "cona1t": a store kind as metric names spell it.
std::string MetricId(const std::string& kind);
// The factory's label for a kind ("" if unknown).
std::string LabelOf(const std::string& kind);
// Whether the factory's store of `kind` has an ordered scan.
bool HasScan(const std::string& kind);
// Whether `s` is MakeStore's "not built yet" refusal.
bool NotBuilt(const Status& s);

// The machine parameters every experiment takes: scale (records = 25M × scale; the host's
// DRAM and the device × scale), device, bloom_bits.
std::vector<ParamSpec> MachineParams(double default_scale);
MachineConfig ConfigFor(const ParamValues& p, const std::string& kind, const std::string& host);
uint64_t RecordsFor(const ParamValues& p);

// A fresh machine for `kind` and a YCSB run on it (load, then `workload`'s run phase of as many
// operations as records; workload "" = the load only). Progress covers [p0, p1].
StatusOr<YcsbRun> RunOne(const MachineConfig& mc, const std::string& workload, RunContext& ctx, double p0, double p1,
                         std::string* describe = nullptr);

// Puts records [from, to) in order, one at a time (one client thread), runs until each
// completes, then until the store is idle (its background work done). Errors name the record.
Status PutRecords(Machine* m, uint64_t from, uint64_t to);

// `count` updates of records in [0, records) chosen by YCSB's scrambled zipfian (seeded), each
// a new version, one at a time, then until the store is idle.
Status UpdateRecords(Machine* m, uint64_t records, uint64_t count, uint64_t seed);

// `count` gets of records in [0, records) drawn uniformly (seeded), one at a time; each value
// is checked against version 0 (a record as PutRecords put it). Errors name the record.
Status GetRecords(Machine* m, uint64_t records, uint64_t count, uint64_t seed);

// One checkpoint of a store's counters during a load.
struct Checkpoint {
  uint64_t keys = 0;
  uint64_t dram_bytes = 0;
  double store_wa = 0, ftl_wa = 0;
  double joules = 0;
  double seconds = 0;
};
Checkpoint Measure(Machine* m, uint64_t keys);

// "skipped: silt (silt is not built yet), lsm (...)" or "".
std::string SkippedNote(const std::vector<std::pair<std::string, std::string>>& skipped);

double Div(double a, double b);

// Whether anchor i of `r` is met (registry/anchor_testing.h's rule).
bool Met(const Result& r, size_t i);
// The note that says where the lab disagrees with the paper: every missed anchor, its value
// beside the paper's and its miss note (or that every anchor is met).
std::string DisagreementNote(const Result& r);
// Appends the result's last notes: DisagreementNote, then SkippedNote if any was skipped.
void CloseNotes(Result* r, const std::vector<std::pair<std::string, std::string>>& skipped);
// "%.3g"-style formatting for notes.
std::string Fmt(double v);

}  // namespace fawnlab::stores_exp

#endif  // FAWNLAB_STORES_EXPERIMENTS_COMMON_H_
