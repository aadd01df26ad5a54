// ConaKv: the CONA store (cona/store.h) behind kv::KvStore. merge_thread true is the lab's
// "cona" (the merge actor on its own core), false "cona-1t" (the writer does every merge).
//
// Every HostCosts field is multiplied by cpu_scale (the host's speed against the thesis'
// i7-3610QM). Counters map one to one (cona::StoreStats); background_ns is the merge actor's
// busy time; store_bytes_read is the device's host bytes read since the store was made (the
// lab runs one store per device). Deletes count their key's bytes as user bytes.
#ifndef FAWNLAB_STORES_CONA_KV_H_
#define FAWNLAB_STORES_CONA_KV_H_

#include <memory>

#include "cona/store.h"
#include "kv/kv_store.h"

namespace fawnlab::stores {

// `o`'s costs are scaled by cpu_scale (> 0).
cona::HostCosts ScaledCosts(const cona::HostCosts& c, double cpu_scale);

class ConaKv : public kv::KvStore {
 public:
  static StatusOr<std::unique_ptr<ConaKv>> Create(device::Device* dev, cona::StoreOptions o, double cpu_scale);

  const char* kind() const override { return s_->options().merge_thread ? "cona" : "cona-1t"; }
  Status Put(std::string_view key, std::string_view value, Done done) override;
  Status Delete(std::string_view key, Done done) override;
  Status Get(std::string_view key, GetDone done) override;
  bool has_scan() const override { return true; }
  Status Scan(std::string_view start, int count, ScanDone done) override;
  Status Sync(Done done) override;
  bool idle() const override { return s_->idle(); }
  uint64_t dram_bytes() const override { return s_->dram_bytes(); }
  kv::KvCounters counters() const override;
  void DescribeJson(JsonWriter* w) const override;

  cona::Store* store() { return s_.get(); }

 private:
  ConaKv(device::Device* dev, std::unique_ptr<cona::Store> s);
  device::Device* dev_;
  std::unique_ptr<cona::Store> s_;
  uint64_t read_bytes_at_create_;
};

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_CONA_KV_H_
