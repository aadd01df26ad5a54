// The FAWN-DS lab's session in the registry (registry/sessions.h): its schema, operations,
// column views and factory. The operations' behaviour: fawnds/lab/session.h.
#include "fawnds/lab/session.h"
#include "fawnds/store_list.h"
#include "registry/sessions.h"

namespace fawnlab {
namespace {

using fawndslab::FawndsSession;

constexpr long long kMaxStore = static_cast<long long>(fawnds::StoreList::kMaxStores) - 1;

ArgSpec Key(bool required = true) {
  return {ParamSpec::String("key", "", "application key, 1 to 128 characters (SHA-1 hashed)"), required};
}
ArgSpec Store(const char* name, bool required, const char* help) { return {ParamSpec::Int(name, 0, 0, kMaxStore, "", help), required}; }
ArgSpec Wait() { return {ParamSpec::Bool("wait", false, "run it out before answering"), false}; }

std::vector<OpInfo> Ops() {
  return {
      {"put", "store a value under a key; runs until it completes",
       {Key(), {ParamSpec::String("value", "", "the value, at most 65536 bytes (default: a generated one of value_bytes)"), false}}},
      {"get", "look a key up: the probe path, the record reads and the value", {Key()}},
      {"delete", "append a delete record for a key", {Key()}},
      {"fill", "bulk puts of keys k<from> … k<from+count−1> (16 in flight), then a sync",
       {{ParamSpec::Int("count", 1000, 1, 2'000'000, "keys", "how many keys"), true},
        {ParamSpec::Int("from", 0, 0, 1'000'000'000, "", "the first key's number"), false}}},
      {"delete-many", "bulk deletes of keys k<from>, k<from+step>, …, then a sync",
       {{ParamSpec::Int("count", 1000, 1, 2'000'000, "keys", "how many keys"), true},
        {ParamSpec::Int("from", 0, 0, 1'000'000'000, "", "the first key's number"), false},
        {ParamSpec::Int("step", 1, 1, 1'000'000, "", "the stride between key numbers"), false}}},
      {"compact", "start compacting a store (it runs as time advances)", {Store("store", true, "the store to compact"), Wait()}},
      {"split", "start splitting a store at a fraction of its range or at a key (exactly one)",
       {Store("store", true, "the store to split"),
        {ParamSpec::Real("fraction", 0.5, 0, 1, "", "where in the store's range, strictly between 0 and 1"), false,
         "a number strictly between 0 and 1"},
        Key(false), Wait()}},
      {"merge", "start merging two adjacent stores",
       {Store("a", true, "the first store"), Store("b", true, "the adjacent store"), Wait()}},
      {"checkpoint", "write a store's index image and superblock (all stores when omitted)",
       {Store("store", false, "the store (default: every store)")}},
      {"sync", "make every store's log durable", {}},
      {"crash", "cut the power: unsynced writes are lost, the DRAM index is gone", {}},
      {"recover", "reopen the node from its datastore list: checkpoints, then the logs replayed", {}},
  };
}

std::vector<ViewInfo> Views() {
  return {
      {"log", "every record of a store's log with its state (store = the store count: the one being built)",
       {ParamSpec::Int("store", 0, 0, kMaxStore, "", "the store")}},
      {"index", "a store's index as cells of `group` consecutive buckets",
       {ParamSpec::Int("store", 0, 0, kMaxStore, "", "the store"),
        ParamSpec::Int("first", 0, 0, 1LL << 22, "buckets", "the first bucket"),
        ParamSpec::Int("count", 16, 1, 4096, "cells", "how many cells"),
        ParamSpec::Int("group", 1, 1, 1LL << 22, "buckets", "buckets per cell (1: each bucket's fragment and offset too)")}},
  };
}

}  // namespace

void RegisterFawndsSessions(std::vector<SessionInfo>* out) {
  SessionInfo s;
  s.id = "fawnds";
  s.lab = "fawnds";
  s.title = "FAWN-DS node";
  s.summary = "A FAWN-DS node on an emulated device: its stores' logs and hash indexes, lookups probe by probe, "
              "compaction, split and merge, and a crash with its recovery.";
  s.noun = "the FAWN-DS session";
  s.params = FawndsSession::Schema(FawndsSession::Config{});
  s.live = {"value_bytes", "load_rate_per_s", "load_put_fraction", "load_keys"};
  s.script = true;
  s.ops = Ops();
  s.views = Views();
  s.create = FawndsSession::New;
  out->push_back(std::move(s));
}

}  // namespace fawnlab
