// LsmStore's background actor (lsm/store.h): memtable flushes and LevelDB's compactions.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lsm/store.h"
#include "lsm/store_internal.h"
#include "lsm/table.h"

namespace fawnlab::lsm {

using sim::SimDuration;
using sim::SimTime;

// ---------------------------------------------------------------- the background actor

void LsmStore::BgCpu(double ns, std::function<void()> then) {
  const SimTime t = std::max(sim_->now(), bg_free_at_) + Cpu(ns);
  bg_free_at_ = t;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [alive, then = std::move(then)] {
    if (auto a = alive.lock(); a && *a) then();
  });
}

void LsmStore::BgKick() {
  if (bg_busy_ || failed_) return;
  if (imm_) {
    bg_busy_ = true;
    bg_start_ = std::max(sim_->now(), bg_free_at_);
    Flush([this] { BgDone(); });
    return;
  }
  if (current_->NeedsCompaction()) StartCompaction();
}

void LsmStore::BgDone() {
  bg_busy_ = false;
  compacting_ = -1;
  c_.background_ns += sim_->now() - std::min(sim_->now(), bg_start_);
  job_.reset();
  NotifyWriter();
  BgKick();
}

StatusOr<FilePtr> LsmStore::NewFile(const std::string& image, uint64_t entries, std::string smallest, std::string largest) {
  uint64_t off = 0;
  if (!extents_->Alloc(image.size(), &off))
    return Status::ResourceExhausted("LSM file full: no room for a " + std::to_string(image.size()) + "-byte table in its " +
                                     std::to_string(tables_bytes_) + " bytes of tables (LsmStore::FileBytes)");
  auto idx = TableIndex::Open(image, 0, image.size());
  if (!idx.ok()) return idx.status();
  auto f = std::make_shared<FileMeta>();
  f->number = next_file_++;
  f->file_bytes = image.size();
  f->allowed_seeks = AllowedSeeks(f->file_bytes);
  f->entries = entries;
  f->smallest = std::move(smallest);
  f->largest = std::move(largest);
  f->offset = off;
  f->index = std::move(idx).value();
  std::weak_ptr<Extents> ex = extents_;
  const uint64_t len = image.size();
  f->on_free = [ex, off, len] {
    if (auto e = ex.lock()) e->Free(off, len);
  };
  return f;
}

void LsmStore::WriteImage(std::shared_ptr<std::string> image, uint64_t offset, uint64_t from, std::function<void()> then) {
  const uint64_t n = std::min<uint64_t>(o_.io_chunk_bytes, image->size() - from);
  Io(device::IoCommand::Single(device::IoEntry::Write(offset + from, n, reinterpret_cast<const uint8_t*>(image->data() + from))),
     [this, image, offset, from, n, then = std::move(then)]() mutable {
       if (from + n < image->size()) WriteImage(std::move(image), offset, from + n, std::move(then));
       else then();
     });
}

void LsmStore::Apply(const std::vector<std::pair<int, uint64_t>>& deleted, const std::vector<std::pair<int, FilePtr>>& added) {
  auto v = std::make_shared<Version>(*current_);
  for (const auto& [level, number] : deleted) {
    auto& fs = v->files[level];
    fs.erase(std::remove_if(fs.begin(), fs.end(), [number = number](const FilePtr& f) { return f->number == number; }), fs.end());
  }
  for (const auto& [level, f] : added) {
    auto& fs = v->files[level];
    auto pos = std::upper_bound(fs.begin(), fs.end(), f, [](const FilePtr& a, const FilePtr& b) {
      const int r = CompareInternal(a->smallest, b->smallest);
      return r != 0 ? r < 0 : a->number < b->number;
    });
    fs.insert(pos, f);
  }
  v->file_to_compact = nullptr;  // a new version starts without one (LevelDB's)
  v->file_to_compact_level = -1;
  Finalize(v.get(), sizes_);
  current_ = std::move(v);
}

