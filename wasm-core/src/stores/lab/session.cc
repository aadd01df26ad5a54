// StoresSession: the config, the machines (one per store, on one simulator), the stream's
// arrivals, each store's lane (queue, one operation at a time, value checks), samples and the
// background-job events. The operations: session_ops.cc; the snapshot and view: snapshot.cc.
#include "stores/lab/session.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "device/profiles.h"
#include "stores/factory.h"
#include "stores/host.h"
#include "ycsb/keys.h"

namespace fawnlab::stores {
namespace {

constexpr uint64_t kTagSample = 0, kTagArrival = 1;
constexpr uint64_t kLoadEvents = 2'000'000'000;  // the preload's event budget
constexpr uint32_t kKeyBytes = 20, kValueBytes = 200;  // kv/kv_store.h; the CONA thesis §3.2

// The schema's bool for store kind `id` ("cona-1t" -> "cona_1t").
std::string FieldOf(const std::string& id) {
  std::string f = id;
  std::replace(f.begin(), f.end(), '-', '_');
  return f;
}

bool DefaultOn(const std::string& id) { return id == "cona" || id == "silt" || id == "lsm"; }

std::vector<std::string> WorkloadIds() {
  std::vector<std::string> ids = {"load"};
  for (const ycsb::Workload& w : ycsb::CoreWorkloads()) ids.push_back(w.id);
  return ids;
}

std::vector<std::string> WorkloadLabels() {
  std::vector<std::string> labels = {"load (puts of new records only)"};
  for (const ycsb::Workload& w : ycsb::CoreWorkloads()) labels.push_back(w.label);
  return labels;
}

std::vector<std::string> DeviceIds() {
  std::vector<std::string> ids = {"crucial-m500"};
  for (const device::FlashProfile& p : device::FlashProfiles()) {
    if (p.name != "crucial-m500") ids.push_back(p.name);
  }
  return ids;
}

}  // namespace

std::vector<ParamSpec> StoresSession::Schema() {
  const Config c;
  std::vector<ParamSpec> s;
  for (const StoreInfo& k : StoreKinds()) {
    s.push_back(ParamSpec::Bool(FieldOf(k.id), DefaultOn(k.id), "run " + k.label + " (at least one store)"));
  }
  std::vector<std::string> host_ids, host_labels;
  for (const Host& h : Hosts()) {
    host_ids.push_back(h.id);
    host_labels.push_back(h.label);
  }
  const std::vector<std::string> devices = DeviceIds();
  s.push_back(ParamSpec::Choice("workload", c.workload, WorkloadIds(),
                                "what the clients send every store: new records only, or a YCSB core workload")
                  .WithLabels(WorkloadLabels()));
  s.push_back(ParamSpec::Choice("device", c.device, devices, "the flash device under every store (each its own)")
                  .WithLabels(device::ProfileLabels(devices)));
  s.push_back(ParamSpec::Choice("host", c.host, host_ids, "the host every store runs on: its CPU speed, DRAM and power")
                  .WithLabels(host_labels));
  s.push_back(ParamSpec::Int("records", c.records, 0, 500000, "records",
                             "records loaded in order into every store before the session starts"));
  s.push_back(ParamSpec::Real("rate_ops_per_s", c.rate_ops_per_s, 0, 1000000, "ops/s",
                              "operations per virtual second offered to EVERY store (open loop, Poisson; 0: none)"));
  s.push_back(ParamSpec::Int("bloom_bits", c.bloom_bits, 0, 20, "bits/key", "the LSM's Bloom filter bits per key (0: none)"));
  s.push_back(ParamSpec::Real("scale", c.scale, 1e-5, 0.01, "",
                              "the machines' scale: the host's DRAM (its page cache) and the device times this"));
  s.push_back(ParamSpec::Int("max_writes", c.max_writes, 1000, 2000000, "writes",
                             "each store's file is sized for this many puts (updates included); more are refused"));
  return s;
}

std::vector<std::string> StoresSession::LiveFields() { return {"workload", "rate_ops_per_s"}; }

StoresSession::Config StoresSession::FromParams(const ParamValues& p) {
  Config c;
  c.stores.clear();
  for (const StoreInfo& k : StoreKinds()) {
    if (p.Bool(FieldOf(k.id))) c.stores.push_back(k.id);
  }
  c.workload = p.Choice("workload");
  c.device = p.Choice("device");
  c.host = p.Choice("host");
  c.records = p.Int("records");
  c.rate_ops_per_s = p.Real("rate_ops_per_s");
  c.bloom_bits = static_cast<int>(p.Int("bloom_bits"));
  c.scale = p.Real("scale");
  c.max_writes = p.Int("max_writes");
  return c;
}

StatusOr<std::unique_ptr<LabSession>> StoresSession::New(const ParamValues& config, uint64_t seed) {
  Config c = FromParams(config);
  if (c.stores.empty()) {
    std::string fields;
    for (const StoreInfo& k : StoreKinds()) fields += (fields.empty() ? "" : ", ") + FieldOf(k.id);
    return Status::InvalidArgument("no store chosen: set at least one of " + fields + " to true");
  }
  if (c.records > c.max_writes) {
    return Status::InvalidArgument("records = " + std::to_string(c.records) + " is more than max_writes = " +
                                   std::to_string(c.max_writes) + " (the puts each store's file is sized for)");
  }
  std::unique_ptr<StoresSession> s(new StoresSession(std::move(c), seed));
  if (Status st = s->Build(); !st.ok()) return st;
  return std::unique_ptr<LabSession>(std::move(s));
}

StatusOr<std::unique_ptr<StoresSession>> StoresSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<StoresSession>("stores", config_json, seed);
}

