#include "srcmap/day_run.h"

#include <algorithm>
#include <functional>

#include "srcmap/active.h"

namespace fawnlab::srcmap {
namespace {
constexpr double kCacheSpaceFrac = 0.125;  // §3.7.2: Caching-1 uses 12.5% more space per cache volume
}  // namespace

DayRun::DayRun(const std::vector<VolumeHistory>& hist, uint32_t eb, const DayConfig& c, int64_t origin, int64_t t0,
               int64_t t1)
    : hist_(hist), eb_(eb), c_(c), origin_(origin), t0_(t0), t1_(t1), n_(static_cast<int>(hist.size())), now_(t0) {}

DayRun::~DayRun() = default;

Status DayRun::Setup(RequestSource* src) {
  if (n_ < 1 || n_ > kNumDisks) return Status::InvalidArgument("day: 1 to 8 volumes, one per disk");
  if (c_.level < 0 || c_.level >= kNumLevels) return Status::InvalidArgument("day: level must be 0..4 (L0-L4)");
  if (!(c_.interval_h > 0)) return Status::InvalidArgument("day: interval_h must be positive");
  if (c_.n_sv < 1 || c_.n_sv > 16) return Status::InvalidArgument("day: n_sv must be 1..16");
  if (c_.replica_pct < 0 || c_.replica_pct > 100) return Status::InvalidArgument("day: replica_pct must be 0..100");
  if (!(c_.capacity_scale > 0)) return Status::InvalidArgument("day: capacity_scale must be positive");
  if (!(t1_ > t0_)) return Status::InvalidArgument("day: the window is empty");
  rep_.policy = PolicyName(c_.policy);
  std::vector<uint64_t> bytes;
  uint64_t total = 0;
  for (const VolumeHistory& h : hist_) {
    bytes.push_back(h.bytes);
    total += h.bytes;
  }
  rm_ = std::make_unique<ReplicaManager>(bytes, eb_, c_.n_sv);
  units_ = rm_->num_units();
  // Eq. 3.2's inputs.
  std::vector<VdiskFacts> facts;
  std::vector<std::vector<uint64_t>> ws_of_unit(static_cast<size_t>(units_));
  for (int v = 0; v < n_; ++v) {
    const VolumeHistory& h = hist_[static_cast<size_t>(v)];
    facts.push_back(VdiskFacts{static_cast<double>(h.ws.size()) * eb_, CapacityIops(v, 1) / c_.power.spinning_w, h.rho,
                               h.misses});
    for (uint64_t e : h.ws) ws_of_unit[static_cast<size_t>(rm_->UnitOf(v, e))].push_back(e);
    rep_.ws_extents.push_back(h.ws.size());
  }
  auto pr = OrderingP(facts, c_.weights);
  if (!pr.ok()) return pr.status();
  p_ = pr.value();
  // The disks: each primary holds its volume, then its extra space.
  std::vector<uint64_t> extra(static_cast<size_t>(n_), 0);
  if (c_.policy == Policy::kSrcmap) {
    for (int j = 0; j < n_; ++j) extra[static_cast<size_t>(j)] = static_cast<uint64_t>(c_.replica_pct / 100 * static_cast<double>(bytes[static_cast<size_t>(j)]));
  }
  if (c_.policy == Policy::kReplication) {  // pairs of similar bandwidth (§3.7.2): by capacity
    std::vector<int> order;
    for (int j = 0; j < n_; ++j) order.push_back(j);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return CapacityIops(a, c_.level) < CapacityIops(b, c_.level); });
    for (size_t i = 0; i + 1 < order.size(); i += 2) {
      pairs_.emplace_back(order[i], order[i + 1]);
      extra[static_cast<size_t>(order[i])] = bytes[static_cast<size_t>(order[i + 1])];
      extra[static_cast<size_t>(order[i + 1])] = bytes[static_cast<size_t>(order[i])];
    }
  }
  for (int j = 0; j < n_; ++j) {
    auto d = MakeDisk(&sim_, j, bytes[static_cast<size_t>(j)] + extra[static_cast<size_t>(j)] + eb_, c_.power, c_.write_cache);
    if (!d.ok()) return d.status();
    mech_.push_back(std::move(d.value()));
    cap_.push_back(CapacityIops(j, c_.level) * c_.capacity_scale);
  }
  uint64_t cache_bytes = static_cast<uint64_t>(kCacheSpaceFrac * static_cast<double>(total));
  for (int k = 0; k < ncache(); ++k) {  // a cache volume: a WD360GD-class disk (choice)
    auto d = MakeDisk(&sim_, 1, cache_bytes + eb_, c_.power, c_.write_cache);
    if (!d.ok()) return d.status();
    mech_.push_back(std::move(d.value()));
    cap_.push_back(CapacityIops(1, c_.level) * c_.capacity_scale);
  }
  interval_ns_ = static_cast<int64_t>(c_.interval_h * 3.6e12);
  const int64_t start = c_.warm_start ? std::max<int64_t>(0, t0_ - interval_ns_) : t0_;  // the warm-up's
  for (auto& m : mech_) disks_.emplace_back(m.get(), c_.power, start);
  targets_.assign(static_cast<size_t>(units_), {});
  // The replicas.
  if (c_.policy == Policy::kSrcmap) {
    std::vector<PlacementUnit> pu;
    for (int u = 0; u < units_; ++u) {
      double ws = static_cast<double>(ws_of_unit[static_cast<size_t>(u)].size()) * eb_;
      pu.push_back(PlacementUnit{rm_->VdiskOf(u), ws, c_.scratch_frac * ws});
    }
    std::vector<double> budget;
    for (int j = 0; j < n_; ++j) budget.push_back(static_cast<double>(extra[static_cast<size_t>(j)]));
    auto pl = PlaceReplicas(facts, pu, budget, c_.weights);
    if (!pl.ok()) return pl.status();
    for (int j = 0; j < n_; ++j) {
      uint64_t base = bytes[static_cast<size_t>(j)];
      for (int u : pl.value().hosted[static_cast<size_t>(j)]) {
        const PlacementUnit& x = pu[static_cast<size_t>(u)];
        uint64_t cap = std::max<uint64_t>(1, static_cast<uint64_t>((x.ws_bytes + x.scratch_bytes) / eb_));
        rm_->AddReplica(u, j, base, cap, ws_of_unit[static_cast<size_t>(u)]);
        base += cap * eb_;
      }
    }
    targets_ = pl.value().targets;
  } else if (ncache() > 0) {  // each cache holds the working sets that fit, in descending P
    std::vector<int> order;
    for (int u = 0; u < units_; ++u) order.push_back(u);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return p_[static_cast<size_t>(rm_->VdiskOf(a))] > p_[static_cast<size_t>(rm_->VdiskOf(b))];
    });
    for (int k = 0; k < ncache(); ++k) {
      uint64_t base = 0;
      for (int u : order) {
        double ws = static_cast<double>(ws_of_unit[static_cast<size_t>(u)].size()) * eb_;
        uint64_t cap = std::max<uint64_t>(1, static_cast<uint64_t>((1 + c_.scratch_frac) * ws / eb_));
        if (base + cap * eb_ > cache_bytes) continue;
        rm_->AddReplica(u, n_ + k, base, cap, ws_of_unit[static_cast<size_t>(u)]);
        targets_[static_cast<size_t>(u)].push_back(n_ + k);
        base += cap * eb_;
      }
    }
  } else if (c_.policy == Policy::kReplication) {
    for (const auto& [a, b] : pairs_) {
      for (int s = 0; s < c_.n_sv; ++s) {
        int ua = a * c_.n_sv + s, ub = b * c_.n_sv + s;
        rm_->AddReplica(ua, b, bytes[static_cast<size_t>(b)], 0, {}, true);
        rm_->AddReplica(ub, a, bytes[static_cast<size_t>(a)], 0, {}, true);
        targets_[static_cast<size_t>(ua)].push_back(b);
        targets_[static_cast<size_t>(ub)].push_back(a);
      }
    }
  }
  rep_.p = p_;
  rep_.replica_targets = targets_;
  unit_count_.assign(static_cast<size_t>(units_), 0);
  unit_minute_.assign(static_cast<size_t>(units_), 0);
  unit_peak_.assign(static_cast<size_t>(units_), 0);
  ring_.assign(static_cast<size_t>(std::max(1, c_.retrigger_min)), std::vector<uint64_t>(static_cast<size_t>(units_), 0));
  if (c_.check) ref_.resize(static_cast<size_t>(n_));
  disk_misses_.assign(static_cast<size_t>(ndisks()), 0);
  current_.active.assign(static_cast<size_t>(ndisks()), true);
  current_.serve.assign(static_cast<size_t>(units_), 0);
  for (int u = 0; u < units_; ++u) current_.serve[static_cast<size_t>(u)] = rm_->VdiskOf(u);
  change_seen_.assign(static_cast<size_t>(ndisks()), 0);
  state_seen_.assign(static_cast<size_t>(ndisks()), DiskServer::kSpinning);
  disk_io_.assign(static_cast<size_t>(ndisks()), 0);
  last_disk_io_ = disk_io_;
  vol_req_.assign(static_cast<size_t>(n_), 0);
  last_vol_req_ = vol_req_;
  edge_.assign(static_cast<size_t>(n_), std::vector<uint64_t>(static_cast<size_t>(ndisks()), 0));
  last_edge_ = edge_;
  // A cold start predicts from the long-term averages; a warm one from the warm-up interval.
  std::vector<double> load(static_cast<size_t>(units_));
  for (int u = 0; u < units_; ++u) load[static_cast<size_t>(u)] = hist_[static_cast<size_t>(rm_->VdiskOf(u))].rho / c_.n_sv;
  rep_.start_active.assign(static_cast<size_t>(ndisks()), true);
  if (c_.warm_start) {
    if (src == nullptr) return Status::InvalidArgument("day: a warm start needs the requests before the window");
    if (Status s = WarmUp(src, &load); !s.ok()) return s;
    int standby = 0;
    for (const DiskServer& d : disks_) standby += d.initial_state() == DiskServer::kStandby;
    Log(t0_, DayEvent::kInterval, -1, -1,
        "warm start: the interval before ran uncounted; " + std::to_string(standby) + " disks in standby at the start");
  }
  cur_ = IntervalReport{};
  cur_.start_h = 0;
  for (double l : load) cur_.predicted_iops += l;
  last_load_ = load;
  Apply(t0_, Decide(load), &cur_);
  interval_end_ = std::min(t1_, t0_ + interval_ns_);
  Log(t0_, DayEvent::kInterval, -1, -1,
      "interval 0: " + std::to_string(cur_.planned_active) + " disks active for " + std::to_string(static_cast<int64_t>(cur_.predicted_iops + 0.5)) + " IOPS predicted");
  now_ = t0_;
  return Status::Ok();
}

