// FAWN-DS reliability runs, shared by the GoogleTest suite (short runs) and the soak in
// `npm run bench` (long runs): the same code, only the counts differ.
//
//   CrashHistory         what each key may read back after a crash.
//   RunCrashPoints       crashes a node through the fault injector at random device commands
//                        while puts, deletes, gets, syncs, checkpoints, splits, merges and
//                        compactions run; recovers it (Node::Recover) and checks every key: each
//                        synced operation is there, nothing else appears, nothing reads back as
//                        corrupt, and recovery itself succeeds.
//   RunMaintenanceModel  random puts, deletes and gets on a node while compactions, splits and
//                        merges come and go (and clean restarts through Node::Recover), every
//                        read checked against a std::unordered_map.
// Each run is deterministic in its seed, returns its counts and its first failure (naming the
// seed and the place that replays it), and uses no GoogleTest, so the bench can run it.
#ifndef FAWNLAB_FAWNDS_RELIABILITY_H_
#define FAWNLAB_FAWNDS_RELIABILITY_H_

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fawnds/key.h"

namespace fawnlab::fawnds::reliability {

// Key number `id` of a test's key space, spread over the whole ring (its top byte too), so
// that splits and merges at ring positions move some of the keys.
Key SpreadKey(uint64_t id);

// Per key, the state each of its operations left ("" = absent), in order, and which
// operations are durable: submitted to the device before a flush that then completed.
class CrashHistory {
 public:
  // Operation `op` (numbers increase) leaves `key` in `state`.
  void Record(uint64_t key, uint64_t op, std::string state);
  // Operation `op`'s write has been submitted to the device.
  void Submitted(uint64_t op);
  // A flush is being submitted; returns its token. EndSync(token) when it has completed:
  // every operation submitted before it is durable.
  uint64_t BeginSync();
  void EndSync(uint64_t token);
  // "" if `key` may read back as `state` after a crash: the state of its last durable
  // operation, or of any later one (its write may have reached the device). Otherwise what
  // was allowed.
  std::string Check(uint64_t key, const std::string& state) const;

 private:
  std::unordered_map<uint64_t, std::vector<std::pair<uint64_t, std::string>>> ops_;
  std::vector<uint64_t> unsynced_;                      // submitted, no flush begun since
  std::map<uint64_t, std::vector<uint64_t>> syncing_;   // flush token → operations it covers
  std::unordered_map<uint64_t, bool> durable_;
  uint64_t next_token_ = 1;
};

struct CrashOptions {
  uint64_t seed = 1;
  uint64_t crash_points = 300;  // runs go on until this many crashes were recovered and checked
  uint64_t first_run = 0;       // replays from this run (a failure names its run)
  uint64_t keys = 200;
  uint64_t ops_per_run = 500;
};

struct CrashReport {
  uint64_t runs = 0;            // runs started (a run whose crash point was never reached has no crash)
  uint64_t crash_points = 0;    // crashes recovered and checked
  uint64_t failures = 0;        // crash points at which recovery or a key's check failed
  uint64_t keys_checked = 0;
  uint64_t ops = 0;             // operations issued before the crashes
  uint64_t maintenance_started = 0;
  uint64_t restricted = 0;      // index entries Node::Recover dropped (a store's range narrowed by the list)
  std::map<std::string, uint64_t> by_phase;  // what was running at the crashing command
  std::string first_failure;
};

CrashReport RunCrashPoints(const CrashOptions& o);

struct ModelOptions {
  uint64_t seed = 777;
  uint64_t ops = 100000;
  uint64_t keys = 3000;
  uint64_t restart_every = 0;  // ops between clean restarts through Node::Recover (0: none)
};

struct ModelReport {
  uint64_t ops = 0;
  uint64_t gets_checked = 0;
  uint64_t mismatches = 0;
  uint64_t compactions = 0, splits = 0, merges = 0;  // maintenance operations started
  uint64_t restarts = 0;
  uint64_t index_entries = 0;  // live keys the stores index at the end
  uint64_t model_keys = 0;     // keys the model holds at the end (must equal index_entries)
  std::string first_failure;
  bool ok() const { return mismatches == 0 && first_failure.empty() && index_entries == model_keys; }
};

ModelReport RunMaintenanceModel(const ModelOptions& o);

}  // namespace fawnlab::fawnds::reliability

#endif  // FAWNLAB_FAWNDS_RELIABILITY_H_
