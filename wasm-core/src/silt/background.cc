// SiltStore's background actor: LogStore -> HashStore conversion and the HashStores +
// SortedStore merge, one job step at a time on its own core, competing for the device. A due
// conversion runs between a merge's steps (the writer may be waiting for it).
#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>

#include "silt/store.h"
#include "silt/store_internal.h"

namespace fawnlab::silt {

using sim::SimDuration;
using sim::SimTime;

void SiltStore::Kick() {
  if (!bg_busy_) BackgroundNext();
}

// Called when no background step is in flight: starts the next one, or goes idle.
void SiltStore::BackgroundNext() {
  if (failed_) return;
  auto busy = [this] {
    if (!bg_busy_) {
      bg_busy_ = true;
      bg_busy_since_ = sim_->now();
    }
  };
  const bool region_free = std::find(hash_region_used_.begin(), hash_region_used_.end(), false) != hash_region_used_.end();
  if (frozen_ && !converting_ && region_free) {
    busy();
    Convert();
    return;
  }
  if (merge_) {
    busy();
    MergeStep();
    return;
  }
  if (static_cast<int>(hash_.size()) >= o_.merge_hash_stores) {
    busy();
    StartMerge();
    return;
  }
  if (bg_busy_) {
    bg_busy_ = false;
    c_.background_ns += sim_->now() - bg_busy_since_;
  }
}

// The background core: `cost` after it is free (and after now).
void SiltStore::BgCpu(SimDuration cost, std::function<void()> then) {
  const SimTime t = std::max(sim_->now(), bg_free_at_) + cost;
  bg_free_at_ = t;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [alive, then = std::move(then)] {
    if (auto a = alive.lock(); a && *a) then();
  });
}

// Sequential reads of at most merge_chunk_bytes each, one after the other.
void SiltStore::ChunkedRead(uint64_t offset, uint64_t bytes, uint8_t* out, std::function<void()> then) {
  if (bytes == 0) {
    then();
    return;
  }
  const uint64_t n = std::min<uint64_t>(bytes, o_.merge_chunk_bytes);
  Io(device::IoCommand::Single(device::IoEntry::Read(offset, n, out)), [this, offset, bytes, out, n, then = std::move(then)] {
    ChunkedRead(offset + n, bytes - n, out + n, then);
  });
}

void SiltStore::ChunkedWrite(uint64_t offset, std::shared_ptr<std::vector<uint8_t>> data, uint64_t from,
                             std::function<void()> then) {
  if (from >= data->size()) {
    then();
    return;
  }
  const uint64_t n = std::min<uint64_t>(data->size() - from, o_.merge_chunk_bytes);
  Io(device::IoCommand::Single(device::IoEntry::Write(offset + from, n, data->data() + from)),
     [this, offset, data, from, n, then = std::move(then)] { ChunkedWrite(offset, data, from + n, then); });
}

// ---------------------------------------------------------------- conversion

// Reads the frozen log back, writes its live entries in slot order to a free pool region (SILT
// §3.2: the HashStore is the LogStore's table order on flash, no offsets), keeps the tags.
void SiltStore::Convert() {
  converting_ = true;
  Log* f = frozen_.get();
  int region = 0;
  while (hash_region_used_[static_cast<size_t>(region)]) ++region;
  hash_region_used_[static_cast<size_t>(region)] = true;
  const uint64_t E = layout_.entry.entry_bytes;
  auto log = std::make_shared<std::vector<uint8_t>>(f->appended * E);
  ChunkedRead(layout_.log_offset(f->region), log->size(), log->data(), [this, f, log, region, E] {
    auto image = std::make_shared<std::vector<uint8_t>>(uint64_t{layout_.log_slots} * E, 0);
    uint64_t live = 0;
    for (uint32_t s = 0; s < f->table.slots(); ++s) {
      if (!f->table.valid(s)) continue;
      std::memcpy(image->data() + uint64_t{s} * E, log->data() + uint64_t{f->table.offset(s)} * E, E);
      ++live;
    }
    // SILT's ConvertTo reads the log entry by entry (a pread each) and puts each live one at its
    // slot (a pwritev each): per-entry system calls beside the copy.
    const double cpu = hc_.merge_ns_per_entry * static_cast<double>(live) +
                       sc_.syscall_ns * static_cast<double>(f->appended + live);
    BgCpu(hc_.ns(cpu), [this, f, image, region, live] {
      ChunkedWrite(layout_.hash_offset(region), image, 0, [this, f, region, live] {
        auto h = std::make_unique<Hash>();
        h->id = f->id;
        h->region = region;
        h->tags = std::move(f->table).TagsOnly();
        h->entries = live;
        hash_.push_back(std::move(h));
        frozen_.reset();
        converting_ = false;
        ++s_.conversions;
        ++c_.background_jobs;
        AsyncSync();  // SILT flushes the new HashStore's file (asynchronously here: decisions.md)
        WakeWriter();
        BackgroundNext();
      });
    });
  });
}

