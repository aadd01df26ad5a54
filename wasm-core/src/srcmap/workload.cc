#include "srcmap/workload.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/det_math.h"
#include "sim/rng.h"

namespace fawnlab::srcmap {
namespace {

// Table 3.1 (weekly averages) and the saturation windows of Fig 3.2 (§3.5.2).
const ClassStats kClasses[] = {
    {"mail", 500, 62.00, 29.24, 482.10, 4.18, 6.27, 20},
    {"homes", 470, 5.79, 2.40, 148.86, 4.33, 1.44, 14},
    {"web-vm", 70, 3.40, 1.27, 11.46, 0.86, 2.8, 5},
};

constexpr double kMeanRequestBlocks = 0.5 * 1 + 0.2 * 2 + 0.15 * 4 + 0.1 * 8 + 0.05 * 16;  // 3.1
constexpr double kReadRetouch = 2.1;    // Table 3.1: reads re-touch their unique blocks 2.1-2.7x a week
constexpr double kWriteRetouch = 13.3;  // Table 3.1: writes rewrite theirs 13-115x a week
constexpr double kNewWriteShare = 0.05; // of the weekly unique write set that is new each day (choice)
constexpr int kDriftDays = 7;           // drift is read daily for a week after its shift (choice)

uint64_t Mix(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e = 0) {
  uint64_t s = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
  uint64_t h = sim::SplitMix64(&s);
  s ^= c * 0xD1B54A32D192ED03ull;
  h ^= sim::SplitMix64(&s);
  s ^= d * 0x8CB92BA72F3D8DD7ull + e;
  h ^= sim::SplitMix64(&s);
  return h;
}
double U01(uint64_t h) { return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0); }

// An approximately standard normal draw (Irwin-Hall, 12 uniforms): only + and *, so the same
// bits natively and in WebAssembly.
double Normal(sim::Rng& rng) {
  double s = 0;
  for (int i = 0; i < 12; ++i) s += rng.UniformDouble();
  return s - 6;
}

// A Poisson draw (det math only): multiplication of uniforms below 30, the normal
// approximation above (its error is far below the counts' own spread there).
uint32_t Poisson(sim::Rng& rng, double mean) {
  if (!(mean > 0)) return 0;
  if (mean < 30) {
    const double limit = sim::det::Exp(-mean);
    double p = rng.UniformDouble();
    uint32_t k = 0;
    while (p > limit) {
      p *= rng.UniformDouble();
      ++k;
    }
    return k;
  }
  double x = mean + std::sqrt(mean) * Normal(rng) + 0.5;
  return x < 0 ? 0 : static_cast<uint32_t>(x);
}

// The diurnal triangle at minute i: +1 at the peak (a little after noon, a choice), -1 twelve
// hours away.
double Diurnal(int i) {
  constexpr double kPhase = 0.55;
  double f = static_cast<double>(i) / 1440 - kPhase + 0.5;
  f -= std::floor(f);
  return 1 - 4 * std::fabs(f - 0.5);
}

int DrawSizeBlocks(sim::Rng& rng, int max_blocks) {
  double u = rng.UniformDouble();
  int b = kSizeBlocks[4];
  for (int i = 0; i < 5; ++i) {
    if (u < kSizeProb[i]) {
      b = kSizeBlocks[i];
      break;
    }
    u -= kSizeProb[i];
  }
  return std::min(b, max_blocks);
}

}  // namespace

const ClassStats& ClassOf(WorkloadClass c) { return kClasses[static_cast<int>(c)]; }

WorkloadConfig EvaluationWorkload(uint64_t seed) {
  WorkloadConfig c;
  c.seed = seed;
  const WorkloadClass kCls[8] = {WorkloadClass::kHomes, WorkloadClass::kWebVm, WorkloadClass::kWebVm,
                                 WorkloadClass::kWebVm, WorkloadClass::kWebVm, WorkloadClass::kHomes,
                                 WorkloadClass::kHomes, WorkloadClass::kHomes};
  // Table 3.2 (names, sizes, average and maximum IOPS); kept in step with profile.cc.
  const char* kNames[8] = {"home-1", "online", "webmail", "webresrc", "webusers", "svn-wiki", "home-2", "home-3"};
  const double kSize[8] = {270, 7.8, 7.8, 10, 10, 20, 170, 170};
  const double kAvg[8] = {8.17, 22.62, 25.35, 7.99, 18.75, 1.12, 0.86, 1.37};
  const double kMax[8] = {23, 82, 90, 59, 37, 4, 4, 12};
  for (int i = 0; i < 8; ++i) {
    c.volumes.push_back(VolumeWorkload{kNames[i], static_cast<uint64_t>(kSize[i] * 1e9), kAvg[i], kMax[i], kCls[i]});
  }
  return c;
}

