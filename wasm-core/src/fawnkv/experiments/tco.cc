// fawnkv.tco: FAWN's total-cost-of-ownership comparison (SOSP'09 §5.2, Table 4 and Figure 16;
// thesis §2.5, Table 2.2 and Figure 2.5).
//
// For the six node types of Table 4 the model (fawnkv/tco.h) gives each node's 3-year TCO,
// Table 4's derived columns (queries/J, GB/W, TCO/GB, TCO/QPS) and, for a dataset size and a
// query rate, the nodes each type needs and the cheapest cluster. The solution space of
// Figure 16 (100 GB … 10 PB against 100 K … 1 B queries/s) is computed on a grid: in each
// dataset-size column the query rates where the cheapest type changes are found by scanning
// and bisection, and each type's region is drawn as its outline.
#include <cmath>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "registry/experiments.h"
#include "fawnkv/tco.h"

namespace fawnlab {
namespace {

using fawnkv::Config;
using fawnkv::Economics;

// Metric-name keys, in Table 4 order.
const char* const kKeys[] = {"trad_disk", "trad_ssd", "trad_dram", "fawn_disk", "fawn_ssd", "fawn_dram"};

// Figure 16's window (SOSP'09 §5.2): 100 GB … 10 PB, 100 K … 1 B queries/s.
constexpr double kMinTb = 0.1;  // to 10,000 TB
constexpr double kMinQps = 1e5, kMaxQps = 1e9;
constexpr int kColumnsPerDecade = 3;  // 16 columns: the boundaries are straight lines on log-log axes
constexpr int kRowsPerDecade = 200;   // scan step for a change of winner, then bisection

// The four regions §5.2 names, each at a point inside it, and the type the paper says wins.
struct RegionPoint { const char* key; double tb; double qps; size_t paper_winner; const char* what; };
const RegionPoint kRegionPoints[] = {
    {"10pb_100k_qps", 10000, 1e5, 3, "large datasets, low query rates: FAWN+Disk"},
    {"100gb_1b_qps", 0.1, 1e9, 5, "small datasets, high query rates: FAWN+DRAM"},
    {"10tb_10m_qps", 10, 1e7, 4, "middle range: FAWN+SSD"},
    {"10tb_200m_qps", 10, 2e8, 2, "larger datasets at a high rate: Traditional+DRAM"},
};

size_t Winner(const std::vector<Config>& cs, double tb, double qps, const Economics& e) {
  return fawnkv::Cheapest(cs, tb * 1000, qps, e).value();  // inputs are in the window: positive
}

// Query rate (in [lo, hi]) where the winner at `tb` changes from the one at lo.
double Bisect(const std::vector<Config>& cs, double tb, double lo, double hi, const Economics& e) {
  const size_t at_lo = Winner(cs, tb, lo, e);
  for (int i = 0; i < 60; ++i) {
    const double mid = std::sqrt(lo * hi);
    if (Winner(cs, tb, mid, e) == at_lo) lo = mid; else hi = mid;
  }
  return std::sqrt(lo * hi);
}

struct Span { double lo = 0, hi = 0; bool seen = false; };

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  Economics e;
  e.usd_per_kwh = p.Real("usd_per_kwh");
  e.years = p.Real("years");
  e.whole_nodes = p.Bool("whole_nodes");
  if (Status s = fawnkv::CheckEconomics(e); !s.ok()) return s;
  const double ds_tb = p.Real("dataset_tb");
  const std::vector<Config>& cs = fawnkv::Table4Configs();
  const bool paper_economics = e.usd_per_kwh == 0.10 && e.years == 3;
  Result r;