// ---------------------------------------------------------------- merge

void SiltStore::StartMerge() {
  merge_ = std::make_unique<Merge>();
  Merge* m = merge_.get();
  m->start = sim_->now();
  for (auto& h : hash_) {
    h->in_merge = true;
    m->inputs.push_back(h->id);
  }
  m->old_entries = sorted_ ? sorted_->entries : 0;
  m->out_region = sorted_ ? 1 - sorted_->region : 0;
  MergeStep();
}

void SiltStore::MergeStep() {
  Merge* m = merge_.get();
  const uint64_t E = layout_.entry.entry_bytes;
  if (m->next_input < m->inputs.size()) {
    // Read one HashStore back, take its live slots' entries.
    const uint64_t id = m->inputs[m->next_input];
    auto it = std::find_if(hash_.begin(), hash_.end(), [id](const std::unique_ptr<Hash>& h) { return h->id == id; });
    assert(it != hash_.end());
    const Hash* h = it->get();
    m->region_buf.assign(uint64_t{layout_.log_slots} * E, 0);
    ChunkedRead(layout_.hash_offset(h->region), m->region_buf.size(), m->region_buf.data(), [this, h, E] {
      Merge* m = merge_.get();
      uint64_t n = 0;
      for (uint32_t s = 0; s < h->tags.slots(); ++s) {
        if (!h->tags.valid(s)) continue;
        m->refs.push_back({m->recs.size(), static_cast<uint32_t>(m->next_input)});
        m->recs.insert(m->recs.end(), m->region_buf.begin() + static_cast<ptrdiff_t>(uint64_t{s} * E),
                       m->region_buf.begin() + static_cast<ptrdiff_t>(uint64_t{s + 1} * E));
        ++n;
      }
      ++m->next_input;
      m->region_buf.clear();
      m->region_buf.shrink_to_fit();
      // SILT enumerates the HashStore slot by slot (a pread each) into its sorter (a copy each).
      const double cpu = hc_.induce_copy_ns_per_byte * static_cast<double>(n * E) +
                         sc_.syscall_ns * static_cast<double>(h->tags.slots());
      BgCpu(hc_.ns(cpu), [this] { BackgroundNext(); });
    });
    return;
  }
  if (!m->sorted_done) {
    MergeSort();
    return;
  }
  MergeOutput();
}

// Sorts the HashStores' entries by key, newest first, and keeps the newest of each key (SILT's
// sorter: a sort key of (key, index), stable).
void SiltStore::MergeSort() {
  Merge* m = merge_.get();
  const uint32_t K = layout_.entry.key_bytes;
  const uint8_t* base = m->recs.data();
  // The CPU charged is a merge sort's worst-case comparisons, n⌈lg n⌉ − 2^⌈lg n⌉ + 1, not
  // std::sort's own count: that count differs between libstdc++ (native) and libc++ (WASM),
  // and a run must be byte-identical in both. The order is total, so the result is the same.
  const uint64_t n = m->refs.size();
  uint64_t lg = 0;
  while ((uint64_t{1} << lg) < n) ++lg;
  const uint64_t compares = n < 2 ? 0 : n * lg - (uint64_t{1} << lg) + 1;
  std::sort(m->refs.begin(), m->refs.end(), [&](const Merge::Ref& a, const Merge::Ref& b) {
    const int c = std::memcmp(base + a.off, base + b.off, K);
    if (c != 0) return c < 0;
    return a.age > b.age;
  });
  std::vector<Merge::Ref> kept;
  kept.reserve(m->refs.size());
  for (const Merge::Ref& r : m->refs) {
    if (!kept.empty() && std::memcmp(base + kept.back().off, base + r.off, K) == 0) {
      ++s_.dropped_duplicates;
      continue;
    }
    kept.push_back(r);
  }
  m->refs = std::move(kept);
  m->sorted_done = true;
  m->keys.reserve(m->old_entries + m->refs.size());
  s_.sort_compares += compares;
  BgCpu(hc_.ns(hc_.key_compare_ns * static_cast<double>(compares)), [this] { BackgroundNext(); });
}