StoresSession::StoresSession(Config c, uint64_t seed)
    : config_(std::move(c)), seed_(seed), sim_(std::make_unique<sim::Simulator>()),
      stream_(seed, "load", config_.workload, config_.rate_ops_per_s) {
  stream_.Attach(sim_.get(), this, kTagArrival);
  watch_events_ = true;  // AfterEvent sees each store's background jobs as they end
}

StoresSession::~StoresSession() = default;

Status StoresSession::Build() {
  for (const std::string& kind : config_.stores) {
    MachineConfig mc;
    mc.store = kind;
    mc.params.bloom_bits = config_.bloom_bits;
    mc.params.key_bytes = kKeyBytes;
    mc.params.value_bytes = kValueBytes;
    mc.host = config_.host;
    mc.device = config_.device;
    mc.scale = config_.scale;
    mc.records = std::max<uint64_t>(1, static_cast<uint64_t>(config_.max_writes + 1) / 2);  // the file holds 2x
    auto m = Machine::Create(mc, sim_.get());
    if (!m.ok()) {
      // A store the factory does not build yet is left out (and said so); anything else is
      // the config's problem.
      if (m.status().message().find("not built yet") != std::string::npos) {
        skipped_.emplace_back(kind, m.status().message());
        continue;
      }
      return Status::InvalidArgument(kind + ": " + m.status().message());  // the config's device, host or sizes
    }
    Lane l;
    l.kind = kind;
    for (const StoreInfo& k : StoreKinds()) {
      if (k.id == kind) {
        l.label = k.label;
        l.has_scan = k.has_scan;
      }
    }
    l.machine = std::move(m).value();
    l.store = l.machine->store();
    l.has_scan = l.has_scan && l.store->has_scan();
    lanes_.push_back(std::move(l));
  }
  if (lanes_.empty()) {
    std::string why;
    for (const auto& [kind, msg] : skipped_) why += (why.empty() ? "" : "; ") + msg;
    return Status::InvalidArgument("none of the chosen stores can run yet: " + why);
  }
  for (size_t i = 0; i < lanes_.size(); ++i) {
    lanes_[i].seen_marker = JobMarker(lanes_[i]);
  }
  if (config_.records > 0) {
    if (Status s = Fill(static_cast<uint64_t>(config_.records), kLoadEvents); !s.ok()) return s;
    if (Status s = SyncAll(kLoadEvents); !s.ok()) return s;
  }
  for (Lane& l : lanes_) {
    const kv::KvCounters k = l.store->counters();
    l.joules0 = l.machine->Joules();
    l.ops0 = l.done_ops;
    l.reads0 = k.gets + k.scans;
    l.writes0 = k.puts + k.deletes;
    l.read_lat_ns.clear();
    l.write_lat_ns.clear();
  }
  stream_.Rebuild(next_record_);
  TakeSample();
  sim_->After(kSampleNs, this, kTagSample);
  stream_.ScheduleNext();
  return Status::Ok();
}

