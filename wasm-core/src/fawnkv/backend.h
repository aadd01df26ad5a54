// Backend: one FAWN-KV back-end (SOSP'09 §3.4, §4): an Alix 3c2 with its CompactFlash card,
// the OS page cache in the DRAM the indexes leave (as fawnds/experiments/rig.h), one 500 MHz
// core (fawnds::HostCpu) and a FAWN-DS Node holding one store per key range it replicates.
//
// Serving. Messages wait in a queue and one worker handles them one at a time, reading and
// writing FAWN-DS synchronously as the prototype's server did: unmarshal, look up (the flash
// read if the page cache misses), marshal the answer, then the next. With `separate_queues`
// chain and membership traffic have a second queue and worker (SOSP'09 footnote 5: with one
// queue, puts passing between neighbours wait behind clients' gets). Both share the core.
// Each message costs rpc_base_ns + rpc_ns_per_byte × its size of CPU, plus FAWN-DS's own cost.
// Heartbeats are answered at once, outside both queues (a liveness check must not wait
// behind a pre-copy's batches).
//
// Chain replication (§3.4.3), per range: the head stamps a put with the range's next sequence
// number and its configuration epoch, applies it, forwards it and keeps it until acked; each
// member applies and forwards in order; the replier (the tail) answers the front-end and acks
// up the chain; gets go to the replier. Puts of an epoch this node has no configuration for
// wait; a sequence number already applied is a duplicate and is dropped.
//
// Membership (§3.4.4; docs/decisions.md, "FAWN-KV membership"). An epoch's configuration
// (kConfig) names the chain for puts from its first sequence number on. The range's head
// starts it (kSeal; while a put it stamped is still being written, the seal waits for it), and
// each member passes it on to its old and its new successor behind the puts of earlier epochs,
// resending its unacknowledged puts to a new successor first. A joiner logs the epoch's puts
// aside (in DRAM; the paper's temporary datastore) and forwards them, receives the pre-copy
// (kPrecopyData: the donor's log scanned in 64 KB reads, current in-range records only), then
// the flush (every in-range record the donor appended after the pre-copy), then merges its
// temporary log into the store and reports kReady. A node gives up a range on kRelease: the
// store is removed or narrowed.
//
// The join's flush boundary (docs/bugs/fixed/killnine-stale-read.md). A member may get two copies of
// a configuration over different links (from its old and from its new predecessor), and
// nothing orders one link against another. A copy *vouches* that every put of the earlier
// epochs has reached the receiver only when its sender was in the previous epoch's chain (the
// old predecessor's copy follows its puts; a new predecessor from the old chain resent first
// what was unacknowledged); a joiner's copy vouches for nothing. An epoch is *caught up* at a
// member once a vouching copy arrived, or once the member has applied every sequence number
// below the epoch's first (or at once for a new member). Until then that epoch's chain puts
// wait: applied first, they would make the older ones look like resends. The donor starts the
// flush only when the insert epoch is caught up (whichever copy came first), up to its log's
// end then, and kFlushDone carries the last sequence number it had applied. The joiner keeps
// aside, with the epoch's puts, the older epochs' puts its predecessor resends, and merges in
// sequence order every one after that number: the flush never misses a put the old tail
// acknowledged, and the joiner does not rely on the flush ending exactly at the epoch's first.
// Fail() stops the node (fail-stop): it handles nothing more, its link goes down.
//
// Reset (kReset, real cluster; coordinator.h): the front-end declared this node failed while
// it was alive (starved), so whatever it holds is stale and it must rejoin as a new node.
// Once no put is being written and no compaction runs, it stops its scans and drops every
// segment (epochs, sequence numbers, unacknowledged and waiting puts, joins) and every store,
// then answers kResetDone. Messages of its old chains that arrive later find no segment (or
// make one that names it in no chain) and are dropped, as after kRelease.
//
// Deletes travel the chain like puts (FAWN-DS Delete at each replica; the tail answers, found =
// whether it held the key); pre-copies and flushes carry delete records too. A kMultiGet is
// answered in one kMultiReply: the keys of ranges this node reads go through FAWN-DS's vector
// lookup (DataStore::MultiGet, one batch per store); the others come back "not here".
//
// Running out of room. A put or delete the store refuses for want of room is refused, not
// silently dropped: at the head (nothing applied anywhere) the client gets a kReply with
// status kNoSpace; further down the chain (the head has applied it) it is dropped and the
// client times out ("may or may not have taken effect"). So that the head, not a successor,
// is the one to refuse, every kAck carries the least room (free log bytes, plus garbage when
// compaction can reclaim it) in the key's store among the members from the tail up to it; the
// head refuses at once (kNoSpace) a put whose record, with the puts still unacknowledged,
// would not fit that room (replicas' stores may differ: a node's store can cover several
// ranges, and compaction runs apart on each). With `compact_fill` > 0 (the real
// cluster; docs/decisions.md "Background compaction") the node compacts its stores itself
// (fawnds::Node::Compact, SOSP'09 §3.3.2), in the background while requests continue: a store
// whose log is over compact_fill of its capacity and whose garbage (orphaned records' bytes)
// is over compact_garbage of its log is compacted after the write that crossed the line, one
// at a time; and a write refused for want of room waits (its worker with it, so order holds)
// for a compaction of its store when that can make room, then tries once more. Compaction
// never overlaps a pre-copy or flush scan (they hold log offsets), nor a donor's wait between
// its pre-copy and its flush; messages that change the store list (configurations, copies,
// releases) wait while a compaction runs. The same background maintenance first splits a
// store that holds several of the node's ranges (FAWN-DS's Split, §3.3.2), so that each range
// has its own store on every replica. With compact_fill = 0 (the simulation's default)
// nothing of this runs.
//
// Real cluster mode (`file_path` set; docs/decisions.md "Real cluster mode"): the stores live
// on a device::FileDevice at that path (real pread/pwrite/fsync), with no page cache and no
// modelled CPU or device time. A file that already holds a FAWN-DS node is recovered
// (fawnds::Node::Recover) and reported by recovered(); those stores serve nothing until the
// node is given ranges again, and each range it then joins drops the recovered stores it
// overlaps and is copied afresh from the current tail (the node missed puts and deletes
// while it was down). SyncAll/CheckpointAll make the file durable (fsync).
// Whole-cluster restart: kRestore (range, chain, epoch) from the front-end that restored its
// persisted ring asks the node to serve that range from what it recovered: when a recovered
// store covers the range and the node is in the chain, the range is bootstrapped statically
// at that epoch (sequence numbers from 1, as Bootstrap) and the store is kept; kRestored
// answers found = whether it could. A node that already serves the range (only the
// front-end restarted) answers found = true and changes nothing.
#ifndef FAWNLAB_FAWNKV_BACKEND_H_
#define FAWNLAB_FAWNKV_BACKEND_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/file_device.h"
#include "device/flash_device.h"
#include "device/page_cache.h"
#include "fawnds/host_cpu.h"
#include "fawnds/node.h"
#include "fawnkv/message.h"
#include "fawnkv/transport.h"
#include "fawnkv/ring.h"
#include "sim/simulator.h"

