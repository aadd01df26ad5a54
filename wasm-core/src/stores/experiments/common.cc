#include "stores/experiments/common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "device/profiles.h"
#include "stores/factory.h"
#include "sim/rng.h"
#include "ycsb/keys.h"
#include "ycsb/zipfian.h"

namespace fawnlab::stores_exp {

// `s` with `prefix` before its message, the same code.
Status Prefixed(const std::string& prefix, const Status& s) {
  const std::string m = prefix + s.message();
  switch (s.code()) {
    case StatusCode::kInvalidArgument: return Status::InvalidArgument(m);
    case StatusCode::kNotFound: return Status::NotFound(m);
    case StatusCode::kCorruption: return Status::Corruption(m);
    case StatusCode::kCancelled: return Status::Cancelled(m);
    case StatusCode::kResourceExhausted: return Status::ResourceExhausted(m);
    case StatusCode::kUnavailable: return Status::Unavailable(m);
    default: return Status::Internal(m);
  }
}

const std::vector<std::string>& Kinds() {
  static const std::vector<std::string> k = {"cona", "silt", "lsm", "fawnds", "btree"};
  return k;
}

std::string MetricId(const std::string& kind) {
  std::string id = kind;
  id.erase(std::remove(id.begin(), id.end(), '-'), id.end());
  return id;
}

std::string LabelOf(const std::string& kind) {
  for (const stores::StoreInfo& k : stores::StoreKinds()) {
    if (k.id == kind) return k.label;
  }
  return "";
}

bool HasScan(const std::string& kind) {
  for (const stores::StoreInfo& k : stores::StoreKinds()) {
    if (k.id == kind) return k.has_scan;
  }
  return false;
}

bool NotBuilt(const Status& s) { return !s.ok() && s.message().find("not built yet") != std::string::npos; }

std::vector<ParamSpec> MachineParams(double default_scale) {
  std::vector<std::string> devices = {"crucial-m500"};
  for (const device::FlashProfile& p : device::FlashProfiles()) {
    if (p.name != "crucial-m500") devices.push_back(p.name);
  }
  return {
      ParamSpec::Real("scale", default_scale, 0.00002, 0.01, "× the thesis",
                      "The thesis's machine and data scaled: records = 25M × scale (20 + 200 B each), the host's DRAM "
                      "(its page cache) and the device × scale; as many operations as records."),
      ParamSpec::Choice("device", "crucial-m500", devices, "The flash device under each store (the thesis: the M500)."),
      ParamSpec::Int("bloom_bits", 10, 0, 20, "bits/key", "The LSM's Bloom filter bits per key (LevelDB's common 10)."),
  };
}

uint64_t RecordsFor(const ParamValues& p) {
  return std::max<uint64_t>(100, static_cast<uint64_t>(static_cast<double>(kThesisRecords) * p.Real("scale") + 0.5));
}

MachineConfig ConfigFor(const ParamValues& p, const std::string& kind, const std::string& host) {
  MachineConfig c;
  c.store = kind;
  c.host = host;
  c.device = p.Choice("device");
  c.scale = p.Real("scale");
  c.records = RecordsFor(p);
  c.params.bloom_bits = static_cast<int>(p.Int("bloom_bits"));
  return c;
}

StatusOr<YcsbRun> RunOne(const MachineConfig& mc, const std::string& workload, RunContext& ctx, double p0, double p1,
                         std::string* describe) {
  auto m = Machine::Create(mc);
  if (!m.ok()) return m.status();
  if (describe && describe->empty()) *describe = m.value()->Describe();
  stores::RunConfig rc;
  rc.workload = workload.empty() ? "a" : workload;
  rc.run = !workload.empty();
  rc.seed = ctx.seed();
  auto r = stores::RunYcsb(m.value().get(), rc, [&](double f) { return ctx.Progress(p0 + (p1 - p0) * f); });
  if (!r.ok() && r.status().code() == StatusCode::kCancelled) return r.status();
  if (!r.ok()) return Status::Internal(mc.store + " " + (workload.empty() ? "load" : "workload " + workload) + ": " + r.status().message());
  return r;
}

namespace {

// Puts record r's version v and runs until it completes.
Status PutAndWait(Machine* m, uint64_t r, uint64_t v, std::string* k, std::string* val) {
  kv::KvStore* s = m->store();
  sim::Simulator* sim = m->sim();
  ycsb::KeyFor(r, m->config().params.key_bytes, k);
  ycsb::ValueFor(r, v, m->config().params.value_bytes, val);
  bool done = false;
  Status result;
  Status st = s->Put(*k, *val, [&](const Status& e) {
    done = true;
    result = e;
  });
  if (!st.ok()) return Prefixed("record " + std::to_string(r) + ": ", st);
  while (!done && sim->Step()) {
  }
  if (!done) return Status::Internal("record " + std::to_string(r) + ": the put never completed");
  if (!result.ok()) return Prefixed("record " + std::to_string(r) + ": ", result);
  return Status::Ok();
}

void WaitIdle(Machine* m) {
  while (!m->store()->idle() && m->sim()->Step()) {
  }
}

}  // namespace

Status UpdateRecords(Machine* m, uint64_t records, uint64_t count, uint64_t seed) {
  ycsb::ScrambledZipfian z(0, records - 1);
  sim::Rng rng = sim::Rng::ForStream(seed, 7);
  std::string k, v;
  for (uint64_t i = 0; i < count; ++i) {
    if (Status s = PutAndWait(m, z.Next(rng), i + 1, &k, &v); !s.ok()) return s;
  }
  WaitIdle(m);
  return Status::Ok();
}

Status GetRecords(Machine* m, uint64_t records, uint64_t count, uint64_t seed) {
  sim::Rng rng = sim::Rng::ForStream(seed, 8);
  std::string k, want;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t r = rng.UniformU64(records);
    ycsb::KeyFor(r, m->config().params.key_bytes, &k);
    ycsb::ValueFor(r, 0, m->config().params.value_bytes, &want);
    bool done = false;
    Status result;
    std::string got;
    Status st = m->store()->Get(k, [&](const Status& e, std::string v) {
      done = true;
      result = e;
      got = std::move(v);
    });
    if (!st.ok()) return Prefixed("record " + std::to_string(r) + ": ", st);
    while (!done && m->sim()->Step()) {
    }
    if (!done) return Status::Internal("record " + std::to_string(r) + ": the get never completed");
    if (!result.ok()) return Prefixed("record " + std::to_string(r) + ": ", result);
    if (got != want) return Status::Internal("record " + std::to_string(r) + ": the get returned another value");
  }
  return Status::Ok();
}