Status DayRun::WarmUp(RequestSource* src, std::vector<double>* load) {
  const int64_t t0 = t0_, t1 = t1_;
  const int64_t tw = std::max<int64_t>(0, t0 - interval_ns_);
  if (tw >= t0) return Status::Ok();  // nothing before the window: a cold start
  // The warm-up runs on the driver's own clock: its window is [tw, t0), one interval.
  t0_ = tw;
  t1_ = t0;
  now_ = tw;
  minute_ = 0;
  // The cold start at tw: every disk spinning (as constructed), the decision on `load`.
  last_load_ = *load;
  Apply(tw, Decide(*load), &cur_);
  interval_end_ = t0;
  while (true) {
    if (!has_pending_) {
      if (!src->Next(&pending_)) break;
      has_pending_ = true;
    }
    const srcmap::Request& r = pending_;
    if (r.t_ns < tw) {
      has_pending_ = false;
      continue;
    }
    if (r.t_ns >= t0) break;  // the window's first request: held for AdvanceTo
    if (static_cast<int>(r.volume) >= n_) {
      return Status::InvalidArgument("day: a request names volume " + std::to_string(r.volume));
    }
    has_pending_ = false;
    CloseUpTo(r.t_ns);  // r.t_ns < t0 = the warm-up's end: only minutes close
    Request(r);
    now_ = std::max(now_, r.t_ns);
  }
  // The warm-up's whole minutes; the deferred I/O due by t0.
  for (int64_t end = tw + (minute_ + 1) * kMinNs; end <= t0; end = tw + (minute_ + 1) * kMinNs) {
    Drain(end);
    CloseMinute(end);
  }
  Drain(t0);
  *load = Predict(static_cast<double>(t0 - tw) / 1e9);
  rep_.start_active = current_.active;
  t0_ = t0;
  t1_ = t1;
  now_ = t0;
  RestartCounts();
  return Status::Ok();
}

