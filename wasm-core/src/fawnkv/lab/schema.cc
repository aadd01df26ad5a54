// The FAWN-KV lab's session in the registry (registry/sessions.h): its schema, operations,
// the ring's column view and factory. The operations' behaviour: fawnkv/lab/session.h.
#include "fawnkv/cluster.h"
#include "fawnkv/lab/session.h"
#include "registry/sessions.h"

namespace fawnlab {
namespace {

using fawnkvlab::FawnkvSession;

constexpr long long kMaxId = fawnkv::Cluster::kMaxNodes - 1;

ArgSpec Key() { return {ParamSpec::String("key", "", "application key, 1 to 128 characters (SHA-1 hashed)"), true}; }
ArgSpec Id(bool required, const char* help) { return {ParamSpec::Int("id", 0, 0, kMaxId, "", help), required}; }

std::vector<OpInfo> Ops() {
  return {
      {"put", "a client put at the key's front-end; runs until answered or given up",
       {Key(), {ParamSpec::String("value", "", "the value, at most 4096 bytes (default: a unique one of value_bytes)"), false}}},
      {"get", "a client get at the key's front-end; runs until answered or given up", {Key()}},
      {"add-node", "a new back-end joins the ring", {Id(false, "its id (default: the next free one)")}},
      {"remove-node", "a back-end leaves gracefully", {Id(true, "a live member of the ring")}},
      {"fail-node", "a back-end fail-stops; front-end 0 notices after missed heartbeats", {Id(true, "a live back-end")}},
      {"fill", "client puts of keys k<from> … (32 in flight), run out",
       {{ParamSpec::Int("count", 1000, 1, 100000, "keys", "how many keys"), true},
        {ParamSpec::Int("from", 0, 0, 1'000'000'000, "", "the first key's number"), false}}},
      {"check", "the linearizability checker over the history so far", {}},
  };
}

}  // namespace

void RegisterFawnkvSessions(std::vector<SessionInfo>* out) {
  SessionInfo s;
  s.id = "fawnkv";
  s.lab = "fawnkv";
  s.title = "FAWN-KV cluster";
  s.summary = "A simulated FAWN-KV cluster under load: the ring of VIDs and its chains, requests and messages, "
              "joins, leaves and failures, and a linearizability check of what the clients saw.";
  s.noun = "the FAWN-KV session";
  s.params = FawnkvSession::Schema(FawnkvSession::Config{});
  s.live = {"value_bytes", "cache_entries", "load_rate_per_s", "load_put_fraction", "load_keys", "zipf_s"};
  s.script = true;
  s.ops = Ops();
  s.views = {{"vids", "the ring's VIDs in ring order, and the chain each heads", {}}};
  s.create = FawnkvSession::New;
  out->push_back(std::move(s));
}

}  // namespace fawnlab