Status PutRecords(Machine* m, uint64_t from, uint64_t to) {
  std::string k, v;
  for (uint64_t r = from; r < to; ++r) {
    if (Status s = PutAndWait(m, r, 0, &k, &v); !s.ok()) return s;
  }
  WaitIdle(m);
  return Status::Ok();
}

Checkpoint Measure(Machine* m, uint64_t keys) {
  const kv::KvCounters k = m->store()->counters();
  Checkpoint c;
  c.keys = keys;
  c.dram_bytes = m->store()->dram_bytes();
  c.store_wa = Div(static_cast<double>(k.store_bytes_written), static_cast<double>(k.user_bytes));
  c.ftl_wa = m->flash() ? m->flash()->counters().write_amplification() : 0;
  c.joules = m->Joules();
  c.seconds = static_cast<double>(m->sim()->now()) / 1e9;
  return c;
}

std::string SkippedNote(const std::vector<std::pair<std::string, std::string>>& skipped) {
  if (skipped.empty()) return "";
  std::string s = "Skipped (the factory does not build them yet; their metrics and the ratios that need them are absent): ";
  for (size_t i = 0; i < skipped.size(); ++i) s += (i ? "; " : "") + skipped[i].first + " (" + skipped[i].second + ")";
  return s;
}

double Div(double a, double b) { return b == 0 ? 0 : a / b; }

bool Met(const Result& r, size_t i) {
  const double want = r.anchors[i].second;
  const Tolerance& tol = r.tolerances[i].second;
  const double allowed = tol.relative ? tol.value * std::fabs(want) : tol.value;
  return std::fabs(r.Metric(r.anchors[i].first) - want) <= allowed;
}

void CloseNotes(Result* r, const std::vector<std::pair<std::string, std::string>>& skipped) {
  r->notes.push_back(DisagreementNote(*r));
  if (!skipped.empty()) r->notes.push_back(SkippedNote(skipped));
}

std::string Fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string DisagreementNote(const Result& r) {
  std::string s;
  int missed = 0;
  for (size_t i = 0; i < r.anchors.size(); ++i) {
    if (Met(r, i)) continue;
    ++missed;
    s += (s.empty() ? "" : " ") + r.anchors[i].first + " = " + Fmt(r.Metric(r.anchors[i].first)) + " (paper " +
         Fmt(r.anchors[i].second) + "): " + r.anchor_notes[i].second.miss + ".";
  }
  if (r.anchors.empty()) return "No anchors: none of the stores they compare ran.";
  if (missed == 0) return "Every anchor is met within its tolerance at these parameters.";
  return "Where the lab disagrees with the paper (" + std::to_string(missed) + " of " + std::to_string(r.anchors.size()) +
         " anchors): " + s;
}

}  // namespace fawnlab::stores_exp
