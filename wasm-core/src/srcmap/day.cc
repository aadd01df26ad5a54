#include "srcmap/day.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "srcmap/active.h"
#include "srcmap/disk_server.h"
#include "srcmap/replica_manager.h"

namespace fawnlab::srcmap {
namespace {

constexpr int64_t kMinNs = int64_t{60} * 1000000000;
constexpr double kCacheSpaceFrac = 0.125;  // §3.7.2: Caching-1 uses 12.5% more space per cache volume

struct Deferred {
  int64_t t;
  uint64_t seq;
  Io io;
  bool sync;
  bool operator>(const Deferred& o) const { return t != o.t ? t > o.t : seq > o.seq; }
};

struct Decision {
  std::vector<bool> active;  // per disk (primaries, then caches)
  std::vector<int> serve;    // per unit: the serving disk
};

// The testbed for one run: disks, replicas, the policy.
class Day {
 public:
  // `origin`: 00:00 of the evaluated day (the report's minutes and spin-ups count hours from it).
  Day(const std::vector<VolumeHistory>& hist, uint32_t eb, const DayConfig& c, int64_t origin, int64_t t0, int64_t t1)
      : hist_(hist), eb_(eb), c_(c), origin_(origin), t0_(t0), t1_(t1), n_(static_cast<int>(hist.size())) {}

  Status Setup();
  Status Run(RequestSource* src);
  DayReport Finish();

 private:
  Decision Decide(const std::vector<double>& load) const;
  void Apply(int64_t t, const Decision& d, IntervalReport* rep);
  void Serve(const Deferred& d);
  void CloseMinute(int64_t minute_end);
  void EndInterval(int64_t t);
  void Request(const srcmap::Request& r);
  // The report's additions' counters (they never feed back into the run).
  void CountIo(int disk, int64_t t);
  void AddExtras();
  int ncache() const { return c_.policy == Policy::kCaching1 ? 1 : c_.policy == Policy::kCaching2 ? 2 : 0; }
  int ndisks() const { return n_ + ncache(); }