namespace fawnlab::fawnkv {

struct BackendOptions {
  std::string profile = "sandisk-cf-4gb";        // SOSP'09 §4: 4 GB Sandisk Extreme IV CF
  double scale = 1;                              // multiplies DRAM, the OS's share and the card
  uint64_t dram_bytes = uint64_t{256} << 20;     // SOSP'09 §4: 256 MB DDR SDRAM
  uint64_t os_bytes = uint64_t{32} << 20;        // fitted to Table 2 (fawnds/experiments/rig.h)
  uint64_t card_min_bytes = 0;                   // the card is at least this big (room for the stores)
  uint64_t index_dram_bytes = 0;                 // DRAM the stores' hash indexes take (not page cache)
  int index_bits = 12;                           // each store's index: 2^index_bits buckets
  uint64_t file_bytes = 4 << 20;                 // each store's file
  bool prefill = true;                           // the card has been written before
  sim::SimDuration lock_hold_ns = 25 * sim::kMs;
  // Request handling on the 500 MHz Geode: fitted so one back-end serving a 512 MB store
  // over the network sustains SOSP'09 §4.2's 1,850 256 B gets/s (docs/decisions.md).
  sim::SimDuration rpc_base_ns = 60 * sim::kUs;
  double rpc_ns_per_byte = 40;
  bool separate_queues = true;
  int front_ends = 1;
  uint64_t scan_chunk = 16 * 1024;               // a local split/merge/compact's reads (not in the papers)
  uint64_t precopy_chunk = 64 * 1024;            // bytes read per scan step
  int precopy_window = 2;                        // pre-copy messages in flight
  std::string file_path;                         // real cluster mode: the card is this file (card_min_bytes)
  // Background compaction (see above; docs/decisions.md): 0 = off.
  double compact_fill = 0;                       // a store's log past this share of its capacity …
  double compact_garbage = 0.5;                  // … with at least this share of it garbage
};

// What a back-end found in its file at start (real cluster mode).
struct RecoveredStores {
  size_t stores = 0;
  uint64_t records = 0;
  std::vector<KeyRange> ranges;
  std::string detail;  // "" or why recovery found nothing usable
};

// Counters the lab and the experiments read.
struct BackendStats {
  uint64_t gets = 0, puts = 0, deletes = 0, multigets = 0, multiget_keys = 0, chain_puts = 0, retries = 0;
  uint64_t precopy_bytes_sent = 0, precopy_bytes_received = 0;
  uint64_t messages = 0;
  uint64_t store_errors = 0;  // a store could not be added, or refused a write (no room)
  uint64_t refused = 0;       // of those: writes refused at the head (answered kNoSpace)
  uint64_t compactions = 0;   // completed background compactions
  uint64_t reclaimed_bytes = 0;  // log bytes those compactions freed
  // Joins: chain puts held until their epoch was caught up, and donor flushes that waited for
  // the old chain's last puts (a configuration copy overtook them; backend.h, "The join").
  uint64_t held_puts = 0, flush_waits = 0;
};

class Backend {
 public:
  static StatusOr<std::unique_ptr<Backend>> Create(sim::Simulator* sim, Transport* net, NodeId id, const BackendOptions& o);
  ~Backend();

