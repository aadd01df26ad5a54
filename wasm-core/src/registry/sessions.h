// The session registry: every live lab session, by id, beside the experiment registry
// (registry/experiments.h) and in its image.
//
// A LabSession is what a lab page drives: it advances virtual time (Advance, Step), changes
// its live parameters (Reconfigure), applies operations (Apply), and shows itself as a JSON
// snapshot and as named column views (Columns: typed arrays for the big views). A SessionInfo
// declares a session: its id, its parameter schema (the experiments' ParamSpec, each marked
// live — can change while running — or not), its operations with their argument schemas, its
// views, and a factory. What every session shares is written here once:
//   - creation (CreateSession): the config JSON resolved against the schema (defaults filled
//     in, every error naming the field), the seed checked, then the factory, then the config's
//     "script" (an array of operations) applied in order, a failure naming its index;
//   - Apply: the operation found by name and its arguments checked against the op's schema
//     before the session's RunOp sees them;
//   - Reconfigure: only live fields, resolved on top of the current values;
//   - Columns: the view found by name and its arguments resolved against its schema;
//   - Advance/Step: the event-budget loop over the session's simulator.
// Adding a session: define its SessionInfo in <system>/lab/ and list its Register function
// in sessions.cc (one line). docs/adding-a-lab.md walks through it.
//
// Deterministic: the same id, config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_REGISTRY_SESSIONS_H_
#define FAWNLAB_REGISTRY_SESSIONS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/json_reader.h"
#include "base/params.h"
#include "base/status.h"
#include "sim/simulator.h"

namespace fawnlab {

// One named column of a view: a typed vector (copied into a typed array for JavaScript), a
// number, or a list of numbers.
struct Column {
  enum class Kind { kU8, kU16, kU32, kF64, kNumber, kNumbers };
  std::string name;
  Kind kind = Kind::kNumber;
  std::vector<uint8_t> u8;
  std::vector<uint16_t> u16;
  std::vector<uint32_t> u32;
  std::vector<double> f64;  // kF64 and kNumbers
  double number = 0;        // kNumber
};

// A view's columns, in the order they were added.
class ColumnSet {
 public:
  ColumnSet& U8(std::string name, std::vector<uint8_t> v);
  ColumnSet& U16(std::string name, std::vector<uint16_t> v);
  ColumnSet& U32(std::string name, std::vector<uint32_t> v);
  ColumnSet& F64(std::string name, std::vector<double> v);
  ColumnSet& Number(std::string name, double v);
  ColumnSet& Numbers(std::string name, std::vector<double> v);
  const std::vector<Column>& columns() const { return columns_; }
  // The column called `name`, or nullptr.
  const Column* Find(const std::string& name) const;

 private:
  ColumnSet& Add(Column c);
  std::vector<Column> columns_;
};

// An operation's argument: its schema, and whether it must be given (else it is optional and
// absent unless given; `spec`'s default is only documentation then).
struct ArgSpec {
  ArgSpec(ParamSpec spec_in, bool required_in = false, std::string accepts_in = "")
      : spec(std::move(spec_in)), required(required_in), accepts(std::move(accepts_in)) {}
  ParamSpec spec;
  bool required = false;
  // What a refusal says the argument accepts, where the spec's range says less ("a number
  // strictly between 0 and 1"); empty: from the spec ("an integer in [1, 100]").
  std::string accepts;
};

struct OpInfo {
  std::string name;  // "put"
  std::string help;  // one line
  std::vector<ArgSpec> args;
};

struct ViewInfo {
  std::string name;  // "log"
  std::string help;
  std::vector<ParamSpec> args;  // every argument has a default
};

class LabSession;
struct SessionInfo;

// Builds a session from a resolved config (every field of the schema) and a seed.
using SessionFactory = std::function<StatusOr<std::unique_ptr<LabSession>>(const ParamValues& config, uint64_t seed)>;

struct SessionInfo {
  std::string id;       // "devices.flash": <lab> or <lab>.<view>
  std::string lab;      // "devices"
  std::string view;     // "flash"; "" when the lab has one session
  std::string title;    // "Flash device"
  std::string summary;  // one or two sentences
  std::string noun;     // in messages: "the flash device" ("… cannot change while the flash device runs")
  std::vector<ParamSpec> params;
  std::vector<std::string> live;  // the params that can change while running
  bool script = false;            // the config may carry "script": [operations] run at creation
  std::vector<OpInfo> ops;
  std::vector<ViewInfo> views;
  SessionFactory create;