void LsmStore::WriteManifest(const VersionEdit& e, std::function<void()> then) {
  std::string payload, framed;
  EncodeVersionEdit(e, &payload);
  manifest_log_.AddRecord(payload, &framed);
  if (manifest_pos_ + framed.size() > manifest_bytes_) {
    // The manifest's area is a ring: start over (LevelDB starts a new MANIFEST on reopen).
    manifest_pos_ = 0;
    manifest_log_.Reset();
    framed.clear();
    manifest_log_.AddRecord(payload, &framed);
  }
  auto buf = std::make_shared<std::string>(std::move(framed));
  const uint64_t off = manifest_off_ + manifest_pos_;
  manifest_pos_ += buf->size();
  c_.store_bytes_written += buf->size();
  st_.manifest_bytes += buf->size();
  Io(device::IoCommand::Single(device::IoEntry::Write(off, buf->size(), reinterpret_cast<const uint8_t*>(buf->data()))),
     [buf, then = std::move(then)] { then(); });
}

// LevelDB fsyncs each table it writes. A device flush's cost is mostly fixed, so here one is
// issued once LevelDB's table size (max_file_bytes unscaled, 2 MB) has been written since the
// last: every job at size_scale 1, about one in 1/size_scale tables at the lab's scales, the
// same flushes per byte as LevelDB (docs/decisions.md "Stores: the LSM", LSM syncs).
void LsmStore::SyncOutputs(std::function<void()> then) {
  if (unsynced_bytes_ < o_.max_file_bytes) {
    then();
    return;
  }
  unsynced_bytes_ = 0;
  ++st_.syncs;
  Io(device::IoCommand::Single(device::IoEntry::Flush()), std::move(then));
}

// LevelDB's CompactMemTable / WriteLevel0Table: the immutable memtable into one table, synced,
// placed by PickLevelForMemTableOutput, recorded in the manifest.
void LsmStore::Flush(std::function<void()> then) {
  flushing_ = true;
  std::shared_ptr<MemTable> imm = imm_;
  TableBuilder b(o_.block_bytes, o_.block_restart_interval, o_.bloom_bits);
  for (const auto& [k, v] : imm->entries()) b.Add(k, v);
  auto image = std::make_shared<std::string>(b.Finish());
  std::string smallest = imm->entries().begin()->first;
  std::string largest = imm->entries().rbegin()->first;
  const uint64_t entries = b.entries();
  const double bytes = static_cast<double>(image->size());
  const double cpu = o_.costs.block_add_ns * static_cast<double>(entries) +
                     bytes * (o_.costs.crc_ns_per_byte + o_.host.insert_move_ns_per_byte);
  BgCpu(cpu, [this, image, entries, smallest = std::move(smallest), largest = std::move(largest), then = std::move(then)]() mutable {
    auto f = NewFile(*image, entries, smallest, largest);
    if (!f.ok()) {
      Fail(f.status());
      return;
    }
    FilePtr file = std::move(f).value();
    c_.store_bytes_written += image->size();
    st_.table_bytes += image->size();
    unsynced_bytes_ += image->size();
    WriteImage(image, file->offset, 0, [this, file, then = std::move(then)]() mutable {
      SyncOutputs([this, file, then = std::move(then)]() mutable {
        const int level = PickLevelForMemTableOutput(*current_, sizes_, UserKey(file->smallest), UserKey(file->largest));
        st_.levels[level].bytes_written += file->file_bytes;
        ++st_.flushes;
        ++c_.background_jobs;
        Apply({}, {{level, file}});
        imm_.reset();
        flushing_ = false;
        VersionEdit e;
        e.log_number = log_number_;
        e.next_file = next_file_;
        e.last_sequence = last_seq_;
        e.added.push_back({level, file->number, file->file_bytes, file->smallest, file->largest});
        NotifyWriter();
        WriteManifest(e, std::move(then));
      });
    });
  });
}

