// Typed parameters: the schema an experiment (or a live session) declares and the validated
// values a run receives.
//
// A ParamSpec is what the web lab turns into a control and the CLI lists with --list: name,
// type, default, inclusive range, unit and one line of help. ResolveParams checks user input
// against the schema and fills in defaults; every error names the parameter and what it
// accepts ("parameter 'servers' = 0 is out of range [1, 64] (servers)"). Unknown names are
// errors too, so a typo never silently runs the default.
#ifndef FAWNLAB_BASE_PARAMS_H_
#define FAWNLAB_BASE_PARAMS_H_

#include <string>
#include <utility>
#include <vector>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/status.h"

namespace fawnlab {

// kString is for operation arguments (application keys, values); experiments never use it.
enum class ParamType { kInt, kReal, kChoice, kBool, kString };

const char* ParamTypeName(ParamType type);

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::kReal;
  double default_value = 0;           // kInt, kReal, kBool (0/1)
  double min = 0, max = 0;            // inclusive; kInt and kReal
  std::string default_choice;         // kChoice; kString's default text
  std::vector<std::string> choices;   // kChoice
  std::vector<std::string> labels;    // kChoice, optional: display names, one per choice (sessions only)
  std::string unit;                   // "µs", "requests", "" for none
  std::string help;                   // one line, for tooltips and --list

  static ParamSpec Int(std::string name, long long def, long long min, long long max, std::string unit,
                       std::string help);
  static ParamSpec Real(std::string name, double def, double min, double max, std::string unit,
                        std::string help);
  static ParamSpec Choice(std::string name, std::string def, std::vector<std::string> choices,
                          std::string help);
  static ParamSpec Bool(std::string name, bool def, std::string help);
  static ParamSpec String(std::string name, std::string def, std::string help);
  // This choice with display names ("Intel X25-M (MLC SSD)"), one per choice, written as
  // "labels" beside "choices". REQUIRES: labels.size() == choices.size().
  ParamSpec WithLabels(std::vector<std::string> display) const;
};

// One resolved value: a number (kInt, kReal, kBool as 0/1) or a string (kChoice, kString).
struct ParamValue {
  ParamType type;
  double number = 0;
  std::string choice;
};

// Validated parameters in schema order.
class ParamValues {
 public:
  // REQUIRES: `name` is in the schema with a numeric type.
  double Real(const std::string& name) const;
  long long Int(const std::string& name) const;
  bool Bool(const std::string& name) const;
  // REQUIRES: `name` is a kChoice parameter.
  const std::string& Choice(const std::string& name) const;
  // REQUIRES: `name` is a kString parameter.
  const std::string& Text(const std::string& name) const;
  // Whether `name` has a value (a patch or an operation's arguments name only some fields).
  bool Has(const std::string& name) const;

  void Set(const std::string& name, ParamValue value);
  const std::vector<std::pair<std::string, ParamValue>>& entries() const { return entries_; }

  // Writes {"name": value, ...} in schema order.
  void WriteJson(JsonWriter* w) const;

 private:
  const ParamValue& Get(const std::string& name) const;
  std::vector<std::pair<std::string, ParamValue>> entries_;
};

// Checks `given` (a JSON object of name -> number | string | boolean) against `schema` for
// experiment `experiment_id` and fills in defaults.
StatusOr<ParamValues> ResolveParams(const std::string& experiment_id, const std::vector<ParamSpec>& schema,
                                    const JsonValue& given);

// A live session's config (patch = false: every field of `schema`, defaults filled in) or a
// patch of a running one (patch = true: only the fields named in `live`; any other is refused
// as one that cannot change while running). Members named in `skip` (a "script" the session
// runs itself) are left out of a full config. Errors name the field, as ResolveParams's do.
StatusOr<ParamValues> ResolveSessionConfig(const std::string& session, const std::vector<ParamSpec>& schema, const JsonValue& given,
                                           bool patch, const std::vector<std::string>& live,
                                           const std::vector<std::string>& skip = {});

// Same, for "name=value" strings as typed on a command line; values are parsed by type.
StatusOr<ParamValues> ResolveParamStrings(const std::string& experiment_id, const std::vector<ParamSpec>& schema,
                                          const std::vector<std::pair<std::string, std::string>>& given);

// Writes a spec as a JSON object (for --list and the web lab's generated controls).
void WriteParamSpecJson(const ParamSpec& spec, JsonWriter* w);
// The same members without the braces, for an object that adds its own (a session's "live").
void WriteParamSpecFields(const ParamSpec& spec, JsonWriter* w);

}  // namespace fawnlab

#endif  // FAWNLAB_BASE_PARAMS_H_
