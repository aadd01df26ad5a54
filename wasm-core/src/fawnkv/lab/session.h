// FawnkvSession: a simulated FAWN-KV cluster (fawnkv/cluster.h) for the FAWN-KV lab's live
// view (contract: web/src/labs/fawnkv/fawnkvTypes.ts; docs/modules.md, "The FAWN-KV lab's
// session", lists the ranges).
//
// Create(config, seed) builds the cluster — `nodes` back-ends with `vids` VIDs each (hashed,
// or evenly spaced), R-way chains, `front_ends` front-ends, every back-end shrunk 64× (its
// DRAM and card) with stores sized from `preload` and `load_keys` — loads keys
// "k0".."k<preload−1>" into every replica, records those puts in the history, then applies the
// config's `script`. The page steps it with Advance(dt)/Step() and sends operations as JSON
// through Apply():
//   put {key, value?}  get {key}      a client request at the key's front-end; runs until it is
//                                     answered or the front-end gives up (virtual time moves)
//   add-node {id?}                    a new back-end joins (the next free id when omitted)
//   remove-node {id}                  a graceful leave
//   fail-node {id}                    fail-stop; front-end 0 notices after missed heartbeats
//   fill {count, from?}               client puts of "k<from>" … (32 in flight), run out
//   check                             the linearizability checker over the history so far
// Membership changes run one at a time; a join or leave asked for while another change runs
// waits (`queued`). The coordinator waits forever on a change that needs a dead back-end, so
// the session refuses what would start one: any change while a failure is not yet noticed and
// replaced, and a failure while a change runs or waits.
// A background Poisson load (load_rate_per_s, load_put_fraction, keys k0 … k<load_keys−1>,
// uniform or Zipf(zipf_s)) runs as time advances, at most 256 requests outstanding (the rest
// are shed); Reconfigure() changes it, value_bytes and cache_entries while running.
//
// Every client request (load, put, get, fill) goes into the cluster's history as Cluster::Get
// and Put record it, each put with a value unique to it ("v<n>", padded to value_bytes; the
// history keeps "v<n>" alone; a put's own `value` is used as given), up to kHistoryOps
// operations; after that only puts that a recorded get in flight might read, so the history
// stays closed under "who could have read whom" and recording ends within a timeout.
//
// SnapshotJson() is the FawnkvSnapshot: back-ends (state, stores, QPS, latency, power),
// front-ends, recent messages, joins in progress, events, cluster QPS and watts over the last
// virtual second, totals, the last check and a 100 ms timeline. Vids() gives the ring as
// columns; its version (ring_version) changes exactly when the ring's VIDs do.
// Deterministic: the same config, seed and call sequence give the same snapshots.
// Single-threaded, like the simulator it drives.
#ifndef FAWNLAB_FAWNKV_LAB_SESSION_H_
#define FAWNLAB_FAWNKV_LAB_SESSION_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/params.h"
#include "base/status.h"
#include "registry/sessions.h"
#include "fawnkv/cluster.h"
#include "sim/rng.h"

namespace fawnlab::fawnkvlab {

// The ring's VIDs in ring order. pos: the VID's ring fraction in [0, 1) (top 53 bits / 2^53).
// chains: for each VID i, the chain whose head is VID i (the range it owns), as VID indices in
// ring order, head first, chain_length entries each (R capped at the distinct back-ends; by
// Ring::Chain's rule), kNoVid padding.
struct VidColumns {
  static constexpr uint32_t kNoVid = 0xFFFFFFFF;
  uint64_t version = 0;
  std::vector<uint32_t> node;
  std::vector<uint16_t> index;
  std::vector<double> pos;
  int chain_length = 0;
  std::vector<uint32_t> chains;
};

class FawnkvSession : public LabSession {
 public:
  static constexpr size_t kHistoryOps = 400'000;  // client operations recorded for the checker (~100 B each)
  static constexpr int kMaxOutstanding = 256;     // load requests in flight; arrivals beyond are shed

  struct Config {
    int nodes = 6;
    int vids = 2;
    int replication = 3;
    int front_ends = 1;
    std::string placement = "hashed";
    int value_bytes = 256;
    int cache_entries = 0;
    bool separate_queues = true;
    double load_rate_per_s = 0;
    double load_put_fraction = 0.1;
    int load_keys = 1000;
    double zipf_s = 0;
    int preload = 200;
    int heartbeat_ms = 500;
  };
  // The config's schema, `c` giving the defaults (the session registry's: Config{}).
  static std::vector<ParamSpec> Schema(const Config& c);
  // The registry's factory ("fawnkv"): `config` has every field of Schema(); refuses
  // combinations the lab cannot simulate, naming the fields.
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  // CreateSession("fawnkv", ...) as a FawnkvSession.
  static StatusOr<std::unique_ptr<FawnkvSession>> Create(const std::string& config_json, uint64_t seed);
  ~FawnkvSession() override;

  // Reconfigure accepts value_bytes, cache_entries, load_rate_per_s, load_put_fraction,
  // load_keys, zipf_s (the live fields); Apply takes the operations above, each result a
  // FawnkvOpResult (their schemas: fawnkv/lab/schema.cc).
  std::string SnapshotJson() override;
  VidColumns Vids();

