// stores.energy (issue 17; FAWN SOSP'09 §4-5 and Table 3, CONA thesis §3.2): joules per
// operation of every store under one YCSB workload on three hosts (stores/host.h): the CONA
// thesis's laptop (i7-3610QM), the FAWN node (AMD Geode LX 500 MHz, 256 MB) and a server.
// Each store and host gets its own machine (the host's CPU speed, DRAM × scale as page cache
// and power; the same flash device), the load of 25M × scale records, then as many operations.
// Energy = the host's idle watts × the run's wall time + its busy watts × the cores' busy time
// (foreground CPU and background actors) + the device's own joules (stores/machine.h);
// <store>_<host>_uj_per_op = the run phase's energy / its operations, in µJ.
//
// The anchor: FAWN-DS on the FAWN node with its CompactFlash card, uniform random gets of
// every record loaded, in queries per joule (FAWN SOSP'09 Table 3: Alix3c2 + Sandisk CF,
// 1298 QPS at 3.75 W = 346 queries/J). EMERGENT: the node's watts (3 W idle, 6 W at full load,
// §4) are the paper's, but the queries per second come out of FAWN-DS's lookups on the CF
// model at the Geode's speed, and nothing was fitted to 346.
#include <string>
#include <vector>

#include "registry/experiments.h"
#include "stores/experiments/common.h"
#include "stores/host.h"
#include "ycsb/workload.h"

