// cona.buffer-size (CONA thesis §3.2.1, Figs 3.4-3.9): the insertion buffer B from 8 KB to
// 1 MB. For each B a fresh machine loads the records in order (the construction) through the
// YCSB runner, then serves workload C (zipfian reads) on what it built. The load's insertion
// time is split as the store accounts it: "normal" inserts (the sorted buffer's search and
// memmove, which grow with B), induces (the frozen buffer's copy into level 1 and its trie),
// and exposed merge time (the writer waiting for the merge actor, which shrinks with the
// levels). Every figure is the model's: nothing here is fitted (the host's costs are
// cona/costs.h's; see the anchors for which of them, if any, was calibrated).
#include <algorithm>
#include <string>
#include <vector>

#include "cona/experiments/index_common.h"
#include "registry/experiments.h"
#include "registry/sweep.h"

namespace fawnlab {
namespace {

using cona::StoreDelta;

constexpr const char* kBufferLabel = "insertion buffer B (KB)";

struct Point {
  uint32_t kb = 0;
  int levels = 0;
  StoreDelta load, reads;
  double read_iops = 0, cache_hit = 0;
  uint64_t buffer_entries = 0;
};

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const double scale = p.Real("scale");
  const std::string reads_at = p.Choice("reads");
  const bool reads = reads_at != "none";
  auto reads_here = [&](uint32_t kb) {
    return reads_at == "all" || (reads_at == "ends" && (kb == 8 || kb == 64 || kb == 1024));
  };
  const uint64_t ops = static_cast<uint64_t>(p.Int("operations"));
  std::vector<uint32_t> sizes;
  for (uint32_t kb = static_cast<uint32_t>(p.Int("min_kb")); kb <= static_cast<uint32_t>(p.Int("max_kb")); kb *= 2) {
    sizes.push_back(kb);
  }
  double units = 0;
  for (uint32_t kb : sizes) units += reads_here(kb) ? 2 : 1;
  SweepProgress sweep(&ctx, units);
  std::vector<Point> pts;
  for (uint32_t kb : sizes) {
    Point pt;
    pt.kb = kb;
    auto m = cona::MakeMachine(scale, cona::OptionsFor(p, kb), cona::MmapFaults(p));
    if (!m.ok()) return m.status();
    cona::Machine* mach = m.value().get();
    auto load = cona::RunPhase(mach, "", 0, ctx.seed(), sweep.Step(1), &pt.load);
    if (!load.ok()) return load.status();
    sweep.Done();
    pt.levels = load.value().load.levels;
    pt.buffer_entries = mach->store()->structure().buffer_capacity;
    if (reads_here(kb)) {
      auto run = cona::RunPhase(mach, "c", ops, ctx.seed(), sweep.Step(1), &pt.reads);
      if (!run.ok()) return run.status();
      sweep.Done();
      pt.read_iops = run.value().run.read_iops;
      pt.cache_hit = run.value().run.cache_hit_ratio;
    }
    pts.push_back(pt);
  }