WorkloadConfig CharacterizationWorkload(uint64_t seed) {
  WorkloadConfig c;
  c.seed = seed;
  c.pool_min_reads = 0;
  for (WorkloadClass k : {WorkloadClass::kMail, WorkloadClass::kHomes, WorkloadClass::kWebVm}) {
    const ClassStats& s = ClassOf(k);
    double bytes_week = (s.reads_total_gb + s.writes_total_gb) * 1e9;
    double iops = bytes_week / (7 * 86400.0) / (kMeanRequestBlocks * kBlockBytes);
    c.volumes.push_back(VolumeWorkload{s.name, static_cast<uint64_t>(s.size_gb * 1e9), iops, 10 * iops, k});
  }
  return c;
}

Generator::Generator(WorkloadConfig c) : config_(std::move(c)) {}

StatusOr<std::unique_ptr<Generator>> Generator::Create(WorkloadConfig c) {
  if (c.volumes.empty()) return Status::InvalidArgument("workload: no volumes");
  if (c.extent_bytes < kBlockBytes || c.extent_bytes % kBlockBytes != 0 || c.extent_bytes > (1u << 24)) {
    return Status::InvalidArgument("workload: extent_bytes must be a multiple of 4096 up to 16 MB");
  }
  if (!(c.rate_scale > 0)) return Status::InvalidArgument("workload: rate_scale must be positive");
  if (!(c.idle_spells_per_day >= 0) || !(c.idle_min_minutes > 0) || !(c.idle_alpha > 0) ||
      !(c.idle_max_minutes >= c.idle_min_minutes) || !(c.idle_floor >= 0 && c.idle_floor < 1)) {
    return Status::InvalidArgument(
        "workload: idle spells need spells_per_day >= 0, 0 < min_minutes <= max_minutes, alpha > 0, 0 <= floor < 1");
  }
  std::unique_ptr<Generator> g(new Generator(c));
  for (size_t v = 0; v < c.volumes.size(); ++v) {
    const VolumeWorkload& w = c.volumes[v];
    if (w.size_bytes < c.extent_bytes) {
      return Status::InvalidArgument("workload: volume '" + w.name + "' is smaller than one extent");
    }
    if (!(w.avg_iops > 0) || w.max_iops < w.avg_iops) {
      return Status::InvalidArgument("workload: volume '" + w.name + "' needs 0 < avg_iops <= max_iops");
    }
    const ClassStats& s = ClassOf(w.cls);
    VolumeModel m;
    m.extents = w.size_bytes / c.extent_bytes;
    m.write_prob = s.writes_total_gb / (s.writes_total_gb + s.reads_total_gb);
    double per_day = w.avg_iops * c.rate_scale * 86400.0;
    m.reads_per_day = per_day * (1 - m.write_prob);
    m.writes_per_day = per_day * m.write_prob;
    double eb = static_cast<double>(c.extent_bytes);
    double uniq_r = static_cast<double>(w.size_bytes) * s.reads_uniq_gb / s.size_gb / eb;
    double uniq_w = static_cast<double>(w.size_bytes) * s.writes_uniq_gb / s.size_gb / eb;
    uniq_r = std::max(1.0, std::min(uniq_r, 7 * m.reads_per_day / kReadRetouch));
    uniq_w = std::max(1.0, std::min(uniq_w, 7 * m.writes_per_day / kWriteRetouch));
    // Warm extents recur with periods of 1..H days (uniform), so a history of H days holds
    // them all: the hit ratio saturates at H (Fig 3.2).
    m.warm_period_max = std::max(1, static_cast<int>(s.saturation_days + 0.5));
    double on = 0, week = 0;
    for (int k = 1; k <= m.warm_period_max; ++k) {
      on += 1.0 / k;
      week += std::min(1.0, 7.0 / k);
    }
    m.warm_p = on / m.warm_period_max;
    double c7 = week / m.warm_period_max;
    double hot = std::max(1.0, c.hot_share * uniq_r);
    double drift = c.drift_share * uniq_r;
    double warm = std::max(0.0, (uniq_r - hot - 7.0 * drift) / c7);
    // A day's pool must be read densely enough that an extent on that day is read (>= 5
    // expected reads each): low-intensity volumes get smaller pools.
    double pool = hot + warm * m.warm_p + (kDriftDays + 1) * drift;
    double limit = m.reads_per_day * (1 - c.seq_prob) * (1 - c.cold_read_prob - c.read_recent_prob) /
                   std::max(c.pool_min_reads, 1e-9);
    if (c.pool_min_reads > 0 && pool > limit) {
      double f = limit / pool;
      hot *= f;
      warm *= f;
      drift *= f;
    }
    m.hot_reads = static_cast<uint64_t>(std::max(1.0, hot));
    m.warm_reads = static_cast<uint64_t>(warm);
    m.drift_reads = static_cast<uint64_t>(drift);
    m.new_writes = static_cast<uint64_t>(std::max(1.0, kNewWriteShare * uniq_w));
    m.hot_writes = static_cast<uint64_t>(std::max(1.0, uniq_w - 7.0 * static_cast<double>(m.new_writes)));
    g->models_.push_back(m);
  }
  return g;
}

