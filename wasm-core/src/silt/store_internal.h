// The SILT store's private parts, shared by store.cc (the foreground) and background.cc (the
// conversion and merge actor). Not a public header: only those two include it.
#ifndef FAWNLAB_SILT_STORE_INTERNAL_H_
#define FAWNLAB_SILT_STORE_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cona/trie.h"
#include "silt/cuckoo.h"
#include "silt/store.h"

namespace fawnlab::silt {

struct SiltStore::Log {
  uint64_t id = 0;
  int region = 0;          // which of the two logs
  CuckooTable table;       // with offsets: 6 B a slot
  uint64_t appended = 0;   // entries in the log (updates included)
};

struct SiltStore::Hash {
  uint64_t id = 0;
  int region = 0;          // which pool slot
  CuckooTable tags;        // tags only: 2 B a slot; entry i at slot i
  uint64_t entries = 0;
  bool in_merge = false;
};

struct SiltStore::Sorted {
  int region = 0;
  uint64_t entries = 0;
  std::optional<cona::EntropyTrie> trie;
};

struct SiltStore::Op {
  enum Kind { kPut, kDelete, kGet, kSync } kind = kPut;
  std::string key, value;
  Done done;
  GetDone get_done;
  sim::SimTime start = 0, wait_start = 0;
  double cpu = 0;                  // ns charged at the end (foreground core)
  CuckooTable::KeyHash hash;       // every table has the same buckets: one hash per op
  uint32_t cands[2 * CuckooTable::kWays] = {};
  int ncand = 0, ci = 0;
  // Gets: the layer being probed (its id; the next is the newest below it).
  uint64_t layer = 0;
  bool layer_is_log = false;
  uint64_t layer_base = 0;         // device offset of the layer's entry 0
  bool waiting = false;
};

struct SiltStore::Merge {
  sim::SimTime start = 0;
  std::vector<uint64_t> inputs;    // HashStore ids, oldest first
  size_t next_input = 0;
  std::vector<uint8_t> region_buf; // one HashStore's region as read
  // The HashStores' entries: flat bytes, and (offset, age) per entry; sorted by key, newest first.
  std::vector<uint8_t> recs;
  struct Ref { uint64_t off; uint32_t age; };
  std::vector<Ref> refs;
  size_t hpos = 0;                 // next HashStore entry to merge
  bool sorted_done = false;
  // The old SortedStore, read in chunks.
  uint64_t old_entries = 0, old_next = 0;
  std::vector<uint8_t> old_chunk;
  uint64_t old_pos = 0, old_count = 0;
  int out_region = 0;
  uint64_t out_n = 0;              // entries written so far
  std::vector<std::string> keys;   // the new SortedStore's keys (its trie)
};

}  // namespace fawnlab::silt

#endif  // FAWNLAB_SILT_STORE_INTERNAL_H_
