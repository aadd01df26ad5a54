// SrcmapSession: the config, the workload and history, the day run, Advance/Step, the live
// level. See session.h.
#include "srcmap/lab/session.h"

#include <algorithm>
#include <utility>

#include "srcmap/profile.h"

namespace fawnlab::srcmap {
namespace {

const std::vector<std::string>& PolicyIds() {
  static const std::vector<std::string> ids = {PolicyName(Policy::kSrcmap), PolicyName(Policy::kBaselineOn),
                                               PolicyName(Policy::kCaching1), PolicyName(Policy::kCaching2),
                                               PolicyName(Policy::kReplication)};
  return ids;
}

Policy PolicyOf(const std::string& id) {
  for (Policy p : {Policy::kSrcmap, Policy::kBaselineOn, Policy::kCaching1, Policy::kCaching2, Policy::kReplication}) {
    if (id == PolicyName(p)) return p;
  }
  return Policy::kSrcmap;
}

// The generated history is the setup's cost (~0.2 s for 21 days natively): the last one built
// is kept for the next session on the same workload (deterministic, so sharing it changes
// nothing).
struct HistoryCache {
  uint64_t seed = 0;
  double rate_scale = 0;
  int days = 0;
  std::shared_ptr<const std::vector<VolumeHistory>> hist;
};

StatusOr<std::shared_ptr<const std::vector<VolumeHistory>>> CachedHistory(const Generator& g, uint64_t seed,
                                                                         double rate_scale, int days) {
  static HistoryCache* cache = new HistoryCache();
  if (cache->hist && cache->seed == seed && cache->rate_scale == rate_scale && cache->days == days) return cache->hist;
  auto h = GeneratedHistory(g, days);
  if (!h.ok()) return h.status();
  cache->seed = seed;
  cache->rate_scale = rate_scale;
  cache->days = days;
  cache->hist = std::make_shared<const std::vector<VolumeHistory>>(std::move(h).value());
  return cache->hist;
}

}  // namespace

std::vector<ParamSpec> SrcmapSession::Schema() {
  const Config c;
  return {
      ParamSpec::Choice("policy", c.policy, PolicyIds(), "how the disks are run (§3.7.2's schemes)")
          .WithLabels({"SRCMap", "Baseline-On", "Caching-1", "Caching-2", "Replication"}),
      ParamSpec::Int("level", c.level, 0, kNumLevels - 1, "",
                     "Table 3.3(a)'s capacity level L0-L4 Algorithm 1 compares the load with (L0: the lowest "
                     "capacity, so the most disks; live: a new decision at once)"),
      ParamSpec::Real("replica_pct", c.replica_pct, 0, 50, "%", "replica space on each disk, % of its volume (Fig 3.12)"),
      ParamSpec::Real("interval_h", c.interval_h, 0.5, 6, "h", "T, the consolidation interval (§3.7: 2 hours)"),
      ParamSpec::Real("rate_scale", c.rate_scale, 0.01, 1, "",
                      "the generated workload's intensity × this; the disks' capacities scale alike (§3.7.2's "
                      "simulator ran any IOPS level)"),
      ParamSpec::Int("history_days", c.history_days, 2, 28, "days",
                     "generated days before the evaluated one the working sets are sampled from (§3.7: three weeks)"),
      ParamSpec::Bool("retrigger", c.retrigger, "rerun identification after 5 minutes over the active disks' capacity (§3.6.2)"),
  };
}

std::vector<std::string> SrcmapSession::LiveFields() { return {"level"}; }

SrcmapSession::Config SrcmapSession::FromParams(const ParamValues& p) {
  Config c;
  c.policy = p.Choice("policy");
  c.level = static_cast<int>(p.Int("level"));
  c.replica_pct = p.Real("replica_pct");
  c.interval_h = p.Real("interval_h");
  c.rate_scale = p.Real("rate_scale");
  c.history_days = static_cast<int>(p.Int("history_days"));
  c.retrigger = p.Bool("retrigger");
  return c;
}

StatusOr<std::unique_ptr<LabSession>> SrcmapSession::New(const ParamValues& config, uint64_t seed) {
  std::unique_ptr<SrcmapSession> s(new SrcmapSession(FromParams(config), seed));
  if (Status st = s->StartGenerated(); !st.ok()) return st;
  return std::unique_ptr<LabSession>(std::move(s));
}

SrcmapSession::SrcmapSession(Config c, uint64_t seed) : config_(std::move(c)), seed_(seed) {}

SrcmapSession::~SrcmapSession() = default;

DayConfig SrcmapSession::day_config() const { return MakeDayConfig(trace_ != nullptr); }

DayConfig SrcmapSession::MakeDayConfig(bool trace) const {
  DayConfig d;
  d.policy = PolicyOf(config_.policy);
  d.level = config_.level;
  d.replica_pct = config_.replica_pct;
  d.interval_h = config_.interval_h;
  d.retrigger = config_.retrigger;
  d.history_days = config_.history_days;
  d.capacity_scale = trace ? 1.0 : config_.rate_scale;  // a trace runs at its own rate
  return d;
}

StatusOr<std::unique_ptr<DayRun>> SrcmapSession::BuildRun(const std::vector<VolumeHistory>& hist, uint32_t extent_bytes,
                                                          int64_t origin, bool trace, RequestSource* src) const {
  auto run = std::make_unique<DayRun>(hist, extent_bytes, MakeDayConfig(trace), origin, origin, origin + kDayNs);
  if (Status st = run->Setup(src); !st.ok()) return st;
  return run;
}

Status SrcmapSession::StartGenerated() {
  WorkloadConfig w = EvaluationWorkload(seed_);
  w.rate_scale = config_.rate_scale;
  auto g = Generator::Create(w);
  if (!g.ok()) return g.status();
  gen_ = std::move(g).value();
  auto h = CachedHistory(*gen_, seed_, config_.rate_scale, config_.history_days);
  if (!h.ok()) return h.status();
  hist_ = h.value();
  // From the last history day: the warm start runs its last interval (day.cc's rule).
  auto src = gen_->Days(config_.history_days - 1, 2);
  auto run = BuildRun(*hist_, gen_->config().extent_bytes, static_cast<int64_t>(config_.history_days) * kDayNs, false,
                      src.get());
  if (!run.ok()) return run.status();
  src_ = std::move(src);
  run_ = std::move(run).value();
  ++generation_;
  return Status::Ok();
}

Status SrcmapSession::StartTrace(std::unique_ptr<ImportedTrace> trace, int64_t history_ns) {
  auto h = ImportedHistory(*trace, history_ns);
  if (!h.ok()) return h.status();
  auto hist = std::make_shared<const std::vector<VolumeHistory>>(std::move(h).value());
  auto src = std::make_unique<VectorSource>(&trace->requests);
  auto run = BuildRun(*hist, kImportExtentBytes, history_ns, true, src.get());
  if (!run.ok()) return run.status();  // the day that ran stays
  trace_ = std::move(trace);  // the requests stay where src reads them
  hist_ = std::move(hist);
  src_ = std::move(src);
  run_ = std::move(run).value();
  report_.reset();
  ++generation_;
  return Status::Ok();
}

uint64_t SrcmapSession::RunTo(int64_t t_ns, uint64_t max_requests) {
  if (run_->done()) return 0;
  auto n = run_->AdvanceTo(src_.get(), run_->origin() + t_ns, max_requests);
  if (!n.ok()) {
    last_error_ = n.status().message();
    return 0;
  }
  if (run_->done() && !report_) report_ = std::make_unique<DayReport>(run_->Finish());
  return n.value();
}

uint64_t SrcmapSession::Advance(sim::SimDuration dt_ns, uint64_t max_events) {
  return RunTo(now_ns() + std::clamp<sim::SimDuration>(dt_ns, 0, kDayNs), max_events);  // no overflow
}

bool SrcmapSession::Step() {
  if (run_->done()) return false;
  RunTo(kDayNs, 1);
  return true;
}

uint64_t SrcmapSession::version() { return (generation_ << 32) + run_->minutes().size(); }

int SrcmapSession::Busy() const {
  if (run_->done()) return 0;
  for (int j = 0; j < run_->num_disks(); ++j) {
    if (run_->StateNow(j) == DiskServer::kSpinningUp) return 1;
  }
  return run_->sync_pending() ? 1 : 0;
}

Status SrcmapSession::Reconfigured(const ParamValues& config, const ParamValues& patch) {
  const Config next = FromParams(config);
  if (patch.Has("level") && next.level != config_.level) {
    config_.level = next.level;
    return run_->Redecide(next.level);
  }
  return Status::Ok();
}

}  // namespace fawnlab::srcmap
