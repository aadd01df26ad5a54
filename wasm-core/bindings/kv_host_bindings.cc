// KvHostNode: the real cluster's FAWN-KV node (fawnkvhost/host_node.h) for the Node server.
// Linked into fawnlab_node only (the browser never runs one). Contract (mirrored by the
// server's TypeScript; the design is docs/cluster.md):
//   new KvHostNode(configJson)     .ok() / .error(): a bad config is reported, not thrown
//   .endpoint()                    -> -1 (front-end) or the back-end's id
//   .advance(nowNs)                runs what is due by the host's monotonic clock (ns from 0)
//   .deliver(from, Uint8Array)     one codec frame from endpoint `from` -> "" | error (dropped)
//   .takeOutbox()                  -> [{to, bytes: Uint8Array}] in send order
//   .nextTimerNs()                 -> the next timer (ns) or -1
//   front-end (elsewhere -1 / an error string):
//   .put(key, value) / .get(key) / .del(key) / .multiget([key, ...])   (Uint8Array or string,
//                                  a string as its UTF-8)
//                                  -> request id (a number)
//   .takeDone()                    -> [{req, op: "put"|"get"|"del"|"multiget", ok, found,
//                                       value: Uint8Array, values: [{ok, found, value: Uint8Array}]
//                                       (multiget, in key order; ok = false: that key got no
//                                       answer), error, status: "" | "no-space" | "too-large"
//                                       | "bad-request" | "timeout" (host_node.h's DoneOp),
//                                       latencyNs, node: the back-end that answered or -1, cacheHit}]
//   .addBackend(id) / .removeBackend(id) / .failBackend(id)   -> "" | error
//                                  (addBackend of a "recovering" node: it said hello; restore it)
//   .restoreRing(json) -> "" | error;  .ringJson() -> DIR/frontend/ring.json's text;
//   .ringVersion() -> a number that changes whenever ringJson would (fawnkvhost/ring_state.h)
//   .statusJson()                  -> JSON text (front-end: nodes, ring, chains, changes,
//                                     busy, stats, events since the last call; back-end: its
//                                     stores and counters)
//   back-end: .recovered()         -> {stores, records, ranges: [[startHex, endHex]], detail}
// No C++ exception crosses into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "fawnkvhost/host_node.h"

namespace {

using emscripten::val;
using fawnlab::fawnkvhost::HostNode;

// A Uint8Array's bytes, or a string's UTF-8; anything else is empty (and refused as a key).
std::string Bytes(const val& a) {
  if (a.isString()) return a.as<std::string>();
  if (!a.instanceof(val::global("Uint8Array"))) return std::string();
  const size_t n = a["length"].as<size_t>();
  std::string s(n, '\0');
  if (n > 0) val(emscripten::typed_memory_view(n, reinterpret_cast<uint8_t*>(s.data()))).call<void>("set", a);
  return s;
}

val ToU8(const std::string& s) {
  return val::global("Uint8Array").new_(val(emscripten::typed_memory_view(s.size(), reinterpret_cast<const uint8_t*>(s.data()))));
}

class KvHostNode {
 public:
  explicit KvHostNode(std::string config_json) {
    auto n = HostNode::Create(config_json);
    if (n.ok()) {
      node_ = std::move(n).value();
    } else {
      error_ = n.status().message();
    }
  }
  bool ok() const { return node_ != nullptr; }
  std::string error() const { return error_; }
  double endpoint() const { return node_ ? node_->endpoint() : 0; }
  void advance(double now_ns) {
    if (node_ && now_ns >= 0) node_->Advance(static_cast<int64_t>(now_ns));
  }
  std::string deliver(double from, val frame) {
    if (!node_) return error_;
    if (!frame.instanceof(val::global("Uint8Array"))) return "deliver: the frame must be a Uint8Array";
    fawnlab::Status s = node_->Deliver(static_cast<int>(from), Bytes(frame));
    return s.ok() ? "" : s.message();
  }
  val takeOutbox() {
    val out = val::array();
    if (!node_) return out;
    for (const fawnlab::fawnkvhost::Frame& f : node_->TakeOutbox()) {
      val o = val::object();
      o.set("to", f.to);
      o.set("bytes", ToU8(f.bytes));
      out.call<void>("push", o);
    }
    return out;
  }
  double nextTimerNs() const { return node_ ? static_cast<double>(node_->NextTimerNs()) : -1; }