  // 1. Table 4, per node.
  r.AddMetric("power_cost_usd_per_watt", fawnkv::PowerCostPerWatt(e));
  for (size_t i = 0; i < cs.size(); ++i) {
    const std::string k = kKeys[i];
    r.AddMetric("node_tco_usd_" + k, fawnkv::NodeTco(cs[i], e));
    r.AddMetric("tco_per_gb_" + k, fawnkv::TcoPerGb(cs[i], e));
    r.AddMetric("tco_per_qps_" + k, fawnkv::TcoPerQps(cs[i], e));
    r.AddMetric("queries_per_joule_" + k, fawnkv::QueriesPerJoule(cs[i]));
    r.AddMetric("gb_per_watt_" + k, fawnkv::GbPerWatt(cs[i]));
  }
  // Table 4's printed values; tolerances are the printed precision (half a unit of the last
  // digit), wider where the table rounds or truncates differently from its own inputs.
  struct Printed { double gb, gb_tol, qps, qps_tol, qj, qj_tol, gbw, gbw_tol; };
  const Printed printed[] = {
      {0.26, 0.01, 1.77, 0.005, 6, 0.5, 40, 0.5},              // 2657/10000 = 0.266 printed 0.26
      {53, 1, 0.04, 0.005, 909, 0.5, 0.72, 0.01},              // 8578/160 = 53.6; 0.727 printed 0.72
      {59, 1, 0.004, 0.0005, 3500, 100, 0.23, 0.005},          // 3736/64 = 58.4; 3571 printed 3.5K
      {0.20, 0.005, 1.61, 0.005, 12.5, 0.05, 100, 0.5},
      {16.9, 0.05, 0.015, 0.0005, 2300, 50, 2.1, 0.05},        // 2333 printed 2.3K
      {134, 0.1 * 134, 0.003, 0.0005, 6600, 100, 0.13, 0.005}, // 289.4/2 = 144.7 printed 134: ±10%
  };
  if (paper_economics) {
    for (size_t i = 0; i < cs.size(); ++i) {
      const std::string k = kKeys[i];
      const Printed& t = printed[i];
      const std::string src = "SOSP'09 §5.2 Table 4 (= thesis Table 2.2)";
      const std::string why = "the row's cost, watts, QPS and GB are Table 4's own inputs; this column is §5.2's formula applied "
                              "to them, so agreement checks the arithmetic, not a prediction";
      const std::string miss = k == "fawn_dram" ? "Table 4 prints 134, but its own inputs ($250, 15 W, 2 GB, $2.628/W) give 144.7; "
                                                  "the model keeps the inputs"
                                                : "";
      r.AddAnchor("tco_per_gb_" + k, t.gb, {false, t.gb_tol}, Fitted(src, why, miss));
      r.AddAnchor("tco_per_qps_" + k, t.qps, {false, t.qps_tol}, Fitted(src, why));
      r.AddAnchor("queries_per_joule_" + k, t.qj, {false, t.qj_tol}, Fitted(src, why));
      r.AddAnchor("gb_per_watt_" + k, t.gbw, {false, t.gbw_tol}, Fitted(src, why));
    }
  }

  // 2. The regions §5.2 names: the cheapest type (its Table 4 index) and each cluster's TCO.
  for (const RegionPoint& rp : kRegionPoints) {
    const size_t w = Winner(cs, rp.tb, rp.qps, e);
    r.AddMetric(std::string("cheapest_at_") + rp.key, static_cast<double>(w));
    if (paper_economics) {
      r.AddAnchor(std::string("cheapest_at_") + rp.key, static_cast<double>(rp.paper_winner), {false, 0},
                  Emergent("SOSP'09 §5.2, Fig 16: the region's winner",
                           "the cheapest of the six node types by N = max(DS/GB, QR/QPS) × 3-year TCO; no input was chosen for it"));
    }
    for (size_t i = 0; i < cs.size(); ++i) {
      r.AddMetric(std::string("cluster_tco_usd_") + kKeys[i] + "_at_" + rp.key,
                  fawnkv::ClusterTco(cs[i], rp.tb * 1000, rp.qps, e).value());
    }
  }
  if (!ctx.Progress(0.2)) return Status::Cancelled("cancelled");

  // 3. Where the winner changes at `dataset_tb`, as queries/s per GB (with the paper's
  // unrounded N the winner depends only on this ratio, so the boundaries are diagonals).
  {
    double lo = 1e-4 * ds_tb * 1000;
    const double top = 1e7 * ds_tb * 1000;
    size_t cur = Winner(cs, ds_tb, lo, e);
    const double step = std::pow(10.0, 1.0 / kRowsPerDecade);
    for (double q = lo * step; q <= top; q *= step) {
      const size_t w = Winner(cs, ds_tb, q, e);
      if (w != cur) {
        const double at = Bisect(cs, ds_tb, q / step, q, e);
        r.AddMetric(std::string("boundary_qps_per_gb_") + kKeys[cur] + "_to_" + kKeys[w], at / (ds_tb * 1000));
        cur = w;
      }
    }
  }

