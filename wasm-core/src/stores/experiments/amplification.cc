// stores.amplification (issue 17): write amplification of every store at the store (bytes it
// wrote to its files per user byte put) and at the FTL (NAND bytes programmed per byte the
// host wrote to the flash device), against the fill: each store on its own machine sized for
// `records` (25M × scale) is loaded in order, checkpoints at each quarter, then `updates`
// (a fraction of the records) YCSB-A-style zipfian updates rewrite records in place of new
// ones (what makes FAWN-DS compact and the LSM and SILT merge away old versions).
// <store>_store_wa and <store>_ftl_wa are at the end of the load (the default fill);
// <store>_store_wa_updated after the updates.
//
// Anchors, EMERGENT (nothing is fitted to them):
//  - fawnds_store_wa = 1: FAWN-DS appends each put to its log once (FAWN SOSP'09 §3.2);
//  - cona_store_wa = the levels a load of N entries passes: a put is written into level 1 when
//    its buffer is induced and once more by every merge into the levels below (COLA, Bender et
//    al. SPAA'07; CONA thesis §3.1.1): 1 + log2(N / B) with B the buffer's entries;
//  - <store>_ftl_wa = 1 for the stores that only append whole files (CONA, SILT, the LSM,
//    FAWN-DS): the device (240 GB × scale) is mostly empty as the thesis's was, so the FTL never
//    has to move live pages.
#include <cmath>
#include <string>
#include <vector>

#include "registry/experiments.h"
#include "sim/det_math.h"
#include "stores/experiments/common.h"
#include "device/flash_device.h"
#include "stores/factory.h"