uint64_t StoresSession::queued(size_t i) const {
  const Lane& l = lanes_[i];
  return l.urgent.size() + (l.fill_end - l.fill_next) + l.queue.size() + (l.busy ? 1 : 0);
}

// ---- the stream ------------------------------------------------------------------------

uint64_t StoresSession::NewVersion(uint64_t record) {
  const uint64_t v = ++version_counter_;
  versions_[record] = v;
  return v;
}

StoresSession::Op StoresSession::NextWorkloadOp() {
  Op op;
  ycsb::Generator* g = stream_.generator();
  if (g == nullptr) {  // "load": the next new record
    op.kind = OpKind::kPut;
    op.record = next_record_++;
    op.version = 0;  // a record's first value is version 0 (the versions_ map holds updates only)
    return op;
  }
  const ycsb::Op y = g->Next();
  next_record_ = std::max(next_record_, g->record_count());
  op.record = y.record;
  const auto it = versions_.find(y.record);
  op.expect = it == versions_.end() ? 0 : it->second;
  switch (y.type) {
    case ycsb::OpType::kInsert:
      op.kind = OpKind::kPut;
      op.version = 0;
      break;
    case ycsb::OpType::kUpdate:
      op.kind = OpKind::kPut;
      op.version = NewVersion(y.record);
      break;
    case ycsb::OpType::kRead: op.kind = OpKind::kGet; break;
    case ycsb::OpType::kScan:
      op.kind = OpKind::kScan;
      op.scan = y.scan_length;
      break;
    case ycsb::OpType::kReadModifyWrite:
      op.kind = OpKind::kRmw;
      op.version = NewVersion(y.record);
      break;
  }
  return op;
}

void StoresSession::OnEvent(sim::Simulator&, uint64_t tag) {
  if ((tag & 3) == kTagSample) {
    TakeSample();
    sim_->After(kSampleNs, this, kTagSample);
    return;
  }
  if (!stream_.Current(tag)) return;  // from before a rate change
  Arrive();
  stream_.ScheduleNext();
}

void StoresSession::Arrive() {
  const Op op = NextWorkloadOp();
  ++offered_;
  ++workload_offered_;
  for (size_t i = 0; i < lanes_.size(); ++i) {
    Lane& l = lanes_[i];
    if (l.queue.size() >= kMaxQueued) {
      ++l.shed;
      ++l.served;
      l.checks = false;  // it missed a write the stream's versions count on
      continue;
    }
    l.queue.push_back(op);
    Pump(i);
  }
}

// ---- the lanes ---------------------------------------------------------------------------

void StoresSession::KeyOf(const Op& op, std::string* key) const {
  if (op.user && !op.by_record) {
    ycsb::KeyForText(user_key_, kKeyBytes, key);
  } else {
    ycsb::KeyFor(op.record, kKeyBytes, key);
  }
}

void StoresSession::ValueOf(const Op& op, std::string* value) const {
  if (op.user) {
    *value = user_value_;
  } else {
    ycsb::ValueFor(op.record, op.version, kValueBytes, value);
  }
}

