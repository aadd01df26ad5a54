// FawndsSession: a FAWN-DS node (fawnds/node.h) on an emulated device, for the FAWN-DS lab's
// live view (contract: docs/modules.md, "The FAWN-DS lab's session").
//
// The device is a named profile (default the FAWN prototype's sandisk-cf-4gb) shrunk to
// `capacity_mb`, wrapped by a FaultInjector so the node can be crashed, optionally behind a
// write-through page cache; the node starts with `stores` stores splitting the key ring
// evenly, each in a file of `file_mb` with 2^index_bits buckets. The page steps it with
// Advance(dt)/Step() and sends operations as JSON through Apply():
//   put {key, value?}  get {key}  delete {key}        application keys, SHA-1 hashed; they run
//                                                     until they complete (virtual time moves)
//   fill {count, from?}  delete-many {count, from?, step?}   bulk puts/deletes of keys "k<i>"
//   compact {store}  split {store, fraction | key}  merge {a, b}   start maintenance (it runs
//                                                     as time advances; "wait": true runs it out)
//   checkpoint {store?}  sync                          durable points
//   crash                                              the device loses every unsynced write;
//                                                     the node's DRAM (index) is gone
//   recover                                            the node reopened from its datastore list
//                                                      (Node::Recover): each store's checkpoint,
//                                                      then its log replayed
// A background load generator (Poisson puts and gets over keys "k0".."k<load_keys-1>") gives
// maintenance traffic to run against; Reconfigure() changes it while running.
//
// SnapshotJson() is small (stores, maintenance, the last lookup's probe path and reads,
// counters, a QPS timeline). The bulky views come as columns: Log(store) — every record of a
// store's log with its state (log_table.h), Index(store, ...) — bucket cells. Store number
// num_stores() names the new store a running compaction or split is writing.
// Deterministic: the same config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_FAWNDS_LAB_SESSION_H_
#define FAWNLAB_FAWNDS_LAB_SESSION_H_

#include <array>
#include <cstdint>
#include <tuple>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/params.h"
#include "base/status.h"
#include "registry/sessions.h"
#include "device/device.h"
#include "device/fault_injector.h"
#include "device/page_cache.h"
#include "fawnds/node.h"
#include "fawnds/lab/log_table.h"
#include "sim/rng.h"
#include "sim/simulator.h"

namespace fawnlab::fawndslab {

// Bucket cells of one store's index: `count` cells of `group` consecutive buckets from `first`.
struct IndexCells {
  int index_bits = 0;
  uint64_t first = 0, group = 1;
  std::vector<uint16_t> valid;      // valid buckets per cell
  std::vector<uint16_t> fragments;  // group 1: the bucket's fragment | valid << 15
  std::vector<uint32_t> offsets;    // group 1: the bucket's log offset
};

class FawndsSession : public LabSession {
 public:
  struct Config {
    std::string profile = "sandisk-cf-4gb";
    int capacity_mb = 256;
    int stores = 4;
    int index_bits = 10;
    int file_mb = 16;
    double lock_hold_us = 25000;  // SOSP'09 §3.3.3: 20-30 ms (the thesis measured 5-50 µs)
    int page_cache_mb = 0;
    int value_bytes = 64;
    double load_rate_per_s = 0;
    double load_put_fraction = 0.5;
    int load_keys = 1000;
  };
  // The config's schema, `c` giving the defaults (the session registry's: Config{}).
  static std::vector<ParamSpec> Schema(const Config& c);
  // The registry's factory ("fawnds"): `config` has every field of Schema().
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  // CreateSession("fawnds", ...) as a FawndsSession.
  static StatusOr<std::unique_ptr<FawndsSession>> Create(const std::string& config_json, uint64_t seed);
  ~FawndsSession() override;

  // Reconfigure accepts value_bytes, load_rate_per_s, load_put_fraction, load_keys (the live
  // fields); Apply takes the operations above (their schemas: fawnds/lab/schema.cc).
  std::string SnapshotJson() override;
  // Store `store`'s log (store == num_stores(): the store a compaction or split is building).
  StatusOr<LogColumns> Log(size_t store);
  // REQUIRES count <= 4096, group >= 1; first + count × group <= buckets.
  StatusOr<IndexCells> Index(size_t store, uint64_t first, uint64_t count, uint64_t group);

  size_t num_stores() const;
  bool crashed() const { return crashed_; }
  sim::SimTime now() const { return sim_.now(); }
  // Bumped whenever something the log or index views show may have changed.
  uint64_t version() override { return version_; }
  // Whether a compaction, split or merge is running, and in which phase: 0 none, 1 scanning
  // (copying), 2 holding its lock. The page slows its clock down for it and watches the phase
  // change between snapshots (cheaper than a snapshot).
  int Busy() const override;

 protected:
  sim::Simulator* simulator() override { return &sim_; }
  void AfterEvent() override;
  StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue& op) override;
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;
  // "log" {store}, "index" {store, first, count, group}: Log and Index as columns.
  StatusOr<ColumnSet> View(const std::string& name, const ParamValues& args) override;

