#include "registry/sweep.h"

#include <algorithm>
#include <cassert>

#include "base/json_writer.h"

namespace fawnlab {

std::vector<double> Linspace(double lo, double hi, int points) {
  assert(points >= 2);
  std::vector<double> v;
  for (int i = 0; i < points; ++i) v.push_back(Round6(lo + (hi - lo) * i / (points - 1)));
  return v;
}

std::vector<double> UnionSorted(std::vector<double> values, const std::vector<double>& extra) {
  values.insert(values.end(), extra.begin(), extra.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

std::vector<int> ClientGrid(int max) {
  std::vector<int> v;
  for (int n = 1; n <= std::min(8, max); ++n) v.push_back(n);
  double x = 8;
  while (true) {
    x *= 1.35;
    int n = static_cast<int>(std::floor(x + 0.5));
    if (n >= max) break;
    if (n > v.back()) v.push_back(n);
  }
  if (v.back() != max) v.push_back(max);
  return v;
}

std::vector<int> PowersOfTwo(int max) {
  std::vector<int> v;
  for (int w = 1; w <= max; w *= 2) v.push_back(w);
  if (v.back() != max) v.push_back(max);
  return v;
}

std::string MetricSuffix(double v) {
  std::string s = FormatNumber(v);
  for (char& c : s) {
    if (c == '.' || c == '-' || c == '+') c = '_';
  }
  return s;
}

}  // namespace fawnlab
