// BlockSession (contract in block_session.h).
#include "vecio/lab/block_session.h"

#include <algorithm>
#include <utility>

#include "base/json_writer.h"
#include "base/params.h"

namespace fawnlab::vecio {
namespace {

constexpr double kGapBinUs = 5;
constexpr int kGapBins = 80;  // [0, 400) µs; the last bin holds the rest

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

std::vector<ParamSpec> BlockSession::Schema() {
  return {
      ParamSpec::Choice("host", "atom-d510", {"atom-d510", "xeon"}, "the host running fio (thesis Fig 6.2)")
          .WithLabels({"Atom D510 1.6 GHz", "Core i7 2.8 GHz (\"Xeon\")"}),
      ParamSpec::Choice("scheduler", "cfq", {"cfq", "noop"}, "the I/O scheduler (its cost is the ID phase)"),
      ParamSpec::Choice("coalescing", "none", {"none", "napi", "defer"},
                        "interrupts: one per completion, NAPI (blk-iopoll) polling, or deferral by defer_us"),
      ParamSpec::Real("defer_us", 160, 10, 1000, "µs", "the deferral D (coalescing = defer)"),
      ParamSpec::Int("iodepth", 64, 1, 64, "I/Os", "fio's outstanding I/Os"),
      ParamSpec::Choice("block_bytes", "512", {"512", "1024", "2048", "4096", "8192", "16384"}, "read size in bytes"),
  };
}

std::vector<ViewInfo> BlockSession::Views() {
  return {{"timeline", "each I/O's blktrace Q, G, I, D, C times and the interrupts, over the last window_us",
           {ParamSpec::Int("window_us", 1000, 100, 20000, "µs", "how far back from now")}}};
}

block::BlockConfig BlockSession::FromParams(const ParamValues& p) {
  block::BlockConfig c;
  c.host = p.Choice("host");
  c.scheduler = p.Choice("scheduler");
  c.coalescing = p.Choice("coalescing");
  c.defer_us = p.Real("defer_us");
  c.iodepth = static_cast<int>(p.Int("iodepth"));
  c.block_bytes = std::stoi(p.Choice("block_bytes"));
  return c;
}

StatusOr<std::unique_ptr<BlockSession>> BlockSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<BlockSession>("vector.block", config_json, seed);
}

StatusOr<std::unique_ptr<LabSession>> BlockSession::New(const ParamValues& config, uint64_t seed) {
  const block::BlockConfig c = FromParams(config);
  Status st = block::Validate(c);
  if (!st.ok()) return st;
  std::unique_ptr<BlockSession> s(new BlockSession());
  s->model_ = std::make_unique<block::BlockSim>(&s->sim_, c, seed);
  BlockSession* self = s.get();
  s->model_->set_on_issue([self](const block::IoRecord& r) { self->issued_.push_back(r); });
  s->model_->set_on_complete([self](const block::IoRecord& r) { self->completed_.push_back(r); });
  s->model_->set_on_irq([self](const block::IrqRecord& r) {
    self->irqs_.push_back(r);
    self->irq_completions_ += r.n;
  });
  s->model_->Start();
  s->samples_.push_back(s->Now());
  return std::unique_ptr<LabSession>(std::move(s));
}

BlockSession::Sample BlockSession::Now() const {
  Sample s{sim_.now(), model_->counters().issued, model_->counters().completed, model_->counters().interrupts,
           irq_completions_, {}};
  for (int k = 0; k < model_->cores(); ++k) s.busy.push_back(model_->core_busy_ns(k));
  return s;
}

void BlockSession::Trim() {
  const double keep = static_cast<double>(sim_.now() - std::max(kRecent, kKeep));
  while (!issued_.empty() && issued_.front().d < keep) issued_.pop_front();
  while (!completed_.empty() && completed_.front().c < keep) completed_.pop_front();
  while (!irqs_.empty() && irqs_.front().t < keep) irqs_.pop_front();
  while (samples_.size() > 1 && samples_[1].t <= sim_.now() - kRecent) samples_.pop_front();
}

void BlockSession::Advanced() {
  samples_.push_back(Now());
  Trim();
}

Status BlockSession::Reconfigured(const ParamValues& config, const ParamValues&) {
  const block::BlockConfig c = FromParams(config);
  Status st = block::Validate(c);
  if (!st.ok()) return st;
  model_->Reconfigure(c);
  return Status::Ok();
}

std::string BlockSession::SnapshotJson() {
  const Sample now = Now();
  const Sample& base = samples_.front();
  const double secs = sim::NsToSec(now.t - base.t);
  auto rate = [&](uint64_t a, uint64_t b) { return secs > 0 ? static_cast<double>(a - b) / secs : 0; };
  const double lo = static_cast<double>(sim_.now() - kRecent);
  std::vector<double> issue, ph[4];
  for (size_t k = 0; k < issued_.size(); ++k) {
    const block::IoRecord& r = issued_[k];
    if (r.q < lo) continue;
    issue.push_back(r.issue_cpu_ns / 1000.0);
    ph[0].push_back((r.g - r.q) / 1000.0);
    ph[1].push_back((r.i - r.g) / 1000.0);
    ph[2].push_back((r.d - r.i) / 1000.0);
    if (k + 1 < issued_.size()) ph[3].push_back((issued_[k + 1].q - r.d) / 1000.0);
  }
  std::vector<double> gaps(kGapBins, 0);
  for (size_t k = 1; k < completed_.size(); ++k) {
    if (completed_[k].c < lo) continue;
    const double gap = (completed_[k].c - completed_[k - 1].c) / 1000.0;
    gaps[static_cast<size_t>(std::min<double>(kGapBins - 1, gap / kGapBinUs))] += 1;
  }
  const uint64_t irqs = now.interrupts - base.interrupts;
  JsonWriter w;
  w.BeginObject();
  w.Key("t_ns");
  w.Number(static_cast<double>(now.t));
  w.Key("iops");
  w.Number(rate(now.completed, base.completed));
  w.Key("completions_per_s");
  w.Number(rate(now.completed, base.completed));
  w.Key("interrupts_per_s");
  w.Number(rate(now.interrupts, base.interrupts));
  w.Key("completions_per_irq");
  w.Number(irqs ? static_cast<double>(now.irq_completions - base.irq_completions) / static_cast<double>(irqs) : 0);
  w.Key("cpu_busy");
  w.BeginArray(true);
  for (size_t k = 0; k < now.busy.size(); ++k)
    w.Number(now.t > base.t ? std::min(1.0, (now.busy[k] - base.busy[k]) / static_cast<double>(now.t - base.t)) : 0);
  w.EndArray();
  w.Key("device_queue");
  w.Number(model_->device().outstanding());
  w.Key("ncq_depth");
  w.Number(block::X25::kNcqDepth);
  w.Key("issue_us");
  w.BeginObject();
  w.Key("median");
  w.Number(Median(issue));
  w.Key("min");
  w.Number(issue.empty() ? 0 : *std::min_element(issue.begin(), issue.end()));
  w.EndObject();
  w.Key("phases_us");
  w.BeginObject();
  const char* names[4] = {"QG", "GI", "ID", "DQ"};
  for (int p = 0; p < 4; ++p) {
    w.Key(names[p]);
    w.Number(Median(ph[p]));
  }
  w.EndObject();
  w.Key("gap_hist");
  w.BeginObject();
  w.Key("bin_us");
  w.Number(kGapBinUs);
  w.Key("counts");
  w.BeginArray(true);
  for (double g : gaps) w.Number(g);
  w.EndArray();
  w.EndObject();
  w.Key("totals");
  w.BeginObject();
  w.Key("issued");
  w.Number(static_cast<double>(now.issued));
  w.Key("completed");
  w.Number(static_cast<double>(now.completed));
  w.Key("interrupts");
  w.Number(static_cast<double>(now.interrupts));
  w.EndObject();
  w.EndObject();
  return w.str();
}

StatusOr<ColumnSet> BlockSession::View(const std::string& name, const ParamValues& args) {
  const double hi = static_cast<double>(sim_.now());
  const double lo = hi - static_cast<double>(args.Int("window_us")) * 1000.0;
  std::vector<uint32_t> io;
  std::vector<uint8_t> cpu;
  std::vector<double> q, g, i, d, c;
  auto add = [&](const block::IoRecord& r) {
    if (r.q < 0 || r.q > hi || (r.c >= 0 && r.c < lo)) return;
    io.push_back(r.id);
    cpu.push_back(r.cpu);
    q.push_back(r.q);
    g.push_back(r.g);
    i.push_back(r.i);
    d.push_back(r.d);
    c.push_back(r.c);
  };
  // Completed I/Os in issue order, then the open ones (issue order too).
  std::vector<block::IoRecord> done(completed_.begin(), completed_.end());
  std::sort(done.begin(), done.end(), [](const block::IoRecord& a, const block::IoRecord& b) { return a.id < b.id; });
  for (const auto& r : done) add(r);
  model_->ForEachOpen(add);
  std::vector<double> irq_t;
  std::vector<uint16_t> irq_n;
  std::vector<uint8_t> irq_cpu;
  for (const auto& r : irqs_) {
    if (r.t < lo || r.t > hi) continue;
    irq_t.push_back(r.t);
    irq_n.push_back(r.n);
    irq_cpu.push_back(r.cpu);
  }
  ColumnSet out;
  out.Number("t_end_ns", hi)
      .U32("io", std::move(io))
      .U8("cpu", std::move(cpu))
      .F64("q", std::move(q))
      .F64("g", std::move(g))
      .F64("i", std::move(i))
      .F64("d", std::move(d))
      .F64("c", std::move(c))
      .F64("irq_t", std::move(irq_t))
      .U16("irq_n", std::move(irq_n))
      .U8("irq_cpu", std::move(irq_cpu));
  (void)name;
  return out;
}

}  // namespace fawnlab::vecio