void DayRun::RestartCounts() {
  DayReport fresh;
  fresh.policy = rep_.policy;
  fresh.p = rep_.p;
  fresh.replica_targets = rep_.replica_targets;
  fresh.ws_extents = rep_.ws_extents;
  fresh.start_active = rep_.start_active;
  fresh.check_errors = rep_.check_errors;  // a broken invariant in the warm-up still shows
  fresh.first_check_error = rep_.first_check_error;
  rep_ = std::move(fresh);
  dropped_base_ = rm_->counters().dropped;
  cur_ = IntervalReport{};
  intervals_.clear();
  minutes_.clear();
  minute_ideal_.clear();
  spin_up_events_.clear();
  events_.clear();
  events_dropped_ = 0;
  planned_ups_.clear();
  miss_ups_.clear();
  bin_vol_.clear();
  bin_disk_.clear();
  int_active_.clear();
  std::fill(disk_misses_.begin(), disk_misses_.end(), 0);
  std::fill(unit_count_.begin(), unit_count_.end(), 0);
  std::fill(unit_minute_.begin(), unit_minute_.end(), 0);
  std::fill(unit_peak_.begin(), unit_peak_.end(), 0);
  std::fill(disk_io_.begin(), disk_io_.end(), 0);
  std::fill(vol_req_.begin(), vol_req_.end(), 0);
  for (auto& e : edge_) std::fill(e.begin(), e.end(), 0);
  minute_ = 0;
  for (int j = 0; j < ndisks(); ++j) {
    disks_[static_cast<size_t>(j)].Restart(t0_);
    change_seen_[static_cast<size_t>(j)] = 0;
    state_seen_[static_cast<size_t>(j)] = disks_[static_cast<size_t>(j)].initial_state();
  }
}