  NodeId id() const { return id_; }
  bool failed() const { return failed_; }
  void Fail();

  // Static start: this node replicates `range` with `chain` (head first; epoch 1).
  Status Bootstrap(const KeyRange& range, const std::vector<NodeId>& chain);
  // Writes a record straight into the store holding `key` (populating before a run).
  Status Preload(const Key& key, std::string_view value, std::function<void()> done);

  // Delivery from the transport.
  void Receive(Message& m);

  const BackendStats& stats() const { return stats_; }
  size_t client_queue() const { return client_.q.size(); }
  size_t chain_queue() const { return chain_.q.size(); }
  fawnds::Node& node() { return *node_; }
  const fawnds::Node& node() const { return *node_; }
  // The emulated card (null in real cluster mode).
  device::FlashDevice& flash() { return *flash_; }
  const device::FlashDevice& flash() const { return *flash_; }
  const RecoveredStores& recovered() const { return recovered_; }
  // Makes every store durable (a checkpoint each, with fsync); `done` when complete.
  Status CheckpointAll(std::function<void(const Status&)> done);
  const fawnds::HostCpu& cpu() const { return *cpu_; }
  uint64_t cache_bytes() const { return cache_bytes_; }
  // Records and log bytes across the node's stores.
  uint64_t records() const;
  uint64_t log_bytes() const;

  struct JoinView {
    KeyRange range;
    bool precopy_done = false, flush_done = false, merged = false;
    uint64_t received_bytes = 0;
  };
  std::vector<JoinView> joins() const;

