#include "fawnds/experiments/rig.h"

#include <algorithm>
#include <cmath>

#include "device/profiles.h"
#include "fawnds/record.h"

namespace fawnlab {
namespace {

constexpr uint64_t kMaxRequest = 128 * 1024;

uint64_t SplitMix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// j / k of the way round the ring (the top 32 bits carry it).
fawnds::Key Boundary(uint64_t j, uint64_t k) {
  const uint64_t top = (j * (uint64_t{1} << 32)) / k;
  fawnds::Key key;
  for (int b = 0; b < 4; ++b) key.bytes[static_cast<size_t>(b)] = static_cast<uint8_t>(top >> (24 - 8 * b));
  return key;
}

}  // namespace

fawnds::Key FawnNodeRig::KeyOf(uint64_t i) {
  fawnds::Key k;
  for (size_t w = 0; w < 3; ++w) {
    const uint64_t r = SplitMix(i * 3 + w);
    for (size_t b = 0; b < 8 && w * 8 + b < k.bytes.size(); ++b) k.bytes[w * 8 + b] = static_cast<uint8_t>(r >> (8 * b));
  }
  return k;
}

StatusOr<std::unique_ptr<FawnNodeRig>> FawnNodeRig::Create(const RigOptions& o) {
  const device::FlashProfile* prof = device::FindFlashProfile(o.profile);
  if (!prof) return Status::InvalidArgument("unknown flash profile '" + o.profile + "'");
  if (o.files < 1 || o.files > 1024) return Status::InvalidArgument("files must be 1..1024");
  std::unique_ptr<FawnNodeRig> r(new FawnNodeRig());
  r->o_ = o;
  const uint64_t k = static_cast<uint64_t>(o.files);
  const double per_store = static_cast<double>(o.keys) / static_cast<double>(k) + 16;
  fawnds::NodeOptions no;
  no.index_bits = std::max(8, static_cast<int>(std::ceil(std::log2(per_store / o.index_load))));
  no.lock_hold_ns = o.lock_hold_ns;
  no.scan_chunk = kMaxRequest;  // maintenance scans read in requests the block layer can send whole
  const uint64_t log = static_cast<uint64_t>(per_store * o.file_room) * fawnds::RecordSize(o.value_bytes) + (1 << 20);
  no.file_bytes = (fawnds::DataStore::FileBytes(no.index_bits, log) + 4095) / 4096 * 4096;
  // Room for every file plus the destinations of maintenance (two more files).
  const uint64_t need = (k + 2) * no.file_bytes + (uint64_t{4} << 20);
  const uint64_t capacity =
      std::max(need, static_cast<uint64_t>(static_cast<double>(prof->capacity_bytes) * (o.device_scale < 0 ? o.scale : o.device_scale)));
  auto flash = device::MakeFlash(&r->sim, *prof, capacity);
  if (!flash.ok()) return flash.status();
  r->flash = std::move(flash).value();
  if (o.prefill) r->flash->FillSequential([](uint64_t lpn) { return lpn; });

  const uint64_t index = k * (uint64_t{fawnds::HashIndex::kBucketBytes} << no.index_bits);
  const double dram = static_cast<double>(o.dram_bytes) * o.scale, os = static_cast<double>(o.os_bytes) * o.scale;
  const double free = dram - os - static_cast<double>(index);
  if (free < 64 * 4096) {
    return Status::InvalidArgument("the node's " + std::to_string(static_cast<uint64_t>(dram) >> 10) + " KB of DRAM less the OS's " +
                                   std::to_string(static_cast<uint64_t>(os) >> 10) + " KB and the hash indexes' " +
                                   std::to_string(index >> 10) + " KB leaves less than the 256 KB the page cache needs; use a smaller scale_div");
  }
  r->cache_bytes_ = static_cast<uint64_t>(free);
  const device::WriteBackOptions wb = device::WriteBackOptions::Linux(free, kMaxRequest);
  fawnds::CpuCosts costs;
  r->cache = std::make_unique<device::PageCache>(r->flash.get(), r->cache_bytes_, costs.copy_ns_per_kb, wb);
  r->cpu = std::make_unique<fawnds::HostCpu>(&r->sim, costs);

  std::vector<fawnds::KeyRange> ranges;
  if (k == 1) {
    ranges.push_back(fawnds::KeyRange::All());
  } else {
    for (uint64_t j = 0; j < k; ++j) ranges.push_back(fawnds::KeyRange{Boundary(j, k), Boundary((j + 1) % k, k)});
  }
  auto node = fawnds::Node::Create(r->cache.get(), no, ranges);
  if (!node.ok()) return node.status();
  r->node = std::move(node).value();
  r->value_.assign(o.value_bytes, 'v');
  return r;
}

uint64_t FawnNodeRig::IndexBytes() const {
  uint64_t b = 0;
  for (size_t i = 0; i < node->num_stores(); ++i) b += node->store(i).index().bytes();
  return b;
}

uint64_t FawnNodeRig::WorkingSetBytes() const {
  uint64_t b = IndexBytes();
  for (size_t i = 0; i < node->num_stores(); ++i) b += node->store(i).log_end();
  return b;
}

void FawnNodeRig::Get(uint64_t i, std::function<void(bool)> done) {
  const sim::SimDuration cost = cpu->RequestCost(fawnds::RecordSize(o_.value_bytes), WorkingSetBytes());
  cpu->Run(cost, [this, i, done = std::move(done)]() {
    Status s = node->Get(KeyOf(i), [done](const Status& st, std::string) { done(st.ok()); });
    if (!s.ok()) {
      if (failure.ok()) failure = s;
      done(false);
    }
  });
}

void FawnNodeRig::Put(uint64_t i, std::function<void()> done) {
  const sim::SimDuration cost = cpu->RequestCost(fawnds::RecordSize(o_.value_bytes), WorkingSetBytes());
  cpu->Run(cost, [this, i, done = std::move(done)]() {
    value_[0] = static_cast<char>(i);
    Status s = node->Put(KeyOf(i), value_, [this, done](const Status& st) {
      if (!st.ok() && failure.ok()) failure = st;
      done();
    });
    if (!s.ok()) {
      if (failure.ok()) failure = s;
      done();
    }
  });
}

Status FawnNodeRig::Load(uint64_t first, uint64_t n, const std::function<bool(double)>& progress) {
  uint64_t done = 0;
  std::function<void(uint64_t)> next = [&](uint64_t i) {
    if (i >= first + n || !failure.ok()) return;
    value_[0] = static_cast<char>(i);
    Status s = node->Put(KeyOf(i), value_, [&, i](const Status& st) {
      if (!st.ok() && failure.ok()) failure = st;
      ++done;
      next(i + 1);
    });
    if (!s.ok() && failure.ok()) failure = s;
  };
  next(first);
  if (!RunUntil([&] { return done >= n || !failure.ok(); }, progress,
                [&] { return static_cast<double>(done) / static_cast<double>(n); })) {
    return Status::Cancelled("cancelled");
  }
  if (!failure.ok()) return failure;
  bool synced = false;
  Status s = node->SyncAll([&](const Status& st) {
    if (!st.ok() && failure.ok()) failure = st;
    synced = true;
  });
  if (!s.ok()) return s;
  RunUntil([&] { return synced; });
  return failure;
}

bool FawnNodeRig::RunUntil(const std::function<bool()>& pred, const std::function<bool(double)>& progress,
                           const std::function<double()>& fraction) {
  uint64_t steps = 0;
  while (!pred() && sim.Step()) {
    if (progress && ++steps % 65536 == 0 && !progress(fraction ? fraction() : 0)) return false;
  }
  return true;
}

}  // namespace fawnlab