  const std::vector<VolumeHistory>& hist_;
  uint32_t eb_;
  DayConfig c_;
  int64_t origin_, t0_, t1_;
  int n_;
  int units_ = 0;
  sim::Simulator sim_;  // owns nothing that runs: the disks' mechanisms only
  std::vector<std::unique_ptr<device::DiskDevice>> mech_;
  std::vector<DiskServer> disks_;
  std::vector<double> cap_;
  std::unique_ptr<ReplicaManager> rm_;
  std::vector<double> p_;
  std::vector<std::vector<int>> targets_;  // per unit: disks with its replica
  std::vector<std::pair<int, int>> pairs_;
  Decision current_;
  std::priority_queue<Deferred, std::vector<Deferred>, std::greater<Deferred>> deferred_;
  uint64_t seq_ = 0;
  int64_t next_sync_ = 0;
  // Load monitor.
  std::vector<uint64_t> unit_count_, unit_minute_, unit_peak_;
  std::vector<std::vector<uint64_t>> ring_;  // last retrigger_min minutes, per unit
  int64_t minute_ = 0;                       // the open minute (index from t0)
  int over_ = 0;
  int64_t interval_ns_ = 0, interval_end_ = 0;
  std::vector<IntervalReport> intervals_;
  IntervalReport cur_;
  std::vector<std::unordered_map<uint64_t, uint32_t>> ref_;
  std::vector<uint64_t> disk_misses_;
  DayReport rep_;
  // For the report's additions: per interval bin (as Finish's), requests per volume and I/Os
  // per disk; per closed interval, its last decision's set; per minute, the requests that
  // arrived and (closed minutes) the capacity of the set then in force; planned spin-ups.
  std::vector<std::vector<uint64_t>> bin_vol_, bin_disk_;
  std::vector<std::vector<bool>> int_active_;
  std::vector<uint64_t> minute_req_;
  std::vector<double> minute_cap_;
  std::vector<std::pair<int64_t, int>> planned_ups_;
  std::vector<std::vector<double>> disk_joules_;  // [disk][interval], from Finish
};

Status Day::Setup() {
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
    auto d = MakeDisk(&sim_, j, bytes[static_cast<size_t>(j)] + extra[static_cast<size_t>(j)] + eb_, c_.power);
    if (!d.ok()) return d.status();
    mech_.push_back(std::move(d.value()));
    cap_.push_back(CapacityIops(j, c_.level) * c_.capacity_scale);
  }
  uint64_t cache_bytes = static_cast<uint64_t>(kCacheSpaceFrac * static_cast<double>(total));
  for (int k = 0; k < ncache(); ++k) {  // a cache volume: a WD360GD-class disk (choice)
    auto d = MakeDisk(&sim_, 1, cache_bytes + eb_, c_.power);
    if (!d.ok()) return d.status();
    mech_.push_back(std::move(d.value()));
    cap_.push_back(CapacityIops(1, c_.level) * c_.capacity_scale);
  }
  for (auto& m : mech_) disks_.emplace_back(m.get(), c_.power, t0_);
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
  return Status::Ok();
}

Decision Day::Decide(const std::vector<double>& load) const {
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
      // The fewest caches whose capacity exceeds the load take every unit they hold; a unit
      // without a cached working set keeps its primary active; otherwise all primaries serve.
      bool done = false;
      for (int k = 1; k <= ncache() && !done; ++k) {
        double cap = 0;
        for (int i = 0; i < k; ++i) cap += cap_[static_cast<size_t>(n_ + i)];
        if (!(total < cap)) continue;
        std::vector<double> spare(cap_.begin() + n_, cap_.begin() + n_ + k);
        std::fill(d.active.begin(), d.active.end(), false);
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

void Day::Apply(int64_t t, const Decision& d, IntervalReport* rep) {
  std::vector<Io> sync;
  std::vector<bool> changed(static_cast<size_t>(n_), false);
  for (int u = 0; u < units_; ++u) {
    int disk = d.serve[static_cast<size_t>(u)];
    int to = disk == rm_->VdiskOf(u) ? -1 : rm_->ReplicaOn(u, disk);
    if (to != rm_->live(u)) {
      rm_->Switch(u, to, &sync);
      changed[static_cast<size_t>(rm_->VdiskOf(u))] = true;
    }
  }
  int remaps = static_cast<int>(std::count(changed.begin(), changed.end(), true));
  rep->remaps += remaps;
  rep_.remaps += static_cast<uint64_t>(remaps);
  int64_t gap = static_cast<int64_t>(c_.sync_gap_ms * 1e6);
  next_sync_ = std::max(next_sync_, t);
  for (const Io& io : sync) {  // one sync I/O per gap (§3.7.1)
    deferred_.push(Deferred{next_sync_, seq_++, io, true});
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

void Day::CountIo(int disk, int64_t t) {
  size_t k = static_cast<size_t>(std::max<int64_t>(0, t - t0_) / std::max<int64_t>(1, interval_ns_));
  if (bin_disk_.size() <= k) bin_disk_.resize(k + 1, std::vector<uint64_t>(static_cast<size_t>(ndisks()), 0));
  ++bin_disk_[k][static_cast<size_t>(disk)];
}

void Day::Serve(const Deferred& d) {
  DiskServer::Served s = disks_[static_cast<size_t>(d.io.disk)].Serve(d.t, d.io.offset, d.io.bytes);
  CountIo(d.io.disk, d.t);
  if (d.sync) {
    rep_.sync_ns.Record(static_cast<uint64_t>(s.done_ns - d.t));
    ++rep_.sync_ios;
  }
}

void Day::CloseMinute(int64_t minute_end) {
  double in_force = 0;
  for (int j = 0; j < ndisks(); ++j) in_force += current_.active[static_cast<size_t>(j)] ? cap_[static_cast<size_t>(j)] : 0;
  minute_cap_.push_back(in_force);
  uint64_t agg = 0;
  auto& slot = ring_[static_cast<size_t>(minute_ % static_cast<int64_t>(ring_.size()))];
  for (int u = 0; u < units_; ++u) {
    uint64_t m = unit_minute_[static_cast<size_t>(u)];
    agg += m;
    unit_peak_[static_cast<size_t>(u)] = std::max(unit_peak_[static_cast<size_t>(u)], m);
    slot[static_cast<size_t>(u)] = m;
    unit_minute_[static_cast<size_t>(u)] = 0;
  }
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
    Apply(minute_end, Decide(load), &cur_);
    ++cur_.retriggers;
    ++rep_.retriggers;
    over_ = 0;
  }
}

void Day::EndInterval(int64_t t) {
  int_active_.push_back(current_.active);
  double secs = static_cast<double>(t - (interval_end_ - interval_ns_)) / 1e9;
  uint64_t n = 0;
  for (uint64_t x : unit_count_) n += x;
  cur_.load_iops = static_cast<double>(n) / secs;
  intervals_.push_back(cur_);
  std::vector<double> load(static_cast<size_t>(units_));
  for (int u = 0; u < units_; ++u) {
    load[static_cast<size_t>(u)] = c_.peak_predictor ? static_cast<double>(unit_peak_[static_cast<size_t>(u)]) / 60.0
                                                     : static_cast<double>(unit_count_[static_cast<size_t>(u)]) / secs;
  }
  std::fill(unit_count_.begin(), unit_count_.end(), 0);
  std::fill(unit_peak_.begin(), unit_peak_.end(), 0);
  cur_ = IntervalReport{};
  cur_.start_h = static_cast<double>(t - t0_) / 3.6e12;
  if (t >= t1_) return;
  double pred = 0;
  for (double l : load) pred += l;
  cur_.predicted_iops = pred;
  Apply(t, Decide(load), &cur_);
  interval_end_ = std::min(t1_, t + interval_ns_);
}

void Day::Request(const srcmap::Request& r) {
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
      s = disks_[static_cast<size_t>(disk)].Serve(t, w.serve.offset, len);
      CountIo(disk, t);
      if (w.overflow) ++rep_.overflows;
      if (c_.check) {
        uint32_t want = ++ref_[static_cast<size_t>(v)][e];
        if (w.version != want && rep_.check_errors++ == 0) rep_.first_check_error = "a write's version";
      }
    } else {
      ReplicaManager::ReadResult rd = rm_->Read(v, e, inner, len);
      disk = rd.serve.disk;
      s = disks_[static_cast<size_t>(disk)].Serve(t, rd.serve.offset, len);
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
    unplanned |= s.waited_spinup && !disks_[static_cast<size_t>(disk)].in_active_set();
  }
  rep_.response_ns.Record(static_cast<uint64_t>(done - t));
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
  size_t m = static_cast<size_t>((t - t0_) / kMinNs);
  if (minute_req_.size() <= m) minute_req_.resize(m + 1, 0);
  ++minute_req_[m];
}

Status Day::Run(RequestSource* src) {
  interval_ns_ = static_cast<int64_t>(c_.interval_h * 3.6e12);
  // The first interval predicts from the long-term averages.
  std::vector<double> load(static_cast<size_t>(units_));
  for (int u = 0; u < units_; ++u) load[static_cast<size_t>(u)] = hist_[static_cast<size_t>(rm_->VdiskOf(u))].rho / c_.n_sv;
  cur_.start_h = 0;
  for (double l : load) cur_.predicted_iops += l;
  Apply(t0_, Decide(load), &cur_);
  interval_end_ = std::min(t1_, t0_ + interval_ns_);
  srcmap::Request r;
  auto drain = [&](int64_t t) {
    while (!deferred_.empty() && deferred_.top().t <= t) {
      Deferred d = deferred_.top();
      deferred_.pop();
      Serve(d);
    }
  };
  // Closes every minute and interval that ends at or before `t`, in time order; false once
  // the window's last interval has closed.
  auto advance_to = [&](int64_t t) {
    while (true) {
      int64_t minute_end = t0_ + (minute_ + 1) * kMinNs;
      int64_t next = std::min(minute_end, interval_end_);
      if (next > t) break;
      drain(next);
      if (minute_end == next) CloseMinute(minute_end);
      if (interval_end_ == next) {
        if (interval_end_ >= t1_) {
          EndInterval(t1_);
          return false;
        }
        EndInterval(interval_end_);
      }
    }
    drain(t);
    return true;
  };
  bool open = true;
  while (open && src->Next(&r)) {
    if (r.t_ns < t0_) continue;
    if (r.t_ns >= t1_) break;
    if (static_cast<int>(r.volume) >= n_) return Status::InvalidArgument("day: a request names volume " + std::to_string(r.volume));
    open = advance_to(r.t_ns);
    if (open) Request(r);
  }
  if (open) advance_to(t1_);
  drain(INT64_MAX);  // what was issued before the end still runs
  return Status::Ok();
}

DayReport Day::Finish() {
  for (auto& d : disks_) d.Settle(t1_);
  const DiskPower& pw = c_.power;
  const double span_s = static_cast<double>(t1_ - t0_) / 1e9;
  rep_.hours = span_s / 3600;
  size_t nint = intervals_.size();
  std::vector<double> joules(nint, 0), spin_s(nint, 0);
  auto bin_of = [&](int64_t t) {
    return std::min(nint - 1, static_cast<size_t>(std::max<int64_t>(0, t - t0_) / std::max<int64_t>(1, interval_ns_)));
  };
  auto add = [&](int64_t a, int64_t b, double watts, double spinning, std::vector<double>* j, std::vector<double>* s) {
    while (a < b) {  // split at interval edges
      size_t k = bin_of(a);
      int64_t edge = std::min(b, t0_ + static_cast<int64_t>(k + 1) * interval_ns_);
      if (k == nint - 1) edge = b;
      double dt = static_cast<double>(edge - a) / 1e9;
      (*j)[k] += watts * dt;
      (*s)[k] += spinning * dt;
      a = edge;
    }
  };
  // Table 3.3(b) on the primaries not in standby.
  struct Ev {
    int64_t t;
    int disk;
    DiskServer::State to;
  };
  std::vector<Ev> evs;
  for (int j = 0; j < n_; ++j)
    for (const auto& ch : disks_[static_cast<size_t>(j)].changes())
      if (ch.t_ns < t1_) evs.push_back(Ev{std::max(ch.t_ns, t0_), j, ch.to});
  std::stable_sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) { return a.t < b.t; });
  std::vector<DiskServer::State> st(static_cast<size_t>(n_), DiskServer::kSpinning);
  int64_t at = t0_;
  auto spinning = [&]() {
    int k = 0;
    for (auto s : st) k += s != DiskServer::kStandby;
    return k;
  };
  const double surge = (pw.spinup_w - pw.spinning_w) * pw.spinup_s;
  for (const Ev& e : evs) {
    add(at, e.t, SystemWatts(spinning()), spinning(), &joules, &spin_s);
    at = e.t;
    st[static_cast<size_t>(e.disk)] = e.to;
    if (e.to == DiskServer::kSpinningUp) {
      joules[bin_of(e.t)] += surge;
      ++intervals_[bin_of(e.t)].spin_ups;
    }
  }
  add(at, t1_, SystemWatts(spinning()), spinning(), &joules, &spin_s);
  // Per-disk profile energy, and the cache disks' on top of the table.
  rep_.disks.resize(static_cast<size_t>(ndisks()));
  std::vector<double> dummy(nint, 0);
  double per_disk_j = 0;
  for (int j = 0; j < ndisks(); ++j) {
    const DiskServer& d = disks_[static_cast<size_t>(j)];
    DiskReport& dr = rep_.disks[static_cast<size_t>(j)];
    dr.spin_ups = d.spin_ups();
    dr.planned_spin_ups = d.planned_spin_ups();
    dr.served = d.served();
    dr.misses = disk_misses_[static_cast<size_t>(j)];
    DiskServer::State s = DiskServer::kSpinning;
    int64_t a = t0_;
    std::vector<double> jj(nint, 0), ss(nint, 0);
    auto seg = [&](int64_t b) {
      double w = s == DiskServer::kStandby ? pw.standby_w : s == DiskServer::kSpinningUp ? pw.spinup_w : pw.spinning_w;
      add(a, b, w, s != DiskServer::kStandby ? 1 : 0, &jj, &ss);
    };
    for (const auto& ch : d.changes()) {
      int64_t t = std::min(std::max(ch.t_ns, t0_), t1_);
      seg(t);
      a = t;
      s = ch.to;
    }
    seg(t1_);
    disk_joules_.push_back(jj);
    for (size_t k = 0; k < nint; ++k) {
      dr.joules += jj[k];
      dr.spinning_h += ss[k] / 3600;
      if (j >= n_) joules[k] += jj[k];  // a cache disk
    }
    per_disk_j += dr.joules;
  }
  double total_j = 0, total_spin = 0;
  for (size_t k = 0; k < nint; ++k) {
    int64_t a = t0_ + static_cast<int64_t>(k) * interval_ns_;
    int64_t b = k == nint - 1 ? t1_ : a + interval_ns_;
    double secs = static_cast<double>(b - a) / 1e9;
    intervals_[k].watts = joules[k] / secs;
    intervals_[k].avg_spinning = spin_s[k] / secs;
    intervals_[k].capacity_iops = 0;
    for (int j = 0; j < n_; ++j) intervals_[k].capacity_iops += cap_[static_cast<size_t>(j)];
    total_j += joules[k];
    total_spin += spin_s[k];
  }
  rep_.avg_watts = total_j / span_s;
  rep_.avg_spinning = total_spin / span_s;
  rep_.per_disk_sum_watts = per_disk_j / span_s;
  rep_.all_on_watts = SystemWatts(n_) + ncache() * pw.spinning_w;
  rep_.standby_watts = SystemWatts(0) + ncache() * pw.standby_w;
  rep_.intervals = intervals_;
  const auto& k = rm_->counters();
  rep_.dropped = k.dropped;
  if (c_.check) {
    std::string e = rm_->CheckConsistent();
    if (!e.empty() && rep_.check_errors++ == 0) rep_.first_check_error = "at the end: " + e;
  }
  AddExtras();
  return std::move(rep_);
}

// The report's additions: per-interval volume and disk figures, the per-minute samples (the
// same power integration as Finish's, binned by minute), the spin-up events, Eq. 3.1's ideal.
void Day::AddExtras() {
  const DiskPower& pw = c_.power;
  const size_t nint = intervals_.size();
  const size_t nd = static_cast<size_t>(ndisks());
  auto secs_of = [&](size_t k) {
    int64_t a = t0_ + static_cast<int64_t>(k) * interval_ns_;
    int64_t b = k == nint - 1 ? t1_ : a + interval_ns_;
    return static_cast<double>(b - a) / 1e9;
  };
  auto per_interval = [&](const std::vector<std::vector<uint64_t>>& bins, size_t width) {
    std::vector<std::vector<double>> out(nint, std::vector<double>(width, 0));
    for (size_t k = 0; k < bins.size(); ++k)
      for (size_t i = 0; i < width; ++i) out[std::min(k, nint - 1)][i] += static_cast<double>(bins[k][i]);
    for (size_t k = 0; k < nint; ++k)
      for (double& x : out[k]) x /= secs_of(k);
    return out;
  };
  rep_.volume_iops = per_interval(bin_vol_, static_cast<size_t>(n_));
  rep_.disk_iops = per_interval(bin_disk_, nd);
  rep_.disk_watts.assign(nint, std::vector<double>(nd, 0));
  for (size_t k = 0; k < nint; ++k)
    for (size_t j = 0; j < nd; ++j) rep_.disk_watts[k][j] = disk_joules_[j][k] / secs_of(k);
  rep_.disk_active = int_active_;
  rep_.disk_active.resize(nint, current_.active);
  // Minutes.
  const size_t nmin = static_cast<size_t>((t1_ - t0_ + kMinNs - 1) / kMinNs);
  std::vector<double> mj(nmin, 0), ms(nmin, 0);
  auto mbin = [&](int64_t t) { return std::min(nmin - 1, static_cast<size_t>(std::max<int64_t>(0, t - t0_) / kMinNs)); };
  auto addm = [&](int64_t a, int64_t b, double watts, double spinning) {
    while (a < b) {
      size_t k = mbin(a);
      int64_t edge = k == nmin - 1 ? b : std::min(b, t0_ + static_cast<int64_t>(k + 1) * kMinNs);
      double dt = static_cast<double>(edge - a) / 1e9;
      mj[k] += watts * dt;
      ms[k] += spinning * dt;
      a = edge;
    }
  };
  struct Ev {
    int64_t t;
    int disk;
    DiskServer::State to;
  };
  std::vector<Ev> evs;
  for (int j = 0; j < n_; ++j)
    for (const auto& ch : disks_[static_cast<size_t>(j)].changes())
      if (ch.t_ns < t1_) evs.push_back(Ev{std::max(ch.t_ns, t0_), j, ch.to});
  std::stable_sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) { return a.t < b.t; });
  std::vector<DiskServer::State> st(static_cast<size_t>(n_), DiskServer::kSpinning);
  auto spinning = [&]() {
    int k = 0;
    for (auto x : st) k += x != DiskServer::kStandby;
    return k;
  };
  const double surge = (pw.spinup_w - pw.spinning_w) * pw.spinup_s;
  int64_t at = t0_;
  for (const Ev& e : evs) {
    addm(at, e.t, SystemWatts(spinning()), spinning());
    at = e.t;
    st[static_cast<size_t>(e.disk)] = e.to;
    if (e.to == DiskServer::kSpinningUp) mj[mbin(e.t)] += surge;
  }
  addm(at, t1_, SystemWatts(spinning()), spinning());
  for (int j = n_; j < ndisks(); ++j) {  // cache disks: their per-disk profile on top
    DiskServer::State x = DiskServer::kSpinning;
    int64_t a = t0_;
    auto seg = [&](int64_t b) {
      addm(a, b, x == DiskServer::kStandby ? pw.standby_w : x == DiskServer::kSpinningUp ? pw.spinup_w : pw.spinning_w, 0);
    };
    for (const auto& ch : disks_[static_cast<size_t>(j)].changes()) {
      int64_t t = std::min(std::max(ch.t_ns, t0_), t1_);
      seg(t);
      a = t;
      x = ch.to;
    }
    seg(t1_);
  }
  double cap_all = 0;
  for (int j = 0; j < n_; ++j) cap_all += cap_[static_cast<size_t>(j)];
  double in_force = 0;
  for (size_t j = 0; j < nd; ++j) in_force += current_.active[j] ? cap_[j] : 0;
  rep_.minutes.resize(nmin);
  double ideal = 0;
  for (size_t k = 0; k < nmin; ++k) {
    int64_t a = t0_ + static_cast<int64_t>(k) * kMinNs;
    double secs = static_cast<double>(std::min(t1_, a + kMinNs) - a) / 1e9;
    MinuteSample& m = rep_.minutes[k];
    m.t_h = static_cast<double>(a - origin_) / 3.6e12;
    m.watts = mj[k] / secs;
    m.spinning = ms[k] / secs;
    m.load_iops = static_cast<double>(k < minute_req_.size() ? minute_req_[k] : 0) / secs;
    m.capacity_iops = k < minute_cap_.size() ? minute_cap_[k] : in_force;
    ideal += IdealWatts(m.load_iops, cap_all);
  }
  rep_.ideal_watts = nmin > 0 ? ideal / static_cast<double>(nmin) : 0;
  // Spin-up events, every disk's, in time order.
  for (int j = 0; j < ndisks(); ++j) {
    for (const auto& ch : disks_[static_cast<size_t>(j)].changes()) {
      if (ch.to != DiskServer::kSpinningUp) continue;
      bool planned = std::find(planned_ups_.begin(), planned_ups_.end(), std::make_pair(ch.t_ns, j)) != planned_ups_.end();
      rep_.spin_up_events.push_back(SpinUp{static_cast<double>(ch.t_ns - origin_) / 3.6e12, j, planned});
    }
  }
  std::stable_sort(rep_.spin_up_events.begin(), rep_.spin_up_events.end(),
                   [](const SpinUp& a, const SpinUp& b) { return a.t_h < b.t_h; });
}

}  // namespace

