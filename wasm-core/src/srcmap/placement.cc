#include "srcmap/placement.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace fawnlab::srcmap {
namespace {
constexpr double kWsFloor = 1;     // bytes: an empty working set counts as one byte
constexpr double kRhoFloor = 1e-3; // IOPS: an idle volume counts as 0.001 IOPS
}  // namespace

StatusOr<std::vector<double>> OrderingP(const std::vector<VdiskFacts>& v, const PlacementWeights& w) {
  if (v.empty()) return Status::InvalidArgument("placement: no vdisks");
  if (w.ws < 0 || w.ppr < 0 || w.rho < 0 || w.miss < 0) return Status::InvalidArgument("placement: weights must be >= 0");
  double ws_min = 1e300, ppr_min = 1e300, rho_min = 1e300, m_min = 1e300;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!(v[i].ppr > 0)) return Status::InvalidArgument("placement: vdisk " + std::to_string(i) + " has PPR <= 0");
    if (v[i].ws_bytes < 0 || v[i].rho < 0 || v[i].misses < 0) {
      return Status::InvalidArgument("placement: vdisk " + std::to_string(i) + " has a negative input");
    }
    ws_min = std::min(ws_min, std::max(v[i].ws_bytes, kWsFloor));
    ppr_min = std::min(ppr_min, v[i].ppr);
    rho_min = std::min(rho_min, std::max(v[i].rho, kRhoFloor));
    m_min = std::min(m_min, v[i].misses);
  }
  std::vector<double> p(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    p[i] = w.ws * ws_min / std::max(v[i].ws_bytes, kWsFloor) + w.ppr * ppr_min / v[i].ppr +
           w.rho * rho_min / std::max(v[i].rho, kRhoFloor) + w.miss * (m_min + 1) / (v[i].misses + 1);
  }
  return p;
}

StatusOr<Placement> PlaceReplicas(const std::vector<VdiskFacts>& vdisks, const std::vector<PlacementUnit>& units,
                                  const std::vector<double>& replica_bytes, const PlacementWeights& w) {
  auto pr = OrderingP(vdisks, w);
  if (!pr.ok()) return pr.status();
  const size_t n = vdisks.size();
  if (replica_bytes.size() != n) return Status::InvalidArgument("placement: one replica budget per mdisk");
  for (const PlacementUnit& u : units) {
    if (u.vdisk < 0 || static_cast<size_t>(u.vdisk) >= n) return Status::InvalidArgument("placement: a unit names no vdisk");
  }
  Placement out;
  out.p = pr.value();
  out.targets.assign(units.size(), {});
  out.hosted.assign(n, {});
  out.used_bytes.assign(n, 0);
  // Edge weights, initialised to P of the source's vdisk.
  std::vector<std::vector<double>> wt(units.size(), std::vector<double>(n));
  for (size_t u = 0; u < units.size(); ++u) std::fill(wt[u].begin(), wt[u].end(), out.p[static_cast<size_t>(units[u].vdisk)]);
  out.target_order.resize(n);
  std::iota(out.target_order.begin(), out.target_order.end(), 0);
  std::stable_sort(out.target_order.begin(), out.target_order.end(),
                   [&](int a, int b) { return out.p[static_cast<size_t>(a)] > out.p[static_cast<size_t>(b)]; });
  for (int j : out.target_order) {
    const size_t J = static_cast<size_t>(j);
    std::vector<int> cand;
    for (size_t u = 0; u < units.size(); ++u) {
      if (units[u].vdisk != j) cand.push_back(static_cast<int>(u));
    }
    std::stable_sort(cand.begin(), cand.end(), [&](int a, int b) {
      const size_t A = static_cast<size_t>(a), B = static_cast<size_t>(b);
      if (wt[A][J] != wt[B][J]) return wt[A][J] > wt[B][J];
      double pa = out.p[static_cast<size_t>(units[A].vdisk)], pb = out.p[static_cast<size_t>(units[B].vdisk)];
      if (pa != pb) return pa > pb;
      return units[A].ws_bytes < units[B].ws_bytes;
    });
    double free = replica_bytes[J];
    std::vector<int> placed;
    for (int u : cand) {
      const PlacementUnit& x = units[static_cast<size_t>(u)];
      bool sibling = false;  // §3.6.3: no two sub-replicas of one vdisk on a target
      for (int h : out.hosted[J]) sibling |= units[static_cast<size_t>(h)].vdisk == x.vdisk;
      if (sibling) continue;
      double need = x.ws_bytes + x.scratch_bytes;
      bool fits = need <= free;
      out.steps.push_back(PlacementStep{j, u, wt[static_cast<size_t>(u)][J], fits});
      if (!fits) continue;
      free -= need;
      out.used_bytes[J] += need;
      out.hosted[J].push_back(u);
      out.targets[static_cast<size_t>(u)].push_back(j);
      placed.push_back(u);
    }
    for (int u : placed) {  // Eq. 3.3
      double v = out.p[J] * out.p[static_cast<size_t>(units[static_cast<size_t>(u)].vdisk)];
      std::fill(wt[static_cast<size_t>(u)].begin(), wt[static_cast<size_t>(u)].end(), v);
    }
  }
  return out;
}

}  // namespace fawnlab::srcmap