uint64_t Generator::ExtentOf(int v, uint64_t tag, uint64_t i) const {
  return Mix(config_.seed, static_cast<uint64_t>(v) + 1, tag, i) % models_[v].extents;
}

bool Generator::WarmOn(int v, uint64_t i, int day) const {
  uint64_t h = Mix(config_.seed, static_cast<uint64_t>(v) + 1, 0x100 | kWarmR, i);
  uint64_t k = 1 + h % static_cast<uint64_t>(models_[v].warm_period_max);  // period, days
  uint64_t phase = (h >> 32) % k;
  return (static_cast<uint64_t>(day) + k - phase) % k == 0;
}

int64_t Generator::ShiftNs(int v, int day) const {
  double u = U01(Mix(config_.seed, static_cast<uint64_t>(v) + 1, 0x200 | kDriftR, static_cast<uint64_t>(day) + 1));
  return static_cast<int64_t>(u * 0.9 * static_cast<double>(kDayNs));
}

std::vector<uint8_t> Generator::IdleMinutes(int v, int day) const {
  const WorkloadConfig& c = config_;
  constexpr int kMin = 1440;
  std::vector<uint8_t> off(kMin, 0);
  const VolumeWorkload& w = c.volumes[v];
  // The ON minutes must carry the day's mean under the busiest minute: at least 1.25 × avg/max
  // of the day stays ON.
  const double target = w.max_iops / w.avg_iops;
  const int cap = static_cast<int>(kMin * (1 - 1.25 / target));
  if (c.idle_spells_per_day <= 0 || cap <= 0) return off;
  sim::Rng rng = sim::Rng::ForStream(c.seed, Mix(static_cast<uint64_t>(v) + 1, static_cast<uint64_t>(day) + 1, 79, 0));
  int n_off = 0;
  for (double t = rng.Exponential(1.0); t < c.idle_spells_per_day && n_off < cap; t += rng.Exponential(1.0)) {
    int start = 0;
    for (int tries = 0; tries < 64; ++tries) {  // weight 1 - diurnal: mostly at night
      start = static_cast<int>(rng.UniformU64(kMin));
      if (rng.UniformDouble() * 2 < 1 - Diurnal(start)) break;
    }
    const double len = std::min(c.idle_max_minutes, rng.Pareto(c.idle_min_minutes, c.idle_alpha));
    for (int i = start; i < kMin && i < start + static_cast<int>(len + 0.5) && n_off < cap; ++i) {
      n_off += off[static_cast<size_t>(i)] == 0;
      off[static_cast<size_t>(i)] = 1;
    }
  }
  return off;
}

