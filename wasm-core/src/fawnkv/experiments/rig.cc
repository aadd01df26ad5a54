#include "fawnkv/experiments/rig.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "fawnds/experiments/rig.h"
#include "fawnds/record.h"
#include "fawnds/store.h"

namespace fawnlab {

fawnds::Key KvRig::KeyOf(uint64_t i) { return FawnNodeRig::KeyOf(i); }

StatusOr<std::unique_ptr<KvRig>> KvRig::Create(const KvRigOptions& o, const std::function<bool(double)>& progress) {
  std::unique_ptr<KvRig> r(new KvRig());
  r->o_ = o;
  r->keys_ = static_cast<uint64_t>(o.dataset_gb * static_cast<double>(uint64_t{1} << 30) / o.scale_div / static_cast<double>(o.value_bytes));
  if (r->keys_ < 1) return Status::InvalidArgument("the dataset is smaller than one value at this scale");
  fawnkv::ClusterOptions co;
  co.nodes = o.nodes;
  co.vids = o.vids;
  co.replication = o.replication;
  co.even = o.even;
  co.backend.scale = 1.0 / o.scale_div;
  co.backend.separate_queues = o.separate_queues;
  co.backend.lock_hold_ns = o.lock_hold_ns;
  co.backend.scan_chunk = o.scan_chunk;
  co.front.cache_entries = o.cache_entries;
  // Each store: its share of the keys, with room for an uneven ring and for growth.
  const double per_store = static_cast<double>(r->keys_) / o.nodes / o.vids * (o.even ? 1.3 : 3.0) + 64;
  co.backend.index_bits = std::max(8, static_cast<int>(std::ceil(std::log2(per_store / 0.75))));
  const uint64_t log = static_cast<uint64_t>(per_store * 1.5) * fawnds::RecordSize(o.value_bytes) + (1 << 20);
  co.backend.file_bytes = (fawnds::DataStore::FileBytes(co.backend.index_bits, log) + 4095) / 4096 * 4096;
  auto c = fawnkv::Cluster::Create(co);
  if (!c.ok()) return c.status();
  r->cluster = std::move(c).value();
  r->value_.assign(o.value_bytes, 'v');
  const std::string v = r->value_;
  if (Status s = r->cluster->Load(r->keys_, KeyOf, [&v](uint64_t) { return v; }, progress); !s.ok()) return s;
  // Let write-back settle and heartbeats start before anything is measured.
  r->Run(sim::kSec);
  return r;
}

void KvRig::Measure() {
  counts_ = Counts{};
  counts_.per_node.assign(cluster->backend_slots(), 0);
  bins_.clear();
  measure_from_ = cluster->sim().now();
}

void KvRig::Issue(bool put, uint64_t key, std::function<void()> then) {
  const sim::SimTime start = cluster->sim().now();
  auto done = [this, start, then = std::move(then)](const fawnkv::Outcome& out) {
    if (start >= measure_from_) {
      if (!out.ok) {
        ++counts_.failed;
      } else {
        ++counts_.total;
        counts_.latency_ns.Record(static_cast<uint64_t>(out.latency_ns));
        if (out.served_by >= 0 && out.served_by != fawnkv::kNobody) {  // not a cache hit
          const size_t n = static_cast<size_t>(out.served_by);
          if (counts_.per_node.size() <= n) counts_.per_node.resize(n + 1, 0);
          ++counts_.per_node[n];
          const size_t b = static_cast<size_t>((cluster->sim().now() - measure_from_) / bin_ns_);
          if (bins_.size() <= b) bins_.resize(b + 1);
          if (bins_[b].size() <= n) bins_[b].resize(std::max(n + 1, cluster->backend_slots()), 0);
          ++bins_[b][n];
        }
      }
    }
    if (then) then();
  };
  if (put) {
    std::string v = value_;
    const std::string tag = std::to_string(++puts_);
    v.replace(0, std::min(v.size(), tag.size()), tag.substr(0, v.size()));
    cluster->Put(KeyOf(key), std::move(v), std::move(done));
  } else {
    cluster->Get(KeyOf(key), std::move(done));
  }
}

std::function<void()>* KvRig::NewLoop() {
  loops_.push_back(std::make_unique<std::function<void()>>());
  return loops_.back().get();
}

void KvRig::ClosedLoop(int clients, sim::Rng* rng, bool puts) {
  const uint64_t gen = generation_;
  std::function<void()>* loop = NewLoop();
  *loop = [this, gen, rng, puts, loop]() {
    if (gen != generation_) return;
    Issue(puts, rng->UniformU64(keys_), [loop]() { (*loop)(); });
  };
  for (int i = 0; i < clients; ++i) (*loop)();
}

void KvRig::ClosedLoopPerNode(int clients, sim::Rng* rng) {
  const uint64_t gen = generation_;
  for (size_t n = 0; n < cluster->backend_slots(); ++n) {
    std::function<void()>* loop = NewLoop();
    *loop = [this, gen, rng, n, loop]() {
      if (gen != generation_) return;
      // A random key whose range node n answers gets for (the route as the front-end sees it).
      uint64_t k = rng->UniformU64(keys_);
      for (int tries = 0; tries < 10000; ++tries) {
        const fawnkv::RouteEntry* e = cluster->routes().Find(KeyOf(k));
        if (e && e->readers[0] == static_cast<fawnkv::Endpoint>(n)) break;
        k = rng->UniformU64(keys_);
      }
      Issue(false, k, [loop]() { (*loop)(); });
    };
    for (int i = 0; i < clients; ++i) (*loop)();
  }
}

void KvRig::OpenLoop(double rate, sim::Rng* rng, bool puts, double zipf_s, bool fresh) {
  const uint64_t gen = generation_;
  auto zipf = std::make_shared<sim::ZipfSampler>(keys_, zipf_s);
  std::function<void()>* arrive = NewLoop();
  *arrive = [this, gen, rng, puts, rate, zipf, zipf_s, fresh, arrive]() {
    if (gen != generation_) return;
    const uint64_t k = fresh ? keys_ + fresh_keys_++ : zipf_s > 0 ? zipf->Sample(*rng) - 1 : rng->UniformU64(keys_);
    Issue(puts, k, nullptr);
    cluster->sim().Schedule(cluster->sim().now() + static_cast<sim::SimDuration>(rng->Exponential(1e9 / rate)) + 1, *arrive);
  };
  (*arrive)();
}

}  // namespace fawnlab