std::vector<double> DayRun::Predict(double secs) const {
  std::vector<double> load(static_cast<size_t>(units_));
  for (int u = 0; u < units_; ++u) {
    load[static_cast<size_t>(u)] = c_.peak_predictor ? static_cast<double>(unit_peak_[static_cast<size_t>(u)]) / 60.0
                                                     : static_cast<double>(unit_count_[static_cast<size_t>(u)]) / secs;
  }
  return load;
}

DayRun::Decision DayRun::Decide(const std::vector<double>& load) const {
  Decision d;
  d.active.assign(static_cast<size_t>(ndisks()), false);
  d.serve.assign(static_cast<size_t>(units_), 0);
  auto all_primaries = [&]() {
    for (int j = 0; j < n_; ++j) d.active[static_cast<size_t>(j)] = true;
    for (int u = 0; u < units_; ++u) d.serve[static_cast<size_t>(u)] = rm_->VdiskOf(u);
  };
  double total = 0;
  for (double l : load) total += l;
  switch (c_.policy) {
    case Policy::kBaselineOn:
      all_primaries();
      break;
    case Policy::kSrcmap: {
      ActiveInput in;
      in.p = p_;
      in.capacity.assign(cap_.begin(), cap_.begin() + n_);
      for (int u = 0; u < units_; ++u) in.unit_vdisk.push_back(rm_->VdiskOf(u));
      in.unit_load = load;
      in.unit_targets = targets_;
      ActiveResult r = IdentifyActive(in);
      for (int j = 0; j < n_; ++j) d.active[static_cast<size_t>(j)] = r.active[static_cast<size_t>(j)];
      d.serve = r.serve;
      break;
    }
    case Policy::kCaching1:
    case Policy::kCaching2: {
      // §3.7.2: when the load is below the cache volumes' capacity, the cache volumes (all of
      // them: Caching-2 works "in a similar manner" with its two) take every unit they hold; a
      // unit without a cached working set keeps its primary active; otherwise all primaries
      // serve. Two power levels, as the thesis says.
      bool done = false;
      const int k = ncache();
      double cap = 0;
      for (int i = 0; i < k; ++i) cap += cap_[static_cast<size_t>(n_ + i)];
      if (total < cap) {
        std::vector<double> spare(cap_.begin() + n_, cap_.begin() + n_ + k);
        std::fill(d.active.begin(), d.active.end(), false);
        for (int i = 0; i < k; ++i) d.active[static_cast<size_t>(n_ + i)] = true;  // the cache volumes take the load
        bool ok = true;
        for (int u = 0; u < units_ && ok; ++u) {
          int got = -1;
          for (int i = 0; i < k; ++i) {
            if (rm_->ReplicaOn(u, n_ + i) >= 0 && load[static_cast<size_t>(u)] <= spare[static_cast<size_t>(i)]) {
              got = n_ + i;
              spare[static_cast<size_t>(i)] -= load[static_cast<size_t>(u)];
              break;
            }
          }
          if (got < 0) {
            got = rm_->VdiskOf(u);
            if (rm_->ReplicaOn(u, n_) >= 0) ok = false;  // cached but no room: the caches cannot take the load
          }
          d.serve[static_cast<size_t>(u)] = got;
          d.active[static_cast<size_t>(got)] = true;
        }
        done = ok;
      }
      if (!done) {
        std::fill(d.active.begin(), d.active.end(), false);
        all_primaries();
      }
      break;
    }
    case Policy::kReplication: {
      all_primaries();
      for (const auto& [a, b] : pairs_) {
        double la = 0, lb = 0;
        for (int s = 0; s < c_.n_sv; ++s) {
          la += load[static_cast<size_t>(a * c_.n_sv + s)];
          lb += load[static_cast<size_t>(b * c_.n_sv + s)];
        }
        int keep = la >= lb ? a : b, other = keep == a ? b : a;
        if (la + lb < cap_[static_cast<size_t>(keep)]) {
          d.active[static_cast<size_t>(other)] = false;
          for (int s = 0; s < c_.n_sv; ++s) d.serve[static_cast<size_t>(other * c_.n_sv + s)] = keep;
        }
      }
      break;
    }
  }
  return d;
}

