#include "bench/fawnkv_bench.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fawnkv/checker.h"
#include "fawnkv/cluster.h"
#include "sim/rng.h"

namespace fawnlab::bench {
namespace {

double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace

BenchFigure FawnkvClusterRequests(uint64_t requests) {
  fawnkv::ClusterOptions o;
  o.nodes = 21;
  o.vids = 2;
  o.replication = 3;
  o.backend.scale = 1.0 / 128;
  o.backend.file_bytes = 32 << 20;
  o.backend.index_bits = 12;
  auto c = fawnkv::Cluster::Create(o).value();
  sim::Rng rng(7);
  uint64_t issued = 0, answered = 0;
  std::string value(256, 'v');
  // 20,000 keys spread over the ring (a key's bytes all count: FromU64 would put every key
  // near position 0, in one range).
  std::vector<fawnkv::Key> keys;
  for (int i = 0; i < 20000; ++i) keys.push_back(fawnkv::Key::Hash("k" + std::to_string(i)));
  std::function<void()> arrive = [&]() {
    if (issued >= requests) return;
    ++issued;
    const fawnkv::Key& k = keys[rng.UniformU64(keys.size())];
    auto done = [&answered](const fawnkv::Outcome& out) { answered += out.ok; };
    if (rng.UniformU64(10) == 0) {
      c->Put(k, value, done);
    } else {
      c->Get(k, done);
    }
    c->sim().Schedule(c->sim().now() + static_cast<sim::SimDuration>(rng.Exponential(1e9 / 20000)) + 1, arrive);
  };
  const double t0 = Now();
  arrive();
  c->sim().RunUntil(c->sim().now() + static_cast<sim::SimDuration>(static_cast<double>(requests) / 20000 * 1e9) + sim::kSec);
  const double dt = Now() - t0;
  return {"fawnkv.cluster_requests", static_cast<double>(issued) / dt, "requests/s", dt, answered};
}

BenchFigure FawnkvCheckerOps(uint64_t ops) {
  fawnkv::History h;
  sim::Rng rng(11);
  uint64_t n = 0;
  for (uint64_t i = 0; i < ops; ++i) {
    const std::string key = "k" + std::to_string(rng.UniformU64(1000));
    const int64_t t = static_cast<int64_t>(i) * 1000;
    if (rng.UniformU64(4) == 0) {
      h.Add(fawnkv::HistoryOp{fawnkv::HistoryOp::Kind::kPut, key, "v" + std::to_string(++n), false, t, t + 500, true});
    } else {
      h.Add(fawnkv::HistoryOp{fawnkv::HistoryOp::Kind::kGet, key, "", false, t, t + 500, true});
    }
  }
  const double t0 = Now();
  fawnkv::CheckReport r = fawnkv::CheckLinearizable(h);
  const double dt = Now() - t0;
  return {"fawnkv.checker_ops", static_cast<double>(r.operations) / dt, "operations/s", dt, r.operations + r.violations};
}

}  // namespace fawnlab::bench