  sim::SimTime now() const { return cluster_->sim().now(); }
  // The ring's version: changes whenever its VIDs change.
  uint64_t version() override;
  fawnkv::Cluster& cluster() { return *cluster_; }
  // Whether a membership change (a join, a leave, a failed node's repair) is running or
  // waiting (1, else 0): the page slows its clock down for it. Cheaper than a snapshot.
  int Busy() const override;

 protected:
  sim::Simulator* simulator() override { return &cluster_->sim(); }
  StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue& op) override;
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;
  // "vids" {}: Vids() as columns.
  StatusOr<ColumnSet> View(const std::string& name, const ParamValues& args) override;

 private:
  using Then = std::function<void(const fawnkv::Outcome&)>;
  // A request answered in the last second: when, by which back-end (−1: the front-end's
  // cache), at which front-end, how long it took.
  struct Answer {
    sim::SimTime t;
    int node;
    int front;
    sim::SimDuration latency_ns;
  };
  // Energy at a 100 ms boundary: the cluster's and each back-end's joules since the start.
  struct Sample {
    sim::SimTime t;
    double joules;
    std::vector<double> node_joules;
  };
  struct Point {
    sim::SimTime t;
    double qps, watts;
  };
  struct Msg {
    uint64_t id;
    const char* kind;
    int from, to;
    double pos;
    sim::SimTime sent, arrive;
    uint32_t bytes;
    bool heartbeat;
  };
  struct Event {
    sim::SimTime t;
    std::string text;
  };
  struct Check {
    uint64_t keys, operations, violations;
    std::vector<std::string> details;
  };

  explicit FawnkvSession(Config c, uint64_t seed);
  static Config FromParams(const ParamValues& p);
  Status Build();
  Status Preload();

  // Time.
  void ScheduleSample();
  void TakeSample();
  double ClusterJoules() const;
  // Runs events until *flag, the budget, or `deadline`; false if *flag is still unset.
  bool RunUntilDone(const bool* flag, sim::SimTime deadline);

  // Client requests.
  std::string NewValue();
  void Issue(bool put, const std::string& app_key, std::string value, Then then);
  bool Record(const std::string& app_key, bool put);
  void Answered(const fawnkv::Outcome& o, int front);
  void ScheduleArrival();
  void Arrival();

  // Events, messages, the ring. Note: the session's own event; OnEvent: the cluster's.
  void Note(const std::string& text);
  void OnEvent(const std::string& text);
  void OnMessage(const fawnkv::Message& m, sim::SimTime sent, sim::SimTime arrive);
  void CheckRing();
  void CheckJoins();

  // Operations (session_ops.cc).
  StatusOr<std::string> DoKeyOp(const std::string& kind, const ParamValues& args);
  StatusOr<std::string> DoMembership(const std::string& kind, const ParamValues& args);
  StatusOr<std::string> DoFill(const ParamValues& args);
  StatusOr<std::string> DoCheck();
  StatusOr<fawnkv::NodeId> LiveNode(const ParamValues& args, bool changing_too = false) const;
  std::vector<std::string> ChainNames(const fawnkv::Key& key) const;

  // The snapshot (session_snapshot.cc).
  const char* StateOf(fawnkv::NodeId id) const;
  void WriteNodes(JsonWriter& w, double window_s, const Sample* from);
  void WriteFrontEnds(JsonWriter& w, double window_s);
  void WriteMessages(JsonWriter& w) const;
  void WriteJoins(JsonWriter& w);
  void WriteCheck(JsonWriter& w, const Check& c) const;
  const Sample* WindowStart() const;

  Config config_;
  std::unique_ptr<fawnkv::Cluster> cluster_;
  sim::Rng rng_;
  std::unique_ptr<sim::ZipfSampler> zipf_;

  // Load.
  uint64_t arrival_token_ = 0;
  int outstanding_ = 0;
  uint64_t shed_ = 0;

  // Requests and the history.
  uint64_t value_seq_ = 0;
  uint64_t puts_ = 0, gets_ = 0, timeouts_ = 0, refused_ = 0;  // refused: a store had no room
  std::map<std::string, int> recorded_gets_;  // application key -> recorded gets in flight
  bool history_full_ = false;
  std::deque<Answer> answers_;  // the last second's
  uint64_t bin_answers_ = 0;    // in the current 100 ms bin

  // Power and the timeline.
  std::deque<Sample> samples_;  // the last second's 100 ms boundaries (and one before)
  std::deque<Point> timeline_;

  // Views.
  std::deque<Msg> messages_;
  uint64_t next_msg_ = 1;
  std::deque<Event> events_;
  std::optional<Check> last_check_;
  std::set<fawnkv::NodeId> leaving_;  // remove-node asked for, not gone yet
  std::set<fawnkv::NodeId> joining_;  // added, their join not finished yet
  sim::SimTime change_ended_ = -1;    // when the last membership change finished
  sim::SimTime started_ = 0;          // after the preload: the windows start here
  std::vector<fawnkv::Vid> ring_seen_;
  uint64_t ring_version_ = 1;
};

}  // namespace fawnlab::fawnkvlab

#endif  // FAWNLAB_FAWNKV_LAB_SESSION_H_