void StoresSession::Pump(size_t i) {
  Lane& l = lanes_[i];
  if (l.pumping) return;
  l.pumping = true;
  while (!l.busy) {
    Op op;
    if (!l.urgent.empty()) {  // the page's operation first
      op = l.urgent.front();
      l.urgent.pop_front();
    } else if (l.fill_next < l.fill_end) {  // then a fill's puts
      op.kind = OpKind::kPut;
      op.fill = true;
      op.record = l.fill_next++;
    } else if (!l.queue.empty()) {  // then the workload
      op = l.queue.front();
      l.queue.pop_front();
    } else {
      break;
    }
    Issue(i, op, false);
  }
  l.pumping = false;
}

bool StoresSession::Issue(size_t i, const Op& op, bool rmw_write) {
  Lane& l = lanes_[i];
  std::string key;
  KeyOf(op, &key);
  l.busy = true;
  l.current = op;
  l.rmw_write = rmw_write;
  l.issued_at = sim_->now();
  l.lookup_reads_at_issue = l.store->counters().lookup_reads;
  Status s;
  const bool write = op.kind == OpKind::kPut || (op.kind == OpKind::kRmw && rmw_write);
  if (write) {
    std::string value;
    ValueOf(op, &value);
    s = l.store->Put(key, value, [this, i](const Status& st) { Completed(i, st, false, ""); });
  } else if (op.kind == OpKind::kScan) {
    if (!l.has_scan) {  // FAWN-DS and SILT keep no order: the scan is skipped, and counted
      ++l.skipped_scans;
      ++l.served;
      l.busy = false;
      return true;
    }
    s = l.store->Scan(key, op.scan, [this, i](const Status& st, std::vector<std::pair<std::string, std::string>>) {
      Completed(i, st, false, "");
    });
  } else {
    s = l.store->Get(key, [this, i](const Status& st, std::string v) { Completed(i, st, st.ok(), v); });
  }
  if (!s.ok()) {
    l.busy = false;
    ++l.errors;
    l.last_error = s.message();
    if (op.fill && l.fill_pending > 0) --l.fill_pending;
    if (!op.fill && !op.user) ++l.served;
    if (op.user) {
      l.user.done = true;
      l.user.status = s;
    }
    return false;
  }
  return true;
}

void StoresSession::Completed(size_t i, const Status& st, bool found, const std::string& value) {
  Lane& l = lanes_[i];
  const Op op = l.current;
  const bool write = op.kind == OpKind::kPut || (op.kind == OpKind::kRmw && l.rmw_write);
  const sim::SimDuration lat = sim_->now() - l.issued_at;
  std::deque<uint32_t>& lats = write ? l.write_lat_ns : l.read_lat_ns;
  lats.push_back(static_cast<uint32_t>(std::min<sim::SimDuration>(lat, UINT32_MAX)));
  while (lats.size() > kLatencies) lats.pop_front();
  ++l.done_ops;
  l.busy = false;
  if (!st.ok() && !(st.code() == StatusCode::kNotFound && !write)) {
    ++l.errors;
    l.last_error = st.message();
  }
  if (!write && !op.user && op.kind != OpKind::kScan && l.checks) {
    // Every record the stream reads exists and holds the version the stream last wrote.
    std::string want;
    ycsb::ValueFor(op.record, op.expect, kValueBytes, &want);
    if (st.code() == StatusCode::kNotFound || (st.ok() && value != want)) {
      ++l.mismatches;
      l.last_error = "record " + std::to_string(op.record) +
                     (st.ok() ? " read a value other than version " + std::to_string(op.expect) : " was not found");
    }
  }
  if (op.fill && l.fill_pending > 0) --l.fill_pending;
  if (op.user) {
    l.user.done = true;
    l.user.status = st;
    l.user.found = found;
    l.user.latency_ns = lat;
    l.user.device_reads = l.store->counters().lookup_reads - l.lookup_reads_at_issue;
  }
  if (op.kind == OpKind::kRmw && !l.rmw_write) {
    if (Issue(i, op, true)) return;  // the write half follows its read at once
  } else if (!op.fill && !op.user) {
    ++l.served;
  }
  Pump(i);
}

// ---- samples and events ----------------------------------------------------------------

