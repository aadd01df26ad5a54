// fawnds.table2: FAWN-DS random-read rate against the datastore's size (SOSP'09 §4.1.1,
// Table 2; thesis Table 4.2). For each value size (1 KB, 256 B) and each datastore size, a
// node with 256 MB of DRAM on the CompactFlash card is loaded with that much data in one
// store, then a local client gets random existing keys one at a time. Each get pays the CPU
// (fawnds/host_cpu.h) and reads its record through the page cache: a hit is a memory copy, a
// miss reads the record's 4 KB page(s) from the card. Nothing here knows the table's
// numbers except the anchors: the cliff between 125 MB and 250 MB appears because the page
// cache — the DRAM the OS and the index leave — stops holding the data.
// Sizes (and DRAM, the OS's share and the card) are multiplied by 1 / scale_div, except the
// 10 KB store, which is kept at 10 KB (it lives in the CPU's cache at any scale).
// MB = 2^20 bytes.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "fawnds/experiments/rig.h"
#include "registry/experiments.h"
#include "registry/sweep.h"
#include "fawnds/record.h"
#include "sim/rng.h"

namespace fawnlab {
namespace {

struct Row {
  const char* label;
  double bytes;
  double paper_1k, paper_256;  // SOSP'09 Table 2 (QPS)
};

constexpr double kMB = 1048576.0;
const Row kRows[] = {
    {"10kb", 10 * 1024.0, 72352, 85012},   {"125mb", 125 * kMB, 51968, 65412}, {"250mb", 250 * kMB, 6824, 5902},
    {"500mb", 500 * kMB, 2016, 2449},     {"1gb", 1024 * kMB, 1595, 1964},    {"2gb", 2048 * kMB, 1446, 1613},
    {"3_5gb", 3584 * kMB, 1150, 1298},
};

struct Measured {
  double qps, hit_ratio, cache_mb, index_mb;
};

StatusOr<Measured> MeasureRow(double bytes, uint64_t value_bytes, double scale, uint64_t queries, uint64_t seed,
                              SweepProgress* sweep) {
  const uint64_t keys = std::max<uint64_t>(1, static_cast<uint64_t>(bytes / static_cast<double>(value_bytes)));
  RigOptions o;
  o.scale = scale;
  o.value_bytes = value_bytes;
  o.keys = keys;
  o.file_room = 1.05;
  auto rig = FawnNodeRig::Create(o);
  if (!rig.ok()) return rig.status();
  FawnNodeRig& r = *rig.value();
  Status load = r.Load(0, keys, sweep->Step(2));
  if (!load.ok()) return load;
  sweep->Done();
  sim::Rng rng(seed);
  // Warm up (the cache holds the log's tail after the load; LRU settles on random gets), then measure.
  const uint64_t warm = queries / 4;
  uint64_t issued = 0, completed = 0, found = 0;
  sim::SimTime t0 = 0;
  uint64_t hits0 = 0, misses0 = 0;
  std::function<void()> next = [&]() {
    if (issued >= warm + queries) return;
    if (issued == warm) {
      t0 = r.sim.now();
      hits0 = r.cache->hits();
      misses0 = r.cache->misses();
    }
    ++issued;
    r.Get(rng.UniformU64(keys), [&](bool ok) {
      ++completed;
      found += ok ? 1 : 0;
      next();
    });
  };
  next();
  auto progress = sweep->Step(1);
  if (!r.RunUntil([&] { return completed >= warm + queries || !r.failure.ok(); }, progress,
                  [&] { return static_cast<double>(completed) / static_cast<double>(warm + queries); })) {
    return Status::Cancelled("cancelled");
  }
  sweep->Done();
  if (!r.failure.ok()) return r.failure;
  if (found != completed) return Status::Internal("a loaded key was not found: the store lost data");
  const double secs = sim::NsToSec(r.sim.now() - t0);
  const double h = static_cast<double>(r.cache->hits() - hits0), m = static_cast<double>(r.cache->misses() - misses0);
  return Measured{static_cast<double>(queries) / secs, h + m > 0 ? h / (h + m) : 1, static_cast<double>(r.CacheBytes()) / kMB,
                  static_cast<double>(r.IndexBytes()) / kMB};
}

// Rows 0 and 1 (in DRAM) set the CPU model's constants (fawnds/host_cpu.h), row 2 (250 MB,
// just past the cliff) the OS's share of DRAM; the flash-bound rows follow from the card.
AnchorNote Table2Note(size_t row) {
  const std::string src = "SOSP'09 Table 2 (= thesis Table 4.2)";
  const std::string miss =
      "Table 2's flash-bound rows disagree with each other under any cache model (docs/decisions.md): the 256 B 1 GB row "
      "needs misses cheaper than the card's raw 1,454 reads/s, the 1 KB 3.5 GB row misses slower than the 2 GB row implies";
  if (row <= 1) {
    return Fitted(src, "the Geode's CPU cost per request (11.05 µs + 79 ns per DRAM line + 2.7 µs/KB copied) was fitted to the "
                       "10 KB and 125 MB rows, which the page cache serves");
  }
  if (row == 2) return Fitted(src, "the OS's share of the 256 MB of DRAM (32 MB) was fitted to the 250 MB rows", miss);
  return Emergent(src, "page-cache misses go to the CF card fitted to Table 1; nothing was fitted to the flash-bound rows", miss);
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const double scale = 1.0 / static_cast<double>(p.Int("scale_div"));
  const uint64_t queries = static_cast<uint64_t>(p.Int("queries"));
  const size_t rows = static_cast<size_t>(p.Int("rows"));
  SweepProgress sweep(&ctx, 2.0 * 3.0 * static_cast<double>(rows));
  Result res;
  res.scale_factor = static_cast<double>(p.Int("scale_div"));
  res.scale_note = "datastore sizes, DRAM (256 MB), the OS's share and the card at 1/" + std::to_string(p.Int("scale_div")) +
                   " (the 10 KB store kept at 10 KB); sizes are labelled at the paper's scale; MB = 2^20 bytes";
  for (uint64_t value_bytes : {uint64_t{1024}, uint64_t{256}}) {
    const std::string v = value_bytes == 1024 ? "1kb" : "256b";
    Series measured{v == "1kb" ? "1 KB values" : "256 B values", "measured", "datastore size (MB, paper scale)",
                    "random gets per second (QPS)", {}};
    Series paper{measured.name + " (paper)", "paper", measured.x_label, measured.y_label, {}};
    for (size_t i = 0; i < rows; ++i) {
      const Row& row = kRows[i];
      const double bytes = i == 0 ? row.bytes : row.bytes * scale;
      auto m = MeasureRow(bytes, value_bytes, scale, queries, ctx.seed() * 1000 + i * 2 + (value_bytes == 256), &sweep);
      if (!m.ok()) {
        if (m.status().code() == StatusCode::kCancelled) return m.status();
        return Status::InvalidArgument(std::string("the ") + row.label + " store of " + v + " values: " + m.status().message());
      }
      const std::string name = "qps_" + v + "_" + row.label;
      res.AddMetric(name, m.value().qps);
      res.AddMetric("hit_ratio_" + v + "_" + row.label, m.value().hit_ratio);
      if (i + 1 == rows) res.AddMetric("page_cache_mb_" + v + "_" + row.label + "_scaled", m.value().cache_mb);
      // SOSP'09 Table 2 (= thesis Table 4.2); the issue asks for every value within ±20%.
      res.AddAnchor(name, value_bytes == 1024 ? row.paper_1k : row.paper_256, {true, 0.20}, Table2Note(i));
      measured.points.emplace_back(row.bytes / kMB, m.value().qps);
      paper.points.emplace_back(row.bytes / kMB, value_bytes == 1024 ? row.paper_1k : row.paper_256);
    }
    res.series.push_back(measured);
    res.series.push_back(paper);
  }
  if (rows >= 3) {
    res.AddMetric("cliff_1kb", res.Metric("qps_1kb_125mb") / res.Metric("qps_1kb_250mb"));
    res.AddMetric("cliff_256b", res.Metric("qps_256b_125mb") / res.Metric("qps_256b_250mb"));
  }
  res.notes.push_back("The cliff: a 125 MB store fits the page cache (256 MB less the OS's share and the index), "
                      "a 250 MB store does not, and every miss is a ~0.8 ms read of a 4 KB page from the card.");
  res.notes.push_back("1 KB records cross a 4 KB page boundary about a quarter of the time and then need two page reads; "
                      "256 B records rarely do. That is why 256 B gets are faster once the data is on flash, while in "
                      "the 250 MB row the 256 B store is slower: its larger index leaves less DRAM for the cache.");
  res.notes.push_back("CPU per get on the 500 MHz Geode (fitted to the 10 KB and 125 MB rows): 11.05 µs, plus 79 ns for "
                      "each cache line missed once the store outgrows the 128 KB L2, plus the copy out of the page cache.");
  return res;
}

}  // namespace

Experiment MakeFawndsTable2() {
  Experiment e;
  e.info.id = "fawnds.table2";
  e.info.lab = "fawnds";
  e.info.title = "Random reads against datastore size (Table 2)";
  e.info.summary =
      "Random gets on one FAWN-DS node with 256 MB of DRAM and the CompactFlash card, for datastores from 10 KB to "
      "3.5 GB: tens of thousands per second while the page cache holds the data, a cliff between 125 MB and 250 MB, "
      "then about the card's random-read rate.";
  e.info.reference = "FAWN SOSP'09 §4.1.1, Table 2 (thesis Table 4.2)";
  e.info.params = {
      ParamSpec::Int("scale_div", 32, 1, 128, "×", "Divide sizes, DRAM and the card by this factor (1 = the paper's scale; slow; past 128 the 256 B store's index fills the scaled DRAM)."),
      ParamSpec::Int("queries", 4000, 100, 1000000, "gets", "Random gets measured per datastore (after a quarter as many to warm up)."),
      ParamSpec::Int("rows", 7, 1, 7, "rows", "How many of the table's sizes to run, from 10 KB up."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
