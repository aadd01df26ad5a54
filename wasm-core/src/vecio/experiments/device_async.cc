// vector.device (thesis §7.3.1, Figs 7.3-7.5; SoCC'12 §4.1, Figs 4-6): asynchronous 512 B random
// reads and writes on the NVM device, single I/O against vectors, across thread counts and
// queue depths per thread (QD/T), and the IOPS each busy host core delivers.
//
// Each point is one vecio::RunAsync (async_driver.h): T threads keep QD/T I/Os outstanding, as
// single I/Os (one command, one interrupt each) or as two vectors of QD/T ÷ 2 (the thesis's rule
// for Figs 7.3-7.5), on the "nvm-4ch" device (thread i on DMA channel i mod 4) and 8 host cores
// that charge a submission per command, an I/O structure per entry, and an interrupt and a
// wake-up per completion. Reads come out DMA-bound either way; writes occupy the channel for an
// extra per-command and per-entry time (fitted to Fig 7.4), which a vector pays once per command.
#include <algorithm>
#include <string>
#include <vector>

#include "device/profiles.h"
#include "registry/experiments.h"
#include "registry/sweep.h"
#include "vecio/async_driver.h"

namespace fawnlab {
namespace {

const std::vector<int>& QdPerThread() {
  static const std::vector<int> q = {4, 16, 64};  // vector widths 2, 8, 32 (QD/T ÷ 2)
  return q;
}

struct Point {
  double iops, iops_per_core, cores_busy;
};

std::string ModeName(bool multi, int qd) {
  return multi ? "multi, QD/T " + std::to_string(qd) + " (w = " + std::to_string(qd / 2) + ")"
               : "single, QD/T " + std::to_string(qd) + " (dashed in the paper)";
}

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const int max_threads = static_cast<int>(p.Int("max_threads"));
  std::vector<int> threads;
  for (int t = 1; t <= max_threads; t *= 2) threads.push_back(t);
  if (threads.back() != max_threads) threads.push_back(max_threads);
  const int t_max = threads.back();

  vecio::AsyncSetup base;
  base.device = device::FindNvmProfile("nvm-4ch")->config;
  base.device.write_command_ns = sim::UsToNs(p.Real("write_command_us"));
  base.device.write_entry_ns = sim::UsToNs(p.Real("write_entry_us"));
  base.costs.submit_ns = sim::UsToNs(p.Real("submit_us"));
  base.costs.entry_ns = sim::UsToNs(p.Real("entry_us"));
  base.costs.irq_ns = sim::UsToNs(p.Real("irq_us"));
  base.costs.wakeup_ns = sim::UsToNs(p.Real("wakeup_us"));
  base.cores = static_cast<int>(p.Int("cores"));
  base.warmup_ns = sim::UsToNs(p.Real("warmup_us"));
  base.measure_ns = sim::UsToNs(p.Real("measure_us"));
  if (Status s = vecio::ValidateAsync(base); !s.ok()) return s;

  Result r;
  r.scale_note = "no scaling: the emulator's own parameters; each point measures a short window of virtual time";
  SweepProgress sweep(&ctx, static_cast<double>(2 * 2 * QdPerThread().size() * threads.size()));
  // [writes][multi][qd index][thread index]
  std::vector<Point> pts(2 * 2 * QdPerThread().size() * threads.size());
  auto at = [&](bool writes, bool multi, size_t qi, size_t ti) -> Point& {
    return pts[((static_cast<size_t>(writes) * 2 + static_cast<size_t>(multi)) * QdPerThread().size() + qi) *
                   threads.size() +
               ti];
  };
  for (bool writes : {false, true}) {
    for (size_t qi = 0; qi < QdPerThread().size(); ++qi) {
      const int qd = QdPerThread()[qi];
      for (bool multi : {false, true}) {
        Series s{ModeName(multi, qd), "measured", "threads",
                 writes ? "512 B write IOPS" : "512 B read IOPS", {}};
        for (size_t ti = 0; ti < threads.size(); ++ti) {
          vecio::AsyncSetup a = base;
          a.writes = writes;
          a.threads = threads[ti];
          a.qd = qd;
          a.width = multi ? qd / 2 : 1;
          // Plus three turnovers of the point's outstanding I/Os at the device's entry rate, so the
          // start-up burst (every thread submitting QD/T at once) has passed before the window.
          const sim::SimDuration entry = writes && a.device.write_entry_ns > 0 ? a.device.write_entry_ns
                                                                               : a.device.entry_ns;
          a.warmup_ns += 3 * static_cast<sim::SimDuration>(threads[ti]) * qd * entry / a.device.channels;
          auto fn = sweep.Step(1);
          const vecio::AsyncOutcome o = vecio::RunAsync(a, ctx.seed());
          sweep.Done();
          if (!fn(1)) return Status::Cancelled("cancelled");
          at(writes, multi, qi, ti) = Point{o.iops, o.iops_per_core, o.cores_busy};
          s.points.emplace_back(threads[ti], o.iops);
        }
        r.series.push_back(s);
      }
    }
  }