// One step of the two-way merge: the old SortedStore (read in chunks) and the sorted HashStore
// entries (newer: they win a tie); deletes are dropped (the SortedStore is the last layer).
void SiltStore::MergeOutput() {
  Merge* m = merge_.get();
  const uint64_t E = layout_.entry.entry_bytes;
  const uint32_t K = layout_.entry.key_bytes;
  const uint64_t chunk = std::max<uint64_t>(1, o_.merge_chunk_bytes / E);
  if (m->old_pos >= m->old_count && m->old_next < m->old_entries) {
    const uint64_t n = std::min(chunk, m->old_entries - m->old_next);
    m->old_chunk.assign(n * E, 0);
    const uint64_t off = layout_.sorted_offset(sorted_->region) + m->old_next * E;
    m->old_next += n;
    m->old_pos = 0;
    m->old_count = n;
    Io(device::IoCommand::Single(device::IoEntry::Read(off, n * E, m->old_chunk.data())), [this] { MergeOutput(); });
    return;
  }
  auto out = std::make_shared<std::vector<uint8_t>>();
  out->reserve(chunk * E);
  uint64_t out_count = 0, processed = 0, old_read = 0;
  while (out_count < chunk) {
    const bool has_old = m->old_pos < m->old_count;
    if (!has_old && m->old_next < m->old_entries) break;  // refill first
    const bool has_h = m->hpos < m->refs.size();
    if (!has_old && !has_h) break;
    const uint8_t* po = has_old ? m->old_chunk.data() + m->old_pos * E : nullptr;
    const uint8_t* ph = has_h ? m->recs.data() + m->refs[m->hpos].off : nullptr;
    const int c = !has_old ? -1 : !has_h ? 1 : std::memcmp(ph, po, K);
    ++processed;
    const uint8_t* take;
    if (c <= 0) {
      if (c == 0) {
        ++m->old_pos;  // the HashStore's version is newer
        ++old_read;
        ++s_.dropped_duplicates;
      }
      ++m->hpos;
      if (ph[K] == cona::kKindDelete) {
        ++s_.dropped_deletes;
        continue;
      }
      take = ph;
    } else {
      ++m->old_pos;
      ++old_read;
      take = po;
    }
    out->insert(out->end(), take, take + E);
    m->keys.emplace_back(reinterpret_cast<const char*>(take), K);
    ++out_count;
  }
  if (out_count == 0 && processed == 0) {
    MergeFinish();
    return;
  }
  // SILT enumerates the old SortedStore entry by entry (a pread each) and puts each output entry
  // into the new one (a pwritev each).
  const double cpu = hc_.merge_ns_per_entry * static_cast<double>(processed) +
                     sc_.syscall_ns * static_cast<double>(old_read + out_count);
  BgCpu(hc_.ns(cpu), [this, out, out_count] {
    Merge* m = merge_.get();
    const uint64_t off = layout_.sorted_offset(m->out_region) + m->out_n * layout_.entry.entry_bytes;
    m->out_n += out_count;
    s_.merge_entries_written += out_count;
    ChunkedWrite(off, out, 0, [this] { BackgroundNext(); });
  });
}

// Builds the new SortedStore's trie, then it replaces the old one and the merged HashStores.
void SiltStore::MergeFinish() {
  Merge* m = merge_.get();
  auto trie = cona::EntropyTrie::Build(m->keys, o_.trie_block);
  if (!trie.ok()) {
    failed_ = true;
    failure_ = Status::Internal("SILT merge could not build the SortedStore's trie: " + trie.status().ToString());
    return;
  }
  auto built = std::make_shared<cona::EntropyTrie>(std::move(trie).value());
  BgCpu(hc_.ns(hc_.build_ns_per_key * static_cast<double>(m->keys.size())), [this, built] {
    Merge* m = merge_.get();
    auto s = std::make_unique<Sorted>();
    s->region = m->out_region;
    s->entries = m->out_n;
    s->trie = std::move(*built);
    sorted_ = std::move(s);
    for (uint64_t id : m->inputs) {
      auto it = std::find_if(hash_.begin(), hash_.end(), [id](const std::unique_ptr<Hash>& h) { return h->id == id; });
      hash_region_used_[static_cast<size_t>((*it)->region)] = false;
      hash_.erase(it);
    }
    ++s_.merges;
    ++c_.background_jobs;
    merge_.reset();
    AsyncSync();  // SILT flushes the new SortedStore's file (asynchronously here: decisions.md)
    BackgroundNext();
  });
}

}  // namespace fawnlab::silt