namespace fawnlab {
namespace {

using stores_exp::Div;
using stores_exp::Fmt;
using stores_exp::MetricId;

using stores_exp::Kinds;  // CONA, SILT, the LSM, FAWN-DS, the B+tree
const std::vector<std::string>& HostIds() {
  static const std::vector<std::string> h = {"laptop", "fawn", "server"};
  return h;
}

constexpr double kFawnQueriesPerJoule = 346;  // FAWN SOSP'09 Table 3, Alix3c2 / Sandisk (CF)

// FAWN-DS on the FAWN node with the Sandisk CF card: `records` loaded, then uniform random
// gets of them (at most 5000), one at a time; the queries per joule and its anchor.
Status FawnNodeAnchor(const ParamValues& p, RunContext& ctx, Result* r) {
  const uint64_t n = stores_exp::RecordsFor(p);
  stores_exp::MachineConfig mc = stores_exp::ConfigFor(p, "fawnds", "fawn");
  mc.device = "sandisk-cf-4gb";
  auto m = stores_exp::Machine::Create(mc);
  if (stores_exp::NotBuilt(m.status())) return m.status();
  if (!m.ok()) return stores_exp::Prefixed("fawnds on the FAWN node: ", m.status());
  if (Status st = stores_exp::PutRecords(m.value().get(), 0, n); !st.ok()) return stores_exp::Prefixed("fawnds: ", st);
  const double j0 = m.value()->Joules();
  const double t0 = static_cast<double>(m.value()->sim()->now());
  const uint64_t gets = std::min<uint64_t>(n, 5000);
  if (Status st = stores_exp::GetRecords(m.value().get(), n, gets, ctx.seed()); !st.ok()) return stores_exp::Prefixed("fawnds: ", st);
  const double joules = m.value()->Joules() - j0;
  const double secs = (static_cast<double>(m.value()->sim()->now()) - t0) / 1e9;
  r->AddMetric("fawnds_fawn_cf_queries_per_joule", Div(static_cast<double>(gets), joules));
  r->AddMetric("fawnds_fawn_cf_qps", Div(static_cast<double>(gets), secs));
  r->AddMetric("fawnds_fawn_cf_watts", Div(joules, secs));
  r->AddAnchor("fawnds_fawn_cf_queries_per_joule", kFawnQueriesPerJoule, {true, 0.35},
               Emergent("FAWN SOSP'09 Table 3: Alix3c2 / Sandisk CF, 1298 queries/s at 3.75 W = 346 queries/J",
                        "the node's watts are the paper's (3 W idle, 6 W at full load, §4: stores/host.h); the queries "
                        "per second come from FAWN-DS's lookups at the Geode's CPU speed on the CF card's model",
                        "measured " + Fmt(r->Metric("fawnds_fawn_cf_qps")) + " queries/s at " +
                            Fmt(r->Metric("fawnds_fawn_cf_watts")) + " W (the paper: 1298 at 3.75 W); the data set is " +
                            std::to_string(n) + " records, so the page cache (256 MB × scale) holds the same share as "
                            "at full scale, not the paper's 3.5 GB on a 4 GB card; the paper's node also served its "
                            "queries over 100 Mbit/s Ethernet through FAWN-KV (the NIC's and the network stack's watts "
                            "and CPU), which the lab's local client does not charge"));
  return Status::Ok();
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const std::string workload = p.Choice("workload");
  const uint64_t n = stores_exp::RecordsFor(p);
  Result r;
  std::vector<std::pair<std::string, std::string>> skipped;
  std::string describe;
  const size_t jobs = Kinds().size() * HostIds().size() + 1;
  size_t job = 0;
  for (const std::string& kind : Kinds()) {
    Series s{stores_exp::LabelOf(kind), "measured", "host (0 laptop, 1 FAWN node, 2 server)", "µJ per operation", {}};
    bool skip = false;
    for (size_t h = 0; h < HostIds().size() && !skip; ++h) {
      const double p0 = static_cast<double>(job) / static_cast<double>(jobs);
      ++job;
      auto y = stores_exp::RunOne(stores_exp::ConfigFor(p, kind, HostIds()[h]), workload, ctx, p0,
                                  p0 + 1.0 / static_cast<double>(jobs), &describe);
      if (stores_exp::NotBuilt(y.status())) {
        skipped.emplace_back(kind, y.status().message());
        skip = true;
        continue;
      }
      if (!y.ok()) return y.status();
      const stores::PhaseTotals& t = y.value().run;
      const std::string m = MetricId(kind) + "_" + HostIds()[h];
      r.AddMetric(m + "_uj_per_op", t.joules_per_op * 1e6);
      r.AddMetric(m + "_ops_per_s", t.ops_per_s);
      s.points.emplace_back(static_cast<double>(h), t.joules_per_op * 1e6);
    }
    if (!skip) r.series.push_back(s);
  }
  if (r.metrics.empty()) return Status::Unavailable(stores_exp::SkippedNote(skipped));

  // The FAWN node with its CF card: FAWN-DS, uniform random gets (Table 3's measurement).
  if (Status st = FawnNodeAnchor(p, ctx, &r); stores_exp::NotBuilt(st)) {
    skipped.emplace_back("fawnds on the FAWN node", st.message());
  } else if (!st.ok()) {
    return st;
  }
  ctx.Progress(1);

  r.scale_factor = 1 / p.Real("scale");
  r.scale_note = std::to_string(n) + " records (the thesis: 25M) loaded into each store on each host, then as many " +
                 "operations of workload " + workload + ": " + describe;
  for (const std::string& h : HostIds()) {
    auto host = stores::FindHost(h);
    if (host.ok()) {
      r.notes.push_back(host.value().label + ": " + Fmt(host.value().idle_watts) + " W idle + " +
                        Fmt(host.value().core_busy_watts) + " W per busy core, CPU × " + Fmt(host.value().cpu_scale) +
                        " the i7-3610QM's time (" + host.value().source + ").");
    }
  }
  r.notes.push_back("Energy per operation is mostly the host's idle power over the time an operation takes: a store "
                    "that answers faster spends fewer joules, and a slow CPU (the FAWN node) pays in time what it saves "
                    "in watts.");
  stores_exp::CloseNotes(&r, skipped);
  return r;
}

}  // namespace

Experiment MakeStoresEnergy() {
  Experiment e;
  e.info.id = "stores.energy";
  e.info.lab = "stores";
  e.info.title = "Joules per operation: every store on a laptop, a FAWN node and a server";
  e.info.summary =
      "Runs one YCSB workload against CONA, SILT, the LSM, FAWN-DS and the B+tree on three hosts (the CONA thesis's "
      "laptop, FAWN's 500 MHz node, a server) with the same flash, and charges each host's idle and busy power to "
      "the operations: microjoules per operation, and FAWN-DS's queries per joule on its own node.";
  e.info.reference = "FAWN SOSP'09 §4 and Table 3; CONA thesis §3.2";
  e.info.params = stores_exp::MachineParams(0.0002);
  std::vector<std::string> wls;
  for (const ycsb::Workload& w : ycsb::CoreWorkloads()) {
    if (w.scan == 0) wls.push_back(w.id);
  }
  e.info.params.push_back(ParamSpec::Choice("workload", "b", wls, "The YCSB workload every store runs."));
  e.run = Run;
  return e;
}

}  // namespace fawnlab
