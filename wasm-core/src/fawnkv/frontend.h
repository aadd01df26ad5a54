// FrontEnd: one FAWN-KV front-end (SOSP'09 §3.4.1–3.4.2): it owns a wedge of the ring, takes
// its clients' puts and gets, forwards each in one hop (puts to the range's head, gets to the
// member this front-end reads from, switched when that member says kReaderNow), and answers
// the client when the reply comes back. A kRetry ("not here") is routed again after a short
// pause; a request unanswered after `timeout_ns` fails (a put that fails may or may not have
// taken effect; puts are never resent, so no value is ever written twice). A reply with a
// status other than kOk (the head's store refused a put or delete for want of room) fails at
// once with that status: definitely not applied.
//
// The query cache: `cache_entries` values, least recently used out first. Every request for a
// key passes through the one front-end owning its wedge, so no coherence protocol is needed:
// a put's acknowledgement updates the entry, and a get's answer is cached only if no put of
// that key was sent after the get was (so a slow get cannot bring back an older value).
// Processing costs the front-end's CPU `cpu_ns` per request and per reply (an Atom; estimate).
//
// Delete goes to the head like a put (the tail's answer says whether the key was there) and
// drops the key's cache entry. MultiGet answers cached keys at once and sends the rest in one
// kMultiGet per back-end that reads them (FAWN-DS's vector lookup there); a key that back-end
// no longer reads ("not here"), or whose range has no reader yet, is retried alone as a Get.
// Its outcome has one answer per key, in order; ok when every key was answered.
#ifndef FAWNLAB_FAWNKV_FRONTEND_H_
#define FAWNLAB_FAWNKV_FRONTEND_H_

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fawnds/host_cpu.h"
#include "fawnkv/transport.h"
#include "fawnkv/routes.h"
#include "sim/simulator.h"

namespace fawnlab::fawnkv {

struct FrontOptions {
  sim::SimDuration cpu_ns = 10 * sim::kUs;         // per request and per reply (estimate)
  sim::SimDuration timeout_ns = 2 * sim::kSec;
  sim::SimDuration retry_ns = 1 * sim::kMs;
  size_t cache_entries = 0;                        // 0: no cache (S-Fig 11 ran without)
};

// What a client learns.
struct KeyAnswer {
  bool ok = false, found = false;
  std::string value;
};

struct Outcome {
  bool ok = false;     // answered (a put: acknowledged)
  // Why not ok: kNoSpace = refused by the store (definitely not applied); kOk = no answer
  // within the timeout (a put or delete may or may not have taken effect).
  ReplyStatus status = ReplyStatus::kOk;
  bool found = false;  // a get found a value
  std::string value;
  bool cache_hit = false;
  Endpoint served_by = kNobody;  // the back-end that answered
  sim::SimDuration latency_ns = 0;
  std::vector<KeyAnswer> answers;  // MultiGet: one per key, in request order
};

struct FrontStats {
  uint64_t gets = 0, puts = 0, deletes = 0, multigets = 0, answered = 0, failed = 0, retries = 0;
  uint64_t refused = 0;  // of the failed: refused with a status (not timed out)
  uint64_t cache_hits = 0, cache_misses = 0;
};

class FrontEnd {
 public:
  using Done = std::function<void(const Outcome&)>;
  FrontEnd(sim::Simulator* sim, Transport* net, Routes* routes, int index, FrontOptions o);

  void Get(const Key& key, Done done);
  void Put(const Key& key, std::string value, Done done);
  void Delete(const Key& key, Done done);
  void MultiGet(std::vector<Key> keys, Done done);
  // Replies, retries and kReaderNow addressed to this front-end.
  void Receive(Message& m);

  void set_cache_entries(size_t n);
  int index() const { return index_; }
  Endpoint endpoint() const { return FrontEndpoint(index_); }
  const FrontStats& stats() const { return stats_; }
  size_t cache_size() const { return lru_.size(); }
  const fawnds::HostCpu& cpu() const { return cpu_; }

 private:
  struct Pending {
    Pending() = default;
    Pending(MsgKind k, const Key& key_, std::string v, Done d, sim::SimTime at, uint64_t ver)
        : kind(k), key(key_), value(std::move(v)), done(std::move(d)), invoked(at), version(ver) {}
    MsgKind kind = MsgKind::kGet;
    Key key;
    std::string value;
    Done done;
    sim::SimTime invoked = 0;
    uint64_t version = 0;  // gets: the key's put count when sent
    // MultiGet: the keys, their answers, which are settled or asked alone, how many are open.
    std::vector<Key> keys;
    std::vector<KeyAnswer> answers;
    std::vector<uint8_t> state;  // 0 open, 1 asked alone, 2 settled
    size_t open = 0;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  void Send(uint64_t req);
  void SendMulti(uint64_t req);
  void OnMultiReply(const Message& m);
  void AskAlone(uint64_t req, size_t i);
  void Settle(uint64_t req, size_t i, KeyAnswer a);
  void Arm(uint64_t req);  // the request's timeout
  void CacheErase(const Key& key);
  void Finish(uint64_t req, Outcome o);
  void CachePut(const Key& key, const std::string& value);
  const std::string* CacheGet(const Key& key);

  sim::Simulator* sim_;
  Transport* net_;
  Routes* routes_;
  int index_;
  FrontOptions o_;
  fawnds::HostCpu cpu_;
  uint64_t next_req_ = 1;
  std::map<uint64_t, Pending> pending_;
  std::unordered_map<Key, uint64_t, KeyHash> put_count_;
  std::list<std::pair<Key, std::string>> lru_;
  std::unordered_map<Key, std::list<std::pair<Key, std::string>>::iterator, KeyHash> cache_;
  FrontStats stats_;
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_FRONTEND_H_
