// fawnds.mix: aggregate query rate against the fraction of puts (FAWN SOSP'09 §4.1.2, Fig 10;
// thesis Fig 4.5). One node, eight FAWN-DS files on the CF card, loaded with `store_mb` of
// 1 KB entries; a local client issues requests one at a time — a get of a random existing
// key, or with probability `f` a put of a new key — for f = 0, 0.1, …, 1. (A put over an
// existing key would first read that key's record to confirm the fragment match, a random
// read like a get's.) Gets that
// miss the page cache wait ~0.7 ms for the card; puts are appends that the write-back page
// cache gathers per file and the card absorbs at nearly its sequential rate, so the
// aggregate rate rises with the put fraction. Sizes and DRAM at 1 / scale_div.
#include <memory>
#include <string>

#include "fawnds/experiments/rig.h"
#include "registry/experiments.h"
#include "registry/sweep.h"
#include "sim/rng.h"

namespace fawnlab {
namespace {

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const double scale = 1.0 / static_cast<double>(p.Int("scale_div"));
  const uint64_t value_bytes = static_cast<uint64_t>(p.Int("value_bytes"));
  const uint64_t keys = static_cast<uint64_t>(static_cast<double>(p.Int("store_mb") << 20) * scale) / value_bytes;
  const sim::SimDuration warm = static_cast<sim::SimDuration>(p.Real("warm_s") * 1e9);
  const sim::SimDuration span = static_cast<sim::SimDuration>(p.Real("measure_s") * 1e9);
  const int steps = 10;
  SweepProgress sweep(&ctx, 2.0 + steps + 1);
  RigOptions o;
  o.scale = scale;
  o.files = static_cast<int>(p.Int("files"));
  o.value_bytes = value_bytes;
  o.file_room = 1.5;
  // The store grows by the puts of every step: at most ~60K puts/s (CPU-bound) over each step.
  o.keys = keys + static_cast<uint64_t>(60000 * sim::NsToSec(warm + span) * (steps + 1) / 2);
  auto rig = FawnNodeRig::Create(o);
  if (!rig.ok()) return rig.status();
  FawnNodeRig& r = *rig.value();
  if (Status s = r.Load(0, keys, sweep.Step(2)); !s.ok()) return s;
  sweep.Done();
  sim::Rng rng(ctx.seed());
  Result res;
  res.scale_factor = static_cast<double>(p.Int("scale_div"));
  res.scale_note = "store and DRAM at 1/" + std::to_string(p.Int("scale_div")) + "; puts insert new keys (the store grows by the puts)";
  uint64_t next_new = keys;  // puts insert keys the store has not seen
  Series s{"aggregate", "measured", "fraction of puts", "queries per second (QPS)", {}};
  Series gets{"gets", "measured", "fraction of puts", "queries per second (QPS)", {}};
  Series puts{"puts", "measured", "fraction of puts", "queries per second (QPS)", {}};
  for (int step = 0; step <= steps; ++step) {
    const double f = static_cast<double>(step) / steps;
    // Each step runs `warm_s` to reach the write-back's steady state, then is measured for `measure_s`.
    const sim::SimTime t_measure = r.sim.now() + warm, t_end = t_measure + span;
    uint64_t measured = 0, measured_puts = 0;
    bool in_flight = false;
    std::function<void()> next = [&]() {
      in_flight = false;
      if (r.sim.now() >= t_end) return;
      in_flight = true;
      const bool put = rng.UniformDouble() < f;
      auto finish = [&, put]() {
        if (r.sim.now() >= t_measure && r.sim.now() < t_end) {
          ++measured;
          measured_puts += put ? 1 : 0;
        }
        next();
      };
      if (put) {
        r.Put(next_new++, finish);
      } else {
        r.Get(rng.UniformU64(keys), [finish](bool) { finish(); });
      }
    };
    next();
    if (!r.RunUntil([&] { return !in_flight || !r.failure.ok(); }, sweep.Step(1), [&] {
          return std::min(1.0, sim::NsToSec(r.sim.now() - (t_measure - warm)) / sim::NsToSec(warm + span));
        })) {
      return Status::Cancelled("cancelled");
    }
    sweep.Done();
    if (!r.failure.ok()) return r.failure;
    const double secs = sim::NsToSec(span);
    const double qps = static_cast<double>(measured) / secs;
    s.points.emplace_back(f, qps);
    gets.points.emplace_back(f, static_cast<double>(measured - measured_puts) / secs);
    puts.points.emplace_back(f, static_cast<double>(measured_puts) / secs);
    if (step == 0) res.AddMetric("qps_all_gets", qps);
    if (step == 10) res.AddMetric("qps_all_puts", qps);
    if (step == 5) res.AddMetric("qps_half_puts", qps);
  }
  // Facebook's memcached mix, 1 put in 7 requests (SOSP'09 §4.1.2), from the curve.
  const double f7 = 1.0 / 7.0;
  const auto& pts = s.points;
  res.AddMetric("qps_one_put_in_seven", pts[1].second + (pts[2].second - pts[1].second) * (f7 - 0.1) / 0.1);
  res.AddMetric("put_to_get_ratio", res.Metric("qps_all_puts") / res.Metric("qps_all_gets"));
  res.series = {s, gets, puts};
  res.notes.push_back("FAWN Fig 10 has no numbers in the text: the aggregate rate \\\"rises significantly\\\" with the put "
                      "fraction, because small writes are cheaper than random reads in a log-structured store.");
  res.notes.push_back("Throughput at f = 0 is Table 2's level for this store size; at f = 1 puts are limited by the "
                      "card's semi-random write rate over " + std::to_string(o.files) + " files and by the CPU.");
  return res;
}

}  // namespace

Experiment MakeFawndsMix() {
  Experiment e;
  e.info.id = "fawnds.mix";
  e.info.lab = "fawnds";
  e.info.title = "Read/write mix: query rate against the fraction of puts (Fig 10)";
  e.info.summary =
      "One node, eight FAWN-DS files: gets of random keys and puts of new ones, one at a time. Puts are appends, cheaper than "
      "random reads, so the more puts, the higher the aggregate rate.";
  e.info.reference = "FAWN SOSP'09 §4.1.2, Fig 10 (thesis Fig 4.5)";
  e.info.params = {
      ParamSpec::Int("store_mb", 512, 1, 4096, "MB", "Datastore size at the paper's scale."),
      ParamSpec::Int("scale_div", 4, 1, 16, "×", "Divide the store and DRAM by this factor (past 16 the write-back thresholds, 5% and 10% of DRAM, leave each file runs too short for the card)."),
      ParamSpec::Int("files", 8, 1, 256, "files", "FAWN-DS files on the node (the paper: 8)."),
      ParamSpec::Int("value_bytes", 1024, 16, 65536, "bytes", "Value size."),
      ParamSpec::Real("warm_s", 0.5, 0, 60, "s", "Simulated time per put fraction before measuring (the write-back reaches its steady state)."),
      ParamSpec::Real("measure_s", 2, 0.1, 600, "s", "Simulated time measured per put fraction."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
