#include "cona/machine.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "device/profiles.h"

namespace fawnlab::cona {
namespace {

std::string Mb(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1048576.0);
  return buf;
}

}  // namespace

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
  const uint64_t block = uint64_t{prof.pages_per_block} * prof.page_bytes;
  uint64_t capacity = static_cast<uint64_t>(static_cast<double>(kThesisFlashBytes) * c.scale);
  capacity = std::max(capacity, o.region_bytes);
  capacity = (capacity + block - 1) / block * block;
  auto flash = device::MakeFlash(m->sim_.get(), prof, capacity);
  if (!flash.ok()) return Status::InvalidArgument("machine: " + flash.status().message());
  m->flash_ = std::move(flash).value();
  m->fault_ = std::make_unique<device::FaultInjector>(m->flash_.get());
  device::WriteBackOptions wb;
  if (c.write_back) {
    // Linux 3.x (the thesis' 2014 kernel): dirty_background_ratio 10, dirty_ratio 20 of the
    // cacheable memory; the block layer splits write-back into 512 KB requests (max_sectors_kb).
    wb.enabled = true;
    wb.dirty_background_bytes = cache / 10;
    wb.dirty_limit_bytes = cache / 5;
    wb.writeback_max_bytes = 512 * 1024;
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
         std::to_string(o_.value_bytes) + " B (thesis: 25M), page cache " + Mb(cache_bytes_) +
         " ((8 GB - " + Mb(c_.os_bytes) + " OS) x scale " + std::to_string(c_.scale) + "), file " +
         Mb(o_.region_bytes) + " on a " + Mb(flash_->info().capacity_bytes) + " M500";
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
  bool synced = false;
  Status result;
  while (!store_->idle() && sim_->Step()) {
  }
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

Status Machine::Recover(RecoveryReport* report) {
  fault_->Restart();
  store_.reset();
  auto s = Store::Recover(cache_.get(), o_, report);
  if (!s.ok()) return s.status();
  store_ = std::move(s).value();
  return Status::Ok();
}

}  // namespace fawnlab::cona
