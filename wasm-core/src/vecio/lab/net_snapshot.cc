// NetSession::SnapshotJson: the per-frame picture, NetSnapshot of
// web/src/labs/vector/net/netTypes.ts (docs/vector/net-view.md, "Live view").
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "vecio/lab/net_session.h"

namespace fawnlab::vecio {
namespace {

// Rounded so the snapshot prints short: 1/1000 and 1/100.
double Milli(double v) { return std::round(v * 1000) / 1000; }
double Centi(double v) { return std::round(v * 100) / 100; }

void Num(JsonWriter& w, const char* k, double v) {
  w.Key(k);
  w.Number(v);
}

void Numbers(JsonWriter& w, const char* k, const std::vector<double>& v) {
  w.Key(k);
  w.BeginArray(true);
  for (double x : v) w.Number(x);
  w.EndArray();
}

}  // namespace

std::string NetSession::SnapshotJson() {
  const Window win = WindowNow();
  const Latency lat = LatencyNow();
  const Counters& c = system_->counters();
  const SystemConfig& cfg = system_->config();
  const double s = win.seconds;
  const Counters* f = win.from ? &win.from->counters : nullptr;
  auto rate = [&](uint64_t now, uint64_t before) { return s > 0 ? Centi(static_cast<double>(now - before) / s) : 0.0; };
  const uint64_t keys = f ? c.completed_keys - f->completed_keys : 0;

  JsonWriter w;
  w.BeginObject();
  Num(w, "t_ns", static_cast<double>(sim_.now()));
  Num(w, "window_ns", static_cast<double>(win.from ? sim_.now() - win.from->t : 0));
  w.Key("config");
  w.BeginObject();
  Num(w, "multiget", static_cast<double>(cfg.multiget));
  Num(w, "multiread", static_cast<double>(cfg.multiread));
  w.Key("pattern");
  w.String(PatternName(cfg.pattern));
  Num(w, "queue_timeout_us", cfg.queue_timeout_us);
  Num(w, "load_per_s", cfg.load_per_s);
  Num(w, "clients", static_cast<double>(cfg.clients));
  Num(w, "cores", static_cast<double>(system_->cores()));
  w.Key("host");
  w.String(cfg.host);
  w.EndObject();
  // Which multiread pattern new RPCs take.
  w.Key("path");
  w.String(cfg.pattern == Pattern::kQueue || cfg.multiget < cfg.multiread ? "queue" : "direct");

  w.Key("rates");
  w.BeginObject();
  Num(w, "offered_per_s", f ? rate(c.offered_keys, f->offered_keys) : 0);
  Num(w, "throughput_per_s", f ? rate(c.completed_keys, f->completed_keys) : 0);
  Num(w, "rpcs_per_s", f ? rate(c.rpcs_done, f->rpcs_done) : 0);
  Num(w, "packets_per_s", f ? rate(c.packets_in + c.packets_out, f->packets_in + f->packets_out) : 0);
  Num(w, "nic_irqs_per_s", f ? rate(c.nic_irqs, f->nic_irqs) : 0);
  Num(w, "syscalls_per_s", f ? rate(c.syscalls, f->syscalls) : 0);
  Num(w, "commands_per_s", f ? rate(c.commands, f->commands) : 0);
  Num(w, "io_irqs_per_s", f ? rate(c.io_irqs, f->io_irqs) : 0);
  w.EndObject();

  w.Key("latency_us");
  w.BeginObject();
  Num(w, "rpcs", static_cast<double>(static_cast<int64_t>(lat.rpcs)));
  Num(w, "p50", Centi(lat.p50_us));
  Num(w, "p99", Centi(lat.p99_us));
  Num(w, "mean", Centi(lat.mean_us));
  w.EndObject();

  // Where the cores' time went in the window, by cost kind: cores busy, and core-µs and events per lookup.
  w.Key("cost");
  w.BeginObject();
  w.Key("kinds");
  w.BeginArray(true);
  for (size_t k = 0; k < kCostKinds; ++k) w.String(CostKindName(static_cast<CostKind>(k)));
  w.EndArray();
  std::vector<double> cores(kCostKinds, 0), us_per_key(kCostKinds, 0), events_per_key(kCostKinds, 0);
  double busy_total = 0;
  for (size_t k = 0; f && k < kCostKinds; ++k) {
    const double ns = static_cast<double>(c.busy_ns[k] - f->busy_ns[k]);
    busy_total += ns;
    cores[k] = s > 0 ? Milli(ns / 1e9 / s) : 0;
    us_per_key[k] = keys > 0 ? Milli(ns / 1e3 / static_cast<double>(keys)) : 0;
    events_per_key[k] = keys > 0 ? Milli(static_cast<double>(c.events[k] - f->events[k]) / static_cast<double>(keys)) : 0;
  }
  Numbers(w, "cores", cores);
  Numbers(w, "us_per_key", us_per_key);
  Numbers(w, "events_per_key", events_per_key);
  Num(w, "cores_busy", s > 0 ? Milli(busy_total / 1e9 / s) : 0);
  w.EndObject();

  std::vector<double> per_core;
  for (int k = 0; k < system_->cores(); ++k) {
    const size_t i = static_cast<size_t>(k);
    const double before = win.from && i < win.from->core_busy.size() ? static_cast<double>(win.from->core_busy[i]) : 0;
    per_core.push_back(s > 0 ? Milli((static_cast<double>(system_->core_busy_ns(k)) - before) / 1e9 / s) : 0);
  }
  Numbers(w, "core_busy", per_core);

  std::vector<double> queues;
  for (int k = 0; k < cfg.clients; ++k) queues.push_back(system_->queue_depth(k));
  Numbers(w, "queue_depth", queues);

  // Each DMA channel: the share of the window's samples with a command on it, and its commands now.
  const size_t channels = channel_hits_.size();
  std::vector<double> occupied(channels, 0), on_channel(channels, 0);
  if (win.from && !samples_.empty()) {
    const Sample& last = samples_.back();
    const double n = static_cast<double>(std::max<sim::SimTime>(1, (last.t - win.from->t) / kSampleNs));
    for (size_t k = 0; k < channels && k < win.from->channel_hits.size(); ++k) {
      occupied[k] = Milli(std::min(1.0, static_cast<double>(last.channel_hits[k] - win.from->channel_hits[k]) / n));
    }
  }

  // The RPCs in flight: per stage, and the first kMaxListed (oldest first) one by one.
  std::array<int64_t, static_cast<size_t>(Stage::kCount)> rpcs_at{}, keys_at{};
  int64_t total = 0;
  std::vector<RpcView> listed;
  system_->ForEachInFlight([&](const RpcView& r) {
    const size_t st = static_cast<size_t>(r.stage);
    rpcs_at[st] += 1;
    keys_at[st] += r.keys;
    if (r.stage == Stage::kDevice && r.channel >= 0 && static_cast<size_t>(r.channel) < channels) on_channel[static_cast<size_t>(r.channel)] += 1;
    if (static_cast<size_t>(total++) < kMaxListed) listed.push_back(r);
  });

  w.Key("channels");
  w.BeginObject();
  Numbers(w, "occupied", occupied);
  Numbers(w, "commands", on_channel);
  w.EndObject();

  w.Key("inflight");
  w.BeginObject();
  w.Key("stages");
  w.BeginArray(true);
  for (size_t k = 0; k < static_cast<size_t>(Stage::kCount); ++k) w.String(StageName(static_cast<Stage>(k)));
  w.EndArray();
  Num(w, "total", static_cast<double>(total));
  w.Key("rpcs_at");
  w.BeginArray(true);
  for (int64_t v : rpcs_at) w.Int(v);
  w.EndArray();
  w.Key("keys_at");
  w.BeginArray(true);
  for (int64_t v : keys_at) w.Int(v);
  w.EndArray();
  // [id, stage index, keys, conn, channel (-1 off the device), µs in this stage]
  w.Key("rpcs");
  w.BeginArray();
  for (const RpcView& r : listed) {
    w.BeginArray(true);
    w.Int(static_cast<int64_t>(r.id));
    w.Int(static_cast<int64_t>(r.stage));
    w.Int(r.keys);
    w.Int(r.conn);
    w.Int(r.channel);
    w.Number(Centi(static_cast<double>(sim_.now() - r.since) / 1e3));
    w.EndArray();
  }
  w.EndArray();
  w.EndObject();

  w.Key("trail");
  w.BeginArray();
  for (const Point& p : trail_) {
    w.BeginArray(true);
    w.Int(p.t);
    w.Number(Centi(p.offered));
    w.Number(Centi(p.throughput));
    w.Number(Centi(p.p50_us));
    w.Number(Centi(p.p99_us));
    w.EndArray();
  }
  w.EndArray();

  w.Key("totals");
  w.BeginObject();
  Num(w, "offered_keys", static_cast<double>(c.offered_keys));
  Num(w, "completed_keys", static_cast<double>(c.completed_keys));
  Num(w, "rpcs", static_cast<double>(c.rpcs_done));
  Num(w, "commands", static_cast<double>(c.commands));
  w.EndObject();
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::vecio
