// FawnDsKv: FAWN-DS (fawnds::DataStore: the append-only log and its in-DRAM hash index,
// SOSP'09 §3.3) behind kv::KvStore. The YCSB 20-byte keys are FAWN's 160-bit keys, byte for
// byte. No scans (a hash index has no order).
//
// DataStore has no CPU of its own (it completes an operation when the device does), so the
// adapter is the client thread's core: operations are queued and served one at a time in call
// order; each pays its CPU before its I/O (dispatch, the bucket probe, the fragment compare)
// and after it (the full-key compare of every record read, the copy of the record), at the
// costs of FawnDsCosts x cpu_scale. The constants are the i7-3610QM's from cona/costs.h for
// the same operations, and they are the steps the FAWN node's cpu_scale was derived from
// (stores/host.h), so on the "fawn" host a 256 B get costs FAWN Table 2's in-memory 11.7 us.
//
// The index has 2^index_bits buckets of 6 B (dram_bytes). MakeStore sizes it from the region:
// the largest index_bits whose log still holds 2^(index_bits-1) records, which for a file of
// FileBytes(entries) is 2^ceil(log2 entries) buckets: twice the keys when half the entries are
// updates (the released FAWN code's rule). A fill of new keys only may find the index full
// (ResourceExhausted) a little before the log. No background work: never stalls.
#ifndef FAWNLAB_STORES_FAWNDS_KV_H_
#define FAWNLAB_STORES_FAWNDS_KV_H_

#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "fawnds/store.h"
#include "kv/kv_store.h"

namespace fawnlab::stores {

// In ns on the i7-3610QM (cpu_scale 1); each is the cona::HostCosts constant of the same
// operation (cona/costs.h gives their sources).
struct FawnDsCosts {
  double dispatch_ns;       // op_base_ns: the request's call overhead
  double bucket_probe_ns;   // cell_probe_ns: the key's first bucket, one cache miss
  double fragment_ns;       // fragment_compare_ns: the 15-bit fragment compare
  double key_compare_ns;    // entry_compare_ns: a record's full key against the key, per record read
  double copy_ns_per_byte;  // induce_copy_ns_per_byte: the record copied (memcpy rate)
};
FawnDsCosts FawnDsI7Costs();

struct FawnDsKvOptions {
  int index_bits = 16;
  uint64_t region_offset = 0, region_bytes = 0;
  int stream = 0;
  double cpu_scale = 1.0;
  uint32_t key_bytes = 20, max_value_bytes = 200;
};

class FawnDsKv : public kv::KvStore {
 public:
  static StatusOr<std::unique_ptr<FawnDsKv>> Create(device::Device* dev, FawnDsKvOptions o);
  // Bytes of file for `entries` records of `value_bytes` values, and the index_bits that file gets.
  static uint64_t FileBytes(uint64_t entries, uint32_t value_bytes);
  static int IndexBitsFor(uint64_t region_bytes, uint32_t value_bytes);
  ~FawnDsKv() override;

  const char* kind() const override { return "fawnds"; }
  Status Put(std::string_view key, std::string_view value, Done done) override;
  Status Delete(std::string_view key, Done done) override;
  Status Get(std::string_view key, GetDone done) override;
  Status Sync(Done done) override;
  bool idle() const override { return queue_.empty() && !busy_; }
  uint64_t dram_bytes() const override { return s_->index().bytes(); }
  kv::KvCounters counters() const override;
  void DescribeJson(JsonWriter* w) const override;

  fawnds::DataStore* store() { return s_.get(); }

 private:
  enum class Kind { kPut, kDelete, kGet, kSync };
  struct Op {
    Kind kind;
    fawnds::Key key;
    std::string value;
    Done done;
    GetDone get_done;
    sim::SimTime start = 0;
  };
  FawnDsKv(device::Device* dev, FawnDsKvOptions o, std::unique_ptr<fawnds::DataStore> s);
  Status Check(std::string_view key, std::string_view value) const;
  Status Enqueue(Op op);
  void Pump();
  void Start();
  // Charges `cost` on the foreground core, then runs `then`.
  void Cpu(sim::SimDuration cost, std::function<void()> then);
  void Finish(const Status& st, std::string value);
  sim::SimDuration ns(double x) const { return static_cast<sim::SimDuration>(x * o_.cpu_scale + 0.5); }

  device::Device* dev_;
  sim::Simulator* sim_;
  FawnDsKvOptions o_;
  FawnDsCosts c_;
  std::unique_ptr<fawnds::DataStore> s_;
  std::deque<Op> queue_;
  Op cur_;
  bool busy_ = false;
  bool failed_ = false;
  uint64_t queued_log_bytes_ = 0;  // records of the puts and deletes not yet given to the store
  sim::SimTime fg_free_at_ = 0;
  uint64_t read_at_create_ = 0, written_at_create_ = 0;
  kv::KvCounters k_;
  std::shared_ptr<bool> alive_;
};

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_FAWNDS_KV_H_
