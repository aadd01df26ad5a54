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

#include "experiments/fawnds_rig.h"
#include "experiments/registry.h"
#include "experiments/sweep.h"
#include "sim/rng.h"

namespace fawnlab {
namespace {

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const double scale = 1.0 / static_cast<double>(p.Int("scale_div"));
  const uint64_t value_bytes = static_cast<uint64_t>(p.Int("value_bytes"));
  const uint64_t keys = static_cast<uint64_t>(static_cast<double>(p.Int("store_mb") << 20) * scale) / value_bytes;
  const uint64_t ops = static_cast<uint64_t>(p.Int("ops"));
  const int steps = 10;
  SweepProgress sweep(&ctx, 2.0 + steps + 1);
  RigOptions o;
  o.scale = scale;
  o.files = static_cast<int>(p.Int("files"));
  o.value_bytes = value_bytes;
  o.file_room = 1.5;
  o.keys = keys + ops * (steps + 1) / 2;  // the store grows by the puts of every step
  auto rig = FawnNodeRig::Create(o);
  if (!rig.ok()) return rig.status();
  FawnNodeRig& r = *rig.value();
  if (Status s = r.Load(0, keys, sweep.Step(2)); !s.ok()) return s;
  sweep.Done();
  sim::Rng rng(ctx.seed());
  Result res;
  res.scale_factor = static_cast<double>(p.Int("scale_div"));
  res.scale_note = "store and DRAM at 1/" + std::to_string(p.Int("scale_div")) + "; puts insert new keys (the store grows by about a third of the requests)";
  uint64_t next_new = keys;  // puts insert keys the store has not seen
  Series s{"aggregate", "measured", "fraction of puts", "queries per second (QPS)", {}};
  Series gets{"gets", "measured", "fraction of puts", "queries per second (QPS)", {}};
  Series puts{"puts", "measured", "fraction of puts", "queries per second (QPS)", {}};
  for (int step = 0; step <= steps; ++step) {
    const double f = static_cast<double>(step) / steps;
    uint64_t issued = 0, completed = 0, n_puts = 0;
    const sim::SimTime t0 = r.sim.now();
    std::function<void()> next = [&]() {
      if (issued >= ops) return;
      ++issued;
      const uint64_t key = rng.UniformU64(keys);
      if (rng.UniformDouble() < f) {
        ++n_puts;
        r.Put(next_new++, [&]() {
          ++completed;
          next();
        });
      } else {
        r.Get(key, [&](bool) {
          ++completed;
          next();
        });
      }
    };
    next();
    if (!r.RunUntil([&] { return completed >= ops || !r.failure.ok(); }, sweep.Step(1),
                    [&] { return static_cast<double>(completed) / static_cast<double>(ops); })) {
      return Status::Cancelled("cancelled");
    }
    sweep.Done();
    if (!r.failure.ok()) return r.failure;
    const double secs = sim::NsToSec(r.sim.now() - t0);
    const double qps = static_cast<double>(ops) / secs;
    s.points.emplace_back(f, qps);
    gets.points.emplace_back(f, static_cast<double>(ops - n_puts) / secs);
    puts.points.emplace_back(f, static_cast<double>(n_puts) / secs);
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
      "One node, eight FAWN-DS files: random gets and overwriting puts, one at a time. Puts are appends, cheaper than "
      "random reads, so the more puts, the higher the aggregate rate.";
  e.info.reference = "FAWN SOSP'09 §4.1.2, Fig 10 (thesis Fig 4.5)";
  e.info.params = {
      ParamSpec::Int("store_mb", 512, 1, 4096, "MB", "Datastore size at the paper's scale."),
      ParamSpec::Int("scale_div", 4, 1, 256, "×", "Divide the store and DRAM by this factor."),
      ParamSpec::Int("files", 8, 1, 256, "files", "FAWN-DS files on the node (the paper: 8)."),
      ParamSpec::Int("value_bytes", 1024, 16, 65536, "bytes", "Value size."),
      ParamSpec::Int("ops", 4000, 100, 1000000, "requests", "Requests per put fraction."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
