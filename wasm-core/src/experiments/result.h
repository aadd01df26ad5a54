// Result: what one experiment run produced, and its two serialisations.
//
// JSON (the contract shared by the web lab, the CLI and the tests):
//   { "id", "title", "params": {...}, "seed", "scale": {"factor", "note"},
//     "metrics": {name: number}, "anchors": {metric: reference}, "tolerances": {metric: {"rel"|"abs": x}},
//     "series": [{"name", "kind", "x_label", "y_label", "points": [[x, y], ...]}], "notes": [...] }
// `anchors` are the values the experiment is meant to reproduce (a paper's number or the
// theory's); `kind` is "measured" (the model's own output), "theory" (an analytic curve
// computed for the same parameters) or "paper" (values quoted from a source).
//
// CSV (one tidy table, for spreadsheets and plotting tools):
//   kind,name,x_label,y_label,x,y
//   param,servers,,,,1            metric,<name>,,,,<v>      anchor,<metric>,,,,<v>
//   series:<kind>,<name>,<x_label>,<y_label>,<x>,<y>
// Both are byte-identical across builds: numbers go through FormatNumber.
#ifndef FAWNLAB_EXPERIMENTS_RESULT_H_
#define FAWNLAB_EXPERIMENTS_RESULT_H_

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
  std::vector<Series> series;
  std::vector<std::string> notes;

  void AddMetric(std::string name, double value) { metrics.emplace_back(std::move(name), value); }
  void AddAnchor(std::string metric, double value, Tolerance tol) {
    tolerances.emplace_back(metric, tol);
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

#endif  // FAWNLAB_EXPERIMENTS_RESULT_H_