  // Fig 7.5: IOPS per busy core against QD/T at the most threads.
  const size_t tl = threads.size() - 1;
  const std::string eff_x = "QD/T at " + std::to_string(t_max) + " threads (multi: width QD/T ÷ 2)";
  for (bool writes : {false, true}) {
    for (bool multi : {false, true}) {
      Series s{std::string(writes ? "write" : "read") + (multi ? ", multi" : ", single"), "measured", eff_x,
               "IOPS per busy core", {}};
      for (size_t qi = 0; qi < QdPerThread().size(); ++qi) {
        s.points.emplace_back(QdPerThread()[qi], at(writes, multi, qi, tl).iops_per_core);
      }
      r.series.push_back(s);
    }
  }
  for (bool writes : {false, true}) {
    Series s{std::string(writes ? "write" : "read") + ": multi ÷ single", "measured", eff_x,
             "IOPS per core, multi ÷ single", {}};
    for (size_t qi = 0; qi < QdPerThread().size(); ++qi) {
      s.points.emplace_back(QdPerThread()[qi],
                            at(writes, true, qi, tl).iops_per_core / at(writes, false, qi, tl).iops_per_core);
    }
    r.series.push_back(s);
  }

  // Metrics.
  double read_single_peak = 0, read_multi_peak = 0;
  for (size_t qi = 0; qi < QdPerThread().size(); ++qi) {
    for (size_t ti = 0; ti < threads.size(); ++ti) {
      read_single_peak = std::max(read_single_peak, at(false, false, qi, ti).iops);
      read_multi_peak = std::max(read_multi_peak, at(false, true, qi, ti).iops);
    }
  }
  const size_t q16 = 1, q64 = 2;
  int threads_to_peak = t_max;
  for (size_t ti = threads.size(); ti-- > 0;) {
    if (at(false, true, q64, ti).iops >= 0.9 * read_multi_peak) threads_to_peak = threads[ti];
  }
  r.AddMetric("read_single_peak", read_single_peak);
  r.AddMetric("read_multi_peak", read_multi_peak);
  r.AddMetric("read_peak_ratio", read_single_peak / read_multi_peak);
  r.AddMetric("read_one_thread_qd64_multi", at(false, true, q64, 0).iops);
  r.AddMetric("threads_to_peak", threads_to_peak);
  r.AddMetric("write_single_qd16", at(true, false, q16, tl).iops);
  r.AddMetric("write_multi_qd16", at(true, true, q16, tl).iops);
  r.AddMetric("write_gain_qd16", r.Metric("write_multi_qd16") / r.Metric("write_single_qd16"));
  r.AddMetric("write_single_qd64", at(true, false, q64, tl).iops);
  r.AddMetric("write_multi_qd64", at(true, true, q64, tl).iops);
  for (bool writes : {false, true}) {
    const std::string op = writes ? "write" : "read";
    r.AddMetric(op + "_single_iops_per_core", at(writes, false, q64, tl).iops_per_core);
    r.AddMetric(op + "_multi_iops_per_core", at(writes, true, q64, tl).iops_per_core);
    r.AddMetric(op + "_single_cores_busy", at(writes, false, q64, tl).cores_busy);
    r.AddMetric(op + "_multi_cores_busy", at(writes, true, q64, tl).cores_busy);
  }
  r.AddMetric("efficiency_gain", r.Metric("read_multi_iops_per_core") / r.Metric("read_single_iops_per_core"));
  r.AddMetric("write_efficiency_gain", r.Metric("write_multi_iops_per_core") / r.Metric("write_single_iops_per_core"));

  // The paper's quoted points.
  r.series.push_back(Series{"paper: ~1.8M device peak, from 4 threads (§7.2, §7.3.1)", "paper", "threads",
                            "512 B read IOPS", {{4, 1.8e6}, {static_cast<double>(std::max(t_max, 4)), 1.8e6}}});
  r.series.push_back(Series{"paper: QD 16 single 0.9–1M, multi ~1.2M (Fig 7.4)", "paper", "threads", "512 B write IOPS",
                            {{static_cast<double>(t_max), 0.9e6}, {static_cast<double>(t_max), 1.0e6},
                             {static_cast<double>(t_max), 1.2e6}}});
  r.series.push_back(Series{"paper: multi 2–3× single at high widths (Fig 7.5)", "paper", eff_x,
                            "IOPS per core, multi ÷ single", {{64, 2}, {64, 3}}});

