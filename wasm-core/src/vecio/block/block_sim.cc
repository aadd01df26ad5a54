// BlockSim: the Ch. 6 issue and interrupt paths as tasks on cores (contract in block_sim.h).
#include "vecio/block/block_sim.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace fawnlab::vecio::block {

Status Validate(const BlockConfig& c) {
  if (!FindHost(c.host)) return Status::InvalidArgument("host '" + c.host + "' is not one of atom-d510, xeon");
  if (c.scheduler != "cfq" && c.scheduler != "noop")
    return Status::InvalidArgument("scheduler '" + c.scheduler + "' is not one of cfq, noop");
  if (c.coalescing != "none" && c.coalescing != "napi" && c.coalescing != "defer")
    return Status::InvalidArgument("coalescing '" + c.coalescing + "' is not one of none, napi, defer");
  if (!(c.defer_us >= 10 && c.defer_us <= 1000)) return Status::InvalidArgument("defer_us must be in [10, 1000]");
  if (c.iodepth < 1 || c.iodepth > 64) return Status::InvalidArgument("iodepth must be in [1, 64]");
  if (c.block_bytes < 512 || c.block_bytes > 16384 || c.block_bytes % 512 != 0)
    return Status::InvalidArgument("block_bytes must be a multiple of 512 in [512, 16384]");
  if (!(c.tool_extra_us >= 0 && c.tool_extra_us <= 1000)) return Status::InvalidArgument("tool_extra_us must be in [0, 1000]");
  return Status::Ok();
}

BlockSim::BlockSim(sim::Simulator* sim, const BlockConfig& c, uint64_t seed)
    : sim_(sim), cfg_(c), host_(FindHost(c.host)), rng_(sim::Rng::ForStream(seed, 0xB10C)) {
  assert(Validate(c).ok());
  x25_ = std::make_unique<X25>(sim_, seed, [this](uint32_t io) { Posted(io); });
  cores_.resize(static_cast<size_t>(host_->cores));
}

void BlockSim::Reconfigure(const BlockConfig& c) {
  assert(Validate(c).ok() && c.host == cfg_.host);
  const bool was_waiting = waiting_;
  cfg_ = c;
  if (was_waiting && inflight_ < cfg_.iodepth) {
    waiting_ = false;
    StartIo();
  }
}

sim::SimDuration BlockSim::Cost(double us) const { return sim::UsToNs(us); }

IoRecord& BlockSim::Rec(uint32_t io) {
  assert(io >= open_base_ && io - open_base_ < open_.size());
  return open_[io - open_base_];
}

void BlockSim::ForEachOpen(const std::function<void(const IoRecord&)>& fn) const {
  for (const auto& r : open_)
    if (r.c < 0) fn(r);
}

void BlockSim::Push(int core, bool irq, sim::SimDuration dur, std::function<void(sim::SimTime)> done) {
  Core& k = cores_[static_cast<size_t>(core)];
  (irq ? k.irq : k.proc).push_back(Task{dur, std::move(done)});
  if (!k.running) RunNext(core);
}

void BlockSim::RunNext(int core) {
  Core& k = cores_[static_cast<size_t>(core)];
  if (k.irq.empty() && k.proc.empty()) {
    k.running = false;
    return;
  }
  std::deque<Task>& q = k.irq.empty() ? k.proc : k.irq;
  Task t = std::move(q.front());
  q.pop_front();
  k.running = true;
  const sim::SimTime start = sim_->now();
  k.busy_ns += static_cast<double>(t.dur);
  sim_->Schedule(start + t.dur, [this, core, start, done = std::move(t.done)]() {
    done(start);
    RunNext(core);
  });
}

void BlockSim::Start() { StartIo(); }

// fio's loop on core 0: one I/O through Q, G, I, D, then the driver and back to the next Q.
void BlockSim::StartIo() {
  if (inflight_ >= cfg_.iodepth) {
    waiting_ = true;
    return;
  }
  ++inflight_;
  const uint32_t id = next_id_++;
  IoRecord rec;
  rec.id = id;
  rec.cpu = 0;
  open_.push_back(rec);
  ++counters_.issued;
  const double f = 1 - host_->jitter + 2 * host_->jitter * rng_.UniformDouble();
  double us[4] = {host_->phase_us[0], host_->phase_us[1],
                  cfg_.scheduler == "noop" ? host_->id_noop_us : host_->phase_us[2],
                  host_->phase_us[3] + cfg_.tool_extra_us * host_->vs_atom};
  sim::SimDuration ns[4];
  double total = 0;
  for (int p = 0; p < 4; ++p) {
    ns[p] = Cost(us[p] * f);
    total += static_cast<double>(ns[p]);
  }
  Rec(id).issue_cpu_ns = total;
  auto charge = [this](int p, sim::SimDuration d) {
    ++counters_.phase_events[static_cast<size_t>(p)];
    counters_.phase_busy_ns[static_cast<size_t>(p)] += static_cast<double>(d);
  };
  Push(0, false, ns[0], [=](sim::SimTime start) {
    charge(0, ns[0]);
    Rec(id).q = static_cast<double>(start);
    Rec(id).g = static_cast<double>(sim_->now());
    Push(0, false, ns[1], [=](sim::SimTime) {
      charge(1, ns[1]);
      Rec(id).i = static_cast<double>(sim_->now());
      Push(0, false, ns[2], [=](sim::SimTime) {
        charge(2, ns[2]);
        Rec(id).d = static_cast<double>(sim_->now());
        if (on_issue_) on_issue_(Rec(id));
        driver_q_.push_back(id);
        Dispatch();
        Push(0, false, ns[3], [=](sim::SimTime) {
          charge(3, ns[3]);
          StartIo();
        });
      });
    });
  });
}