  Result r;
  r.scale_factor = 1 / scale;
  Series normal{"lab: normal inserts", "measured", kBufferLabel, "insertion time (s, virtual)", {}};
  Series induce{"lab: induce", "measured", kBufferLabel, "insertion time (s, virtual)", {}};
  Series exposed{"lab: exposed merge", "measured", kBufferLabel, "insertion time (s, virtual)", {}};
  Series total{"lab: total insertion time", "measured", kBufferLabel, "insertion time (s, virtual)", {}};
  Series merge{"lab: merge time (the merge actor's)", "measured", kBufferLabel, "merge time (s, virtual)", {}};
  Series exposed2{"lab: exposed merge time", "measured", kBufferLabel, "merge time (s, virtual)", {}};
  Series levels{"lab: levels after the load", "measured", kBufferLabel, "levels", {}};
  Series c_iops{"lab: workload C read IOPS", "measured", kBufferLabel, "read IOPS", {}};
  double best = 0, best_kb = 0;
  for (const Point& pt : pts) {
    const double x = pt.kb;
    const double norm = pt.load.insert_s - pt.load.induce_s - pt.load.exposed_s;
    normal.points.emplace_back(x, norm);
    induce.points.emplace_back(x, pt.load.induce_s);
    exposed.points.emplace_back(x, pt.load.exposed_s);
    total.points.emplace_back(x, pt.load.insert_s);
    merge.points.emplace_back(x, pt.load.merge_s);
    exposed2.points.emplace_back(x, pt.load.exposed_s);
    levels.points.emplace_back(x, pt.levels);
    if (reads_here(pt.kb)) c_iops.points.emplace_back(x, pt.read_iops);
    if (best_kb == 0 || pt.load.insert_s < best) {
      best = pt.load.insert_s;
      best_kb = pt.kb;
    }
    const std::string suffix = pt.kb >= 1024 ? std::to_string(pt.kb / 1024) + "m" : std::to_string(pt.kb) + "k";
    r.AddMetric("insert_s_" + suffix, pt.load.insert_s);
    r.AddMetric("levels_" + suffix, pt.levels);
    r.AddMetric("hidden_pct_" + suffix, pt.load.merge_s > 0 ? 100 * (1 - pt.load.exposed_s / pt.load.merge_s) : 100);
    if (reads_here(pt.kb)) {
      r.AddMetric("c_read_iops_" + suffix, pt.read_iops);
      r.AddMetric("c_cache_hit_pct_" + suffix, 100 * pt.cache_hit);
      r.AddMetric("c_flash_reads_per_read_" + suffix,
                  pt.reads.gets ? static_cast<double>(pt.reads.flash_reads) / static_cast<double>(pt.reads.gets) : 0);
    }
  }
  r.AddMetric("best_buffer_kb", best_kb);
  r.series = {total, normal, induce, exposed, merge, exposed2, levels};
  if (reads) r.series.push_back(c_iops);
  // Fig 3.9: reads served per level at each B.
  if (reads) {
    for (const Point& pt : pts) {
      if (pt.kb != 8 && pt.kb != 64 && pt.kb != 1024) continue;
      Series s{"lab: " + cona::BufferName(pt.kb) + ", % of C's reads served", "measured",
               "served by (0 the buffers, i level i)", "% of reads", {}};
      uint64_t all = 0;
      for (uint64_t v : pt.reads.served_by) all += v;
      for (size_t i = 0; i < pt.reads.served_by.size() && static_cast<int>(i) <= pt.levels; ++i) {
        s.points.emplace_back(i, all ? 100.0 * static_cast<double>(pt.reads.served_by[i]) / static_cast<double>(all) : 0);
      }
      r.series.push_back(s);
    }
  }
  r.series.push_back(Series{"thesis §3.2.1: 18 / 15 / 10 levels at 25M records", "paper", kBufferLabel, "levels",
                            {{8, 18}, {64, 15}, {1024, 10}}});
  if (reads) {
    r.series.push_back(Series{"thesis Fig 3.8 (prose): ~55K rising to over 65K", "paper", kBufferLabel, "read IOPS",
                              {{8, 55000}, {1024, 65000}}});
  }
  r.scale_note = "25M × " + cona::ScaleName(scale) + " records, DRAM and SSD; B is not scaled (the host's costs per "
                 "insert depend on B itself), so the levels are log2(1/scale) fewer than the thesis's";