  double put(val key, val value) { return Id(node_ ? node_->Put(Bytes(key), Bytes(value)) : NotOk()); }
  double get(val key) { return Id(node_ ? node_->Get(Bytes(key)) : NotOk()); }
  double del(val key) { return Id(node_ ? node_->Del(Bytes(key)) : NotOk()); }
  double multiget(val keys) {
    if (!node_) return -1;
    std::vector<std::string> ks;
    const size_t n = keys["length"].isUndefined() ? 0 : keys["length"].as<size_t>();
    for (size_t i = 0; i < n; ++i) ks.push_back(Bytes(keys[i]));
    return Id(node_->MultiGet(ks));
  }
  val takeDone() {
    val out = val::array();
    if (!node_) return out;
    for (const fawnlab::fawnkvhost::DoneOp& d : node_->TakeDone()) {
      val o = val::object();
      o.set("req", static_cast<double>(d.req));
      o.set("op", d.op);
      o.set("ok", d.ok);
      o.set("found", d.found);
      o.set("value", ToU8(d.value));
      if (d.op == "multiget") {
        val vs = val::array();
        for (const fawnlab::fawnkv::KeyAnswer& a : d.values) {
          val k = val::object();
          k.set("ok", a.ok);
          k.set("found", a.ok && a.found);
          k.set("value", ToU8(a.ok && a.found ? a.value : std::string()));
          vs.call<void>("push", k);
        }
        o.set("values", vs);
      }
      o.set("error", d.error);
      o.set("status", d.status);
      o.set("latencyNs", static_cast<double>(d.latency_ns));
      o.set("node", d.served_by);
      o.set("cacheHit", d.cache_hit);
      out.call<void>("push", o);
    }
    return out;
  }
  std::string addBackend(double id) { return Msg(node_ ? node_->AddBackend(static_cast<int>(id)) : NotOk().status()); }
  std::string removeBackend(double id) { return Msg(node_ ? node_->RemoveBackend(static_cast<int>(id)) : NotOk().status()); }
  std::string failBackend(double id) { return Msg(node_ ? node_->FailBackend(static_cast<int>(id)) : NotOk().status()); }
  std::string statusJson() { return node_ ? node_->StatusJson() : "null"; }
  std::string restoreRing(std::string json) { return Msg(node_ ? node_->RestoreRing(json) : NotOk().status()); }
  std::string ringJson() const { return node_ ? node_->RingJson() : ""; }
  double ringVersion() const { return node_ ? static_cast<double>(node_->RingVersion()) : 0; }
  val recovered() const { return val::global("JSON").call<val>("parse", node_ ? node_->RecoveredJson() : std::string("{}")); }

 private:
  fawnlab::StatusOr<uint64_t> NotOk() const { return fawnlab::Status::Unavailable(error_); }
  static double Id(const fawnlab::StatusOr<uint64_t>& r) { return r.ok() ? static_cast<double>(r.value()) : -1; }
  static std::string Msg(const fawnlab::Status& s) { return s.ok() ? "" : s.message(); }

  std::unique_ptr<HostNode> node_;
  std::string error_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(fawnlab_kvhost) {
  emscripten::class_<KvHostNode>("KvHostNode")
      .constructor<std::string>()
      .function("ok", &KvHostNode::ok)
      .function("error", &KvHostNode::error)
      .function("endpoint", &KvHostNode::endpoint)
      .function("advance", &KvHostNode::advance)
      .function("deliver", &KvHostNode::deliver)
      .function("takeOutbox", &KvHostNode::takeOutbox)
      .function("nextTimerNs", &KvHostNode::nextTimerNs)
      .function("put", &KvHostNode::put)
      .function("get", &KvHostNode::get)
      .function("del", &KvHostNode::del)
      .function("multiget", &KvHostNode::multiget)
      .function("takeDone", &KvHostNode::takeDone)
      .function("addBackend", &KvHostNode::addBackend)
      .function("removeBackend", &KvHostNode::removeBackend)
      .function("failBackend", &KvHostNode::failBackend)
      .function("statusJson", &KvHostNode::statusJson)
      .function("restoreRing", &KvHostNode::restoreRing)
      .function("ringJson", &KvHostNode::ringJson)
      .function("ringVersion", &KvHostNode::ringVersion)
      .function("recovered", &KvHostNode::recovered);
}
