#include "registry/result.h"

#include <cassert>

#include "base/json_writer.h"

namespace fawnlab {

double Result::Metric(const std::string& name) const {
  for (const auto& m : metrics) {
    if (m.first == name) return m.second;
  }
  assert(false && "no such metric");
  return 0;
}

const char* AnchorBasisName(AnchorBasis b) { return b == AnchorBasis::kFitted ? "fitted" : "emergent"; }

std::string ResultToJson(const Result& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("id");
  w.String(r.id);
  w.Key("title");
  w.String(r.title);
  w.Key("params");
  r.params.WriteJson(&w);
  w.Key("seed");
  w.Number(static_cast<double>(r.seed));
  w.Key("scale");
  w.BeginObject();
  w.Key("factor");
  w.Number(r.scale_factor);
  w.Key("note");
  w.String(r.scale_note);
  w.EndObject();
  w.Key("metrics");
  w.BeginObject();
  for (const auto& m : r.metrics) {
    w.Key(m.first);
    w.Number(m.second);
  }
  w.EndObject();
  w.Key("anchors");
  w.BeginObject();
  for (const auto& a : r.anchors) {
    w.Key(a.first);
    w.Number(a.second);
  }
  w.EndObject();
  w.Key("tolerances");
  w.BeginObject();
  for (const auto& t : r.tolerances) {
    w.Key(t.first);
    w.BeginObject();
    w.Key(t.second.relative ? "rel" : "abs");
    w.Number(t.second.value);
    w.EndObject();
  }
  w.EndObject();
  w.Key("anchor_notes");
  w.BeginObject();
  for (const auto& [metric, note] : r.anchor_notes) {
    w.Key(metric);
    w.BeginObject();
    w.Key("basis");
    w.String(AnchorBasisName(note.basis));
    w.Key("source");
    w.String(note.source);
    w.Key("why");
    w.String(note.why);
    w.Key("miss");
    w.String(note.miss);
    w.EndObject();
  }
  w.EndObject();
  w.Key("series");
  w.BeginArray();
  for (const Series& s : r.series) {
    w.BeginObject();
    w.Key("name");
    w.String(s.name);
    w.Key("kind");
    w.String(s.kind);
    w.Key("x_label");
    w.String(s.x_label);
    w.Key("y_label");
    w.String(s.y_label);
    w.Key("points");
    w.BeginArray();
    for (const auto& p : s.points) {
      w.BeginArray(true);
      w.Number(p.first);
      w.Number(p.second);
      w.EndArray();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("notes");
  w.BeginArray();
  for (const std::string& n : r.notes) w.String(n);
  w.EndArray();
  w.EndObject();
  return w.str() + "\n";
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += "\"\"";
    else out += c;
  }
  return out + "\"";
}

std::string ResultToCsv(const Result& r) {
  std::string out = "kind,name,x_label,y_label,x,y\n";
  auto row = [&out](const std::string& kind, const std::string& name, const std::string& xl,
                    const std::string& yl, const std::string& x, const std::string& y) {
    out += CsvField(kind) + "," + CsvField(name) + "," + CsvField(xl) + "," + CsvField(yl) + "," + x + "," +
           CsvField(y) + "\n";
  };
  row("experiment", r.id, "", "", "", "");
  row("seed", "seed", "", "", "", FormatNumber(static_cast<double>(r.seed)));
  row("scale", "factor", "", "", "", FormatNumber(r.scale_factor));
  for (const auto& p : r.params.entries()) {
    std::string v = p.second.type == ParamType::kChoice ? p.second.choice : FormatNumber(p.second.number);
    row("param", p.first, "", "", "", v);
  }
  for (const auto& m : r.metrics) row("metric", m.first, "", "", "", FormatNumber(m.second));
  for (const auto& a : r.anchors) row("anchor", a.first, "", "", "", FormatNumber(a.second));
  for (const auto& n : r.anchor_notes) row("anchor_basis", n.first, "", "", "", AnchorBasisName(n.second.basis));
  for (const Series& s : r.series) {
    for (const auto& p : s.points) {
      row("series:" + s.kind, s.name, s.x_label, s.y_label, FormatNumber(p.first), FormatNumber(p.second));
    }
  }
  return out;
}

}  // namespace fawnlab