StoresSession::Sample StoresSession::SampleOf(const Lane& l) const {
  const kv::KvCounters k = l.store->counters();
  Sample s;
  s.t = sim_->now();
  s.writes = k.puts + k.deletes;
  s.reads = k.gets + k.scans;
  s.write_ns = k.write_ns;
  s.read_ns = k.read_ns;
  s.stall_ns = k.stall_ns;
  s.background_ns = k.background_ns;
  s.queued = l.urgent.size() + (l.fill_end - l.fill_next) + l.queue.size() + (l.busy ? 1 : 0);
  return s;
}

void StoresSession::TakeSample() {
  for (Lane& l : lanes_) {
    l.samples.push_back(SampleOf(l));
    while (l.samples.size() > kTimelineSamples) l.samples.pop_front();
  }
  sample_times_.push_back(sim_->now());
  while (sample_times_.size() > kTimelineSamples) sample_times_.pop_front();
  ++samples_taken_;
}

void StoresSession::AfterEvent() {
  for (size_t i = 0; i < lanes_.size(); ++i) CheckJobs(i);
}

int64_t StoresSession::JobMarker(const Lane& l) const {
  if (l.kind != "lsm" && l.kind != "silt") return -1;
  JsonWriter w;
  l.store->DescribeJson(&w);
  auto v = ParseJson(w.str());
  if (!v.ok() || !v.value().is_object()) return -1;
  const JsonValue& o = v.value();
  if (l.kind == "silt") {
    const JsonValue* sorted = o.Find("sorted");
    const JsonValue* e = sorted && sorted->is_object() ? sorted->Find("entries") : nullptr;
    return e && e->is_number() ? static_cast<int64_t>(e->number_value()) : -1;
  }
  const JsonValue* levels = o.Find("levels");
  if (!levels || !levels->is_array()) return -1;
  for (const JsonValue& lv : levels->array_items()) {
    const JsonValue* n = lv.is_object() ? lv.Find("level") : nullptr;
    const JsonValue* f = lv.is_object() ? lv.Find("files") : nullptr;
    if (n && f && n->is_number() && f->is_number() && n->number_value() == 0) return static_cast<int64_t>(f->number_value());
  }
  return 0;
}

void StoresSession::CheckJobs(size_t i) {
  Lane& l = lanes_[i];
  const uint64_t jobs = l.store->counters().background_jobs;
  if (jobs == l.seen_jobs) return;
  const int64_t marker = JobMarker(l);
  std::string kind = "merge";
  std::string detail;
  if (l.kind == "lsm") {
    // A memtable flush adds a level-0 file; a compaction moves files down.
    kind = marker > l.seen_marker ? "flush" : "compaction";
    detail = "level-0 files " + std::to_string(std::max<int64_t>(marker, 0));
  } else if (l.kind == "silt") {
    // A merge grows the sorted store; a conversion turns the log into a hash store.
    kind = marker != l.seen_marker ? "merge" : "conversion";
    detail = "sorted store " + std::to_string(std::max<int64_t>(marker, 0)) + " entries";
  } else if (l.kind == "fawnds") {
    kind = "compaction";
  } else if (l.kind == "btree") {
    kind = "flush";
  }
  for (uint64_t n = l.seen_jobs; n < jobs; ++n) {
    Emit(l, kind, l.label + ": " + kind + " #" + std::to_string(n + 1) + (detail.empty() ? "" : " (" + detail + ")"));
  }
  l.seen_jobs = jobs;
  l.seen_marker = marker;
}

void StoresSession::Emit(const Lane& l, const std::string& kind, const std::string& detail) {
  events_.push_back(Event{sim_->now(), kind, l.kind, detail});
  while (events_.size() > kEvents) events_.pop_front();
}

Status StoresSession::Reconfigured(const ParamValues& config, const ParamValues& patch) {
  const Config next = FromParams(config);
  stream_.Reconfigure(patch, next.workload, next.rate_ops_per_s, next_record_);
  return Status::Ok();
}

}  // namespace fawnlab::stores
