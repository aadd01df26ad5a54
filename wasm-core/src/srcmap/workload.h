// The block workload SRCMap runs on: requests (time, volume, read or write, byte range), a
// stream interface, and a generator calibrated to the statistics the thesis gives of its
// traces (§3.3, Tables 3.1 and 3.2, Observations 1-4; docs/srcmap/system.md, Workload).
//
// The generator's model, per volume and day (every constant is a choice unless it names the
// thesis; docs/decisions.md, SRCMap: workload):
//  - intensity: Poisson arrivals at avg_iops × m(minute), m a per-minute envelope: diurnal
//    triangle × log-normal AR(1) noise, raised to a power fitted so that the day's mean is the
//    volume's average IOPS and its largest minute is its Max IOPS (Table 3.2, "Max IOPS" read
//    as the busiest one-minute bin), broken by idle spells: OFF periods of near-silence (the
//    rate × idle_floor) with heavy-tailed (Pareto) lengths, started mostly at night (Obs 2's
//    orders of magnitude between the quietest and busiest periods; the ON minutes carry the
//    day's mean);
//  - mix: a fraction of requests are writes (Table 3.1's write share of bytes for the class);
//    sizes 4-64 KB, aligned, inside one extent (the tracking unit, 64 KB by default); 30% of
//    requests continue where the volume's previous request of their type ended (sequential
//    runs, when the extent has room);
//  - reads pick uniformly from the day's read pool: a hot core read every day, a warm set each
//    extent of which recurs every k days (k uniform in 1..H, H the class's saturation window of
//    Fig 3.2, so H days of history hold it all), the last week's drift (read daily), and
//    today's drift: new extents that become popular at a random "shift" time of the day and are
//    first read in one sequential burst then (the working-set change that one spin-up serves,
//    §3.5.5); plus reads of today's freshly written extents and rare cold reads anywhere;
//  - writes rewrite a hot write set, or write today's new extents.
// Pool sizes follow Table 3.1's weekly unique footprint for the class, capped by what the
// volume's request count can touch (reads re-touched at least 2.1x, writes 13x a week, and at
// least 5 expected reads per pool extent on a day it is in the pool).
//
// TouchedOnDay draws the set of extents a day's requests touch without generating them: under
// the model, extent e's accesses in a day are Poisson with mean Λ_e, so "touched" is a
// Bernoulli(1 − e^{−Λ_e}) draw per extent (tested against the generated requests). The
// sampler uses it for the weeks of history the working sets come from.
// Deterministic: one seed gives the same requests byte for byte.
#ifndef FAWNLAB_SRCMAP_WORKLOAD_H_
#define FAWNLAB_SRCMAP_WORKLOAD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/time.h"

namespace fawnlab::srcmap {

constexpr int64_t kDayNs = int64_t{86400} * 1000000000;
constexpr uint32_t kBlockBytes = 4096;  // §3.7.3: the map's 2^12-byte blocks

struct Request {
  int64_t t_ns = 0;   // arrival, virtual ns from the start of the trace
  uint32_t volume = 0;
  bool write = false;
  uint64_t offset = 0;  // bytes into the volume
  uint32_t bytes = 0;
};

// Requests in arrival order. Next returns false at the end.
class RequestSource {
 public:
  virtual ~RequestSource() = default;
  virtual bool Next(Request* r) = 0;
};

// A trace held in memory (imported, or a generated day kept for tests).
class VectorSource : public RequestSource {
 public:
  explicit VectorSource(const std::vector<Request>* reqs) : reqs_(reqs) {}
  bool Next(Request* r) override {
    if (i_ >= reqs_->size()) return false;
    *r = (*reqs_)[i_++];
    return true;
  }

