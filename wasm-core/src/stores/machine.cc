#include "stores/machine.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "device/profiles.h"

namespace fawnlab::stores {
namespace {

std::string Mb(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1048576.0);
  return buf;
}

}  // namespace

Machine::~Machine() {
  store_.reset();  // before the devices it points at
  cache_.reset();
}

StatusOr<std::unique_ptr<Machine>> Machine::Create(MachineConfig c, sim::Simulator* shared) {
  if (!(c.scale > 0 && c.scale <= 1)) return Status::InvalidArgument("machine: 'scale' must be in (0, 1]");
  if (c.records == 0) return Status::InvalidArgument("machine: 'records' must be at least 1");
  if (c.records > 100'000'000) return Status::InvalidArgument("machine: 'records' must be at most 100000000");
  auto kind = FindStoreKind(c.store);
  if (!kind.ok()) return Status::InvalidArgument("machine: " + kind.status().message());
  auto host = FindHost(c.host);
  if (!host.ok()) return Status::InvalidArgument("machine: " + host.status().message());
  const device::FlashProfile* prof = device::FindFlashProfile(c.device);
  if (prof == nullptr) {
    std::string known = "crucial-m500";
    for (const device::FlashProfile& p : device::FlashProfiles()) known += ", " + p.name;
    return Status::InvalidArgument("machine: unknown device '" + c.device + "' (known: " + known + ")");
  }
  std::unique_ptr<Machine> m(new Machine());
  m->host_ = host.value();
  c.params.cpu_scale = m->host_.cpu_scale;
  const uint64_t os = c.os_bytes ? c.os_bytes : m->host_.os_bytes;
  if (os >= m->host_.dram_bytes) {
    return Status::InvalidArgument("machine: 'os_bytes' must be below the host's " + Mb(m->host_.dram_bytes) + " of DRAM");
  }
  m->c_ = c;
  m->file_bytes_ = FileBytesFor(c.store, c.params, 2 * c.records);
  if (m->file_bytes_ == 0) return Status::InvalidArgument("machine: " + c.store + " is not built yet");

  // The page cache: what the host's DRAM leaves beside the OS, scaled, less the store's own
  // DRAM once the load is in (docs/decisions.md "Stores: the machine's page cache").
  uint64_t cache = c.cache_bytes;
  if (cache == 0) {
    const double cacheable = static_cast<double>(m->host_.dram_bytes - os) * c.scale;
    const double own = static_cast<double>(DramEstimateFor(c.store, c.params, c.records));
    const double floor = 64.0 * device::PageCache::kPage;
    m->cache_floored_ = cacheable - own < floor;
    cache = static_cast<uint64_t>(std::max(cacheable - own, floor));
  }
  m->cache_bytes_ = cache;

  if (shared == nullptr) {
    m->own_sim_ = std::make_unique<sim::Simulator>();
    m->sim_ = m->own_sim_.get();
  } else {
    m->sim_ = shared;
  }
  m->created_at_ = m->sim_->now();
  const uint64_t block = uint64_t{prof->pages_per_block} * prof->page_bytes;
  uint64_t capacity = static_cast<uint64_t>(static_cast<double>(prof->capacity_bytes) * c.scale);
  capacity = std::max(capacity, m->file_bytes_);
  capacity = (capacity + block - 1) / block * block;
  auto flash = device::MakeFlash(m->sim_, *prof, capacity);
  if (!flash.ok()) return Status::InvalidArgument("machine: " + flash.status().message());
  m->flash_ = std::move(flash).value();
  // Linux 3.x (the thesis' 2014 kernel), as cona::Machine: dirty_background_ratio 10,
  // dirty_ratio 20 of the cacheable memory; write-back in 512 KB requests (max_sectors_kb).
  device::WriteBackOptions wb;
  wb.enabled = true;
  wb.dirty_background_bytes = cache / 10;
  wb.dirty_limit_bytes = cache / 5;
  wb.writeback_max_bytes = 512 * 1024;
  m->cache_ = std::make_unique<device::PageCache>(m->flash_.get(), cache, m->host_.copy_ns_per_kb, wb);
  auto store = MakeStore(c.store, c.params, m->cache_.get(), 0, m->file_bytes_, 0);
  if (!store.ok()) return Status::InvalidArgument("machine: " + store.status().message());
  m->store_ = std::move(store).value();
  return m;
}

double Machine::Joules() const {
  const double wall = sim::NsToSec(sim_->now() - created_at_);
  const kv::KvCounters k = store_->counters();
  // Not capped at cores x wall: a cap on these running totals would move one phase's excess
  // into the next phase's difference (docs/stores/core.md, Limits).
  const double busy = sim::NsToSec(k.foreground_cpu_ns + k.background_ns);
  return host_.idle_watts * wall + host_.core_busy_watts * busy + flash_->Joules();
}

std::string Machine::Describe() const {
  return c_.store + " on the " + host_.id + " host: " + std::to_string(c_.records) + " records of " +
         std::to_string(c_.params.key_bytes) + "+" + std::to_string(c_.params.value_bytes) + " B, page cache " +
         Mb(cache_bytes_) + " ((" + Mb(host_.dram_bytes) + " - OS) x scale " + FormatNumber(c_.scale) +
         " less the store's DRAM" + (cache_floored_ ? "; that left less than 64 pages, the floor it got instead" : "") +
         "), file " + Mb(file_bytes_) + " on a " + Mb(flash_->info().capacity_bytes) + " " +
         c_.device;
}

Status Machine::DropCaches() {
  while (!store_->idle() && sim_->Step()) {
  }
  bool synced = false;
  Status result;
  Status s = store_->Sync([&](const Status& st) {
    synced = true;
    result = st;
  });
  if (!s.ok()) return s;
  while (!(synced && store_->idle() && cache_->dirty_bytes() == 0) && sim_->Step()) {
  }
  if (!synced) return Status::Internal("machine: the store's sync never completed");
  if (!result.ok()) return result;
  cache_->DropAll();
  return Status::Ok();
}

}  // namespace fawnlab::stores
