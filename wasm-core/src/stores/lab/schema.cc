// The Stores lab's live session in the registry ("stores"): its schema, operations, the
// "timeline" view and the factory. The behaviour: stores/lab/session.h.
#include <vector>

#include "registry/sessions.h"
#include "stores/lab/session.h"

namespace fawnlab {
namespace {

using stores::StoresSession;

ArgSpec Key(bool required) {
  return {ParamSpec::String("key", "", "a text key, 1 to 64 characters, hashed to the stores' 20-byte keys"), required};
}

std::vector<OpInfo> Ops() {
  return {
      {"put", "store a value under a key in every store (ahead of the workload); runs until every store has it",
       {Key(true), {ParamSpec::String("value", "", "the value, at most 200 bytes (default: \"value of <key>\")"), false}}},
      {"get", "look a key up in every store: found or not, latency and device reads per store",
       {Key(false), {ParamSpec::Int("record", 0, 0, 4000000, "", "a workload record's number instead of a text key"), false}}},
      {"fill", "put `count` new records into every store at once (the next record numbers)",
       {{ParamSpec::Int("count", 1000, 1, 500000, "records", "how many new records"), true}}},
      {"run_until", "let virtual time run until `ops` more workload operations have arrived and every store has served them",
       {{ParamSpec::Int("ops", 1000, 1, 1000000, "operations", "how many workload operations"), true}}},
  };
}

}  // namespace

void RegisterStoresSessions(std::vector<SessionInfo>* out) {
  SessionInfo s;
  s.id = "stores";
  s.lab = "stores";
  s.view = "";
  s.title = "Stores side by side";
  s.summary = "CONA, SILT, an LSM in LevelDB's image, FAWN-DS and a B+tree, each on its own machine with the same "
              "emulated flash device, all fed the same YCSB stream at the same rate: throughput, latency, DRAM per key, "
              "reads per lookup, write amplification and joules per operation side by side.";
  s.noun = "the Stores session";
  s.params = StoresSession::Schema();
  s.live = StoresSession::LiveFields();
  s.script = true;
  s.ops = Ops();
  s.views = {{"timeline", "per store: writes and reads completed per second and its queue, per 50 ms sample (the last minute)", {}}};
  s.create = StoresSession::New;
  out->push_back(std::move(s));
}

}  // namespace fawnlab