void DayRun::Apply(int64_t t, const Decision& d, IntervalReport* rep) {
  std::vector<Io> sync;
  std::vector<bool> changed(static_cast<size_t>(n_), false);
  for (int u = 0; u < units_; ++u) {
    int disk = d.serve[static_cast<size_t>(u)];
    int to = disk == rm_->VdiskOf(u) ? -1 : rm_->ReplicaOn(u, disk);
    if (to != rm_->live(u)) {
      int from = rm_->ServingDisk(u);
      rm_->Switch(u, to, &sync);
      changed[static_cast<size_t>(rm_->VdiskOf(u))] = true;
      Log(t, DayEvent::kRemap, disk, rm_->VdiskOf(u), DiskName(from) + " -> " + DiskName(disk));
    }
  }
  int remaps = static_cast<int>(std::count(changed.begin(), changed.end(), true));
  rep->remaps += remaps;
  rep_.remaps += static_cast<uint64_t>(remaps);
  int64_t gap = static_cast<int64_t>(c_.sync_gap_ms * 1e6);
  next_sync_ = std::max(next_sync_, t);
  for (const Io& io : sync) {  // one sync I/O per gap (§3.7.1)
    deferred_.push(Deferred{next_sync_, seq_++, io, true});
    ++sync_pending_;
    next_sync_ += gap;
  }
  rep->sync_ios += sync.size();
  for (int j = 0; j < ndisks(); ++j) {
    DiskServer& disk = disks_[static_cast<size_t>(j)];
    uint64_t before = disk.planned_spin_ups();
    disk.SetActive(d.active[static_cast<size_t>(j)], t);
    if (disk.planned_spin_ups() > before) planned_ups_.emplace_back(t, j);
  }
  int planned = 0;
  for (int j = 0; j < n_; ++j) planned += d.active[static_cast<size_t>(j)];
  rep->planned_active = planned;
  current_ = d;
  if (c_.check) {
    std::string e = rm_->CheckConsistent();
    if (!e.empty()) {
      if (rep_.check_errors++ == 0) rep_.first_check_error = "after a remap: " + e;
    }
  }
}