std::vector<double> Generator::Envelope(int v, int day) const {
  const WorkloadConfig& c = config_;
  sim::Rng rng = sim::Rng::ForStream(c.seed, Mix(static_cast<uint64_t>(v) + 1, static_cast<uint64_t>(day) + 1, 77, 0));
  constexpr int kMin = 1440;
  std::vector<double> lb(kMin);
  double x = Normal(rng);
  double k = sim::det::Pow(1 - c.noise_rho * c.noise_rho, 0.5);
  for (int i = 0; i < kMin; ++i) {
    x = c.noise_rho * x + k * Normal(rng);
    lb[i] = sim::det::Log(1 + c.diurnal_amplitude * Diurnal(i)) + c.noise_sigma * x;
  }
  const VolumeWorkload& w = c.volumes[v];
  double target = w.max_iops / w.avg_iops;
  std::vector<double> m(kMin, 1.0);
  if (target <= 1.0) return m;
  const std::vector<uint8_t> off = IdleMinutes(v, day);
  int n_off = 0;
  double mx = -1e300;
  for (int i = 0; i < kMin; ++i) {
    if (off[static_cast<size_t>(i)]) {
      ++n_off;
    } else {
      mx = std::max(mx, lb[i]);
    }
  }
  const double floor = c.idle_floor;
  // ON minutes: exp(g (lb - max)) scaled so that the day's mean is 1; the scale is the largest
  // multiplier. OFF minutes: the floor.
  auto shape = [&](double g) {
    double sum = 0;
    for (int i = 0; i < kMin; ++i) {
      m[i] = off[static_cast<size_t>(i)] ? 0 : sim::det::Exp(g * (lb[i] - mx));
      sum += m[i];
    }
    const double s = (kMin - n_off * floor) / sum;
    for (int i = 0; i < kMin; ++i) m[i] = off[static_cast<size_t>(i)] ? floor : m[i] * s;
    return s;
  };
  double lo = 0, hi = 10;
  for (int it = 0; it < 40; ++it) {
    double mid = 0.5 * (lo + hi);
    if (shape(mid) < target) lo = mid; else hi = mid;
  }
  shape(lo);
  return m;
}

std::vector<uint32_t> Generator::MinuteCounts(int v, int day, std::vector<double>* envelope) const {
  const WorkloadConfig& c = config_;
  std::vector<double> env = Envelope(v, day);
  sim::Rng rng = sim::Rng::ForStream(c.seed, Mix(static_cast<uint64_t>(v) + 1, static_cast<uint64_t>(day) + 1, 83, 0));
  const double per_min = c.volumes[v].avg_iops * c.rate_scale * 60;
  std::vector<uint32_t> n(env.size());
  for (size_t i = 0; i < env.size(); ++i) n[i] = Poisson(rng, per_min * env[i]);
  const int64_t shift = ShiftNs(v, day), gap = static_cast<int64_t>(c.burst_gap_ms * 1e6);
  constexpr int64_t kMinNs = int64_t{60} * 1000000000;
  for (uint64_t i = 0; i < models_[v].drift_reads; ++i) {
    const int64_t t = shift + static_cast<int64_t>(i) * gap;
    if (t >= kDayNs) break;
    ++n[static_cast<size_t>(t / kMinNs)];
  }
  if (envelope) *envelope = std::move(env);
  return n;
}

void Generator::ReadPool(int v, int day, std::vector<uint64_t>* pool) const {
  const VolumeModel& m = models_[v];
  pool->clear();
  for (uint64_t i = 0; i < m.hot_reads; ++i) pool->push_back(ExtentOf(v, kHotR, i));
  for (uint64_t i = 0; i < m.warm_reads; ++i) {
    if (WarmOn(v, i, day)) pool->push_back(ExtentOf(v, kWarmR, i));
  }
  for (int d = std::max(0, day - kDriftDays); d < day; ++d) {  // the last week's drift, warm now
    for (uint64_t i = 0; i < m.drift_reads; ++i) {
      uint64_t idx = static_cast<uint64_t>(d) * m.drift_reads + i;
      pool->push_back(ExtentOf(v, kDriftR, idx));
    }
  }
}

