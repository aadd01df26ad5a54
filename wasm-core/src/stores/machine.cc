#include "stores/machine.h"

#include <algorithm>
#include <utility>

#include "device/drop_caches.h"
#include "device/profiles.h"

namespace fawnlab::stores {

using cona::MbText;

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
    return Status::InvalidArgument("machine: 'os_bytes' must be below the host's " + MbText(m->host_.dram_bytes) + " of DRAM");
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
  const uint64_t capacity = device::ScaledFlashBytes(*prof, prof->capacity_bytes, c.scale, m->file_bytes_);
  auto flash = device::MakeFlash(m->sim_, *prof, capacity);
  if (!flash.ok()) return Status::InvalidArgument("machine: " + flash.status().message());
  m->flash_ = std::move(flash).value();
  // Linux 3.x (the thesis' 2014 kernel), as cona::Machine.
  const device::WriteBackOptions wb = device::WriteBackOptions::Linux3(cache);
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
         MbText(cache_bytes_) + " ((" + MbText(host_.dram_bytes) + " - OS) x scale " + FormatNumber(c_.scale) +
         " less the store's DRAM" + (cache_floored_ ? "; that left less than 64 pages, the floor it got instead" : "") +
         "), file " + MbText(file_bytes_) + " on a " + MbText(flash_->info().capacity_bytes) + " " +
         c_.device;
}

Status Machine::DropCaches() { return device::SyncAndDropCaches(sim_, store_.get(), cache_.get()); }

}  // namespace fawnlab::stores