double FractionAbove(const sim::LogHistogram& h, double ns) {
  if (h.count() == 0) return 0;
  double below = 0;
  for (const auto& [v, f] : h.Cdf(1 << 20)) {
    if (v > ns) break;
    below = f;
  }
  return 1 - below;
}

const char* PolicyName(Policy p) {
  switch (p) {
    case Policy::kSrcmap: return "srcmap";
    case Policy::kBaselineOn: return "baseline-on";
    case Policy::kCaching1: return "caching-1";
    case Policy::kCaching2: return "caching-2";
    case Policy::kReplication: return "replication";
  }
  return "?";
}

double IdealWatts(double load_iops, double capacity_iops) {
  const double peak = SystemWatts(kNumDisks);  // Table 3.3(b): 66.1 W with every disk spinning
  if (!(capacity_iops > 0)) return peak;
  return peak * std::min(1.0, load_iops / capacity_iops);
}

namespace {
StatusOr<DayReport> RunDayFrom(const std::vector<VolumeHistory>& hist, uint32_t extent_bytes, RequestSource* src,
                               int64_t origin_ns, int64_t t0_ns, int64_t t1_ns, const DayConfig& c) {
  Day day(hist, extent_bytes, c, origin_ns, t0_ns, t1_ns);
  Status s = day.Setup();
  if (!s.ok()) return s;
  s = day.Run(src);
  if (!s.ok()) return s;
  return day.Finish();
}
}  // namespace

