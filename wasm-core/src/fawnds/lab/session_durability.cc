// FawndsSession: checkpoint and sync (durable points), crash (the power cut) and recover.
#include <memory>
#include <utility>

#include "fawnds/lab/session.h"
#include "fawnds/lab/session_ops.h"

namespace fawnlab::fawndslab {
namespace {

constexpr uint64_t kDrainEvents = 100'000'000;  // a crashed node's leftover events before recovery

}  // namespace

StatusOr<std::string> FawndsSession::DoDurable(const std::string& kind, const ParamValues& args) {
  if (Status s = NotCrashed(); !s.ok()) return s;
  const uint64_t gen = generation_;
  struct State {
    int pending = 0;
  };
  auto st = std::make_shared<State>();
  auto flag = std::make_shared<bool>(false);
  auto cb = [this, st, flag, gen](const Status&) {
    if (gen != generation_) return;
    if (--st->pending == 0) *flag = true;
  };
  const sim::SimTime t0 = sim_.now();
  std::vector<size_t> which;
  if (kind == "sync") {
    Status s = node_->SyncAll(cb);
    if (!s.ok()) return s;
    ++st->pending;
  } else {
    if (args.Has("store")) {
      auto i = StoreArg(args, "store");
      if (!i.ok()) return i.status();
      which.push_back(i.value());
    } else {
      for (size_t i = 0; i < node_->num_stores(); ++i) which.push_back(i);
    }
    for (size_t i : which) {
      const fawnds::DataStore* s = &node_->store(i);
      if (s == node_->maintenance_source() || s == node_->maintenance_destination()) {
        return Status::InvalidArgument("store " + std::to_string(i) + " is in a running " + node_->progress().kind +
                                       "; it is checkpointed when that ends");
      }
    }
    for (size_t i : which) {
      ++st->pending;
      Status s = node_->store(i).Checkpoint(cb);
      if (!s.ok()) return s;
    }
    ++version_;
  }
  if (!RunUntilDone(flag.get(), kOpEvents)) return Status::Internal(kind + " did not complete within the event budget");
  puts_since_sync_ = 0;
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String(kind);
  if (kind == "checkpoint") {
    w.Key("stores");
    w.BeginArray(true);
    for (size_t i : which) w.Int(static_cast<int64_t>(i));
    w.EndArray();
  }
  w.Key("latency_ns");
  w.Number(static_cast<double>(sim_.now() - t0));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawndsSession::DoCrash() {
  if (Status s = NotCrashed(); !s.ok()) return Status::InvalidArgument("the node has already crashed: recover it");
  const uint64_t unsynced = injector_->unsynced_bytes();
  // Every table up to date with what the stores wrote before the power goes.
  std::vector<std::pair<const fawnds::DataStore*, uint64_t>> stores;
  for (size_t i = 0; i < node_->num_stores(); ++i) stores.emplace_back(&node_->store(i), node_->slot(i));
  const fawnds::DataStore* building = nullptr;
  if (node_->maintenance_running() && node_->progress().kind != "merge") building = node_->maintenance_destination();
  if (building) stores.emplace_back(building, building->options().region_offset / (uint64_t(config_.file_mb) << 20));
  for (const auto& [s, _] : stores) TableFor(s).CatchUp(*s);
  device::FaultPlan plan;
  plan.crash_at = 1;
  plan.lose_unsynced = true;
  if (Status s = injector_->Arm(plan); !s.ok()) return s;
  (void)injector_->Submit(device::IoCommand::Single(device::IoEntry::Flush()), nullptr);  // the power cut: refused
  frozen_.clear();
  uint64_t lost = 0;
  for (const auto& [s, slot] : stores) {
    LogTable& t = TableFor(s);
    Frozen f{s->options().range, slot, s->log_capacity(), LogColumns(), t.MarkLost(*s)};
    f.log = t.Columns(*s);
    lost += f.lost;
    frozen_.push_back(std::move(f));
  }
  crashed_ = true;
  crashed_at_ = sim_.now();
  ++generation_;
  ++arrival_token_;
  ++version_;
  outstanding_ = 0;
  if (saw_running_) {
    maint_spans_.emplace_back(maint_started_, sim_.now(), maint_kind_ + " (crashed)");
    maint_result_ = maint_kind_ + " cut short by the crash";
    saw_running_ = false;
  }
  if (saw_locked_) {
    locks_.push_back({lock_started_, sim_.now()});
    saw_locked_ = false;
  }
  tables_.clear();
  has_lookup_ = false;
  zombie_ = std::move(node_);
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("crash");
  w.Key("unsynced_bytes");
  w.Number(static_cast<double>(unsynced));
  w.Key("lost_records");
  w.Number(static_cast<double>(lost));
  w.EndObject();
  return w.str();
}

StatusOr<std::string> FawndsSession::DoRecover() {
  if (!crashed_) return Status::InvalidArgument("the node is running: recovery rebuilds the index after a crash (crash it first)");
  // The crashed node's last events (device completions, a lock's end) run out first; they
  // touch nothing, since the device refuses everything.
  uint64_t n = 0;
  while (sim_.pending() > 0 && n < kDrainEvents) {
    sim_.Step();
    ++n;
  }
  if (sim_.pending() > 0) return Status::Internal("the crashed node's events did not drain");
  zombie_.reset();
  cache_.reset();
  injector_->Restart();
  StackUp();
  fawnds::Node::Recovery rep;
  auto node = fawnds::Node::Recover(top_, NodeOpts(), &rep);
  if (!node.ok()) return node.status();
  node_ = std::move(node).value();
  recovery_ = std::make_unique<Recovery>();
  recovery_->list_seq = rep.list_seq;
  recovery_->restricted = rep.restricted;
  recovery_->duration_ns = rep.duration_ns;
  crashed_ = false;
  frozen_.clear();
  tables_.clear();
  for (size_t i = 0; i < node_->num_stores(); ++i) {
    const fawnds::RecoveryReport& r = i < rep.stores.size() ? rep.stores[i] : fawnds::RecoveryReport{};
    recovery_->stores.push_back(RecoveredStore{node_->slot(i), node_->range(i), r});
    LogTable& t = TableFor(&node_->store(i));
    t.CatchUp(node_->store(i));
    t.MarkReplayed(r.replayed_records);
  }
  ++version_;
  ScheduleArrival();
  JsonWriter w;
  w.BeginObject();
  w.Key("op");
  w.String("recover");
  w.Key("stores");
  w.Int(static_cast<int64_t>(node_->num_stores()));
  w.Key("duration_ns");
  w.Number(static_cast<double>(recovery_->duration_ns));
  uint64_t replayed = 0;
  for (const RecoveredStore& f : recovery_->stores) replayed += f.report.replayed_records;
  w.Key("replayed_records");
  w.Number(static_cast<double>(replayed));
  w.EndObject();
  return w.str();
}


}  // namespace fawnlab::fawndslab