void LsmStore::StartCompaction() {
  auto j = std::make_unique<Job>();
  j->base = current_;
  if (!PickCompaction(*j->base, sizes_, pointers_, &j->c)) return;
  bg_busy_ = true;
  bg_start_ = std::max(sim_->now(), bg_free_at_);
  compacting_ = j->c.level;
  if (j->c.seek) ++st_.seek_compactions;
  pointers_[j->c.level] = j->c.compact_pointer;
  job_ = std::move(j);
  Job* job = job_.get();
  const int level = job->c.level;
  if (job->c.trivial_move) {
    // Moved to the next level without rewriting it.
    const FilePtr f = job->c.inputs[0][0];
    ++st_.trivial_moves;
    f->allowed_seeks = AllowedSeeks(f->file_bytes);  // LevelDB's new FileMetaData for the moved file
    ++c_.background_jobs;
    Apply({{level, f->number}}, {{level + 1, f}});
    VersionEdit e;
    e.log_number = log_number_;
    e.next_file = next_file_;
    e.last_sequence = last_seq_;
    e.compact_pointers.push_back({level, job->c.compact_pointer});
    e.deleted.push_back({level, f->number});
    e.added.push_back({level + 1, f->number, f->file_bytes, f->smallest, f->largest});
    BgCpu(o_.host.op_base_ns, [this, e] { WriteManifest(e, [this] { BgDone(); }); });
    return;
  }
  job->cursor = std::make_unique<CompactionCursor>(*job->base, job->c, sizes_);
  job->smallest_snapshot = last_seq_;
  size_t n = job->c.inputs[0].size() + job->c.inputs[1].size();
  job->data.resize(n);
  size_t i = 0;
  for (int w = 0; w < 2; ++w) {
    for (const FilePtr& f : job->c.inputs[w]) {
      const uint64_t len = f->index.data_bytes();
      job->data[i].assign(len, '\0');
      for (uint64_t from = 0; from < len; from += o_.io_chunk_bytes)
        job->reads.push_back({f->offset + from, std::min<uint64_t>(o_.io_chunk_bytes, len - from), &job->data[i], from});
      job->input_bytes += f->file_bytes;
      ++i;
    }
  }
  st_.levels[level + 1].bytes_read += job->input_bytes;
  ReadInputs(0);
}

// Reads the inputs' data blocks back from the device, one command at a time.
void LsmStore::ReadInputs(size_t task) {
  Job* j = job_.get();
  if (task >= j->reads.size()) {
    // All read: merge the entries into internal-key order (newest version of a key first).
    size_t i = 0;
    for (int w = 0; w < 2; ++w) {
      for (const FilePtr& f : j->c.inputs[w]) {
        Status s = ForEachEntry(j->data[i], f->index, [j](std::string_view k, std::string_view v) {
          j->entries.emplace_back(std::string(k), std::string(v));
        });
        if (!s.ok()) {
          Fail(Status::Corruption("LSM compaction input " + std::to_string(f->number) + ": " + s.ToString()));
          return;
        }
        j->data[i].clear();
        j->data[i].shrink_to_fit();
        ++i;
      }
    }
    std::sort(j->entries.begin(), j->entries.end(),
              [](const auto& a, const auto& b) { return CompareInternal(a.first, b.first) < 0; });
    CompactStep();
    return;
  }
  const Job::Read r = j->reads[task];
  c_.store_bytes_read += r.len;
  Io(device::IoCommand::Single(device::IoEntry::Read(r.offset, r.len, reinterpret_cast<uint8_t*>(r.dst->data() + r.within))),
     [this, task] { ReadInputs(task + 1); });
}