StatusOr<DayReport> RunDay(const std::vector<VolumeHistory>& hist, uint32_t extent_bytes, RequestSource* src,
                           int64_t t0_ns, int64_t t1_ns, const DayConfig& c) {
  return RunDayFrom(hist, extent_bytes, src, t0_ns, t0_ns, t1_ns, c);
}

StatusOr<std::vector<VolumeHistory>> GeneratedHistory(const Generator& g, int history_days) {
  if (history_days < 2) return Status::InvalidArgument("day: history_days must be at least 2");
  std::vector<VolumeHistory> hist(static_cast<size_t>(g.num_volumes()));
  std::vector<uint64_t> rd, wr;
  for (int v = 0; v < g.num_volumes(); ++v) {
    VolumeHistory& h = hist[static_cast<size_t>(v)];
    h.bytes = g.config().volumes[static_cast<size_t>(v)].size_bytes;
    h.rho = g.config().volumes[static_cast<size_t>(v)].avg_iops * g.config().rate_scale;
    std::unordered_set<uint64_t> ws;
    int last = history_days - 1;
    for (int d = 0; d < last; ++d) {
      g.TouchedOnDay(v, d, &rd, &wr);
      ws.insert(rd.begin(), rd.end());
      ws.insert(wr.begin(), wr.end());
    }
    g.TouchedOnDay(v, last, &rd, &wr);  // the last day's read misses against the days before
    for (uint64_t e : rd) h.misses += ws.count(e) ? 0 : 1;
    ws.insert(rd.begin(), rd.end());
    ws.insert(wr.begin(), wr.end());
    h.ws.assign(ws.begin(), ws.end());
    std::sort(h.ws.begin(), h.ws.end());
  }
  return hist;
}

