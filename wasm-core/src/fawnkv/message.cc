#include "fawnkv/message.h"

namespace fawnlab::fawnkv {

const char* KindName(MsgKind k) {
  switch (k) {
    case MsgKind::kGet: return "get";
    case MsgKind::kPut: return "put";
    case MsgKind::kReply: return "reply";
    case MsgKind::kRetry: return "retry";
    case MsgKind::kChainPut: return "chain-put";
    case MsgKind::kAck: return "ack";
    case MsgKind::kSeal: return "seal";
    case MsgKind::kSealed: return "sealed";
    case MsgKind::kConfig: return "membership";
    case MsgKind::kReaderNow: return "reader-now";
    case MsgKind::kReady: return "ready";
    case MsgKind::kRelease: return "release";
    case MsgKind::kPrecopyStart: return "precopy-start";
    case MsgKind::kPrecopyData: return "precopy";
    case MsgKind::kPrecopyAck: return "precopy-ack";
    case MsgKind::kPrecopyDone: return "precopy-done";
    case MsgKind::kFlushData: return "flush";
    case MsgKind::kFlushDone: return "flush-done";
    case MsgKind::kHeartbeat: return "heartbeat";
    case MsgKind::kHeartbeatReply: return "heartbeat-reply";
    case MsgKind::kDelete: return "delete";
    case MsgKind::kMultiGet: return "multiget";
    case MsgKind::kMultiReply: return "multi-reply";
    case MsgKind::kRestore: return "restore";
    case MsgKind::kRestored: return "restored";
    case MsgKind::kReset: return "reset";
    case MsgKind::kResetDone: return "reset-done";
  }
  return "?";
}

const char* ReplyStatusName(ReplyStatus s) {
  switch (s) {
    case ReplyStatus::kOk: return "ok";
    case ReplyStatus::kNoSpace: return "no-space";
  }
  return "?";
}

bool IsChainTraffic(MsgKind k) {
  switch (k) {
    case MsgKind::kGet:
    case MsgKind::kPut:
    case MsgKind::kDelete:
    case MsgKind::kMultiGet:
    case MsgKind::kHeartbeat:
      return false;
    default:
      return true;
  }
}

Endpoint ReplierOf(const ChainSpec& spec) {
  for (auto it = spec.chain.rbegin(); it != spec.chain.rend(); ++it) {
    if (*it != spec.joiner) return *it;
  }
  return kNobody;
}

Role RoleIn(const ChainSpec& spec, Endpoint me, bool* member) {
  Role r;
  *member = false;
  for (size_t i = 0; i < spec.chain.size(); ++i) {
    if (spec.chain[i] != me) continue;
    *member = true;
    r.head = i == 0;
    if (i > 0) r.pred = spec.chain[i - 1];
    if (i + 1 < spec.chain.size()) r.succ = spec.chain[i + 1];
    r.temp = me == spec.joiner;
    r.replier = me == ReplierOf(spec);
  }
  return r;
}

uint32_t WireBytes(const Message& m) {
  uint64_t b = kHeaderBytes + 20 + m.value.size();
  if (m.spec) b += 4 * m.spec->chain.size() + 8;
  if (m.records) {
    for (const KvRecord& r : *m.records) b += 20 + 4 + r.value.size();
  }
  if (m.items) {
    for (const MultiItem& r : *m.items) b += 20 + 1 + r.value.size();
  }
  return static_cast<uint32_t>(b);
}

}  // namespace fawnlab::fawnkv