 private:
  struct Worker {
    std::deque<Message> q;
    bool busy = false;
  };
  struct Epoch {
    uint64_t epoch = 0, from = 0;
    Role role;
    bool member = false;
    // Every put of the epochs before this one that this node is to apply has been handled
    // here (see "The join's flush boundary" above); until then this epoch's puts wait.
    bool caught_up = false;
    std::shared_ptr<const ChainSpec> spec;  // the epoch's chain (who may vouch for the next one)
  };
  struct Unacked {
    uint64_t seq, epoch;
    Key key;
    std::string value;
    uint64_t req;
    Endpoint client;
    bool del;
  };
  struct TempPut {
    uint64_t seq;
    Key key;
    std::string value;
    bool del;
  };
  // A donor's scan of one range of its store's log: the pre-copy (live records from the log's
  // start until caught up) or the flush (every in-range record between two offsets).
  struct Scan {
    KeyRange range;
    Endpoint joiner;
    size_t store = 0;
    const fawnds::DataStore* ds = nullptr;
    uint64_t pos = 0, until = 0;  // until: 0 = the log's end when caught up (pre-copy)
    bool flush = false;
    uint64_t seq = 0;  // a flush: the last sequence number the donor had applied at `until`
    uint64_t id = 0;  // the coordinator's copy id (every message of the copy carries it)
    int in_flight = 0;
    bool reading = false, done = false;
    std::shared_ptr<std::vector<KvRecord>> batch;
    uint64_t batch_bytes = 0;
  };
  struct Seg {
    KeyRange range;
    std::vector<Epoch> epochs;  // ascending
    uint64_t applied = 0, counter = 0;
    std::deque<Unacked> unacked;
    // Chain puts of an epoch not yet configured here, or not yet caught up (Epoch::caught_up).
    std::vector<Message> waiting;
    std::vector<Message> sealing;  // a kSeal waiting for the put this head is writing
    // As a joiner. flush_seq: the donor's last sequence number in the flush (kFlushDone).
    bool joining = false, precopy_done = false, flush_done = false, merged = false;
    std::vector<TempPut> temp;
    uint64_t received = 0, flush_seq = 0;
    // As a donor: where the pre-copy stopped, and whether its flush (from there) is still due.
    // Either way: the newest copy's id. flush_epoch: the insert epoch whose configuration has
    // arrived but whose earlier puts the donor has not all applied yet (0: none); the flush
    // to flush_to starts once it has.
    uint64_t mark = 0, copy = 0, flush_epoch = 0;
    Endpoint flush_to = kNobody;
    bool flush_due = false;
    // As the head: the least room below it, as of the last ack (kRoomUnknown before one).
    uint64_t chain_room = kRoomUnknown;
    bool released = false;
  };

  Backend(sim::Simulator* sim, Transport* net, NodeId id, const BackendOptions& o);
  Status OpenDevice();
  void Enqueue(Message m);
  void Pump(Worker* w);
  sim::SimDuration CostOf(const Message& m) const;
  // Handles `m`; calls `done` when the worker may take the next message.
  void Handle(Message& m, std::function<void()> done);
  void Send(Message m);
  // Puts `msgs` at the front of their worker's queue, in order (they go before anything that
  // arrived after them), and empties it.
  void Requeue(std::vector<Message>& msgs);
  void Reply(const Message& req, bool found, std::string value, ReplyStatus status = ReplyStatus::kOk);
  void Retry(const Message& req);

  Seg* SegOf(const Key& key);
  Seg& SegFor(const KeyRange& r);  // the segment exactly `r`, splitting or creating
  const Epoch* EpochAt(const Seg& s, uint64_t epoch) const;
  const Epoch* Current(const Seg& s) const { return s.epochs.empty() ? nullptr : &s.epochs.back(); }
  bool Reads(const Seg& s) const;