void BlockSim::Dispatch() {
  while (!driver_q_.empty() && x25_->outstanding() < X25::kNcqDepth) {
    ++counters_.dispatched;
    x25_->Submit(driver_q_.front(), cfg_.block_bytes);
    driver_q_.pop_front();
  }
}

// The drive posted a completion: raise an interrupt unless one is pending or they are off.
void BlockSim::Posted(uint32_t io) {
  posted_.push_back(io);
  if (irq_enabled_ && !irq_pending_) RaiseIrq();
}

void BlockSim::RaiseIrq() {
  irq_pending_ = true;
  const int cpu = 0;  // every I/O was issued on core 0, and completes there
  const sim::SimDuration h = Cost(host_->irq_us[0]);
  Push(cpu, true, h, [this, h](sim::SimTime start) {
    ++counters_.irq_events[0];
    counters_.irq_busy_ns[0] += static_cast<double>(h);
    ++counters_.interrupts;
    if (cfg_.coalescing == "defer") {
      // Defer: nothing completes now; the timer interrupt D µs on does the work.
      irq_enabled_ = false;
      if (on_irq_) on_irq_(IrqRecord{static_cast<double>(start), 0, 0});
      ArmTimer(sim_->now() + Cost(cfg_.defer_us));
      return;
    }
    if (cfg_.coalescing == "napi") irq_enabled_ = false;
    Collect(start, cfg_.coalescing == "napi");
    if (cfg_.coalescing == "none") irq_pending_ = false;  // the line is live again
  });
}

// The deferral timer: at `at` a timer interrupt completes everything posted.
void BlockSim::ArmTimer(sim::SimTime at) {
  timer_at_ = at;
  sim_->Schedule(at, [this]() {
    const sim::SimDuration ht = Cost(host_->irq_us[0]);
    Push(0, true, ht, [this, ht](sim::SimTime s2) {
      ++counters_.irq_events[0];
      counters_.irq_busy_ns[0] += static_cast<double>(ht);
      ++counters_.interrupts;
      Collect(s2, true);
    });
  });
}

// Takes every posted completion (freeing NCQ tags, refilling the drive) and queues its
// softIRQ + block completion + notify on the issuing core. `batch`: napi/defer, which look
// again when the batch is done (AfterBatch).
void BlockSim::Collect(sim::SimTime start, bool batch) {
  const uint16_t n = static_cast<uint16_t>(posted_.size());
  counters_.collected += n;
  if (start >= 0) {
    FlushIrq();
    open_irq_ = IrqRecord{static_cast<double>(start), n, 0};
    irq_open_ = true;
  } else {
    open_irq_.n = static_cast<uint16_t>(open_irq_.n + n);
  }
  if (!batch) FlushIrq();
  while (!posted_.empty()) {
    const uint32_t io = posted_.front();
    posted_.pop_front();
    x25_->Collect();
    ++batch_left_;
    CompleteTask(io);
  }
  Dispatch();
  if (batch && n == 0 && batch_left_ == 0) AfterBatch();
}

void BlockSim::CompleteTask(uint32_t io) {
  const double f = 1 - host_->jitter + 2 * host_->jitter * rng_.UniformDouble();
  sim::SimDuration parts[3];
  sim::SimDuration sum = 0;
  for (int k = 0; k < 3; ++k) {
    parts[k] = Cost(host_->irq_us[1 + k] * f);
    sum += parts[k];
  }
  Push(Rec(io).cpu, true, sum, [this, io, parts](sim::SimTime) {
    for (int k = 0; k < 3; ++k) {
      ++counters_.irq_events[static_cast<size_t>(1 + k)];
      counters_.irq_busy_ns[static_cast<size_t>(1 + k)] += static_cast<double>(parts[k]);
    }
    IoRecord& r = Rec(io);
    r.c = static_cast<double>(sim_->now());
    ++counters_.completed;
    if (on_complete_) on_complete_(r);
    while (!open_.empty() && open_.front().c >= 0) {
      open_.pop_front();
      ++open_base_;
    }
    --batch_left_;
    --inflight_;
    if (!irq_enabled_ && batch_left_ == 0) AfterBatch();
    if (waiting_ && inflight_ < cfg_.iodepth) {
      waiting_ = false;
      StartIo();
    }
  });
}

// A napi/defer batch is done: poll (napi, at a cost) or look (the timer's loop) for more;
// with none posted, interrupts are back on.
void BlockSim::AfterBatch() {
  if (cfg_.coalescing == "napi") {
    const sim::SimDuration p = Cost(host_->irq_us[4]);
    Push(0, true, p, [this, p](sim::SimTime) {
      ++counters_.irq_events[4];
      counters_.irq_busy_ns[4] += static_cast<double>(p);
      if (!posted_.empty()) {
        Collect(-1, true);
      } else {
        irq_enabled_ = true;
        irq_pending_ = false;
        FlushIrq();
      }
    });
    return;
  }
  if (!posted_.empty()) {
    Collect(-1, true);
    return;
  }
  if (cfg_.coalescing == "defer" && x25_->outstanding() > 0) {
    ArmTimer(std::max(sim_->now(), timer_at_ + Cost(cfg_.defer_us)));  // the next equally spaced tick
    return;
  }
  irq_enabled_ = true;
  irq_pending_ = false;
  FlushIrq();
}

// Reports the interrupt whose batch just ended, with every completion it (or its poll rounds,
// or its timer loop) collected.
void BlockSim::FlushIrq() {
  if (!irq_open_) return;
  irq_open_ = false;
  if (on_irq_) on_irq_(open_irq_);
}

}  // namespace fawnlab::vecio::block