void Generator::TouchedOnDay(int v, int day, std::vector<uint64_t>* reads, std::vector<uint64_t>* writes) const {
  const VolumeModel& m = models_[v];
  const WorkloadConfig& c = config_;
  reads->clear();
  writes->clear();
  sim::Rng rng = sim::Rng::ForStream(c.seed, Mix(static_cast<uint64_t>(v) + 1, static_cast<uint64_t>(day) + 1, 91, 0));
  std::vector<uint64_t> pool;
  ReadPool(v, day, &pool);
  // Sequential continuations re-use an extent: only the other requests pick one.
  const double fresh = 1 - c.seq_prob;
  double pooled = m.reads_per_day * fresh * (1 - c.cold_read_prob - c.read_recent_prob);
  size_t all = pool.size() + m.drift_reads;
  double lambda = all ? pooled / static_cast<double>(all) : 0;
  double p_read = 1 - sim::det::Exp(-lambda);
  for (uint64_t e : pool) {
    if (rng.Bernoulli(p_read)) reads->push_back(e);
  }
  for (uint64_t i = 0; i < m.drift_reads; ++i) {  // today's drift: read in the shift burst
    reads->push_back(ExtentOf(v, kDriftR, static_cast<uint64_t>(day) * m.drift_reads + i));
  }
  double cold_mean = m.reads_per_day * fresh * c.cold_read_prob;  // Poisson count of cold reads
  for (double t = rng.Exponential(1.0); t < cold_mean; t += rng.Exponential(1.0)) {
    reads->push_back(rng.UniformU64(m.extents));
  }
  double p_hot_w = 1 - sim::det::Exp(-m.writes_per_day * fresh * (1 - c.new_write_prob) / static_cast<double>(m.hot_writes));
  double p_new_w = 1 - sim::det::Exp(-m.writes_per_day * fresh * c.new_write_prob / static_cast<double>(m.new_writes));
  for (uint64_t i = 0; i < m.hot_writes; ++i) {
    if (rng.Bernoulli(p_hot_w)) writes->push_back(ExtentOf(v, kHotW, i));
  }
  for (uint64_t i = 0; i < m.new_writes; ++i) {
    if (rng.Bernoulli(p_new_w)) writes->push_back(ExtentOf(v, kNewW, static_cast<uint64_t>(day) * m.new_writes + i));
  }
  for (auto* s : {reads, writes}) {
    std::sort(s->begin(), s->end());
    s->erase(std::unique(s->begin(), s->end()), s->end());
  }
}

namespace {

// One volume's requests of one day, in arrival order.
class VolumeStream {
 public:
  VolumeStream(const Generator* g, int v, int day) : g_(g), v_(v), day_(day) {
    const VolumeModel& m = g->model(v);
    const WorkloadConfig& c = g->config();
    rng_ = sim::Rng::ForStream(c.seed, Mix(static_cast<uint64_t>(v) + 1, static_cast<uint64_t>(day) + 1, 55, 0));
    env_ = g->Envelope(v, day);
    rate_ = c.volumes[v].avg_iops * c.rate_scale;
    blocks_per_extent_ = static_cast<int>(c.extent_bytes / kBlockBytes);
    g->ReadPool(v, day, &pool_);
    for (uint64_t i = 0; i < m.hot_writes; ++i) hot_w_.push_back(g->ExtentOf(v, Generator::kHotW, i));
    for (uint64_t i = 0; i < m.new_writes; ++i) {
      new_w_.push_back(g->ExtentOf(v, Generator::kNewW, static_cast<uint64_t>(day) * m.new_writes + i));
    }
    before_shift_ = pool_.size();
    for (uint64_t i = 0; i < m.drift_reads; ++i) {
      burst_.push_back(g->ExtentOf(v, Generator::kDriftR, static_cast<uint64_t>(day) * m.drift_reads + i));
    }
    std::sort(burst_.begin(), burst_.end());  // a sequential scan
    pool_.insert(pool_.end(), burst_.begin(), burst_.end());
    shift_ns_ = g->ShiftNs(v, day);
    burst_gap_ns_ = static_cast<int64_t>(c.burst_gap_ms * 1e6);
    t_ns_ = 0;
    AdvancePoisson();
  }

  int64_t next_ns() const { return std::min(poisson_ns_, BurstNs()); }
  bool done() const { return next_ns() >= kDayNs; }