  // Requests and chain replication (backend_chain.cc).
  void OnGet(Message& m, std::function<void()> done);
  void OnPut(Message& m, std::function<void()> done);
  void OnMultiGet(Message& m, std::function<void()> done);
  void OnChainPut(Message& m, std::function<void()> done);
  void ApplyPut(Seg& s, const Message& m, std::function<void()> done);
  void OnAck(const Message& m);
  // Whether a put of `s`'s range is being written here (applied, not yet forwarded).
  bool Writing(const Seg& s) const;
  // After a put of `s` finished, or a configuration arrived: marks the epochs now caught up,
  // starts a flush that waited for that, lets waiting puts and seals go.
  void Progress(Seg& s);
  void MaybeFlush(Seg& s);

  // Membership (backend_membership.cc).
  void OnSeal(Message& m);
  void OnConfig(Message& m);
  void OnPrecopyData(Message& m, std::function<void()> done);
  void OnFlushDone(Message& m, std::function<void()> done);
  void MaybeMerge(Seg& s, std::function<void()> done);
  void OnRelease(const Message& m);
  void OnRestore(const Message& m);
  void OnReset(Message& m, std::function<void()> done);
  bool CurrentCopy(Seg& s, uint64_t id);
  void AppendAll(std::shared_ptr<std::vector<KvRecord>> recs, size_t i, std::function<void()> done);

  // The donor's scans (backend_scan.cc).
  void StartScan(const KeyRange& range, Endpoint joiner, uint64_t from, uint64_t until, bool flush, uint64_t id, uint64_t seq = 0);
  void StopScan(const KeyRange& range);
  void ScanStep(const std::shared_ptr<Scan>& sc);

  // Stores, room and background maintenance (backend_storage.cc).
  void DropStale(const KeyRange& range);
  void EnsureStore(const KeyRange& range);
  // Writes a chain put or delete to the store, then `after` (forward, answer); a refusal for
  // want of room waits for a compaction that can make room, else is refused (Refuse).
  void WriteToStore(std::shared_ptr<Message> fwd, Role role, std::function<void()> after,
                    std::shared_ptr<std::function<void()>> fin);
  void Refuse(const Message& m, const Role& role, const std::shared_ptr<std::function<void()>>& fin);
  // Compacts the store holding `key` when that can make room for `need` bytes: then(true)
  // once it has; then(false) when it cannot (or failed).
  void MakeRoom(const Key& key, uint64_t need, std::function<void(bool)> then);
  bool CanCompact() const;
  // Bytes the store holding `key` could still take (free, plus garbage a compaction can
  // reclaim); kRoomUnknown when no store holds it.
  uint64_t RoomFor(const Key& key) const;
  bool StartCompaction(size_t store, std::function<void(bool)> then);
  void MaybeCompact();
  // Splits a store that holds more than one of this node's ranges (the first node of a ring
  // holds them all in one), so that each range has a store of its own, as on every other
  // replica (their room must agree: see "Running out of room"). True when one started.
  bool MaybeSplit();
  void RunAfterMaintenance();

  sim::Simulator* sim_;
  Transport* net_;
  NodeId id_;
  BackendOptions o_;
  bool failed_ = false;
  std::unique_ptr<device::FlashDevice> flash_;
  std::unique_ptr<device::PageCache> cache_;
  std::unique_ptr<device::FileDevice> file_;
  device::Device* dev_ = nullptr;  // the node's device: the page cache, or the file
  RecoveredStores recovered_;
  std::vector<Key> stale_;         // range ends of recovered stores not yet claimed
  std::unique_ptr<fawnds::HostCpu> cpu_;
  std::unique_ptr<fawnds::Node> node_;
  uint64_t cache_bytes_ = 0;
  Worker client_, chain_;
  std::map<Key, Seg> segs_;  // by range end
  std::map<Key, std::shared_ptr<Scan>> scans_;  // by range end: pre-copies waiting for acks
  std::vector<Key> writing_;  // keys of the puts being written (at most one per worker)
  BackendStats stats_;
  std::vector<std::function<void()>> after_maintenance_;  // work waiting for a compaction to end
  std::vector<const fawnds::DataStore*> unknown_garbage_;  // recovered stores: garbage before their checkpoint unknown
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_BACKEND_H_