  // 4. Figure 16: each type's region in the window, as its outline.
  const int columns = 5 * kColumnsPerDecade + 1;  // 0.1 … 10,000 TB
  const int rows = 4 * kRowsPerDecade;             // 10^5 … 10^9 queries/s
  std::vector<std::vector<Span>> spans(cs.size(), std::vector<Span>(columns));
  for (int c = 0; c < columns; ++c) {
    const double tb = kMinTb * std::pow(10.0, static_cast<double>(c) / kColumnsPerDecade);
    double prev_q = kMinQps;
    size_t cur = Winner(cs, tb, prev_q, e);
    double start = kMinQps;
    for (int y = 1; y <= rows; ++y) {
      const double q = y == rows ? kMaxQps : kMinQps * std::pow(10.0, static_cast<double>(y) / kRowsPerDecade);
      const size_t w = Winner(cs, tb, q, e);
      if (w != cur) {
        const double at = Bisect(cs, tb, prev_q, q, e);
        Span& s = spans[cur][c];
        if (!s.seen) s = {start, at, true}; else s.hi = at;
        cur = w;
        start = at;
      }
      prev_q = q;
    }
    Span& s = spans[cur][c];
    if (!s.seen) s = {start, kMaxQps, true}; else s.hi = kMaxQps;
    if (!ctx.Progress(0.2 + 0.8 * (c + 1) / columns)) return Status::Cancelled("cancelled");
  }
  for (size_t i = 0; i < cs.size(); ++i) {
    Series s{cs[i].name + " cheapest (outline of its region)", "measured", "dataset size (TB)", "query rate (queries/s)", {}};
    std::vector<std::pair<double, double>> lower, upper;
    for (int c = 0; c < columns; ++c) {
      if (!spans[i][c].seen) continue;
      const double tb = kMinTb * std::pow(10.0, static_cast<double>(c) / kColumnsPerDecade);
      lower.emplace_back(tb, spans[i][c].lo);
      upper.emplace_back(tb, spans[i][c].hi);
    }
    if (lower.empty()) {
      r.notes.push_back(cs[i].name + " is never the cheapest inside Figure 16's window.");
      continue;
    }
    s.points = lower;
    for (auto it = upper.rbegin(); it != upper.rend(); ++it) s.points.push_back(*it);
    s.points.push_back(lower.front());
    r.series.push_back(std::move(s));
  }

  // 5. Every type's cluster TCO at `dataset_tb` against the query rate: the crossings are
  // Figure 16's boundaries along one vertical line.
  for (size_t i = 0; i < cs.size(); ++i) {
    Series s{cs[i].name + " cluster TCO", "measured", "query rate for " + FormatNumber(ds_tb) + " TB (queries/s)",
             "cluster TCO over " + FormatNumber(e.years) + " years ($)", {}};
    for (int k = 0; k <= 4 * kColumnsPerDecade; ++k) {
      const double q = kMinQps * std::pow(10.0, static_cast<double>(k) / kColumnsPerDecade);
      s.points.emplace_back(q, fawnkv::ClusterTco(cs[i], ds_tb * 1000, q, e).value());
    }
    r.series.push_back(std::move(s));
  }

  r.notes.push_back("TCO = capital cost + power at the configured $/kWh over the years of ownership (SOSP'09 §5.2: "
                    "3 years at $0.10/kWh, $2.628 per watt); nodes needed N = max(DS / GB per node, QR / QPS per node)" +
                    std::string(e.whole_nodes ? ", rounded up to whole nodes." : ", unrounded as in the paper."));
  r.notes.push_back("Table 4's FAWN+DRAM TCO/GB is printed as 134, but its own inputs give (250 + 15 × 2.628) / 2 = 144.7; "
                    "the model keeps the inputs and the anchor allows ±10%.");
  r.notes.push_back("cheapest_at_* metrics are indices into Table 4's order: 0 Traditional+Disk, 1 Traditional+SSD, "
                    "2 Traditional+DRAM, 3 FAWN+Disk, 4 FAWN+SSD, 5 FAWN+DRAM.");
  r.notes.push_back("The analysis covers small random-access workloads only and ignores network, rack space and "
                    "management costs (SOSP'09 §5.2).");
  return r;
}

}  // namespace

Experiment MakeFawnkvTco() {
  Experiment e;
  e.info.id = "fawnkv.tco";
  e.info.lab = "fawnkv";
  e.info.title = "FAWN Table 4 and Figure 16: the cheapest cluster for a dataset and a query rate";
  e.info.summary =
      "Three-year cost of ownership (capital plus power) of traditional servers and wimpy FAWN nodes with disks, SSDs "
      "or DRAM. A cluster needs enough nodes for both the data and the query rate; FAWN+Disk wins for large, cold "
      "datasets, FAWN+DRAM for small, hot ones, FAWN+SSD in between and Traditional+DRAM for large hot datasets.";
  e.info.reference = "FAWN SOSP'09 §5.2, Table 4, Figure 16 (thesis §2.5, Table 2.2, Figure 2.5)";
  e.info.params = {
      ParamSpec::Real("usd_per_kwh", 0.10, 0.01, 1, "$/kWh", "Electricity price (the paper: $0.10/kWh)."),
      ParamSpec::Real("years", 3, 0.5, 10, "years", "Period of ownership the power bill covers (the paper: 3)."),
      ParamSpec::Real("dataset_tb", 10, 0.1, 10000, "TB", "Dataset size for the TCO-against-query-rate chart and the boundary ratios."),
      ParamSpec::Bool("whole_nodes", false, "Round the node count up to whole nodes (the paper's equation does not)."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
