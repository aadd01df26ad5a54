// StoresSession ("stores"): the Stores lab's live session. The chosen key-value stores (CONA,
// its single-thread variant, SILT, the LSM, FAWN-DS, the B+tree: stores/factory.h), each on its
// own machine (stores/machine.h: the host, a page cache, the flash device) and all on ONE
// simulator, receive the SAME operation stream: one ycsb::Generator, one seed, offered at
// `rate_ops_per_s` to every store at once (open loop, Poisson arrivals).
//
// Each store has its own queue (a lane): the session hands it one operation at a time (the
// one client thread of kv/kv_store.h), the next when the last completes, so a store that
// cannot keep up builds a queue (the snapshot's "queued"); beyond kMaxQueued a lane sheds
// arrivals (counted; its value checks stop, since it no longer saw every write). Operations
// the page sends (put, get, fill) go to a lane's priority queue, ahead of the workload.
//
// The config: the stores (one bool each: cona, cona_1t, silt, lsm, fawnds, btree; at least
// one), the workload ("load": puts of new records only; YCSB's a-f over the records so far),
// the device (crucial-m500 or a FlashProfiles() name), the host (stores/host.h), `records`
// loaded in order into every store at creation (then synced), the rate, the LSM's
// `bloom_bits`, the machines' `scale` and `max_writes` (each store's file is sized for this
// many puts). Live: workload, rate_ops_per_s. A store whose kind the factory has not built
// (MakeStore's "not built yet") is left out with a note (the snapshot's "skipped").
//
// Every put's value is ycsb::ValueFor(record, version) with one version counter for the
// stream, and every workload read is checked against the version its store must hold at that
// point of the stream (a wrong value counts as a mismatch: none is expected).
//
// Operations (each runs virtual time until every store has completed it; the workload keeps
// arriving): put {key, value?} (a text key hashed to 20 bytes by ycsb::KeyForText, as the CONA
// lab), get {key | record} (the per-store results become the snapshot's last_get), fill
// {count} (the next `count` records into every store), run_until {ops} (until `ops` more
// workload operations have been offered and every store has served them).
//
// Events: a store's counters' background_jobs growing is one event per job (merge for CONA,
// compaction or flush for the LSM as its level-0 files show, conversion or merge for SILT as
// its sorted store shows; FAWN-DS and the B+tree run no background jobs), the last kEvents.
// Rates and percentages over the last kWindowNs of virtual time (samples every kSampleNs);
// latency percentiles over each store's last kLatencies reads and writes (service time: from
// the store taking the operation to its completion, the queue's wait not included).
// Deterministic: the same config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_STORES_LAB_SESSION_H_
#define FAWNLAB_STORES_LAB_SESSION_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "kv/kv_store.h"
#include "registry/sessions.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "stores/machine.h"
#include "ycsb/generator.h"
#include "ycsb/live_stream.h"

namespace fawnlab::stores {

class StoresSession : public LabSession, private sim::EventHandler {
 public:
  static constexpr sim::SimDuration kSampleNs = 50 * sim::kMs;
  static constexpr sim::SimDuration kWindowNs = 1000 * sim::kMs;
  static constexpr size_t kTimelineSamples = 1200;  // one minute of virtual time
  static constexpr size_t kEvents = 20;
  static constexpr size_t kLatencies = 1000;
  static constexpr size_t kMaxQueued = 100000;  // workload operations waiting per store

  struct Config {
    std::vector<std::string> stores = {"cona", "silt", "lsm"};  // StoreKinds() ids, in their order
    std::string workload = "load";
    std::string device = "crucial-m500";
    std::string host = "laptop";
    int64_t records = 2000;
    double rate_ops_per_s = 2000;
    int bloom_bits = 10;
    double scale = 1.0 / 1000;
    int64_t max_writes = 200000;
  };

  // The config's schema (stores from StoreKinds(), workloads from ycsb::CoreWorkloads(),
  // devices from FlashProfiles(), hosts from Hosts()).
  static std::vector<ParamSpec> Schema();
  static std::vector<std::string> LiveFields();
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  static StatusOr<std::unique_ptr<StoresSession>> Create(const std::string& config_json, uint64_t seed);
  ~StoresSession() override;

  std::string SnapshotJson() override;
  uint64_t version() override { return samples_taken_; }

  sim::SimTime now() const { return sim_->now(); }
  uint64_t records() const { return next_record_; }
  size_t lanes() const { return lanes_.size(); }
  kv::KvStore* store(size_t i) { return lanes_[i].store; }
  Machine* machine(size_t i) { return lanes_[i].machine.get(); }
  uint64_t mismatches(size_t i) const { return lanes_[i].mismatches; }
  uint64_t queued(size_t i) const;
  uint64_t offered() const { return offered_; }

 protected:
  sim::Simulator* simulator() override { return sim_.get(); }
  void AfterEvent() override;
  StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue& op) override;
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;
  StatusOr<ColumnSet> View(const std::string& name, const ParamValues& args) override;

