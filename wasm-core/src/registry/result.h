// Result: what one experiment run produced, and its two serialisations.
//
// JSON (the contract shared by the web lab, the CLI and the tests):
//   { "id", "title", "params": {...}, "seed", "scale": {"factor", "note"},
//     "metrics": {name: number}, "anchors": {metric: reference}, "tolerances": {metric: {"rel"|"abs": x}},
//     "anchor_notes": {metric: {"basis": "fitted"|"emergent", "source", "why", "miss"}},
//     "series": [{"name", "kind", "x_label", "y_label", "points": [[x, y], ...]}], "notes": [...] }
// `anchors` are the values the experiment is meant to reproduce (a paper's number or the
// theory's); each has a note saying whether a model constant was FITTED so that this number
// comes out, or whether it EMERGED from the model without being calibrated to it, where the
// number comes from, and the model's reason when the metric misses it. `kind` is "measured"
// (the model's own output), "theory" (an analytic curve computed for the same parameters) or
// "paper" (values quoted from a source).
//
// CSV (one tidy table, for spreadsheets and plotting tools):
//   kind,name,x_label,y_label,x,y
//   param,servers,,,,1            metric,<name>,,,,<v>      anchor,<metric>,,,,<v>
//   anchor_basis,<metric>,,,,fitted|emergent
//   series:<kind>,<name>,<x_label>,<y_label>,<x>,<y>
// Both are byte-identical across builds: numbers go through FormatNumber.
#ifndef FAWNLAB_REGISTRY_RESULT_H_
#define FAWNLAB_REGISTRY_RESULT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/params.h"

namespace fawnlab {

struct Series {
  std::string name;
  std::string kind = "measured";  // measured | theory | paper
  std::string x_label;            // with unit: "utilisation ρ", "response time (µs)"
  std::string y_label;
  std::vector<std::pair<double, double>> points;
};

struct Tolerance {
  bool relative = true;
  double value = 0.05;
};

// Fitted: a model constant was calibrated so that this number comes out (agreement shows the
// fit held, not that the mechanism predicts it). Emergent: nothing was calibrated to it.
enum class AnchorBasis { kFitted, kEmergent };
const char* AnchorBasisName(AnchorBasis b);

struct AnchorNote {
  AnchorBasis basis = AnchorBasis::kEmergent;
  std::string source;  // where the number comes from: "SOSP'09 Table 1", "M/M/k theory (Erlang C)"
  std::string why;     // fitted: the constant calibrated to it; emergent: what produces it
  std::string miss;    // the model's reason when the metric lies outside the tolerance ("" = none known)
};

inline AnchorNote Fitted(std::string source, std::string why, std::string miss = "") {
  return {AnchorBasis::kFitted, std::move(source), std::move(why), std::move(miss)};
}
inline AnchorNote Emergent(std::string source, std::string why, std::string miss = "") {
  return {AnchorBasis::kEmergent, std::move(source), std::move(why), std::move(miss)};
}

struct Result {
  std::string id;
  std::string title;
  ParamValues params;
  uint64_t seed = 0;
  double scale_factor = 1;  // sizes divided by this factor (1 = the paper's scale)
  std::string scale_note;
  std::vector<std::pair<std::string, double>> metrics;
  std::vector<std::pair<std::string, double>> anchors;
  std::vector<std::pair<std::string, Tolerance>> tolerances;
  std::vector<std::pair<std::string, AnchorNote>> anchor_notes;  // one per anchor, same order
  std::vector<Series> series;
  std::vector<std::string> notes;

  void AddMetric(std::string name, double value) { metrics.emplace_back(std::move(name), value); }
  void AddAnchor(std::string metric, double value, Tolerance tol, AnchorNote note) {
    tolerances.emplace_back(metric, tol);
    anchor_notes.emplace_back(metric, std::move(note));
    anchors.emplace_back(std::move(metric), value);
  }
  // The metric's value; REQUIRES: it exists.
  double Metric(const std::string& name) const;
};

std::string ResultToJson(const Result& r);
std::string ResultToCsv(const Result& r);

// Quotes a CSV field when it holds a comma, quote or newline.
std::string CsvField(const std::string& s);

}  // namespace fawnlab

#endif  // FAWNLAB_REGISTRY_RESULT_H_
