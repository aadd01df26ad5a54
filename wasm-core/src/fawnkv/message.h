// Message: what FAWN-KV's front-ends and back-ends send each other (SOSP'09 §3.4).
//
// Client path: kGet to a range's tail (its reader), kPut to its head; kReply (or kRetry: "not
// here, route again") back to the front-end. Chain path (§3.4.3): kChainPut down the chain,
// stamped by the head with the range's sequence number and configuration epoch; kAck back up.
// Membership (§3.4.4): kSeal asks a range's head to start epoch e (kSealed answers with the
// first sequence number of e); kConfig carries one member's part of epoch e and flows through
// the chain behind the puts of earlier epochs; kPrecopy* move a range's log from the current
// tail to a joining node, kFlush* the entries that arrived after the pre-copy; kReady says a
// joiner has merged its temporary log; kReaderNow that a member now answers gets; kRelease
// that a node may drop a range it no longer replicates. kHeartbeat/kHeartbeatReply detect
// failures; kReset (`req`: the reset's id) tells a node declared failed that answers again to
// drop every range and store it holds, and kResetDone (same `req`) says it has. kDelete travels like kPut (to the head, down the chain as a kChainPut with `del`
// set; the tail answers). kMultiGet asks one back-end for several keys it reads (FAWN-DS's
// vector lookup there); kMultiReply answers each (found, not found, or "not here": the
// front-end retries that key alone). A kReply's `status` says whether the request took effect:
// kOk, or kNoSpace (the head's store refused the put or delete: nothing was applied anywhere,
// a definite failure, unlike a timeout). A kAck's `room` is the least room (bytes a store could
// still take for the key's range) among the members from the acking one to the tail, so the
// head refuses a put a successor could not store (backend.h). `bytes` is the size on the wire, headers included
// (Network adds nothing). The byte encoding for real sockets is codec.h's.
#ifndef FAWNLAB_FAWNKV_MESSAGE_H_
#define FAWNLAB_FAWNKV_MESSAGE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fawnds/key.h"

namespace fawnlab::fawnkv {

using fawnds::Key;
using fawnds::KeyRange;
using Endpoint = int;  // back-end n is n ≥ 0; front-end f is −1 − f
inline Endpoint FrontEndpoint(int f) { return -1 - f; }
inline bool IsFrontEnd(Endpoint e) { return e < 0; }
inline int FrontIndex(Endpoint e) { return -1 - e; }
constexpr Endpoint kNobody = 1 << 30;

enum class MsgKind : uint8_t {
  kGet, kPut, kReply, kRetry, kChainPut, kAck,
  kSeal, kSealed, kConfig, kReaderNow, kReady, kRelease,
  kPrecopyStart, kPrecopyData, kPrecopyAck, kPrecopyDone, kFlushData, kFlushDone,
  kHeartbeat, kHeartbeatReply,
  kDelete, kMultiGet, kMultiReply,
  kRestore, kRestored,  // real cluster: a whole-cluster restart's static bootstrap (backend.h)
  kReset, kResetDone,   // real cluster: a node declared failed forgets everything before it rejoins (coordinator.h)
};
constexpr int kMsgKinds = static_cast<int>(MsgKind::kResetDone) + 1;
const char* KindName(MsgKind k);
// Chain and membership traffic, which a back-end may queue apart from clients' (footnote 5).
bool IsChainTraffic(MsgKind k);

// One member's part of a range's epoch: the chain for puts stamped with that epoch.
struct Role {
  Endpoint pred = kNobody, succ = kNobody;
  bool head = false;
  bool replier = false;  // answers puts and gets, acks up the chain
  bool temp = false;     // a joiner: logs puts aside until its copy is complete
};

// A range's chain for one epoch, as kSeal/kConfig carry it: the members in order (head
// first), the joiner among them (kNobody if none) and the donor that flushes to it. During a
// join the old tail stays at the end until the joiner has merged (docs/decisions.md).
struct ChainSpec {
  std::vector<Endpoint> chain;
  Endpoint joiner = kNobody, donor = kNobody;
};
// `me`'s role in `spec` (member = false when it is not in the chain). The replier is the last
// member that is not the joiner.
Role RoleIn(const ChainSpec& spec, Endpoint me, bool* member);
Endpoint ReplierOf(const ChainSpec& spec);

struct KvRecord {
  Key key;
  std::string value;
  bool del = false;  // a delete record (flushes carry them: the joiner must forget the key)
};

// One key of a multiget: the request names `key`; the answer sets `state` (and `value`).
struct MultiItem {
  enum State : uint8_t { kMissing = 0, kFound = 1, kNotHere = 2 };
  Key key;
  State state = kMissing;
  std::string value;
};

constexpr uint64_t kRoomUnknown = ~uint64_t{0};

// A kReply's outcome (the codec carries it when not kOk; codec.h).
enum class ReplyStatus : uint8_t {
  kOk = 0,
  kNoSpace = 1,  // the store had no room: the put or delete was refused, not applied
};
constexpr uint8_t kReplyStatuses = 2;
const char* ReplyStatusName(ReplyStatus s);

struct Message {
  MsgKind kind = MsgKind::kGet;
  Endpoint from = 0, to = 0;
  uint64_t req = 0;        // client request id (get, put, reply, retry)
  Endpoint client = 0;     // the front-end a reply goes to
  Key key;                 // the key; for range messages, the range's end
  std::string value;
  bool found = false;
  bool del = false;        // kChainPut (and its unacked copies): a delete, not a put
  ReplyStatus status = ReplyStatus::kOk;  // kReply: kNoSpace = refused (see above)
  uint64_t room = kRoomUnknown;            // kAck: the chain's least room below (see above)
  KeyRange range;          // membership messages: the range
  uint64_t seq = 0, epoch = 0;
  std::shared_ptr<const ChainSpec> spec;  // kSeal/kConfig: the chain of `epoch`
  Endpoint peer = kNobody; // kPrecopyStart: the joiner; kConfig: the joiner the donor flushes to
  std::shared_ptr<std::vector<KvRecord>> records;  // pre-copy and flush batches
  std::shared_ptr<std::vector<MultiItem>> items;   // kMultiGet keys, kMultiReply answers
  uint32_t bytes = 0;
};

// Wire size: Ethernet + IP + TCP headers (66 B) and the RPC header (24 B), plus the body.
constexpr uint32_t kHeaderBytes = 90;
uint32_t WireBytes(const Message& m);

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_MESSAGE_H_