 private:
  struct Probe {
    int j;
    uint64_t bucket;
    bool valid;
    uint16_t fragment;
    uint32_t offset;
    std::string outcome;  // empty, other, false-positive, hit, free (a put's new bucket)
  };
  struct Lookup {
    std::string op, key, key_hex;
    int store = -1;
    uint32_t index = 0;
    uint16_t fragment = 0;
    std::vector<Probe> probes;
    std::vector<std::pair<uint64_t, uint32_t>> reads;  // log offset, bytes
    std::vector<bool> read_false_positive;
    bool queued = false;
  };
  struct OpResult {
    uint64_t id;
    std::string op, key, status, message, value;
    sim::SimTime issued = 0, done = -1;
  };
  struct Frozen {  // a store as the crash left it
    fawnds::KeyRange range;
    uint64_t slot;
    uint64_t log_capacity;
    LogColumns log;
    size_t lost;
  };
  struct Table {
    const fawnds::DataStore* store;
    uint32_t nonce;
    uint64_t region;
    LogTable table;
  };

  FawndsSession(Config c, uint64_t seed);
  static Config FromParams(const ParamValues& p);
  Status Build();
  fawnds::NodeOptions NodeOpts() const;
  uint64_t Slots() const;
  void StackUp();  // page cache (if any) over the injector; sets top_

  // Runs events until `*flag` or the budget; false when the budget ran out.
  bool RunUntilDone(const bool* flag, uint64_t max_events);
  Status NotCrashed() const;
  // args[name] as a store of the node (the schema checked it is an integer).
  StatusOr<size_t> StoreArg(const ParamValues& args, const char* name) const;

  // Operations.
  StatusOr<std::string> DoKeyOp(const std::string& kind, const ParamValues& args);
  StatusOr<std::string> DoFill(const ParamValues& args, bool deletes);
  StatusOr<std::string> DoMaintenance(const std::string& kind, const ParamValues& args);
  StatusOr<std::string> DoDurable(const std::string& kind, const ParamValues& args);
  StatusOr<std::string> DoCrash();
  StatusOr<std::string> DoRecover();
  Lookup TraceLookup(const std::string& op, const std::string& app_key, const fawnds::Key& key);
  int RouteOf(const fawnds::Key& key) const;
  void ReadDeltas(uint64_t* reads, uint64_t* fps) const;

  // Load generator.
  void ScheduleArrival();
  void IssueLoadOp();
  std::string LoadValue(uint64_t i);
  void Completed(sim::SimTime issued);

  LogTable& TableFor(const fawnds::DataStore* s);
  void PruneTables();

  void WriteStore(JsonWriter& w, size_t i, const fawnds::DataStore& s, const fawnds::KeyRange& r, uint64_t slot, const char* role);
  void WriteLookup(JsonWriter& w) const;
  void WriteCounters(JsonWriter& w);
  void WriteTimeline(JsonWriter& w);

  Config config_;
  uint64_t seed_;
  sim::Simulator sim_;
  std::unique_ptr<device::Device> flash_;
  std::unique_ptr<device::FaultInjector> injector_;
  std::unique_ptr<device::PageCache> cache_;
  device::Device* top_ = nullptr;
  std::unique_ptr<fawnds::Node> node_;
  std::unique_ptr<fawnds::Node> zombie_;  // the crashed node, until recovery (its events drain)
  bool crashed_ = false;
  uint64_t baseline_write_bytes_ = 0;  // device bytes written by setup (store creation, recovery)
  uint64_t generation_ = 0;  // bumped by a crash: completions from before it are ignored
  uint64_t version_ = 1;
  std::vector<Table> tables_;
  std::vector<Frozen> frozen_;
  struct RecoveredStore {
    uint64_t slot;
    fawnds::KeyRange range;
    fawnds::RecoveryReport report;
  };
  struct Recovery {
    uint64_t list_seq = 0, restricted = 0;
    sim::SimDuration duration_ns = 0;
    std::vector<RecoveredStore> stores;
  };
  std::unique_ptr<Recovery> recovery_;  // the last recovery's report
  sim::SimTime crashed_at_ = -1;

  // Maintenance as the session saw it.
  std::string maint_kind_;
  sim::SimTime maint_started_ = -1, lock_started_ = -1;
  bool saw_locked_ = false, saw_running_ = false;
  std::string maint_result_;  // the last maintenance's outcome
  std::deque<std::array<sim::SimTime, 2>> locks_;  // recent lock intervals
  std::deque<std::tuple<sim::SimTime, sim::SimTime, std::string>> maint_spans_;

  // Load.
  sim::Rng rng_;
  uint64_t arrival_token_ = 0;
  int outstanding_ = 0;
  uint64_t load_issued_ = 0, load_shed_ = 0, load_errors_ = 0, puts_since_sync_ = 0;
  std::string last_load_error_;

  // Counters.
  uint64_t ops_issued_ = 0, ops_completed_ = 0;
  uint64_t puts_ = 0, gets_ = 0, deletes_ = 0, hits_ = 0, misses_ = 0;
  uint64_t measured_gets_ = 0, get_reads_ = 0, false_positives_ = 0;
  uint64_t client_record_bytes_ = 0;
  std::deque<std::pair<sim::SimTime, sim::SimDuration>> recent_done_;
  std::deque<sim::SimTime> done_times_;  // completions in the last second
  std::map<int64_t, uint64_t> qps_bins_;  // bin index -> completions

  Lookup last_lookup_;
  bool has_lookup_ = false;
  std::deque<OpResult> ops_;
  uint64_t next_op_id_ = 1;
};

}  // namespace fawnlab::fawndslab

#endif  // FAWNLAB_FAWNDS_LAB_SESSION_H_