  const bool full_sweep = sizes.front() == 8 && sizes.back() == 1024;
  if (full_sweep) {
    r.AddMetric("levels_span", r.Metric("levels_8k") - r.Metric("levels_1m"));
    if (reads) r.AddMetric("c_read_gain_pct", 100 * (r.Metric("c_read_iops_1m") / r.Metric("c_read_iops_8k") - 1));
  }
  bool served64 = false;
  for (const Point& pt : pts) {
    if (!reads || pt.kb != 64) continue;
    served64 = true;
    uint64_t all = 0;
    for (uint64_t v : pt.reads.served_by) all += v;
    auto pct = [&](int level) {
      return all && level >= 0 && static_cast<size_t>(level) < pt.reads.served_by.size()
                 ? 100.0 * static_cast<double>(pt.reads.served_by[static_cast<size_t>(level)]) / static_cast<double>(all)
                 : 0.0;
    };
    r.AddMetric("served_buffers_pct_64k", pct(0));
    r.AddMetric("served_last_pct_64k", pct(pt.levels));
    r.AddMetric("served_second_pct_64k", pct(pt.levels - 1));
  }
  const std::string levels_why =
      "nothing fitted: the levels a 2-CONA of B·2^(i-1)-entry cells needs for the records (one more each time the "
      "records double past a full structure)";
  if (full_sweep) {
    r.AddAnchor("best_buffer_kb", 64, {false, 0.5},
                Emergent("thesis §3.2.1, Fig 3.4: total insertion time is U-shaped in B with its minimum at 64 KB",
                         "nothing fitted: normal inserts (the sorted buffer's memmove, cona/costs.h) grow with B; "
                         "induces (a fixed cost each) and the merges (one pass per level) fall with it",
                         "the left wall is missing: the upper levels' merges stay in the page cache and cost the "
                         "merge actor little (cona/costs.h: 40 ns of CPU per entry moved), so the exposed merge time "
                         "barely grows as B shrinks and the levels multiply, while the normal inserts' memmove "
                         "shrinks; the total is flat up to 256 KB and lowest at the small end. Linux's write-back "
                         "does not change this: the added levels are the smallest cells, rewritten before the "
                         "flusher's sweep returns to them (docs/cona/experiments.md). The scale matters: at scale "
                         "0.01 (10 levels at 64 KB; ~20 s) a left wall rises at 8 KB, where the merges' reads of the "
                         "deep cells miss the page cache and queue behind the write-back, and 64 KB comes within a "
                         "few percent of the minimum at 16 KB (docs/cona/experiments.md, \"At 1/100\"). With "
                         "merge_entry_ns = 880 (every merged entry at the M500's 250 MB/s sequential write) the "
                         "minimum falls at 64 KB"));
    r.AddAnchor("levels_span", 8, {false, 1},
                Emergent("thesis §3.2.1: 18 levels at 8 KB, 10 at 1 MB (25M records)", levels_why,
                         "1 MB / 8 KB is 7 doublings, so a 2-CONA differs by 7 levels; the thesis's 8 is one more "
                         "(digest §12 erratum 9)"));
    if (reads) {
      r.AddAnchor("c_read_gain_pct", 100.0 * (65000.0 / 55000.0 - 1), {false, 10},
                  Emergent("thesis §3.2.1, Fig 3.8: C's read IOPS rise from ~55K at 8 KB to over 65K at 1 MB",
                           "nothing fitted: bigger buffers hold more of the popular records (answered without a "
                           "trie or a read) and the structure has fewer levels to walk",
                           "B is not scaled but the page cache is (1/scale smaller): at 1/1000 two 1 MB buffers take "
                           "over a quarter of the 7 MB cache, so more of C's reads miss it (c_cache_hit_pct_*), "
                           "which costs more than the buffers' share of the records saves"));
    }
  }
  if (served64) {
    r.AddAnchor("served_last_pct_64k", 50, {false, 10},
                Emergent("thesis §3.2.1, Fig 3.9: about 50% of C's reads are served by the last level",
                         "nothing fitted: reads are served where their record lives (zipfian over hashed "
                         "records, so in proportion to each level's entries)",
                         "after loading the records the last level holds their share of a binary count "
                         "(at the defaults 84 buffers = 64 + 16 + 4: 76% in the last level), not the one-cell-per-level "
                         "split (50%) the thesis quotes"));
    r.AddAnchor("served_second_pct_64k", 25, {false, 10},
                Emergent("thesis §3.2.1, Fig 3.9: about 25% by the second-to-last level",
                         "nothing fitted: as above",
                         "the second-to-last level is empty or small after this load (the records' binary count)"));
  }
  r.notes.push_back(
      "Each B loads the records into a fresh machine through the YCSB runner; the insertion time is the client's time "
      "in puts, split as the store accounts it (normal = search + the sorted buffer's memmove; induce; exposed = "
      "waiting for the merge actor). The merge actor's own busy time is the second chart (Fig 3.5).");
  r.notes.push_back("Levels: B is not scaled but the records are, so each B has log2(1/scale) fewer levels than the "
                    "thesis's 18 / 15 / 10 at 25M records (about 10 fewer at 1/1000); 8 KB to 1 MB is 7 doublings.");
  r.notes.push_back("Nothing is fitted. merge_entry_ns (default cona/costs.h's 40 ns) is a what-if: at 880 ns, one "
                    "220 B entry at the M500's 250 MB/s, the merges grow with the levels and the U's minimum falls at "
                    "64 KB.");
  return r;
}

}  // namespace

Experiment MakeConaBufferSize() {
  Experiment e;
  e.info.id = "cona.buffer-size";
  e.info.lab = "cona";
  e.info.title = "Insertion buffer size: the U-curve (Figs 3.4-3.9)";
  e.info.summary =
      "Loads the records with insertion buffers from 8 KB to 1 MB and splits the insertion time as the store accounts "
      "it: normal inserts (the sorted buffer's memmove grows with B), induces and exposed merges (fewer with bigger B: "
      "fewer buffers to copy down, fewer levels to merge through). Then serves workload C on each: reads by level.";
  e.info.reference = "Khasymski thesis §3.2.1, Figs 3.4-3.9";
  e.info.params = {
      cona::ScaleParam(),
      ParamSpec::Int("min_kb", 8, 8, 1024, "KB", "Smallest buffer (powers of two from it)."),
      ParamSpec::Int("max_kb", 1024, 8, 1024, "KB", "Largest buffer."),
      ParamSpec::Choice("reads", "ends", {"ends", "all", "none"},
                        "Serve workload C after the load at 8 KB, 64 KB and 1 MB (ends), at every B, or not (Figs 3.8, 3.9)."),
      cona::OperationsParam("Workload C's reads after each load"),
      cona::MergeEntryNsParam(),
      cona::MmapFaultsParam(),
  };
  e.validate = [](const ParamValues& p) {
    if (p.Int("min_kb") > p.Int("max_kb")) {
      return Status::InvalidArgument("min_kb (" + std::to_string(p.Int("min_kb")) + ") must not exceed max_kb (" +
                                     std::to_string(p.Int("max_kb")) + ")");
    }
    return Status::Ok();
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