void DayRun::CountIo(int disk, int64_t t) {
  size_t k = static_cast<size_t>(std::max<int64_t>(0, t - t0_) / std::max<int64_t>(1, interval_ns_));
  if (bin_disk_.size() <= k) bin_disk_.resize(k + 1, std::vector<uint64_t>(static_cast<size_t>(ndisks()), 0));
  ++bin_disk_[k][static_cast<size_t>(disk)];
  ++disk_io_[static_cast<size_t>(disk)];
}

void DayRun::Serve(const Deferred& d) {
  DiskServer::Served s = disks_[static_cast<size_t>(d.io.disk)].Serve(d.t, d.io.offset, d.io.bytes, d.io.write);
  CountIo(d.io.disk, d.t);
  if (d.sync) {
    --sync_pending_;
    rep_.sync_ns.Record(static_cast<uint64_t>(s.done_ns - d.t));
    ++rep_.sync_ios;
  }
}

void DayRun::CloseMinute(int64_t minute_end) {
  uint64_t agg = 0;
  auto& slot = ring_[static_cast<size_t>(minute_ % static_cast<int64_t>(ring_.size()))];
  for (int u = 0; u < units_; ++u) {
    uint64_t m = unit_minute_[static_cast<size_t>(u)];
    agg += m;
    unit_peak_[static_cast<size_t>(u)] = std::max(unit_peak_[static_cast<size_t>(u)], m);
    slot[static_cast<size_t>(u)] = m;
    unit_minute_[static_cast<size_t>(u)] = 0;
  }
  MinutePower(t0_ + minute_ * kMinNs, minute_end, static_cast<double>(agg) / 60.0, active_capacity());
  last_disk_io_.swap(disk_io_);
  std::fill(disk_io_.begin(), disk_io_.end(), 0);
  last_vol_req_.swap(vol_req_);
  std::fill(vol_req_.begin(), vol_req_.end(), 0);
  last_edge_.swap(edge_);
  for (auto& e : edge_) std::fill(e.begin(), e.end(), 0);
  ++minute_;
  if (c_.policy != Policy::kSrcmap || !c_.retrigger) return;
  double cap = 0;
  for (int j = 0; j < n_; ++j) cap += current_.active[static_cast<size_t>(j)] ? cap_[static_cast<size_t>(j)] : 0;
  over_ = static_cast<double>(agg) / 60.0 > cap ? over_ + 1 : 0;
  if (over_ >= c_.retrigger_min) {  // sustained overload: identify again on the recent load
    std::vector<double> load(static_cast<size_t>(units_), 0);
    for (const auto& r : ring_)
      for (int u = 0; u < units_; ++u) load[static_cast<size_t>(u)] += static_cast<double>(r[static_cast<size_t>(u)]);
    for (double& l : load) l /= 60.0 * static_cast<double>(ring_.size());
    double total = 0;
    for (double l : load) total += l;
    Log(minute_end, DayEvent::kRetrigger, -1, -1,
        std::to_string(c_.retrigger_min) + " minutes over the active disks' " + std::to_string(static_cast<int64_t>(cap + 0.5)) +
            " IOPS: identification reruns on " + std::to_string(static_cast<int64_t>(total + 0.5)) + " IOPS");
    last_load_ = load;
    Apply(minute_end, Decide(load), &cur_);
    ++cur_.retriggers;
    ++rep_.retriggers;
    over_ = 0;
  }
}

void DayRun::EndInterval(int64_t t) {
  int_active_.push_back(current_.active);
  double secs = static_cast<double>(t - (interval_end_ - interval_ns_)) / 1e9;
  uint64_t n = 0;
  for (uint64_t x : unit_count_) n += x;
  cur_.load_iops = static_cast<double>(n) / secs;
  intervals_.push_back(cur_);
  std::vector<double> load = Predict(secs);
  std::fill(unit_count_.begin(), unit_count_.end(), 0);
  std::fill(unit_peak_.begin(), unit_peak_.end(), 0);
  cur_ = IntervalReport{};
  cur_.start_h = static_cast<double>(t - t0_) / 3.6e12;
  if (t >= t1_) return;
  double pred = 0;
  for (double l : load) pred += l;
  cur_.predicted_iops = pred;
  last_load_ = load;
  Apply(t, Decide(load), &cur_);
  interval_end_ = std::min(t1_, t + interval_ns_);
  Log(t, DayEvent::kInterval, -1, -1,
      "interval " + std::to_string(intervals_.size()) + ": " + std::to_string(cur_.planned_active) + " disks active for " +
          std::to_string(static_cast<int64_t>(pred + 0.5)) + " IOPS predicted");
}