// LevelDB's DoCompactionWork, one output table per step.
void LsmStore::CompactStep() {
  if (imm_ && !flushing_) {  // a full memtable waits for nothing (LevelDB: "prioritize immutable compaction work")
    Flush([this] { CompactStep(); });
    return;
  }
  Job* j = job_.get();
  if (j->pos >= j->entries.size()) {
    CompactInstall();
    return;
  }
  TableBuilder b(o_.block_bytes, o_.block_restart_interval, o_.bloom_bits);
  std::string smallest, largest;
  uint64_t processed = 0, copied = 0;
  while (j->pos < j->entries.size()) {
    const auto& [k, v] = j->entries[j->pos];
    if (j->cursor->ShouldStopBefore(k) && b.entries() > 0) break;
    const std::string_view uk = UserKey(k);
    bool drop = false;
    if (!j->has_cur || uk != j->cur_user) {
      j->cur_user.assign(uk);
      j->has_cur = true;
      j->last_seq_for_key = kMaxSequence;
    }
    const uint64_t seq = SequenceOf(k);
    if (j->last_seq_for_key <= j->smallest_snapshot) {
      drop = true;  // a newer version of the key is already written
      ++st_.dropped_versions;
    } else if (TypeOf(k) == kTypeDeletion && seq <= j->smallest_snapshot && j->cursor->IsBaseLevelForKey(uk)) {
      drop = true;  // no older version anywhere below: the deletion has done its work
      ++st_.dropped_deletions;
    }
    j->last_seq_for_key = seq;
    ++processed;
    ++j->pos;
    if (drop) continue;
    if (b.entries() == 0) smallest = k;
    largest = k;
    copied += k.size() + v.size();
    b.Add(k, v);
    if (b.FileSize() >= sizes_.max_file_bytes) break;
  }
  const cona::HostCosts& h = o_.host;
  const LsmCosts& c = o_.costs;
  double cpu = static_cast<double>(processed) * (h.merge_ns_per_entry + c.block_decode_ns);
  if (b.entries() == 0) {
    BgCpu(cpu, [this] { CompactStep(); });
    return;
  }
  const uint64_t entries = b.entries();
  auto image = std::make_shared<std::string>(b.Finish());
  cpu += c.block_add_ns * static_cast<double>(entries) +
         static_cast<double>(image->size()) * (c.crc_ns_per_byte + h.insert_move_ns_per_byte);
  BgCpu(cpu, [this, image, entries, smallest = std::move(smallest), largest = std::move(largest)]() mutable {
    auto f = NewFile(*image, entries, std::move(smallest), std::move(largest));
    if (!f.ok()) {
      Fail(f.status());
      return;
    }
    FilePtr file = std::move(f).value();
    job_->outputs.push_back(file);
    c_.store_bytes_written += image->size();
    st_.table_bytes += image->size();
    unsynced_bytes_ += image->size();
    st_.levels[job_->c.level + 1].bytes_written += image->size();
    WriteImage(image, file->offset, 0, [this] { CompactStep(); });
  });
}

void LsmStore::CompactInstall() {
  SyncOutputs([this] {
    Job* j = job_.get();
    const int level = j->c.level;
    std::vector<std::pair<int, uint64_t>> del;
    std::vector<std::pair<int, FilePtr>> add;
    VersionEdit e;
    e.log_number = log_number_;
    e.next_file = next_file_;
    e.last_sequence = last_seq_;
    e.compact_pointers.push_back({level, j->c.compact_pointer});
    for (int w = 0; w < 2; ++w)
      for (const FilePtr& f : j->c.inputs[w]) del.emplace_back(level + w, f->number);
    for (const FilePtr& f : j->outputs) {
      add.emplace_back(level + 1, f);
      e.added.push_back({level + 1, f->number, f->file_bytes, f->smallest, f->largest});
    }
    e.deleted = del;
    Apply(del, add);
    ++st_.compactions;
    ++c_.background_jobs;
    ++st_.levels[level + 1].compactions;
    j->entries.clear();
    j->entries.shrink_to_fit();
    WriteManifest(e, [this] { BgDone(); });
  });
}

}  // namespace fawnlab::lsm