  // Anchors, where the sweep holds the paper's setting (many threads on 8 cores).
  if (t_max >= 16) {
    const std::string dma =
        "emerges: 4 DMA channels × 1 / 2.26 µs per entry (the per-entry time is the Fig 7.7 latency fit, not fitted to "
        "the peak); the host's per-I/O cost leaves single reads short of the 8 cores";
    r.AddAnchor("read_single_peak", 1.8e6, {true, 0.1},
                Emergent("vector thesis §7.2 / Fig 7.2: 1.8M IOPS device peak; §7.3.1: reads are DMA-limited", dma));
    r.AddAnchor("read_multi_peak", 1.8e6, {true, 0.1},
                Emergent("vector thesis §7.2 / Fig 7.2: 1.8M IOPS device peak", dma));
    r.AddAnchor("read_peak_ratio", 1.0, {true, 0.05},
                Emergent("vector thesis §7.3.1 / Fig 7.3: single and multi reads similar (DMA-limited)",
                         "both modes fill the same four channels; the host's ~3.5 core-µs per single read fits in 8 "
                         "cores at 1.77M"));
    r.AddAnchor("threads_to_peak", 4, {false, 0},
                Emergent("vector thesis §7.3.1: peak throughput requires at least 4 threads (one DMA channel each)",
                         "thread i is bound to channel i mod 4, so fewer threads leave channels idle"));
    const std::string wfit =
        "the device's write costs (1.0 µs per write command, 3.21 µs per write entry on the DMA channel) are the "
        "solution of single = 4 / (c + e) = 0.95M and multi (w = 8) = 4 / (c / 8 + e) = 1.2M";
    r.AddAnchor("write_single_qd16", 0.95e6, {false, 0.05e6},
                Fitted("vector thesis §7.3.1 / Fig 7.4: QD 16 single writes between 900K and 1M", wfit));
    r.AddAnchor("write_multi_qd16", 1.2e6, {true, 0.05},
                Fitted("vector thesis §7.3.1 / Fig 7.4: QD 16 multiwrite ~1.2M", wfit));
    r.AddAnchor("efficiency_gain", 2.5, {false, 0.5},
                Fitted("vector thesis §7.3.1 / Fig 7.5: multi-I/O 2-3× the IOPS per core at high widths",
                       "the split of the host's per-I/O time into per-command (submit 0.6 + interrupt 1.2 + wake-up "
                       "0.5 µs) and per-entry (1.2 µs) parts was chosen so width 32 gives ~2.75×"));
    r.AddAnchor("write_efficiency_gain", 2.5, {false, 0.5},
                Emergent("vector thesis §7.3.1 / Fig 7.5: multiwrite 2-3× the IOPS per core",
                         "writes charge the host the same events as reads (their extra cost is on the device), so "
                         "nothing was fitted to the write efficiency"));
  }
  r.notes.push_back(device::FindNvmProfile("nvm-4ch")->source);
  r.notes.push_back(
      "Thread counts and QD/T values are not stated in the sources (digest §7 gap 1): the lab sweeps 1-" +
      std::to_string(t_max) + " threads and QD/T 4, 16, 64 (widths 2, 8, 32). Peaks are the best point of the sweep; "
      "write_*_qd16 and the efficiencies are at " + std::to_string(t_max) + " threads (efficiency at QD/T 64).");
  r.notes.push_back("IOPS per core = IOPS ÷ host cores busy (core time charged ÷ window), as the thesis divides by "
                    "the /proc/stat utilisation.");
  return r;
}

}  // namespace

Experiment MakeVectorDevice() {
  Experiment e;
  e.info.id = "vector.device";
  e.info.lab = "vector";
  e.info.title = "Single against vector I/O on the NVM device";
  e.info.summary =
      "Threads keep QD/T random 512 B reads or writes in flight on the 4-channel NVM, one command and one interrupt per "
      "I/O against vectors of QD/T ÷ 2. Reads fill the DMA channels either way (~1.8M); writes gain ~20% at QD 16; "
      "each busy core delivers 2-3× the IOPS with vectors.";
  e.info.reference = "Vector thesis §7.3.1, Figs 7.3-7.5 (SoCC'12 §4.1, Figs 4-6)";
  e.info.params = {
      ParamSpec::Int("max_threads", 32, 1, 64, "threads", "Threads swept in powers of two up to this (each on DMA "
                                                           "channel i mod 4)."),
      ParamSpec::Int("cores", 8, 1, 64, "cores", "Host cores (the thesis's Xeon has 8)."),
      ParamSpec::Real("submit_us", 0.6, 0, 100, "µs", "Host time per command submitted (the doorbell)."),
      ParamSpec::Real("entry_us", 1.2, 0, 100, "µs",
                      "Host time per I/O: its I/O structure, the submission-queue append, reaping its completion."),
      ParamSpec::Real("irq_us", 1.2, 0, 100, "µs", "Host time per completion interrupt (one per command)."),
      ParamSpec::Real("wakeup_us", 0.5, 0, 100, "µs", "Host time waking the thread per completion."),
      ParamSpec::Real("write_command_us", 1.0, 0, 100, "µs", "DMA-channel time once per command holding writes."),
      ParamSpec::Real("write_entry_us", 3.21, 0, 100, "µs", "DMA-channel time per 512 B write (0: a read's 2.26 µs)."),
      ParamSpec::Real("warmup_us", 200, 0, 100000, "µs",
                      "Virtual time before each point's window, plus 3 turnovers of its outstanding I/Os."),
      ParamSpec::Real("measure_us", 2000, 100, 1000000, "µs", "Each point's measured window of virtual time."),
  };
  e.run = Run;
  return e;
}

}  // namespace fawnlab