void DayRun::Request(const srcmap::Request& r) {
  int v = static_cast<int>(r.volume);
  int64_t t = r.t_ns;
  uint64_t first = r.offset / eb_, last = (r.offset + std::max<uint32_t>(r.bytes, 1) - 1) / eb_;
  last = std::min(last, rm_->extents(v) - 1);
  first = std::min(first, last);
  int64_t done = t;
  bool waited = false, unplanned = false;
  for (uint64_t e = first; e <= last; ++e) {
    uint64_t lo = std::max(r.offset, e * eb_), hi = std::min(r.offset + r.bytes, (e + 1) * eb_);
    if (hi <= lo) hi = lo + 1;
    uint32_t inner = static_cast<uint32_t>(lo - e * eb_), len = static_cast<uint32_t>(hi - lo);
    DiskServer::Served s;
    int disk;
    if (r.write) {
      ReplicaManager::WriteResult w = rm_->Write(v, e, inner, len);
      disk = w.serve.disk;
      s = disks_[static_cast<size_t>(disk)].Serve(t, w.serve.offset, len, true);
      CountIo(disk, t);
      if (w.overflow) ++rep_.overflows;
      if (c_.check) {
        uint32_t want = ++ref_[static_cast<size_t>(v)][e];
        if (w.version != want && rep_.check_errors++ == 0) rep_.first_check_error = "a write's version";
      }
    } else {
      ReplicaManager::ReadResult rd = rm_->Read(v, e, inner, len);
      disk = rd.serve.disk;
      const uint64_t ups = disks_[static_cast<size_t>(disk)].spin_ups();
      s = disks_[static_cast<size_t>(disk)].Serve(t, rd.serve.offset, len, false);
      if (rd.miss && disks_[static_cast<size_t>(disk)].spin_ups() > ups) miss_ups_.emplace_back(t, disk);
      CountIo(disk, t);
      if (rd.miss) {
        ++rep_.misses;
        ++cur_.misses;
        ++disk_misses_[static_cast<size_t>(rd.serve.disk)];
      }
      if (rd.copy_in) {
        ++rep_.copy_ins;
        deferred_.push(Deferred{s.done_ns, seq_++, rd.copy, false});
      }
      if (c_.check) {
        auto it = ref_[static_cast<size_t>(v)].find(e);
        uint32_t want = it == ref_[static_cast<size_t>(v)].end() ? 0 : it->second;
        if (rd.version != want && rep_.check_errors++ == 0) {
          rep_.first_check_error = "volume " + std::to_string(v) + " extent " + std::to_string(e) + " read version " +
                                   std::to_string(rd.version) + ", latest written " + std::to_string(want);
        }
      }
    }
    done = std::max(done, s.done_ns);
    waited |= s.waited_spinup;
    bool outside = s.waited_spinup && !disks_[static_cast<size_t>(disk)].in_active_set();
    if (outside && !unplanned) {
      Log(t, DayEvent::kMiss, disk, v,
          std::string(r.write ? "a write overflow" : "a read miss") + " waits for " + DiskName(disk) + " to spin up");
    }
    unplanned |= outside;
    ++edge_[static_cast<size_t>(v)][static_cast<size_t>(disk)];
  }
  rep_.response_ns.Record(static_cast<uint64_t>(done - t));
  if (!r.write) rep_.read_ns.Record(static_cast<uint64_t>(done - t));
  ++rep_.requests;
  ++cur_.requests;
  r.write ? ++rep_.writes : ++rep_.reads;
  if (waited) ++rep_.spinup_waits;
  if (unplanned) ++rep_.miss_spinup_waits;
  int u = rm_->UnitOf(v, first);
  ++unit_count_[static_cast<size_t>(u)];
  ++unit_minute_[static_cast<size_t>(u)];
  size_t k = static_cast<size_t>((t - t0_) / interval_ns_);
  if (bin_vol_.size() <= k) bin_vol_.resize(k + 1, std::vector<uint64_t>(static_cast<size_t>(n_), 0));
  ++bin_vol_[k][static_cast<size_t>(v)];
  ++vol_req_[static_cast<size_t>(v)];
}