  void Emit(Request* r) {
    const VolumeModel& m = g_->model(v_);
    const WorkloadConfig& c = g_->config();
    int64_t base = static_cast<int64_t>(day_) * kDayNs;
    r->volume = static_cast<uint32_t>(v_);
    if (BurstNs() <= poisson_ns_) {
      r->t_ns = base + BurstNs();
      r->write = false;
      r->offset = burst_[burst_i_++] * c.extent_bytes;
      r->bytes = c.extent_bytes;
      return;
    }
    r->t_ns = base + poisson_ns_;
    uint64_t extent;
    if (rng_.Bernoulli(m.write_prob)) {
      r->write = true;
      if (rng_.Bernoulli(c.new_write_prob)) {
        extent = new_w_[rng_.UniformU64(m.new_writes)];
      } else {
        extent = hot_w_[rng_.UniformU64(m.hot_writes)];
      }
      recent_[recent_n_++ % kRecent] = extent;
    } else {
      r->write = false;
      double u = rng_.UniformDouble();
      size_t live = poisson_ns_ >= shift_ns_ ? pool_.size() : before_shift_;
      if (u < c.cold_read_prob || live == 0) {
        extent = rng_.UniformU64(m.extents);
      } else if (u < c.cold_read_prob + c.read_recent_prob && recent_n_ > 0) {
        extent = recent_[rng_.UniformU64(std::min<uint64_t>(recent_n_, kRecent))];
      } else {
        extent = pool_[rng_.UniformU64(live)];
      }
    }
    int blocks = DrawSizeBlocks(rng_, blocks_per_extent_);
    uint64_t& last_end = r->write ? last_write_end_ : last_read_end_;
    uint64_t bytes = static_cast<uint64_t>(blocks) * kBlockBytes;
    bool seq = rng_.Bernoulli(c.seq_prob) && last_end != UINT64_MAX && last_end % c.extent_bytes != 0 &&
               last_end % c.extent_bytes + bytes <= c.extent_bytes;
    if (seq) {
      r->offset = last_end;
    } else {
      uint64_t slot = rng_.UniformU64(static_cast<uint64_t>(blocks_per_extent_ / blocks));
      r->offset = extent * c.extent_bytes + slot * bytes;
    }
    r->bytes = static_cast<uint32_t>(bytes);
    last_end = r->offset + bytes;
    AdvancePoisson();
  }

 private:
  static constexpr uint64_t kRecent = 256;
  int64_t BurstNs() const {
    return burst_i_ < burst_.size() ? shift_ns_ + static_cast<int64_t>(burst_i_) * burst_gap_ns_ : INT64_MAX;
  }
  // The next Poisson arrival after t_ns_ with a rate constant within each minute (exact by
  // memorylessness: a gap crossing a minute's end restarts at that end).
  void AdvancePoisson() {
    constexpr int64_t kMinNs = int64_t{60} * 1000000000;
    while (true) {
      int64_t minute = t_ns_ / kMinNs;
      if (minute >= 1440) {
        poisson_ns_ = INT64_MAX;
        return;
      }
      double r = rate_ * env_[static_cast<size_t>(minute)];
      int64_t end = (minute + 1) * kMinNs;
      if (r > 0) {
        double gap = rng_.Exponential(1.0) / r * 1e9;
        if (static_cast<double>(t_ns_) + gap < static_cast<double>(end)) {
          t_ns_ += std::max<int64_t>(1, static_cast<int64_t>(gap));
          poisson_ns_ = t_ns_;
          return;
        }
      }
      t_ns_ = end;
    }
  }

  const Generator* g_;
  int v_, day_;
  sim::Rng rng_{0};
  std::vector<double> env_;
  double rate_ = 0;
  int blocks_per_extent_ = 16;
  std::vector<uint64_t> pool_, burst_, hot_w_, new_w_;
  size_t before_shift_ = 0, burst_i_ = 0;
  int64_t shift_ns_ = 0, burst_gap_ns_ = 0, t_ns_ = 0, poisson_ns_ = 0;
  uint64_t recent_[kRecent] = {};
  uint64_t last_read_end_ = UINT64_MAX, last_write_end_ = UINT64_MAX;
  uint64_t recent_n_ = 0;
};

class DaysSource : public RequestSource {
 public:
  DaysSource(const Generator* g, int first, int count) : g_(g), day_(first), last_(first + count) { Open(); }
  bool Next(Request* r) override {
    while (day_ < last_) {
      int best = -1;
      int64_t t = kDayNs;
      for (size_t i = 0; i < streams_.size(); ++i) {
        int64_t n = streams_[i]->next_ns();
        if (n < t) {
          t = n;
          best = static_cast<int>(i);
        }
      }
      if (best >= 0) {
        streams_[static_cast<size_t>(best)]->Emit(r);
        return true;
      }
      ++day_;
      Open();
    }
    return false;
  }

 private:
  void Open() {
    streams_.clear();
    if (day_ >= last_) return;
    for (int v = 0; v < g_->num_volumes(); ++v) streams_.push_back(std::make_unique<VolumeStream>(g_, v, day_));
  }
  const Generator* g_;
  int day_, last_;
  std::vector<std::unique_ptr<VolumeStream>> streams_;
};

}  // namespace

std::unique_ptr<RequestSource> Generator::Day(int day) const { return Days(day, 1); }
std::unique_ptr<RequestSource> Generator::Days(int first, int count) const {
  return std::make_unique<DaysSource>(this, first, count);
}

}  // namespace fawnlab::srcmap
