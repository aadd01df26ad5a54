// FAWN's total-cost-of-ownership model (SOSP'09 §5.2, Table 4, Figure 16; thesis §2.5,
// Table 2.2, Figure 2.5).
//
// Contract: a Config is one node type of Table 4 (capital cost, peak power, per-node query
// rate and capacity). A cluster storing DS GB and serving QR queries/s needs
//   N = max(DS / (GB per node), QR / (QPS per node))            (SOSP'09 §5.2)
// nodes, and its TCO is N × (cost + W × hours × $/kWh / 1000): capital plus the power bill
// over the years of ownership (the paper: 3 years at $0.10/kWh). The paper's equation has no
// rounding; `whole_nodes` rounds N up (docs/decisions.md). Cheapest() picks the lowest-TCO
// configuration (first in Table 4 order on a tie). Every function refuses non-positive
// sizes, rates, prices or years with kInvalidArgument naming the input.
#ifndef FAWNLAB_FAWNKV_TCO_H_
#define FAWNLAB_FAWNKV_TCO_H_

#include <string>
#include <vector>

#include "base/status.h"

namespace fawnlab::fawnkv {

// One Table 4 row: a node type. GB are decimal (1 TB = 1000 GB: 5 × 2 TB gives Table 4's
// 40 GB/W at 250 W).
struct Config {
  std::string name;        // "FAWN+SSD"
  std::string components;  // what the node holds, from §5.2's text
  double cost_usd;         // capital cost per node
  double watts;            // power per node at load
  double qps;              // small random queries/s per node
  double gb;               // capacity per node, GB
};

// The six configurations of SOSP'09 Table 4 (= thesis Table 2.2), in the table's order:
// Traditional+Disk, +SSD, +DRAM, FAWN+Disk, +SSD, +DRAM.
const std::vector<Config>& Table4Configs();

struct Economics {
  double usd_per_kwh = 0.10;  // SOSP'09 §5.2: "10 cents per kWh"
  double years = 3;           // SOSP'09 §5.2: "3-year total cost of ownership"
  bool whole_nodes = false;   // round N up (the paper's equation does not)
};

Status CheckEconomics(const Economics& e);

// Power cost of one watt drawn for the whole period ($2.628 at the paper's numbers).
double PowerCostPerWatt(const Economics& e);
// Capital + power for one node of `c`.
double NodeTco(const Config& c, const Economics& e);
// Table 4's derived columns for one node.
double QueriesPerJoule(const Config& c);
double GbPerWatt(const Config& c);
double TcoPerGb(const Config& c, const Economics& e);
double TcoPerQps(const Config& c, const Economics& e);

// N for a dataset of `dataset_gb` at `qps` queries/s.
StatusOr<double> NodesNeeded(const Config& c, double dataset_gb, double qps, const Economics& e);
// N × NodeTco.
StatusOr<double> ClusterTco(const Config& c, double dataset_gb, double qps, const Economics& e);
// Index into `configs` of the cheapest cluster; `configs` must not be empty.
StatusOr<size_t> Cheapest(const std::vector<Config>& configs, double dataset_gb, double qps, const Economics& e);

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_TCO_H_