  bool IsLive(const std::string& param) const;
  const OpInfo* FindOp(const std::string& name) const;
  const ViewInfo* FindView(const std::string& name) const;
};

// The base of every lab session. The public calls are the contract the bindings expose; a
// session implements SnapshotJson and the protected hooks it needs.
class LabSession {
 public:
  virtual ~LabSession();

  // Runs events up to now + dt_ns (dt_ns < 0 counts as 0), at most max_events of them.
  // Returns how many ran.
  virtual uint64_t Advance(sim::SimDuration dt_ns, uint64_t max_events);
  // Runs the next event; false when none is pending.
  virtual bool Step();
  // Changes live parameters: `patch_json` names only live fields; the others keep their values.
  Status Reconfigure(const std::string& patch_json);
  // One operation {"op": name, args...}; the result as JSON text, or why it was refused.
  StatusOr<std::string> Apply(const std::string& op_json);
  StatusOr<std::string> ApplyOp(const JsonValue& op);
  virtual std::string SnapshotJson() = 0;
  // The view `view` with arguments `args_json` (a JSON object; "" = {}).
  StatusOr<ColumnSet> Columns(const std::string& view, const std::string& args_json);
  // A number that changes when the column views may have (the session's own meaning).
  virtual uint64_t version() { return 0; }
  // Whether something the page slows its clock down for is running (0: no; the session's own
  // phases above 0).
  virtual int Busy() const { return 0; }

  const SessionInfo& info() const { return *info_; }
  // The current config (creation's, with the live fields as last reconfigured).
  const ParamValues& params() const { return config_; }

 protected:
  LabSession() = default;
  // The simulator Advance and Step drive (nullptr: they do nothing).
  virtual sim::Simulator* simulator() { return nullptr; }
  // When true (set by the constructor), Advance steps event by event and calls AfterEvent
  // after each; otherwise it runs the simulator's own loop.
  bool watch_events_ = false;
  virtual void AfterEvent() {}
  // After every Advance or Step call.
  virtual void Advanced() {}
  // An operation whose name and arguments checked out: `args` holds the arguments given
  // (resolved against the op's schema), `op` the object as sent.
  virtual StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue& op);
  // A reconfiguration that checked out: `config` is the whole new config, `patch` what
  // changed. On success it becomes config().
  virtual Status Reconfigured(const ParamValues& config, const ParamValues& patch);
  // A view whose name checked out, with its arguments resolved.
  virtual StatusOr<ColumnSet> View(const std::string& name, const ParamValues& args);

 private:
  friend StatusOr<std::unique_ptr<LabSession>> CreateSession(const std::string& id, const std::string& config_json,
                                                             uint64_t seed);
  const SessionInfo* info_ = nullptr;
  ParamValues config_;
};

// All sessions, in registration order.
const std::vector<SessionInfo>& AllSessions();
// The session with `id`, or nullptr.
const SessionInfo* FindSession(const std::string& id);
// Creates session `id` (see the header comment). Errors: kNotFound (unknown id, listing the
// known ones), kInvalidArgument (config, seed, script).
StatusOr<std::unique_ptr<LabSession>> CreateSession(const std::string& id, const std::string& config_json, uint64_t seed);

// Creates session `id` as its concrete type T (for tests and hosts that need more than the
// contract). REQUIRES: `id`'s factory makes a T.
template <typename T>
StatusOr<std::unique_ptr<T>> CreateSessionAs(const std::string& id, const std::string& config_json, uint64_t seed) {
  StatusOr<std::unique_ptr<LabSession>> s = CreateSession(id, config_json, seed);
  if (!s.ok()) return s.status();
  return std::unique_ptr<T>(static_cast<T*>(std::move(s).value().release()));
}

// [{id, lab, view, title, summary, params: [spec + live], script, ops: [{name, help, args:
// [spec + required]}], views: [{name, help, args: [spec]}]}, ...] as JSON text.
std::string DescribeSessionsJson();

// A lab's registration function: appends its SessionInfos (one per session).
using SessionRegistrar = void (*)(std::vector<SessionInfo>* out);
// Adds a registrar after the labs listed in sessions.cc (for a fixture lab compiled only into
// the test build). Must run before the first AllSessions() (a static initialiser); returns
// true so it can.
bool AddSessionRegistrar(SessionRegistrar registrar);

}  // namespace fawnlab

#endif  // FAWNLAB_REGISTRY_SESSIONS_H_