 private:
  const std::vector<Request>* reqs_;
  size_t i_ = 0;
};

// Table 3.1's three characterisation workloads, the classes the evaluation volumes borrow.
enum class WorkloadClass { kMail, kHomes, kWebVm };
struct ClassStats {
  const char* name;
  double size_gb, reads_total_gb, reads_uniq_gb, writes_total_gb, writes_uniq_gb;  // Table 3.1, per week
  double accessed_pct;                                                              // Table 3.1
  double saturation_days;  // Fig 3.2 / §3.5.2: 20 (mail), 14 (homes), 5 (web-vm)
};
const ClassStats& ClassOf(WorkloadClass c);

struct VolumeWorkload {
  std::string name;
  uint64_t size_bytes = 0;
  double avg_iops = 0, max_iops = 0;
  WorkloadClass cls = WorkloadClass::kHomes;
};

struct WorkloadConfig {
  std::vector<VolumeWorkload> volumes;
  uint64_t seed = 1;
  double rate_scale = 1.0;        // multiplies every volume's intensity
  uint32_t extent_bytes = 65536;  // the tracking unit (docs/decisions.md)
  // The model's shape (choices, docs/decisions.md, SRCMap: workload).
  double hot_share = 0.3;          // of the weekly unique read set read every day
  double drift_share = 0.01;       // of the weekly unique sets that is new each day
  double cold_read_prob = 2e-6;    // a read goes anywhere in the volume
  double read_recent_prob = 0.05;  // a read goes to today's freshly written extents
  double new_write_prob = 0.1;     // a write goes to today's new extents
  double burst_gap_ms = 10;        // spacing of the shift burst's sequential reads
  double seq_prob = 0.3;           // a request continues where the volume's last one of its type ended
  double pool_min_reads = 5;       // expected reads per pool extent per day the pools are capped to (0: no cap)
  double noise_sigma = 1.0, noise_rho = 0.98, diurnal_amplitude = 0.6;
  // Idle spells (Obs 2; choices, docs/decisions.md): a Poisson number a day, each starting at a
  // minute drawn with weight 1 - diurnal (none at the daily peak), lasting Pareto(idle_min_minutes,
  // idle_alpha) minutes up to idle_max_minutes; inside, the rate is idle_floor × the average.
  // The spells take at most 1 - 1.25 × avg/max of the day, so the ON minutes can carry the mean
  // under Max IOPS. idle_spells_per_day = 0 turns them off.
  double idle_spells_per_day = 3, idle_min_minutes = 15, idle_alpha = 1.2, idle_max_minutes = 360;
  double idle_floor = 1e-5;
};

// Table 3.2's eight volumes D0-D7 (home-1..3 and svn-wiki as "homes", the web volumes as
// "web-vm": a choice).
WorkloadConfig EvaluationWorkload(uint64_t seed);
// Table 3.1's three volumes at their sizes, intensity from their weekly bytes; pools uncapped
// (Table 3.1's footprints: unique blocks are read about twice a week).
WorkloadConfig CharacterizationWorkload(uint64_t seed);

// The derived per-volume model (what the pools and rates came out as).
struct VolumeModel {
  uint64_t extents = 0;               // the volume's size in tracking units
  double write_prob = 0;              // of requests
  double reads_per_day = 0, writes_per_day = 0;
  uint64_t hot_reads = 0, warm_reads = 0, drift_reads = 0;  // extents
  double warm_p = 0;                  // a warm extent's mean chance to be read on a day
  int warm_period_max = 1;            // warm extents recur every 1..H days (H: Fig 3.2)
  uint64_t hot_writes = 0, new_writes = 0;                  // extents (new: per day)
};

class Generator {
 public:
  static StatusOr<std::unique_ptr<Generator>> Create(WorkloadConfig config);

  // Day `day`'s requests (any day >= 0), times from day × 24 h, in arrival order.
  std::unique_ptr<RequestSource> Day(int day) const;
  // Several consecutive days as one stream.
  std::unique_ptr<RequestSource> Days(int first, int count) const;

  // The extents volume `v`'s requests of day `day` touch, drawn per extent (sorted, unique).
  void TouchedOnDay(int v, int day, std::vector<uint64_t>* reads, std::vector<uint64_t>* writes) const;

  // The per-minute intensity multipliers (mean 1) of volume `v` on `day`.
  std::vector<double> Envelope(int v, int day) const;
  // The minutes of `day` inside volume `v`'s idle spells (1) or not (0).
  std::vector<uint8_t> IdleMinutes(int v, int day) const;
  // Volume `v`'s requests per minute of `day`, drawn as the stream draws them without generating
  // the requests: Poisson with the envelope's rate in each minute (the stream's arrivals are
  // Poisson with a rate constant within each minute), plus the shift burst's reads in their
  // minutes. Tested against the generated requests. Used for Obs 2 over weeks. `envelope`, if
  // given, receives Envelope(v, day) (computed once for both).
  std::vector<uint32_t> MinuteCounts(int v, int day, std::vector<double>* envelope = nullptr) const;

  const WorkloadConfig& config() const { return config_; }
  const VolumeModel& model(int v) const { return models_[v]; }
  int num_volumes() const { return static_cast<int>(models_.size()); }

  // Pool membership, for the stream (internal, public for the tests).
  uint64_t ExtentOf(int v, uint64_t tag, uint64_t i) const;
  bool WarmOn(int v, uint64_t i, int day) const;
  int64_t ShiftNs(int v, int day) const;  // when day `day`'s drift becomes popular
  // The day's read pool before the shift: hot, warm extents on that day, the last week's drift.
  void ReadPool(int v, int day, std::vector<uint64_t>* pool) const;

  // Tags of the pools.
  static constexpr uint64_t kHotR = 1, kWarmR = 2, kDriftR = 3, kHotW = 4, kNewW = 5;

 private:
  explicit Generator(WorkloadConfig c);
  WorkloadConfig config_;
  std::vector<VolumeModel> models_;
};

// Request sizes in blocks and their probabilities (choice: mean 3.1 blocks, 12.4 KB).
constexpr int kSizeBlocks[5] = {1, 2, 4, 8, 16};
constexpr double kSizeProb[5] = {0.5, 0.2, 0.15, 0.1, 0.05};

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_WORKLOAD_H_
