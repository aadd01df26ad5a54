// KvStore: the one interface every key-value store of the Stores lab sits behind (CONA, its
// single-thread variant, SILT, the LSM, FAWN-DS, the B+tree), so one YCSB runner drives any of
// them on the same emulated machine and one table compares them.
//
// Contract, the same for every store:
//   - Keys are fixed-length byte strings (20 B: the YCSB keys of ycsb::KeyFor, uniform bytes);
//     values are byte strings up to the store's maximum (200 B in every thesis workload).
//   - Foreground operations are served one at a time in call order (one client thread). Each
//     takes effect in order and completes through its callback at the virtual time the host
//     CPU costs, any wait for background work and the device give. An error (wrong key length,
//     value too long, store full, device refused) returns at once and never calls `done`.
//   - Background work (merges, compactions, conversions, flushes) runs on the store's own
//     actor(s) on their own core, competing with the foreground for the device; a foreground
//     operation that must wait for it counts that wait as `stall_ns`.
//   - Get answers NotFound for a key never put or deleted; otherwise the newest value.
//   - Sync: everything acknowledged before it is durable once it completes.
//   - Every byte a store reports reading or writing went to or came from the device; every DRAM
//     byte it reports is a structure it really holds (the index, filters, buffers, memtable).
#ifndef FAWNLAB_KV_KV_STORE_H_
#define FAWNLAB_KV_KV_STORE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/json_writer.h"
#include "base/status.h"
#include "sim/time.h"

namespace fawnlab::kv {

struct KvCounters {
  uint64_t puts = 0, deletes = 0, gets = 0, scans = 0, hits = 0, misses = 0;
  // Device reads issued by gets (page-cache hits included): flash reads per lookup =
  // lookup_reads / gets. Index or filter blocks read from the device count too.
  uint64_t lookup_reads = 0;
  uint64_t user_bytes = 0;           // key + value bytes of puts (a delete: its key's bytes)
  // Bytes the store wrote to its file(s): logs, WAL, tables, merge and compaction outputs,
  // index images, manifests. Store write amplification = store_bytes_written / user_bytes.
  uint64_t store_bytes_written = 0;
  uint64_t store_bytes_read = 0;     // every byte read from the device (foreground and background)
  sim::SimDuration write_ns = 0;     // foreground time in puts and deletes
  sim::SimDuration read_ns = 0;      // foreground time in gets and scans
  sim::SimDuration stall_ns = 0;     // of those, time waiting for background work (exposed)
  sim::SimDuration background_ns = 0;  // background actors' busy time (CPU + their I/O)
  sim::SimDuration foreground_cpu_ns = 0;  // CPU time the foreground charged (energy)
  uint64_t background_jobs = 0;      // merges / compactions / conversions completed
};

class KvStore {
 public:
  using Done = std::function<void(const Status&)>;
  using GetDone = std::function<void(const Status&, std::string value)>;  // NotFound if absent/deleted
  using ScanDone = std::function<void(const Status&, std::vector<std::pair<std::string, std::string>>)>;

  virtual ~KvStore() = default;

  // The store's id in the lab: "cona", "cona-1t", "silt", "lsm", "fawnds", "btree".
  virtual const char* kind() const = 0;
  virtual Status Put(std::string_view key, std::string_view value, Done done) = 0;
  virtual Status Delete(std::string_view key, Done done) = 0;
  virtual Status Get(std::string_view key, GetDone done) = 0;
  // Scans in key order from `start`, at most `count` live entries. Stores without an ordered
  // structure (FAWN-DS, SILT's hash stores) answer InvalidArgument naming the store.
  virtual bool has_scan() const { return false; }
  virtual Status Scan(std::string_view start, int count, ScanDone done) {
    return Status::InvalidArgument(std::string(kind()) + " has no ordered scan");
  }
  virtual Status Sync(Done done) = 0;
  // No foreground operation queued and no background work running or due.
  virtual bool idle() const = 0;
  // DRAM the store's in-memory structures really occupy (bytes).
  virtual uint64_t dram_bytes() const = 0;
  virtual KvCounters counters() const = 0;
  // A small JSON object describing the store's structure for the lab's view (its levels,
  // stores, cells, pages: whatever the store has), written as one value into `w`.
  virtual void DescribeJson(JsonWriter* w) const = 0;
};

}  // namespace fawnlab::kv

#endif  // FAWNLAB_KV_KV_STORE_H_