StatusOr<DayReport> RunGeneratedDayWith(const Generator& g, const std::vector<VolumeHistory>& hist, const DayConfig& c) {
  if (c.history_days < 2) return Status::InvalidArgument("day: history_days must be at least 2");
  if (!(c.from_h >= 0 && c.to_h <= 24 && c.from_h < c.to_h)) return Status::InvalidArgument("day: need 0 <= from_h < to_h <= 24");
  if (hist.size() != static_cast<size_t>(g.num_volumes())) {
    return Status::InvalidArgument("day: the history has " + std::to_string(hist.size()) + " volumes, the workload " +
                                   std::to_string(g.num_volumes()));
  }
  int64_t day0 = static_cast<int64_t>(c.history_days) * kDayNs;
  auto src = g.Day(c.history_days);
  return RunDayFrom(hist, g.config().extent_bytes, src.get(), day0, day0 + static_cast<int64_t>(c.from_h * 3.6e12),
                    day0 + static_cast<int64_t>(c.to_h * 3.6e12), c);
}

StatusOr<DayReport> RunGeneratedDay(const Generator& g, const DayConfig& c) {
  if (c.history_days < 2) return Status::InvalidArgument("day: history_days must be at least 2");
  if (!(c.from_h >= 0 && c.to_h <= 24 && c.from_h < c.to_h)) return Status::InvalidArgument("day: need 0 <= from_h < to_h <= 24");
  auto hist = GeneratedHistory(g, c.history_days);
  if (!hist.ok()) return hist.status();
  return RunGeneratedDayWith(g, hist.value(), c);
}

