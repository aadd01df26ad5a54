// DayRun's power accounting and report: each minute's power as it closes, and Finish (the
// intervals' power, the per-disk figures, the report's additions). See day_run.h.
#include <algorithm>

#include "srcmap/day_run.h"

namespace fawnlab::srcmap {

const char* DayEventKindName(DayEvent::Kind k) {
  switch (k) {
    case DayEvent::kSpinUp: return "spin-up";
    case DayEvent::kSpinDown: return "spin-down";
    case DayEvent::kRemap: return "remap";
    case DayEvent::kRetrigger: return "retrigger";
    case DayEvent::kInterval: return "interval";
    case DayEvent::kMiss: return "miss";
  }
  return "?";
}

const char* SpinUpCauseName(SpinUpCause c) {
  switch (c) {
    case SpinUpCause::kPlanned: return "planned";
    case SpinUpCause::kReadMiss: return "read miss";
    case SpinUpCause::kOtherIo: return "other I/O";
  }
  return "?";
}

SpinUpCause DayRun::CauseOf(int64_t t, int disk) const {
  const auto key = std::make_pair(t, disk);
  if (std::find(planned_ups_.begin(), planned_ups_.end(), key) != planned_ups_.end()) return SpinUpCause::kPlanned;
  if (std::find(miss_ups_.begin(), miss_ups_.end(), key) != miss_ups_.end()) return SpinUpCause::kReadMiss;
  return SpinUpCause::kOtherIo;
}

// The minute [a, b): Table 3.3(b) on the primaries not in standby, time-averaged, + each
// spin-up's surcharge in the minute it starts, + the cache disks' per-disk watts; the spin-up
// and spin-down events found on the way.
void DayRun::MinutePower(int64_t a, int64_t b, double load_iops, double capacity_iops) {
  const DiskPower& pw = c_.power;
  for (auto& d : disks_) d.Settle(b);
  struct Ev {
    int64_t t;
    int disk;
    DiskServer::State to;
  };
  std::vector<Ev> evs;
  for (int j = 0; j < ndisks(); ++j) {
    const auto& ch = disks_[static_cast<size_t>(j)].changes();
    size_t& i = change_seen_[static_cast<size_t>(j)];
    for (; i < ch.size() && ch[i].t_ns < b; ++i) evs.push_back(Ev{std::max(ch[i].t_ns, t0_), j, ch[i].to});
  }
  std::stable_sort(evs.begin(), evs.end(), [](const Ev& x, const Ev& y) { return x.t < y.t; });
  auto disk_w = [&](DiskServer::State s) {
    return s == DiskServer::kStandby ? pw.standby_w : s == DiskServer::kSpinningUp ? pw.spinup_w : pw.spinning_w;
  };
  double joules = 0, spin_s = 0;
  int64_t at = a;
  auto segment = [&](int64_t to) {
    int spinning = 0;
    double caches = 0;
    for (int j = 0; j < ndisks(); ++j) {
      DiskServer::State s = state_seen_[static_cast<size_t>(j)];
      if (j < n_) spinning += s != DiskServer::kStandby;
      else caches += disk_w(s);
    }
    double dt = static_cast<double>(to - at) / 1e9;
    joules += (SystemWatts(spinning) + caches) * dt;
    spin_s += spinning * dt;
    at = to;
  };
  const double surge = (pw.spinup_w - pw.spinning_w) * pw.spinup_s;
  for (const Ev& e : evs) {
    segment(e.t);
    state_seen_[static_cast<size_t>(e.disk)] = e.to;
    if (e.to == DiskServer::kSpinningUp) {
      if (e.disk < n_) joules += surge;
      const SpinUpCause cause = CauseOf(e.t, e.disk);
      spin_up_events_.push_back(
          SpinUp{static_cast<double>(e.t - origin_) / 3.6e12, e.disk, cause == SpinUpCause::kPlanned, cause});
      Log(e.t, DayEvent::kSpinUp, e.disk, e.disk < n_ ? e.disk : -1,
          cause == SpinUpCause::kPlanned    ? "planned: joins the active set"
          : cause == SpinUpCause::kReadMiss ? "a read miss found it in standby"
                                            : "other I/O found it in standby");
    } else if (e.to == DiskServer::kStandby) {
      Log(e.t, DayEvent::kSpinDown, e.disk, e.disk < n_ ? e.disk : -1, "idle for the timeout outside the active set");
    }
  }
  segment(b);
  const double secs = static_cast<double>(b - a) / 1e9;
  MinuteSample m;
  m.t_h = static_cast<double>(a - origin_) / 3.6e12;
  m.watts = joules / secs;
  m.spinning = spin_s / secs;
  m.load_iops = load_iops;
  m.capacity_iops = capacity_iops;
  minutes_.push_back(m);
  double cap_all = 0;
  for (int j = 0; j < n_; ++j) cap_all += cap_[static_cast<size_t>(j)];
  minute_ideal_.push_back(IdealWatts(load_iops, cap_all));
}

DayReport DayRun::Finish() {
  for (auto& d : disks_) d.Settle(t1_);
  for (const auto& d : disks_) {
    const DiskServer::CacheStats& cs = d.cache_stats();
    rep_.cached_writes += cs.cached_writes;
    rep_.cache_read_hits += cs.read_hits;
    rep_.cache_full_waits += cs.full_waits;
    rep_.destages += cs.destages;
    rep_.destage_s += static_cast<double>(cs.destage_ns) / 1e9;
  }
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
  std::vector<DiskServer::State> st;
  for (int j = 0; j < n_; ++j) st.push_back(disks_[static_cast<size_t>(j)].initial_state());
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
    DiskServer::State s = d.initial_state();
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
  rep_.dropped = k.dropped - dropped_base_;
  if (c_.check) {
    std::string e = rm_->CheckConsistent();
    if (!e.empty() && rep_.check_errors++ == 0) rep_.first_check_error = "at the end: " + e;
  }
  FinishExtras();
  return std::move(rep_);
}

// The report's additions: per-interval volume and disk figures, the per-minute samples (the
// same power integration as Finish's, binned by minute), the spin-up events, Eq. 3.1's ideal.

// The report's additions: per-interval volume and disk figures, the minutes (the last one, when
// the window ends inside it), the spin-up events (with those of I/O run after the end), Eq. 3.1.
void DayRun::FinishExtras() {
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
  // The last minute, when the window ends inside it.
  const size_t nmin = static_cast<size_t>((t1_ - t0_ + kMinNs - 1) / kMinNs);
  if (minutes_.size() < nmin) {
    int64_t a = t0_ + static_cast<int64_t>(minutes_.size()) * kMinNs;
    uint64_t agg = 0;
    for (uint64_t x : unit_minute_) agg += x;
    MinutePower(a, t1_, static_cast<double>(agg) / (static_cast<double>(t1_ - a) / 1e9), active_capacity());
  }
  // Spin-ups of the I/O that ran after the end.
  for (int j = 0; j < ndisks(); ++j) {
    const auto& ch = disks_[static_cast<size_t>(j)].changes();
    for (size_t i = change_seen_[static_cast<size_t>(j)]; i < ch.size(); ++i) {
      if (ch[i].to != DiskServer::kSpinningUp) continue;
      const SpinUpCause cause = CauseOf(ch[i].t_ns, j);
      spin_up_events_.push_back(
          SpinUp{static_cast<double>(ch[i].t_ns - origin_) / 3.6e12, j, cause == SpinUpCause::kPlanned, cause});
    }
  }
  std::stable_sort(spin_up_events_.begin(), spin_up_events_.end(), [](const SpinUp& x, const SpinUp& y) { return x.t_h < y.t_h; });
  double ideal = 0;
  for (double x : minute_ideal_) ideal += x;
  rep_.ideal_watts = minute_ideal_.empty() ? 0 : ideal / static_cast<double>(minute_ideal_.size());
  rep_.minutes = minutes_;
  rep_.spin_up_events = spin_up_events_;
}

}  // namespace fawnlab::srcmap
