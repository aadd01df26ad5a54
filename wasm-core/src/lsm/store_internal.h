// The LSM store's private parts, shared by its three source files: store.cc (options, the
// foreground: writes, gets, state), background.cc (the background actor: flushes and
// compactions) and scan.cc (merged scans). Not for use outside lsm/.
#ifndef FAWNLAB_LSM_STORE_INTERNAL_H_
#define FAWNLAB_LSM_STORE_INTERNAL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lsm/store.h"
#include "lsm/version.h"
#include "sim/time.h"

namespace fawnlab::lsm {
namespace internal {
constexpr uint64_t kPage = 4096;
inline uint64_t RoundUp(uint64_t x) { return (x + kPage - 1) / kPage * kPage; }
}  // namespace internal

// First-fit extents of whole pages in the tables' area (a file system's allocation, simply).
class LsmStore::Extents {
 public:
  Extents(uint64_t off, uint64_t bytes) { free_[off] = bytes; }
  bool Alloc(uint64_t bytes, uint64_t* off) {
    const uint64_t need = internal::RoundUp(bytes);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < need) continue;
      *off = it->first;
      const uint64_t rest = it->second - need;
      free_.erase(it);
      if (rest) free_[*off + need] = rest;
      used_ += need;
      return true;
    }
    return false;
  }
  void Free(uint64_t off, uint64_t bytes) {
    const uint64_t len = internal::RoundUp(bytes);
    used_ -= len;
    auto next = free_.lower_bound(off);
    uint64_t start = off, end = off + len;
    if (next != free_.end() && next->first == end) {
      end += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == start) {
        start = prev->first;
        free_.erase(prev);
      }
    }
    free_[start] = end - start;
  }
  uint64_t used() const { return used_; }

 private:
  std::map<uint64_t, uint64_t> free_;
  uint64_t used_ = 0;
};

struct LsmStore::Op {
  enum Kind { kPut, kDelete, kGet, kScan, kSync } kind = kPut;
  std::string key, value;
  Done done;
  GetDone get_done;
  ScanDone scan_done;
  int count = 0;
  sim::SimTime start = 0, wait_start = 0;
  bool allow_delay = true;
  std::shared_ptr<Version> version;  // a get's files stay while it probes them
  std::vector<FilePtr> cand;
  std::vector<int> cand_level;
  bool charged = false;  // a seek charged to cand[0]
  std::string lookup;
};

struct LsmStore::Job {
  Compaction c;
  std::shared_ptr<Version> base;
  std::unique_ptr<CompactionCursor> cursor;
  sim::SimTime start = 0;
  uint64_t smallest_snapshot = 0;
  struct Read { uint64_t offset, len; std::string* dst; uint64_t within; };
  std::vector<Read> reads;
  std::vector<std::string> data;  // per input file: its data blocks, read back
  std::vector<std::pair<std::string, std::string>> entries;  // merged, internal-key order
  size_t pos = 0;
  std::string cur_user;
  bool has_cur = false;
  uint64_t last_seq_for_key = 0;
  std::vector<FilePtr> outputs;
  uint64_t input_bytes = 0;
};

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_STORE_INTERNAL_H_