namespace fawnlab {
namespace {

using stores_exp::Div;
using stores_exp::Fmt;
using stores_exp::MetricId;

using stores_exp::Kinds;  // CONA, SILT, the LSM, FAWN-DS, the B+tree

StatusOr<Result> Run(const ParamValues& p, RunContext& ctx) {
  const uint64_t n = stores_exp::RecordsFor(p);
  const double update_frac = p.Real("updates");
  Result r;
  std::vector<std::pair<std::string, std::string>> skipped;
  std::string describe;
  for (size_t i = 0; i < Kinds().size(); ++i) {
    const std::string kind = Kinds()[i];
    const double p0 = static_cast<double>(i) / static_cast<double>(Kinds().size());
    auto m = stores_exp::Machine::Create(stores_exp::ConfigFor(p, kind, "laptop"));
    if (stores_exp::NotBuilt(m.status())) {
      skipped.emplace_back(kind, m.status().message());
      continue;
    }
    if (!m.ok()) return m.status();
    if (describe.empty()) describe = m.value()->Describe();
    Series sw{stores_exp::LabelOf(kind) + ": store", "measured", "records loaded (fraction of the load)", "write amplification", {}};
    Series fw{stores_exp::LabelOf(kind) + ": FTL", "measured", sw.x_label, sw.y_label, {}};
    uint64_t have = 0;
    stores_exp::Checkpoint c;
    for (int q = 1; q <= 4; ++q) {
      const uint64_t to = n * static_cast<uint64_t>(q) / 4;
      if (Status st = stores_exp::PutRecords(m.value().get(), have, to); !st.ok()) return stores_exp::Prefixed(kind + ": ", st);
      have = to;
      c = stores_exp::Measure(m.value().get(), to);
      sw.points.emplace_back(q / 4.0, c.store_wa);
      fw.points.emplace_back(q / 4.0, c.ftl_wa);
    }
    const std::string id = MetricId(kind);
    r.AddMetric(id + "_store_wa", c.store_wa);
    r.AddMetric(id + "_ftl_wa", c.ftl_wa);
    if (device::FlashDevice* f = m.value()->flash()) {
      // How hard the FTL had to work: the host bytes written over the device's capacity, and
      // the live pages its collector moved.
      r.AddMetric(id + "_device_writes_x",
                  Div(static_cast<double>(f->counters().host_write_bytes), static_cast<double>(f->info().capacity_bytes)));
      r.AddMetric(id + "_gc_moves", static_cast<double>(f->counters().gc_moves));
    }
    if (update_frac > 0) {
      const uint64_t updates = static_cast<uint64_t>(static_cast<double>(n) * update_frac);
      if (Status st = stores_exp::UpdateRecords(m.value().get(), n, updates, ctx.seed()); !st.ok()) {
        return stores_exp::Prefixed(kind + ": ", st);
      }
      const stores_exp::Checkpoint u = stores_exp::Measure(m.value().get(), n);
      r.AddMetric(id + "_store_wa_updated", u.store_wa);
      r.AddMetric(id + "_ftl_wa_updated", u.ftl_wa);
      sw.points.emplace_back(1 + update_frac, u.store_wa);
      fw.points.emplace_back(1 + update_frac, u.ftl_wa);
    }
    r.series.push_back(sw);
    r.series.push_back(fw);
    if (!ctx.Progress(p0 + 1.0 / static_cast<double>(Kinds().size()))) return Status::Cancelled("cancelled");
  }
  if (r.metrics.empty()) return Status::Unavailable(stores_exp::SkippedNote(skipped));
  auto has = [&](const std::string& m) {
    for (const auto& [name, v] : r.metrics) {
      if (name == m) return true;
    }
    return false;
  };
  if (has("fawnds_store_wa")) {
    r.AddAnchor("fawnds_store_wa", 1, {true, 0.1},
                Emergent("FAWN SOSP'09 §3.2: FAWN-DS appends every put to its data log (log-structured, no in-place writes)",
                         "the store writes each record once, at the log's tail; nothing fitted",
                         "its index image or a compaction wrote besides the log"));
  }
  if (has("cona_store_wa")) {
    stores::StoreParams sp;
    const double entries_per_buffer = Div(sp.cona_buffer_kb * 1024.0, sp.key_bytes + sp.value_bytes);
    const double levels = 1 + sim::det::Log(std::max(1.0, Div(static_cast<double>(n), entries_per_buffer))) / sim::det::Log(2);
    r.AddMetric("cona_levels_theory", levels);
    r.AddAnchor("cona_store_wa", levels, {true, 0.35},
                Emergent("COLA analysis (Bender et al. SPAA'07; CONA thesis §3.1.1): an entry is written once per level it "
                         "passes, 1 + log2(N / B) for N entries and B per buffer",
                         "the store's real induces and merges, each writing its cell to the file; nothing fitted",
                         "a load stops between merges: the entries of the cells not yet merged down have passed fewer "
                         "levels, and the buffers' and manifests' images add bytes"));
  }
  for (const char* kind : {"cona", "silt", "lsm", "fawnds"}) {
    const std::string m = std::string(kind) + "_ftl_wa";
    if (!has(m)) continue;
    const std::string id = kind;
    r.AddAnchor(m, 1, {true, 0.15},
                Emergent("the thesis's setting (§3.2): 5.5 GB of data on a 240 GB M500, mostly empty",
                         "the store writes whole files sequentially and trims or reuses them; the page-mapped FTL finds "
                         "free blocks without moving live pages; nothing fitted",
                         "the store wrote " + Fmt(r.Metric(id + "_device_writes_x")) + "× the device's capacity and the "
                         "collector moved " + Fmt(r.Metric(id + "_gc_moves")) + " live pages: " +
                             (r.Metric(id + "_gc_moves") > 0
                                  ? "space the store freed without a TRIM still looks live to the FTL, which copies it "
                                    "when it collects"
                                  : "the extra NAND bytes are whole pages programmed for writes smaller than a page (a "
                                    "log's records, a file's last block)")));
  }
  r.scale_factor = 1 / p.Real("scale");
  r.scale_note = std::to_string(n) + " records (the thesis: 25M) put in order into each store, then " +
                 Fmt(update_frac * 100) + "% of that many zipfian updates: " + describe;
  r.notes.push_back("store WA = bytes the store wrote to its files (logs, WAL, tables, merges, compactions, index images, "
                    "manifests) / key + value bytes put; FTL WA = NAND bytes programmed / bytes the host wrote to "
                    "the device.");
  r.notes.push_back("The B+tree writes whole 4 KB pages for 220-B records as the page cache writes them back: its store WA "
                    "is pages written × 4 KB / bytes put.");
  stores_exp::CloseNotes(&r, skipped);
  return r;
}

}  // namespace

Experiment MakeStoresAmplification() {
  Experiment e;
  e.info.id = "stores.amplification";
  e.info.lab = "stores";
  e.info.title = "Write amplification, at the store and at the FTL";
  e.info.summary =
      "Loads each store on its own emulated M500 and measures how many bytes it writes per byte put (CONA's merges, "
      "SILT's conversions and merges, the LSM's compactions, FAWN-DS's log, the B+tree's pages) and how many the "
      "flash programs per byte written, against the fill, then under updates.";
  e.info.reference = "CONA thesis §3.1.1 (COLA), §2.2 (SILT's merges); FAWN SOSP'09 §3.2";
  e.info.params = stores_exp::MachineParams(0.0004);
  e.info.params.push_back(ParamSpec::Real("updates", 0.5, 0, 2, "× records",
                                          "After the load: this many zipfian updates per record loaded (0: none)."));
  e.run = Run;
  return e;
}

}  // namespace fawnlab
