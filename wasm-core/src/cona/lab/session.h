// ConaSession ("cona"): a CONA store (cona/store.h) on the thesis's machine scaled down
// (cona/machine.h: M500 flash, page cache, fault injector) under a YCSB stream, live, for the
// CONA lab's structure view (the snapshot's shape: docs/cona/session.md; its fields are the
// contract web/src/labs/cona/ draws).
//
// The config: the store's knobs (buffer_kb, trie, fragments, last_filter, merge_thread), the
// workload ("insert": puts of new records only, the load phase, which makes the structure
// grow; or YCSB's a, b, c, d, f over the records so far), its rate (open-loop Poisson
// arrivals on the simulator, ops queued to the store one by one, at most kMaxOutstanding
// waiting: arrivals beyond are shed and counted), `records` loaded in order at creation, and
// the machine's `scale`. Live: rate_ops_per_s and workload.
//
// Operations (run until they complete; virtual time moves and the workload keeps arriving):
//   put {key, value?}  delete {key}  get {key | record}   a text key is hashed to the store's
//       20-byte keys by ycsb::KeyForText (the records' hash, ycsb/keys.h); `record` names a
//       workload record (its key is ycsb::KeyFor(record))
//   fill {count}        puts of `count` new records (the next record numbers), then a sync
//   sync                everything acknowledged becomes durable
//   run_until {event, max_s?}  virtual time runs (the workload arriving) until the next
//                       structure event of that kind, or max_s seconds
//   crash               the power fails (Machine::CrashNow): unsynced writes and the DRAM
//                       index are gone, the workload stops
//   recover             the store reopens from its manifest (Machine::Recover)
// The snapshot carries the last `get`'s trace, level by level ("last_lookup").
//
// Structure events (induce, merge_start, merge_done, flip, crash, recover; the last kEvents)
// are found by diffing StoreStats and Structure after every event (no hook in the store):
// "induce" level 1; "merge_start"/"merge_done" level L = the merge of L's cells into L+1's
// shadow; "flip" level = the level whose shadow became visible.
// Counters add up over crashes (each store incarnation's StoreStats are carried over).
// Rates are over the last kWindowNs of virtual time, from samples taken every kSampleNs;
// the "timeline" view has the samples of the last kTimelineSamples.
// Deterministic: the same config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_CONA_LAB_SESSION_H_
#define FAWNLAB_CONA_LAB_SESSION_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/json_writer.h"
#include "base/params.h"
#include "base/status.h"
#include "cona/machine.h"
#include "cona/store.h"
#include "registry/sessions.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "ycsb/generator.h"
#include "ycsb/keys.h"
#include "ycsb/live_stream.h"

namespace fawnlab::cona {

class ConaSession : public LabSession, private sim::EventHandler {
 public:
  static constexpr sim::SimDuration kSampleNs = 50 * sim::kMs;
  static constexpr sim::SimDuration kWindowNs = 1000 * sim::kMs;
  static constexpr size_t kTimelineSamples = 1200;  // one minute of virtual time
  static constexpr size_t kEvents = 20;
  static constexpr int kMaxOutstanding = 1024;       // workload ops queued to the store
  static constexpr size_t kKeySamples = 64;          // key prefixes per buffer in the snapshot

  struct Config {
    int buffer_kb = 64;                // B (Fig 3.4: 64 KB chosen)
    std::string trie = "mix";          // "mix" | "4" | "16" | "64"
    std::string fragments = "16";      // "16" | "off"
    std::string last_filter = "none";  // "none" | "8"
    bool merge_thread = true;
    std::string workload = "insert";   // "insert" | a YCSB core workload without scans
    double rate_ops_per_s = 2000;
    int64_t records = 0;               // loaded in order at creation
    int64_t max_writes = 200000;       // the store's file is sized for this many puts and deletes
    double scale = 1.0 / 1000;         // the machine's scale (its page cache: 8 GB x scale)
  };

  // The config's schema (defaults from Config{}, workloads from ycsb::CoreWorkloads()).
  static std::vector<ParamSpec> Schema();
  static std::vector<std::string> LiveFields();
  // The registry's factory; cross-field problems come back naming the fields.
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  // CreateSession("cona", ...) as a ConaSession.
  static StatusOr<std::unique_ptr<ConaSession>> Create(const std::string& config_json, uint64_t seed);
  ~ConaSession() override;

  std::string SnapshotJson() override;
  uint64_t version() override { return samples_taken_; }
  // 0: no merge running; 1: the merge actor is merging; 2: ... and the writer waits for it
  // (the frozen buffer cannot be induced, or the single-thread variant: exposed merge time).
  // (From the store's structure when asked: the page asks once per frame.)
  int Busy() const override;

  Machine* machine() { return machine_.get(); }
  bool crashed() const { return crashed_; }
  sim::SimTime now() const { return sim_->now(); }
  uint64_t records() const { return next_record_; }
  // Store counters summed over every incarnation of the store (crashes restart them).
  StoreStats TotalStats() const;

 protected:
  sim::Simulator* simulator() override { return sim_; }
  void AfterEvent() override;
  StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue& op) override;
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;
  StatusOr<ColumnSet> View(const std::string& name, const ParamValues& args) override;