StatusOr<DayReport> RunImportedTrace(const ImportedTrace& t, int64_t history_ns, const DayConfig& c) {
  if (history_ns <= 0 || history_ns >= t.span_ns) {
    return Status::InvalidArgument("day: the history must end inside the trace (0 < history_ns < span)");
  }
  const uint32_t eb = 65536;
  std::vector<VolumeHistory> hist(t.volume_names.size());
  std::vector<std::unordered_set<uint64_t>> ws(hist.size()), before_last(hist.size());
  std::vector<std::vector<uint64_t>> last_reads(hist.size());
  std::vector<uint64_t> count(hist.size(), 0);
  int64_t last_day = std::max<int64_t>(0, history_ns - kDayNs);
  for (const srcmap::Request& r : t.requests) {
    if (r.t_ns >= history_ns) break;
    uint64_t e = r.offset / eb;
    ++count[r.volume];
    if (r.t_ns >= last_day && !r.write) last_reads[r.volume].push_back(e);
    if (r.t_ns < last_day) before_last[r.volume].insert(e);
    ws[r.volume].insert(e);
  }
  for (size_t v = 0; v < hist.size(); ++v) {
    hist[v].bytes = std::max<uint64_t>(t.volume_bytes[v], eb);
    hist[v].ws.assign(ws[v].begin(), ws[v].end());
    std::sort(hist[v].ws.begin(), hist[v].ws.end());
    std::sort(last_reads[v].begin(), last_reads[v].end());
    last_reads[v].erase(std::unique(last_reads[v].begin(), last_reads[v].end()), last_reads[v].end());
    for (uint64_t e : last_reads[v]) hist[v].misses += before_last[v].count(e) ? 0 : 1;
    hist[v].rho = static_cast<double>(count[v]) / (static_cast<double>(history_ns) / 1e9);
  }
  VectorSource src(&t.requests);
  return RunDayFrom(hist, eb, &src, history_ns, history_ns, t.span_ns + 1, c);
}

}  // namespace fawnlab::srcmap
