#include "fawnkvhost/ring_state.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "fawnkv/codec.h"

namespace fawnlab::fawnkvhost {

namespace {

Status Bad(const std::string& why) { return Status::InvalidArgument(why); }

bool IsInt(const JsonValue* v, double lo, double hi) {
  return v && v->is_number() && std::floor(v->number_value()) == v->number_value() && v->number_value() >= lo &&
         v->number_value() <= hi;
}

bool HexKey(const JsonValue& v, fawnkv::Key* out) { return v.is_string() && v.string_value().size() == 40 && fawnkv::Key::FromHex(v.string_value(), out); }

}  // namespace

std::string RingStateJson(const RingState& s) {
  JsonWriter w;
  w.BeginObject();
  w.Key("fawnlab");
  w.String("ring");
  w.Key("version");
  w.Int(kRingStateVersion);
  w.Key("replicas");
  w.Int(s.replicas);
  w.Key("vids");
  w.Int(s.vids);
  w.Key("nodes");
  w.BeginArray();
  for (const RingState::Node& n : s.nodes) {
    w.BeginObject();
    w.Key("id");
    w.Int(n.id);
    w.Key("vids");
    w.BeginArray(true);
    for (const fawnkv::Key& k : n.vids) w.String(k.Hex());
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("chains");
  w.BeginArray();
  for (const RingState::Chain& c : s.chains) {
    w.BeginObject();
    w.Key("range");
    w.BeginArray(true);
    w.String(c.range.start.Hex());
    w.String(c.range.end.Hex());
    w.EndArray();
    w.Key("chain");
    w.BeginArray(true);
    for (int id : c.chain) w.Int(id);
    w.EndArray();
    w.Key("epoch");
    w.Int(static_cast<int64_t>(c.epoch));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.str();
}

StatusOr<RingState> ParseRingState(std::string_view json) {
  StatusOr<JsonValue> parsed = ParseJson(json);
  if (!parsed.ok()) return Bad("not valid JSON: " + parsed.status().message());
  const JsonValue& v = parsed.value();
  if (!v.is_object()) return Bad("must be a JSON object");
  const JsonValue* tag = v.Find("fawnlab");
  if (!tag || !tag->is_string() || tag->string_value() != "ring") return Bad("not a fawnlab ring file (\"fawnlab\" must be \"ring\")");
  const JsonValue* ver = v.Find("version");
  if (!IsInt(ver, 0, 1e9)) return Bad("\"version\" must be an integer");
  if (ver->number_value() != kRingStateVersion) {
    return Bad("version " + std::to_string(static_cast<int64_t>(ver->number_value())) + " is not supported (this fawnlab reads version " +
               std::to_string(kRingStateVersion) + ")");
  }
  RingState s;
  const JsonValue* r = v.Find("replicas");
  const JsonValue* vids = v.Find("vids");
  if (!IsInt(r, 1, 16)) return Bad("\"replicas\" must be an integer in [1, 16]");
  if (!IsInt(vids, 1, 64)) return Bad("\"vids\" must be an integer in [1, 64]");
  s.replicas = static_cast<int>(r->number_value());
  s.vids = static_cast<int>(vids->number_value());
  const JsonValue* nodes = v.Find("nodes");
  if (!nodes || !nodes->is_array()) return Bad("\"nodes\" must be an array");
  std::set<int> ids;
  for (const JsonValue& n : nodes->array_items()) {
    const std::string at = "nodes[" + std::to_string(s.nodes.size()) + "]";
    if (!n.is_object()) return Bad(at + " must be an object");
    const JsonValue* id = n.Find("id");
    if (!IsInt(id, 0, fawnkv::codec::kMaxBackendId)) return Bad(at + ".id must be a back-end id in [0, " + std::to_string(fawnkv::codec::kMaxBackendId) + "]");
    RingState::Node node;
    node.id = static_cast<int>(id->number_value());
    if (!ids.insert(node.id).second) return Bad(at + ": node " + std::to_string(node.id) + " is listed twice");
    const JsonValue* vs = n.Find("vids");
    if (!vs || !vs->is_array() || vs->array_items().size() != static_cast<size_t>(s.vids)) {
      return Bad(at + ".vids must be an array of " + std::to_string(s.vids) + " VID positions");
    }
    for (const JsonValue& k : vs->array_items()) {
      fawnkv::Key key;
      if (!HexKey(k, &key)) return Bad(at + ".vids: each position must be 40 hex digits");
      node.vids.push_back(key);
    }
    s.nodes.push_back(std::move(node));
  }
  std::sort(s.nodes.begin(), s.nodes.end(), [](const RingState::Node& a, const RingState::Node& b) { return a.id < b.id; });
  const JsonValue* chains = v.Find("chains");
  if (!chains || !chains->is_array() || chains->array_items().empty()) return Bad("\"chains\" must be a non-empty array");
  for (const JsonValue& c : chains->array_items()) {
    const std::string at = "chains[" + std::to_string(s.chains.size()) + "]";
    if (!c.is_object()) return Bad(at + " must be an object");
    RingState::Chain ch;
    const JsonValue* range = c.Find("range");
    if (!range || !range->is_array() || range->array_items().size() != 2 || !HexKey(range->array_items()[0], &ch.range.start) ||
        !HexKey(range->array_items()[1], &ch.range.end)) {
      return Bad(at + ".range must be [start, end], each 40 hex digits");
    }
    const JsonValue* members = c.Find("chain");
    if (!members || !members->is_array() || members->array_items().size() > static_cast<size_t>(s.replicas)) {
      return Bad(at + ".chain must be an array of at most " + std::to_string(s.replicas) + " node ids");
    }
    for (const JsonValue& m : members->array_items()) {
      if (!IsInt(&m, 0, fawnkv::codec::kMaxBackendId) || !ids.count(static_cast<int>(m.number_value()))) {
        return Bad(at + ".chain names a node that is not in \"nodes\"");
      }
      const int id = static_cast<int>(m.number_value());
      if (std::find(ch.chain.begin(), ch.chain.end(), id) != ch.chain.end()) return Bad(at + ".chain names node " + std::to_string(id) + " twice");
      ch.chain.push_back(id);
    }
    const JsonValue* epoch = c.Find("epoch");
    if (!IsInt(epoch, 1, 9007199254740991.0)) return Bad(at + ".epoch must be an integer >= 1");
    ch.epoch = static_cast<uint64_t>(epoch->number_value());
    s.chains.push_back(std::move(ch));
  }
  // The ranges must tile the ring: in ring order, each starts where the previous one ends.
  std::sort(s.chains.begin(), s.chains.end(), [](const RingState::Chain& a, const RingState::Chain& b) { return a.range.end < b.range.end; });
  const size_t n = s.chains.size();
  for (size_t i = 0; i < n; ++i) {
    const RingState::Chain& prev = s.chains[(i + n - 1) % n];
    const RingState::Chain& cur = s.chains[i];
    if (!(cur.range.start == prev.range.end) || (n > 1 && cur.range.start == cur.range.end)) {
      return Bad("the chains' ranges do not tile the ring (the range ending at " + cur.range.end.Hex() + " does not start where another ends)");
    }
    if (i > 0 && cur.range.end == prev.range.end) return Bad("two chains' ranges end at " + cur.range.end.Hex());
  }
  return s;
}

}  // namespace fawnlab::fawnkvhost