 private:
  struct Sample {
    sim::SimTime t = 0;
    uint64_t writes = 0, reads = 0;              // completed foreground puts+deletes, gets
    sim::SimDuration insert_ns = 0, read_ns = 0;  // their foreground time
    uint64_t merge_moves = 0;
    sim::SimDuration exposed_merge_ns = 0;
    uint64_t cache_hits = 0, cache_misses = 0;
    int levels = 0;
    uint64_t entries = 0;
  };
  struct Event {
    uint64_t n;  // counts from 1 over the session
    sim::SimTime t;
    const char* kind;
    int level;
  };
  struct Lookup {
    std::string key;
    std::string store_key;  // the 20 bytes looked up
    int64_t record = -1;
    bool found = false;
    std::string value;
    LookupTrace trace;
    sim::SimDuration latency_ns = 0;
  };

  ConaSession(Config c, uint64_t seed);
  static Config FromParams(const ParamValues& p);
  Status Build();
  // Puts of records next_record_ .. +count-1 in order (kLoadInFlight queued), then a sync; runs
  // until done. The preload and `fill`.
  Status Load(uint64_t count);
  // Syncs the store and runs until the sync completes.
  Status SyncAndWait(uint64_t max_events);
  void StartClock();

  // sim::EventHandler: tag = (generation_ << 2) | 0 for a sample tick, the stream's (token << 2)
  // | 1 for an arrival.
  void OnEvent(sim::Simulator& sim, uint64_t tag) override;
  void Arrive();
  void IssueWorkloadOp();
  void TakeSample();
  void Remember(const std::string& key);
  void Emit(const char* kind, int level);
  void ScanStructure(const Structure& s);

  // Runs events until `*flag` or the budget; false when the budget ran out.
  bool RunUntil(const bool* flag, uint64_t max_events);
  Status NotCrashed() const;
  StatusOr<std::string> KeyArg(const ParamValues& args, std::string* text);

  StatusOr<std::string> DoWrite(const ParamValues& args, bool del);  // put or delete
  StatusOr<std::string> DoGet(const ParamValues& args);
  StatusOr<std::string> DoFill(const ParamValues& args);
  StatusOr<std::string> DoSync();
  StatusOr<std::string> DoRunUntil(const ParamValues& args);
  StatusOr<std::string> DoCrash();
  StatusOr<std::string> DoRecover();

  // Up to kKeySamples sorted 16-bit prefixes of the keys in buffer `which` (0 active, 1
  // frozen), evenly sampled.
  std::vector<uint16_t> BufferKeys(int which) const;
  void WriteCounters(JsonWriter& w, const Structure& s, const StoreStats& st) const;
  void WriteLookup(JsonWriter& w) const;
  // The last recovery's members (inside an object).
  void WriteRecovery(JsonWriter& w) const;
  Sample SampleNow() const;

  Config config_;
  uint64_t seed_;
  std::unique_ptr<Machine> machine_;
  sim::Simulator* sim_ = nullptr;
  Store* store_ = nullptr;  // machine_->store(); null while crashed
  bool crashed_ = false;
  Structure at_crash_{};  // the structure when the power failed (the snapshot's while crashed)
  uint64_t generation_ = 0;     // bumped by a crash: completions and sample ticks from before it stop
  StoreStats carried_;       // the stats of the store's earlier incarnations

  // The workload.
  ycsb::LiveStream stream_;  // workload "insert": no generator; stopped by a crash
  uint64_t next_record_ = 0;  // records 0 .. next_record_-1 exist
  uint64_t version_counter_ = 0;
  int outstanding_ = 0;
  uint64_t offered_ = 0, shed_ = 0, errors_ = 0, done_ops_ = 0;
  std::string last_error_;
  uint64_t acked_since_sync_ = 0;  // puts and deletes acknowledged since the last sync began

  // What the session saw of the structure.
  uint64_t seen_induces_ = 0, seen_merges_ = 0, seen_flips_ = 0, seen_writes_ = 0;
  bool merging_ = false;
  int merge_level_ = 0;
  std::vector<std::pair<int, uint64_t>> visible_;  // (level, seq) of the visible cells
  std::deque<Event> events_;
  uint64_t events_total_ = 0;
  // The keys of the completed puts and deletes, newest last (the last kept of them), and where
  // the buffers swapped: written_total_ counts every one, swap_at_[0] is the count at the last
  // swap (the active buffer holds the keys written since), swap_at_[1] at the one before.
  std::deque<std::string> written_;
  uint64_t written_total_ = 0;
  uint64_t swap_at_[2] = {0, 0};
  uint64_t active_seen_ = 0;  // the active buffer's entries when the structure was last looked at
  std::deque<Sample> samples_;
  uint64_t samples_taken_ = 0;

  bool has_lookup_ = false;
  Lookup last_lookup_;
  // The last recovery: when, and the store's report (cona/store.h).
  bool recovered_ = false;
  sim::SimTime recovered_at_ = 0;
  RecoveryReport recovery_;
};

}  // namespace fawnlab::cona

#endif  // FAWNLAB_CONA_LAB_SESSION_H_