 private:
  // One operation of the stream as a lane holds it.
  enum class OpKind : uint8_t { kPut, kGet, kScan, kRmw };
  struct Op {
    OpKind kind = OpKind::kPut;
    bool user = false;       // the page's put/get: its result goes to the lane's `user`
    bool by_record = false;  // a user get of a record (else the key is user_key_'s hash)
    bool fill = false;       // a fill's or the preload's put
    uint64_t record = 0;
    uint64_t version = 0;    // a put's value version (an RMW's write)
    uint64_t expect = 0;     // the version a read must see
    int scan = 0;            // a scan's length
  };
  struct Sample {
    sim::SimTime t = 0;
    uint64_t writes = 0, reads = 0;
    sim::SimDuration write_ns = 0, read_ns = 0, stall_ns = 0, background_ns = 0;
    uint64_t queued = 0;
  };
  struct UserResult {
    bool done = false;
    Status status;
    bool found = false;
    sim::SimDuration latency_ns = 0;
    uint64_t device_reads = 0;
  };
  struct Lane {
    std::string kind, label;
    bool has_scan = false;
    std::unique_ptr<Machine> machine;
    kv::KvStore* store = nullptr;
    std::deque<Op> urgent, queue;
    bool busy = false;          // an operation is with the store
    bool pumping = false;       // inside Pump (a store that completes at once recurses)
    bool rmw_write = false;     // the busy op is an RMW's write half
    Op current;
    sim::SimTime issued_at = 0;
    uint64_t lookup_reads_at_issue = 0;
    uint64_t done_ops = 0, shed = 0, errors = 0, mismatches = 0, skipped_scans = 0;
    bool checks = true;         // value checks (off once the lane shed an operation)
    std::string last_error;
    // A fill's puts: records fill_next .. fill_end-1 still to issue (ahead of the workload's
    // queue, behind the page's operations); fill_pending counts those and the one in flight.
    uint64_t fill_next = 0, fill_end = 0, fill_pending = 0;
    uint64_t served = 0;        // workload arrivals completed, refused, skipped or shed
    uint64_t seen_jobs = 0;
    int64_t seen_marker = -1;   // what tells this store's job kinds apart (level-0 files, sorted entries)
    std::deque<uint32_t> read_lat_ns, write_lat_ns;
    std::deque<Sample> samples;
    // At the end of the preload: what "since the session began" counts from.
    double joules0 = 0;
    uint64_t ops0 = 0, reads0 = 0, writes0 = 0;
    UserResult user;
  };
  struct Event {
    sim::SimTime t;
    std::string kind, store, detail;
  };
  struct LastGet {
    std::string key;
    std::vector<std::pair<std::string, UserResult>> per_store;
  };

  StoresSession(Config c, uint64_t seed);
  static Config FromParams(const ParamValues& p);
  Status Build();

  // sim::EventHandler: tag (token << 2) | 0 a sample tick, | 1 an arrival.
  void OnEvent(sim::Simulator& sim, uint64_t tag) override;
  void Arrive();
  Op NextWorkloadOp();
  uint64_t NewVersion(uint64_t record);

  // Hands lane i its next operations while it is free (reentrant-safe).
  void Pump(size_t i);
  // Gives `op` to lane i's store; false when the store refused it at once (counted).
  bool Issue(size_t i, const Op& op, bool rmw_write);
  void Completed(size_t i, const Status& st, bool found, const std::string& value);
  void KeyOf(const Op& op, std::string* key) const;
  void ValueOf(const Op& op, std::string* value) const;

  // Puts records next_record_ .. +count-1 into every lane (ahead of the workload) and runs
  // until every lane has completed them; `finished` (if given) gets when each lane did.
  Status Fill(uint64_t count, uint64_t max_events, std::vector<sim::SimTime>* finished = nullptr);
  // Runs events while `more()` (or until the budget runs out: false).
  bool RunWhile(const std::function<bool()>& more, uint64_t max_events);
  Status SyncAll(uint64_t max_events);

  void TakeSample();
  Sample SampleOf(const Lane& l) const;
  void CheckJobs(size_t i);
  void Emit(const Lane& l, const std::string& kind, const std::string& detail);
  int64_t JobMarker(const Lane& l) const;  // level-0 files (lsm), sorted entries (silt), else -1
  uint64_t Keys() const { return next_record_ + user_keys_.size(); }

  StatusOr<std::string> DoPutOrGet(const ParamValues& args, bool put);
  StatusOr<std::string> DoFill(const ParamValues& args);
  StatusOr<std::string> DoRunUntil(const ParamValues& args);

  void WriteLane(JsonWriter& w, const Lane& l) const;

  Config config_;
  uint64_t seed_;
  std::unique_ptr<sim::Simulator> sim_;  // first: outlives the machines on it
  std::vector<Lane> lanes_;
  std::vector<std::pair<std::string, std::string>> skipped_;  // (kind, why)

  ycsb::LiveStream stream_;  // workload "load": no generator
  uint64_t next_record_ = 0;
  uint64_t version_counter_ = 0;
  std::unordered_map<uint64_t, uint64_t> versions_;  // a record's latest version (absent: 0)
  uint64_t offered_ = 0;
  uint64_t workload_offered_ = 0;  // workload operations (arrivals) only
  std::set<std::string> user_keys_;
  std::string user_key_, user_value_;  // the page operation in flight

  std::deque<Event> events_;
  uint64_t samples_taken_ = 0;
  std::deque<sim::SimTime> sample_times_;  // the timeline's, beside each lane's samples
  bool has_last_get_ = false;
  LastGet last_get_;
};

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_LAB_SESSION_H_
