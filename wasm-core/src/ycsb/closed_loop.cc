#include "ycsb/closed_loop.h"

#include <algorithm>
#include <utility>

#include "ycsb/keys.h"

namespace fawnlab::ycsb {

ClosedLoop::ClosedLoop(sim::Simulator* sim, std::vector<uint32_t>* versions, uint32_t key_bytes, uint32_t value_bytes,
                       int clients, const PhaseSpec& spec, const std::function<bool(double)>& progress)
    : sim_(sim),
      versions_(versions),
      key_bytes_(key_bytes),
      value_bytes_(value_bytes),
      clients_(clients),
      spec_(spec),
      progress_(progress),
      rmw_weight_(spec.rmw_counts_two ? 2 : 1) {}

Status ClosedLoop::Run() {
  next_sample_ = spec_.sample_every;
  Begin();
  for (int i = 0; i < clients_ && ok(); ++i) Issue();
  uint64_t steps = 0;
  while (completed_ < spec_.total && ok()) {
    if (!sim_->Step()) {
      return Status::Internal("YCSB run stalled: " + std::to_string(completed_) + " of " + std::to_string(spec_.total) +
                              " operations completed and nothing left to happen");
    }
    if (++steps % 2048 == 0 && progress_ && !progress_(Fraction())) return Status::Cancelled("cancelled");
  }
  if (!ok()) return failure_;
  if (!sampled_ || sampled_at_ != completed_) TakeSample();
  Finish(counts_);
  return Status::Ok();
}

double ClosedLoop::Fraction() const {
  const uint64_t total = spec_.total;
  return spec_.p0 +
         (spec_.p1 - spec_.p0) * (total ? static_cast<double>(completed_) / static_cast<double>(total) : 1);
}

void ClosedLoop::Fail(Status s) {
  if (ok()) failure_ = std::move(s);
}

std::string ClosedLoop::Key(uint64_t r) const {
  std::string k;
  KeyFor(r, key_bytes_, &k);
  return k;
}

std::string ClosedLoop::Value(uint64_t r, uint32_t version) const {
  std::string s;
  ValueFor(r, version, value_bytes_, &s);
  return s;
}

uint32_t& ClosedLoop::Version(uint64_t r) {
  if (r >= versions_->size()) versions_->resize(r + 1 + r / 4, 0);
  return (*versions_)[r];
}

void ClosedLoop::Issue() {
  if (issued_ >= spec_.total || !ok()) return;
  if (spec_.gen == nullptr) {  // the load: the next record, version 0
    const uint64_t r = issued_++;
    ++counts_.ops;
    Version(r) = 0;
    ++counts_.inserts;
    Write(r, [this] { Completed(1); });
    return;
  }
  const Op op = spec_.gen->Next();
  const uint64_t r = op.record;
  const uint64_t weight = op.type == OpType::kReadModifyWrite ? rmw_weight_ : 1;
  issued_ += weight;
  counts_.ops += weight;
  switch (op.type) {
    case OpType::kRead:
      Read(r, [this] { Completed(1); });
      break;
    case OpType::kUpdate:
      ++counts_.updates;
      ++Version(r);
      Write(r, [this] { Completed(1); });
      break;
    case OpType::kInsert:
      ++counts_.inserts;
      Version(r) = 0;
      Write(r, [this] { Completed(1); });
      break;
    case OpType::kScan: {
      ++counts_.scans;
      Status s = StoreScan(r, Key(r), op.scan_length, [this](const Status& st) {
        if (!st.ok()) {
          Fail(st);
          return;
        }
        Completed(1);
      });
      if (!s.ok()) Fail(s);
      break;
    }
    case OpType::kReadModifyWrite:
      ++counts_.rmws;
      Read(r, [this, r, weight] {
        ++Version(r);
        Write(r, [this, weight] { Completed(weight); });
      });
      break;
  }
}

void ClosedLoop::Write(uint64_t r, std::function<void()> then) {
  ++counts_.writes;
  const sim::SimTime t0 = sim_->now();
  Status s = StorePut(r, Key(r), Value(r, Version(r)), [this, r, t0, then = std::move(then)](const Status& st) {
    if (!st.ok()) {
      Fail(Status::Internal("YCSB put failed: " + st.message()));
      return;
    }
    OnWriteDone(r, t0);
    then();
  });
  if (!s.ok()) Fail(Status::Internal("YCSB put of record " + std::to_string(r) + " refused: " + s.message()));
}

void ClosedLoop::Read(uint64_t r, std::function<void()> then) {
  ++counts_.reads;
  const uint32_t want = Version(r);
  const sim::SimTime t0 = sim_->now();
  Status s = StoreGet(Key(r), [this, r, want, t0, then = std::move(then)](const Status& st, std::string value) {
    if (st.code() == StatusCode::kNotFound) {
      ++counts_.not_found;
      Fail(Status::Internal("YCSB read of record " + std::to_string(r) + " found nothing"));
      return;
    }
    if (!st.ok()) {
      Fail(Status::Internal("YCSB get failed: " + st.message()));
      return;
    }
    if (value != Value(r, want)) {
      Fail(Status::Internal("YCSB read of record " + std::to_string(r) + " returned the wrong value (expected version " +
                            std::to_string(want) + ")"));
      return;
    }
    OnReadDone(t0);
    then();
  });
  if (!s.ok()) Fail(Status::Internal("YCSB get of record " + std::to_string(r) + " refused: " + s.message()));
}

void ClosedLoop::Completed(uint64_t weight) {
  completed_ += weight;
  while (completed_ >= next_sample_) {
    TakeSample();
    next_sample_ += spec_.sample_every;
  }
  Issue();
}

void ClosedLoop::TakeSample() {
  Sample(completed_);
  sampled_ = true;
  sampled_at_ = completed_;
}

StatusOr<RunPlan> PlanRun(const RunConfig& c, uint64_t records) {
  auto w = FindWorkload(c.workload);
  if (!w.ok()) return Status::InvalidArgument("parameter 'workload': " + w.status().message());
  if (c.clients < 1 || c.clients > 1024) return Status::InvalidArgument("parameter 'clients' must be in 1..1024");
  RunPlan p;
  p.workload = std::move(w).value();
  p.records = records;
  p.ops = c.run ? (c.operations ? c.operations : records) : 0;
  p.load = c.load ? records : 0;
  return p;
}

Status RunPhases(const RunConfig& c, const RunPlan& plan, const std::function<Status(const PhaseSpec&)>& phase,
                 const std::function<Status()>& cold_start) {
  const double all = static_cast<double>(plan.load + plan.ops);
  const double split = all > 0 ? static_cast<double>(plan.load) / all : 0;
  if (plan.load > 0) {
    PhaseSpec p;
    p.total = plan.load;
    p.sample_every = c.sample_every ? c.sample_every : std::max<uint64_t>(1, plan.load / 250);
    p.p0 = 0;
    p.p1 = split;
    p.rmw_counts_two = false;
    if (Status s = phase(p); !s.ok()) return s;
  }
  if (plan.ops > 0 && c.cold_start) {
    if (Status s = cold_start(); !s.ok()) return s;
  }
  if (plan.ops > 0) {
    Generator gen(plan.workload, plan.records, c.seed, plan.ops);
    PhaseSpec p;
    p.gen = &gen;
    p.total = plan.ops;
    p.sample_every = c.sample_every ? c.sample_every : std::max<uint64_t>(1, plan.ops / 250);
    p.p0 = split;
    p.p1 = 1;
    p.rmw_counts_two = c.rmw_counts_two;
    if (Status s = phase(p); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace fawnlab::ycsb
