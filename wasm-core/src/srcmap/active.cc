#include "srcmap/active.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace fawnlab::srcmap {
namespace {

// Algorithm 1 for the active set `active`; fills `serve` and returns true on success.
bool AssignReplicas(const ActiveInput& in, const std::vector<bool>& active, std::vector<int>* serve) {
  const size_t n = in.p.size();
  std::vector<int> s, a;
  for (size_t i = 0; i < n; ++i) (active[i] ? a : s).push_back(static_cast<int>(i));
  auto p_of = [&](int i) { return in.p[static_cast<size_t>(i)]; };
  std::stable_sort(s.begin(), s.end(), [&](int x, int y) { return p_of(x) < p_of(y); });  // reverse of P
  std::stable_sort(a.begin(), a.end(), [&](int x, int y) { return p_of(x) > p_of(y); });  // by P
  std::vector<double> spare(n, 0);
  for (int j : a) spare[static_cast<size_t>(j)] = in.capacity[static_cast<size_t>(j)];
  serve->assign(in.unit_vdisk.size(), -1);
  for (size_t u = 0; u < in.unit_vdisk.size(); ++u) {
    size_t v = static_cast<size_t>(in.unit_vdisk[u]);
    if (active[v]) {
      (*serve)[u] = static_cast<int>(v);
      spare[v] -= in.unit_load[u];
    }
  }
  for (int d : s) {
    for (size_t u = 0; u < in.unit_vdisk.size(); ++u) {
      if (in.unit_vdisk[u] != d) continue;
      for (int j : a) {
        const auto& t = in.unit_targets[u];
        if (std::find(t.begin(), t.end(), j) == t.end()) continue;
        if (in.unit_load[u] <= spare[static_cast<size_t>(j)]) {
          (*serve)[u] = j;
          spare[static_cast<size_t>(j)] -= in.unit_load[u];
          break;
        }
      }
      if ((*serve)[u] < 0) return false;
    }
  }
  return true;
}

}  // namespace

ActiveResult IdentifyActive(const ActiveInput& in) {
  const size_t n = in.p.size();
  assert(in.capacity.size() == n && in.unit_load.size() == in.unit_vdisk.size() &&
         in.unit_targets.size() == in.unit_vdisk.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return in.p[static_cast<size_t>(x)] < in.p[static_cast<size_t>(y)]; });
  double load = 0;
  for (double l : in.unit_load) load += l;
  ActiveResult r;
  r.active.assign(n, false);
  double cap = 0;
  size_t k = 0;
  while (k < n && (k == 0 || !(cap > load))) {  // I: at least one, until capacity exceeds load
    r.active[static_cast<size_t>(order[k])] = true;
    cap += in.capacity[static_cast<size_t>(order[k])];
    ++k;
  }
  r.selected = static_cast<int>(k);
  while (!AssignReplicas(in, r.active, &r.serve)) {  // II, and III on failure
    assert(k < n);
    r.active[static_cast<size_t>(order[k])] = true;
    ++k;
    ++r.added;
  }
  return r;
}

}  // namespace fawnlab::srcmap