std::string DayRun::DiskName(int j) const { return j < n_ ? "D" + std::to_string(j) : "C" + std::to_string(j - n_); }

double DayRun::active_capacity() const {
  double c = 0;
  for (int j = 0; j < ndisks(); ++j) c += current_.active[static_cast<size_t>(j)] ? cap_[static_cast<size_t>(j)] : 0;
  return c;
}

DiskServer::State DayRun::StateNow(int j) const {
  DiskServer copy = disks_[static_cast<size_t>(j)];
  copy.Settle(now_);
  return copy.state();
}

void DayRun::Log(int64_t t, DayEvent::Kind k, int disk, int volume, std::string detail) {
  if (events_.size() >= 2 * kMaxEvents) {
    events_dropped_ += events_.size() - kMaxEvents;
    events_.erase(events_.begin(), events_.end() - static_cast<std::ptrdiff_t>(kMaxEvents));
  }
  // In time order: spin-ups and spin-downs are found when their minute closes, after the
  // minute's other events.
  auto at = std::upper_bound(events_.begin(), events_.end(), t, [](int64_t x, const DayEvent& e) { return x < e.t_ns; });
  events_.insert(at, DayEvent{t, k, disk, volume, std::move(detail)});
}

void DayRun::Drain(int64_t t) {
  while (!deferred_.empty() && deferred_.top().t <= t) {
    Deferred d = deferred_.top();
    deferred_.pop();
    Serve(d);
  }
}

bool DayRun::CloseUpTo(int64_t t) {
  while (true) {
    int64_t minute_end = t0_ + (minute_ + 1) * kMinNs;
    int64_t next = std::min(minute_end, interval_end_);
    if (next > t) break;
    Drain(next);
    if (minute_end == next) CloseMinute(minute_end);
    if (interval_end_ == next) {
      if (interval_end_ >= t1_) {
        EndInterval(t1_);
        return false;
      }
      EndInterval(interval_end_);
    }
  }
  Drain(t);
  return true;
}

StatusOr<uint64_t> DayRun::AdvanceTo(RequestSource* src, int64_t t, uint64_t max_requests) {
  uint64_t n = 0;
  while (open_ && n < max_requests) {
    if (!has_pending_) {
      if (!src->Next(&pending_)) {
        break;
      }
      has_pending_ = true;
    }
    const srcmap::Request& r = pending_;
    if (r.t_ns < t0_) {
      has_pending_ = false;
      continue;
    }
    if (r.t_ns >= t1_) break;  // the window is over: the rest of the source is not read
    if (r.t_ns >= t) break;  // held for a later call
    if (static_cast<int>(r.volume) >= n_) {
      return Status::InvalidArgument("day: a request names volume " + std::to_string(r.volume));
    }
    has_pending_ = false;
    CloseUpTo(r.t_ns);  // r.t_ns < t1: the last interval stays open
    Request(r);
    now_ = std::max(now_, r.t_ns);
    ++n;
  }
  if (open_ && n < max_requests) {
    int64_t to = std::min(t, t1_);
    if (to >= now_) {
      open_ = CloseUpTo(to);
      now_ = to;
    }
    if (!open_) Drain(INT64_MAX);  // what was issued before the end still runs
  }
  return n;
}

Status DayRun::Redecide(int level) {
  if (level < 0 || level >= kNumLevels) return Status::InvalidArgument("day: level must be 0..4 (L0-L4)");
  if (!open_) return Status::Ok();
  c_.level = level;
  for (int j = 0; j < n_; ++j) cap_[static_cast<size_t>(j)] = CapacityIops(j, level) * c_.capacity_scale;
  for (int j = n_; j < ndisks(); ++j) cap_[static_cast<size_t>(j)] = CapacityIops(1, level) * c_.capacity_scale;
  Apply(now_, Decide(last_load_), &cur_);
  Log(now_, DayEvent::kInterval, -1, -1,
      "level L" + std::to_string(level) + ": a decision now, " + std::to_string(cur_.planned_active) + " disks active");
  return Status::Ok();
}

}  // namespace fawnlab::srcmap
