#include "cona/machine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "device/drop_caches.h"
#include "device/profiles.h"

namespace fawnlab::cona {

std::string MbText(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1048576.0);
  return buf;
}

Machine::~Machine() {
  store_.reset();  // before the devices it points at
}

StatusOr<std::unique_ptr<Machine>> Machine::Create(MachineConfig c) {
  if (!(c.scale > 0 && c.scale <= 1)) return Status::InvalidArgument("machine: 'scale' must be in (0, 1]");
  if (c.records == 0) return Status::InvalidArgument("machine: 'records' must be at least 1");
  if (c.os_bytes >= kThesisDramBytes) return Status::InvalidArgument("machine: 'os_bytes' must be below the 8 GB of DRAM");
  std::unique_ptr<Machine> m(new Machine());
  m->c_ = c;
  StoreOptions o = c.store;
  const uint64_t entries = c.records + (c.extra_entries ? c.extra_entries : c.records);
  o.region_offset = 0;
  o.region_bytes = Store::FileBytes(o, entries);
  m->o_ = o;

  // The page cache: what the thesis' 8 GB left for caching, scaled, less the store's buffers
  // (the process' other DRAM, its tries and fragments, is under 2 B per key: small beside it).
  uint64_t cache = c.cache_bytes;
  if (cache == 0) {
    const double cacheable = static_cast<double>(kThesisDramBytes - c.os_bytes) * c.scale;
    const double buffers = 2.0 * o.buffer_bytes;
    cache = static_cast<uint64_t>(std::max(cacheable - buffers, 64.0 * device::PageCache::kPage));
  }
  m->cache_bytes_ = cache;

  m->sim_ = std::make_unique<sim::Simulator>();
  const device::FlashProfile& prof = device::CrucialM500Profile();
  const uint64_t capacity = device::ScaledFlashBytes(prof, kThesisFlashBytes, c.scale, o.region_bytes);
  auto flash = device::MakeFlash(m->sim_.get(), prof, capacity);
  if (!flash.ok()) return Status::InvalidArgument("machine: " + flash.status().message());
  m->flash_ = std::move(flash).value();
  m->fault_ = std::make_unique<device::FaultInjector>(m->flash_.get());
  device::WriteBackOptions wb;
  if (c.write_back) {
    wb = device::WriteBackOptions::Linux3(cache);  // the thesis' 2014 kernel
    wb.fault_on_write = c.fault_on_write;
    wb.linux_balance = c.linux_balance;
  }
  m->cache_ = std::make_unique<device::PageCache>(m->fault_.get(), cache, 250, wb);
  auto store = Store::Create(m->cache_.get(), o);
  if (!store.ok()) return Status::InvalidArgument("machine: " + store.status().message());
  m->store_ = std::move(store).value();
  return m;
}

std::string Machine::Describe() const {
  return std::to_string(c_.records) + " records of " + std::to_string(o_.key_bytes) + "+" +
         std::to_string(o_.value_bytes) + " B (thesis: 25M), page cache " + MbText(cache_bytes_) +
         " ((8 GB - " + MbText(c_.os_bytes) + " OS) x scale " + std::to_string(c_.scale) + "), file " +
         MbText(o_.region_bytes) + " on a " + MbText(flash_->info().capacity_bytes) + " M500";
}

void Machine::CrashNow() {
  // The fault injector crashes on the next command: a one-byte read nobody waits for.
  device::FaultPlan plan;
  plan.crash_at = 1;
  plan.lose_unsynced = true;
  (void)fault_->Arm(plan);
  uint8_t byte = 0;
  (void)fault_->Submit(device::IoCommand::Single(device::IoEntry::Read(0, 1, &byte)), nullptr);
  cache_->DropAll();
  store_.reset();
}

Status Machine::DropCaches() {
  if (!store_) return Status::InvalidArgument("machine: no store (crashed?)");
  return device::SyncAndDropCaches(sim_.get(), store_.get(), cache_.get());
}

Status Machine::Recover(RecoveryReport* report) {
  fault_->Restart();
  store_.reset();
  auto s = Store::Recover(cache_.get(), o_, report);
  if (!s.ok()) return s.status();
  store_ = std::move(s).value();
  return Status::Ok();
}

}  // namespace fawnlab::cona
