// What the CONA lab's YCSB experiments (cona.ycsb, cona.timeseries) share: the thesis's
// figures they compare with (§3.2.2, Figs 3.13-3.20, as the prose quotes them: the figures
// themselves did not survive), the machine their parameters build, and one workload's run.
#ifndef FAWNLAB_CONA_EXPERIMENTS_YCSB_COMMON_H_
#define FAWNLAB_CONA_EXPERIMENTS_YCSB_COMMON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/status.h"
#include "cona/runner.h"
#include "registry/experiments.h"

namespace fawnlab::cona_ycsb {

// Figs 3.13 (reads) and 3.14 (writes), from the prose (§3.2.2, digest §8.2). 0: no such bar.
struct ThesisBar {
  const char* workload;
  double write_iops, read_iops;
  const char* write_quote;
  const char* read_quote;
};
const std::vector<ThesisBar>& ThesisBars();  // a, b, c, d, f

// The parameters both experiments take: scale, buffer_kb, clients.
std::vector<ParamSpec> MachineParams(double default_scale);
cona::MachineConfig MachineFor(const ParamValues& p);

// Builds a fresh machine and runs the load and `workload`'s run phase (samples: 0 = 250).
// `progress` covers [p0, p1] of the caller's run.
StatusOr<cona::YcsbRun> RunWorkload(const ParamValues& p, const std::string& workload, uint64_t samples,
                                    RunContext& ctx, double p0, double p1, std::string* scale_note);

// Per write / per read, in µs, what the foreground time went to (for anchors' miss notes).
std::string WriteBreakdown(const cona::PhaseTotals& t);
std::string ReadBreakdown(const cona::PhaseTotals& t);

}  // namespace fawnlab::cona_ycsb

#endif  // FAWNLAB_CONA_EXPERIMENTS_YCSB_COMMON_H_
