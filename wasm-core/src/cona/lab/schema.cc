// The CONA lab's live session in the registry ("cona"): its schema, operations, the
// "timeline" view and the factory. The behaviour: cona/lab/session.h.
#include <vector>

#include "cona/lab/session.h"
#include "registry/sessions.h"

namespace fawnlab {
namespace {

using cona::ConaSession;

ArgSpec Key(bool required) {
  return {ParamSpec::String("key", "", "a text key, 1 to 64 characters, hashed to the store's 20-byte keys"), required};
}
ArgSpec Record() {
  return {ParamSpec::Int("record", 0, 0, 4000000, "", "a workload record's number instead of a text key"), false};
}

std::vector<OpInfo> Ops() {
  return {
      {"put", "store a value under a key (into the active buffer); runs until it completes",
       {Key(true), {ParamSpec::String("value", "", "the value, at most 200 bytes (default: \"value of <key>\")"), false}}},
      {"get", "look a key up: buffers, then cells newest to oldest, tries, fragments and the flash read",
       {Key(false), Record()}},
      {"delete", "write a delete marker for a key (the top-most entry wins)", {Key(true)}},
      {"fill", "insert `count` new records at once (the next record numbers), then a sync",
       {{ParamSpec::Int("count", 1000, 1, 500000, "records", "how many new records"), true}}},
      {"sync", "make everything acknowledged durable (the manifest names the cells)", {}},
      {"run_until", "let virtual time run (the workload arriving) until the next structure event of a kind",
       {{ParamSpec::Choice("event", "merge_done", {"induce", "merge_start", "merge_done", "flip"}, "the event to wait for"), true},
        {ParamSpec::Real("max_s", 60, 0.001, 3600, "s", "give up after this much virtual time"), false}}},
      {"crash", "cut the power: unsynced writes, the buffers and the in-memory index are gone", {}},
      {"recover", "reopen the store from its manifest after a crash", {}},
  };
}

}  // namespace

void RegisterConaSessions(std::vector<SessionInfo>* out) {
  SessionInfo s;
  s.id = "cona";
  s.lab = "cona";
  s.view = "";
  s.title = "CONA store";
  s.summary = "A cache-oblivious no-lookahead array on emulated flash under a YCSB stream: two sorted buffers "
              "induce into level 1, full cells merge in the background into the next level's shadow and flip "
              "visible, and a lookup walks the levels past each cell's trie and fragments to one flash read.";
  s.noun = "the CONA session";
  s.params = ConaSession::Schema();
  s.live = ConaSession::LiveFields();
  s.script = true;
  s.ops = Ops();
  s.views = {{"timeline", "the store's rates, merge moves, page-cache hit ratio and levels per 50 ms sample (the last minute)", {}}};
  s.create = ConaSession::New;
  out->push_back(std::move(s));
}

}  // namespace fawnlab
