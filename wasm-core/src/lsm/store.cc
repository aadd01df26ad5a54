#include "lsm/store.h"

#include <algorithm>
#include <cassert>

#include "lsm/store_internal.h"
#include "lsm/table.h"

namespace fawnlab::lsm {

using sim::SimDuration;
using sim::SimTime;

namespace {
using internal::kPage;
using internal::RoundUp;

struct Layout {
  uint64_t wb, max_file, l1;
  uint64_t manifest_bytes, wal_bytes, tables_bytes;
};

double ClampScale(double s) { return std::min(16.0, std::max(kMinSizeScale, s)); }

Layout LayoutFor(const Options& o, double s, uint64_t entries) {
  Layout l;
  l.wb = static_cast<uint64_t>(static_cast<double>(o.write_buffer_bytes) * s);
  l.max_file = static_cast<uint64_t>(static_cast<double>(o.max_file_bytes) * s);
  l.l1 = static_cast<uint64_t>(static_cast<double>(o.l1_bytes) * s);
  l.manifest_bytes = RoundUp(std::max<uint64_t>(64 << 10, static_cast<uint64_t>(static_cast<double>(1 << 20) * s)));
  // A log holds one memtable's records: fewer bytes than the memtable's arena, which holds
  // the same bytes plus a node each; twice the write buffer and a margin.
  l.wal_bytes = RoundUp(2 * l.wb + (64 << 10));
  // Tables: every entry once as a table entry (internal key, value, three varints, restart,
  // index and filter share), twice over (a compaction's inputs and outputs coexist), a half
  // for fragmentation, and 16 of the largest tables.
  const uint64_t per_entry = o.key_bytes + kTrailerBytes + o.max_value_bytes + 5;
  const uint64_t largest = RoundUp(std::max(l.wb, l.max_file) * 5 / 4 + (16 << 10));
  l.tables_bytes = RoundUp(entries * per_entry * 5 / 2 + 16 * largest);
  return l;
}

Status CheckOptions(const Options& o) {
  if (o.key_bytes == 0 || o.key_bytes > 1024)
    return Status::InvalidArgument("key_bytes = " + std::to_string(o.key_bytes) + " must be in 1..1024");
  if (o.max_value_bytes > (1u << 20))
    return Status::InvalidArgument("max_value_bytes = " + std::to_string(o.max_value_bytes) + " is above 1 MB");
  if (o.bloom_bits < 0 || o.bloom_bits > 30)
    return Status::InvalidArgument("bloom_bits = " + std::to_string(o.bloom_bits) + " must be in 0..30");
  if (!(o.size_scale >= 0 && o.size_scale <= 16))
    return Status::InvalidArgument("size_scale must be in [0, 16] (0: from the region; 1: LevelDB's sizes)");
  if (!(o.cpu_scale > 0 && o.cpu_scale <= 1000)) return Status::InvalidArgument("cpu_scale must be in (0, 1000]");
  if (o.block_bytes < 256 || o.block_bytes > (1u << 20))
    return Status::InvalidArgument("block_bytes = " + std::to_string(o.block_bytes) + " must be in 256..1 MB");
  if (o.block_restart_interval < 1) return Status::InvalidArgument("block_restart_interval must be at least 1");
  if (o.write_buffer_bytes < 1024 || o.max_file_bytes < 1024 || o.l1_bytes < 1024)
    return Status::InvalidArgument("write_buffer_bytes, max_file_bytes and l1_bytes must be at least 1 KB");
  if (o.io_chunk_bytes < kPage) return Status::InvalidArgument("io_chunk_bytes must be at least 4096");
  return Status::Ok();
}

Status BadKey(size_t got, uint32_t want) {
  return Status::InvalidArgument("key is " + std::to_string(got) + " bytes; the LSM's keys are " + std::to_string(want) +
                                 " bytes (key_bytes)");
}
}  // namespace

double ScaleForEntries(uint64_t entries) {
  return std::min(1.0, std::max(kMinSizeScale, static_cast<double>(entries) / 50e6));
}

LsmStore::LsmStore(device::Device* dev, Options o, double scale)
    : dev_(dev), sim_(dev->sim()), o_(std::move(o)), scale_(scale), alive_(std::make_shared<bool>(true)) {}

LsmStore::~LsmStore() {
  *alive_ = false;
  // Files return their extents to an allocator that goes with the store.
  job_.reset();
  queue_.clear();
  cur_.reset();
  current_.reset();
}

uint64_t LsmStore::FileBytes(const Options& o, uint64_t entries) {
  const double s = o.size_scale == 0 ? ScaleForEntries(entries) : ClampScale(o.size_scale);
  const Layout l = LayoutFor(o, s, entries);
  return l.manifest_bytes + 2 * l.wal_bytes + l.tables_bytes;
}

uint64_t LsmStore::DramEstimate(const Options& o, uint64_t keys) {
  const double s = o.size_scale == 0 ? ScaleForEntries(2 * keys) : ClampScale(o.size_scale);
  const Layout l = LayoutFor(o, s, 0);
  const uint64_t per_block = std::max<uint64_t>(1, o.block_bytes / (o.key_bytes + kTrailerBytes + o.max_value_bytes + 4));
  const uint64_t filter = o.bloom_bits > 0 ? (std::max<uint64_t>(64, per_block * o.bloom_bits) + 7) / 8 + 1 + 8 : 0;
  const uint64_t blocks = (keys + per_block - 1) / per_block;
  return 2 * l.wb + blocks * (23 + filter);
}

StatusOr<std::unique_ptr<LsmStore>> LsmStore::Create(device::Device* dev, Options o) {
  if (dev == nullptr) return Status::InvalidArgument("no device given for the LSM store");
  if (Status s = CheckOptions(o); !s.ok()) return s;
  const uint64_t cap = dev->info().capacity_bytes;
  if (o.region_offset >= cap)
    return Status::InvalidArgument("region_offset " + std::to_string(o.region_offset) + " is beyond the device's " +
                                   std::to_string(cap) + " bytes");
  const uint64_t bytes = o.region_bytes == 0 ? cap - o.region_offset : o.region_bytes;
  if (o.region_offset + bytes > cap)
    return Status::InvalidArgument("region [" + std::to_string(o.region_offset) + ", +" + std::to_string(bytes) +
                                   ") is beyond the device's " + std::to_string(cap) + " bytes");
  double s = ClampScale(o.size_scale);
  if (o.size_scale == 0) {
    // The scale of the most entries the region is sized for.
    uint64_t lo = 0, hi = uint64_t{1} << 40;
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo + 1) / 2;
      if (FileBytes(o, mid) <= bytes) lo = mid;
      else hi = mid - 1;
    }
    s = ScaleForEntries(lo);
  }
  const Layout l = LayoutFor(o, s, 0);
  const uint64_t fixed = l.manifest_bytes + 2 * l.wal_bytes;
  if (bytes < fixed + l.tables_bytes)
    return Status::InvalidArgument("region of " + std::to_string(bytes) + " bytes is too small for the LSM (" +
                                   std::to_string(fixed + l.tables_bytes) + " bytes at least: LsmStore::FileBytes)");
  std::unique_ptr<LsmStore> st(new LsmStore(dev, std::move(o), s));
  LsmStore& x = *st;
  x.wb_ = l.wb;
  x.sizes_.max_file_bytes = l.max_file;
  x.sizes_.l1_bytes = l.l1;
  x.manifest_off_ = x.o_.region_offset;
  x.manifest_bytes_ = l.manifest_bytes;
  x.wal_bytes_ = l.wal_bytes;
  x.wal_off_[0] = x.manifest_off_ + l.manifest_bytes;
  x.wal_off_[1] = x.wal_off_[0] + l.wal_bytes;
  x.tables_off_ = x.wal_off_[1] + l.wal_bytes;
  x.tables_bytes_ = x.o_.region_offset + bytes - x.tables_off_;
  x.extents_ = std::make_shared<Extents>(x.tables_off_, x.tables_bytes_);
  x.mem_ = std::make_shared<MemTable>();
  x.current_ = std::make_shared<Version>();
  Finalize(x.current_.get(), x.sizes_);
  // The manifest's first record (the empty version), written and synced.
  VersionEdit e;
  e.log_number = x.log_number_;
  e.next_file = x.next_file_;
  std::string payload, framed;
  EncodeVersionEdit(e, &payload);
  x.manifest_log_.AddRecord(payload, &framed);
  auto w = device::SubmitAndWait(
      dev, device::IoCommand::Single(device::IoEntry::Write(x.manifest_off_, framed.size(),
                                                            reinterpret_cast<const uint8_t*>(framed.data())),
                                     x.o_.stream));
  if (!w.ok()) return w.status();
  auto f = device::SubmitAndWait(dev, device::IoCommand::Single(device::IoEntry::Flush(), x.o_.stream));
  if (!f.ok()) return f.status();
  x.manifest_pos_ = framed.size();
  x.c_.store_bytes_written += framed.size();
  x.st_.manifest_bytes += framed.size();
  x.fg_free_at_ = x.bg_free_at_ = dev->sim()->now();
  return st;
}

// ---------------------------------------------------------------- plumbing

SimDuration LsmStore::Cpu(double ns) const { return static_cast<SimDuration>(ns * o_.cpu_scale + 0.5); }

Status LsmStore::CheckKey(std::string_view key) const {
  if (key.size() != o_.key_bytes) return BadKey(key.size(), o_.key_bytes);
  return Status::Ok();
}

Status LsmStore::Enqueue(std::unique_ptr<Op> op) {
  if (failed_) return failure_;
  queue_.push_back(std::move(op));
  if (!cur_) Pump();
  return Status::Ok();
}

void LsmStore::Pump() {
  if (cur_ || queue_.empty() || failed_) return;
  cur_ = std::move(queue_.front());
  queue_.pop_front();
  Op* op = cur_.get();
  op->start = std::max(sim_->now(), fg_free_at_);
  switch (op->kind) {
    case Op::kPut:
    case Op::kDelete: MakeRoom(op); break;
    case Op::kGet: RunGet(op); break;
    case Op::kScan: RunScan(op); break;
    case Op::kSync:
      Finish(Cpu(o_.host.op_base_ns), [this, op] {
        Io(device::IoCommand::Single(device::IoEntry::Flush()), [this, op] {
          Done d = std::move(op->done);
          OpDone();
          if (d) d(Status::Ok());
        });
      });
      break;
  }
}

void LsmStore::Finish(SimDuration cost, std::function<void()> then) {
  const SimTime t = std::max(sim_->now(), fg_free_at_) + cost;
  fg_free_at_ = t;
  c_.foreground_cpu_ns += cost;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [alive, then = std::move(then)] {
    if (auto a = alive.lock(); a && *a) then();
  });
}

void LsmStore::OpDone() {
  cur_.reset();
  Pump();
}

void LsmStore::Fail(Status s) {
  if (failed_) return;
  failed_ = true;
  failure_ = std::move(s);
}

void LsmStore::Io(device::IoCommand cmd, std::function<void()> then) {
  cmd.stream = o_.stream;
  std::weak_ptr<bool> alive = alive_;
  Status s = dev_->Submit(cmd, [alive, then = std::move(then)](const device::IoCompletion&) {
    if (auto a = alive.lock(); a && *a) then();
  });
  if (!s.ok()) Fail(Status::Unavailable("LSM store's device refused a command: " + s.ToString()));
}

// ---------------------------------------------------------------- writes

Status LsmStore::Put(std::string_view key, std::string_view value, Done done) {
  if (Status s = CheckKey(key); !s.ok()) return s;
  if (value.size() > o_.max_value_bytes)
    return Status::InvalidArgument("value is " + std::to_string(value.size()) + " bytes; at most " +
                                   std::to_string(o_.max_value_bytes) + " (max_value_bytes)");
  auto op = std::make_unique<Op>();
  op->kind = Op::kPut;
  op->key.assign(key);
  op->value.assign(value);
  op->done = std::move(done);
  return Enqueue(std::move(op));
}

Status LsmStore::Delete(std::string_view key, Done done) {
  if (Status s = CheckKey(key); !s.ok()) return s;
  auto op = std::make_unique<Op>();
  op->kind = Op::kDelete;
  op->key.assign(key);
  op->done = std::move(done);
  return Enqueue(std::move(op));
}

// LevelDB's DBImpl::MakeRoomForWrite.
void LsmStore::MakeRoom(Op* op) {
  if (failed_) return;
  const size_t l0 = current_->files[0].size();
  if (op->allow_delay && l0 >= static_cast<size_t>(kL0SlowdownTrigger)) {
    // Hand the background some time, once per write, rather than stall one write for seconds.
    op->allow_delay = false;
    ++st_.slowdowns;
    c_.stall_ns += o_.slowdown_ns;
    const SimTime t = std::max(sim_->now(), fg_free_at_) + o_.slowdown_ns;
    fg_free_at_ = t;
    std::weak_ptr<bool> alive = alive_;
    sim_->Schedule(t, [this, alive, op] {
      if (auto a = alive.lock(); a && *a) MakeRoom(op);
    });
    return;
  }
  if (mem_->ApproximateMemoryUsage() <= wb_) {
    WriteToLog(op);
    return;
  }
  if (imm_ || l0 >= static_cast<size_t>(kL0StopTrigger)) {
    ++st_.stops;
    op->wait_start = std::max(sim_->now(), fg_free_at_);
    writer_wait_ = [this, op] {
      c_.stall_ns += sim_->now() - std::min(sim_->now(), op->wait_start);
      MakeRoom(op);
    };
    BgKick();
    return;
  }
  // Switch to a new memtable and a new log; the full one goes to the background.
  imm_ = std::move(mem_);
  mem_ = std::make_shared<MemTable>();
  wal_slot_ ^= 1;
  wal_pos_ = 0;
  wal_log_.Reset();
  ++log_number_;
  if (!bg_busy_) bg_free_at_ = std::max(bg_free_at_, std::max(sim_->now(), fg_free_at_));
  BgKick();
  MakeRoom(op);
}

void LsmStore::WriteToLog(Op* op) {
  const bool del = op->kind == Op::kDelete;
  const uint64_t seq = ++last_seq_;
  std::string payload;
  EncodeBatch(seq, del, op->key, op->value, &payload);
  auto framed = std::make_shared<std::string>();
  wal_log_.AddRecord(payload, framed.get());
  if (wal_pos_ + framed->size() > wal_bytes_) {
    Fail(Status::Internal("LSM log slot of " + std::to_string(wal_bytes_) + " bytes overflowed"));
    return;
  }
  const uint64_t off = wal_off_[wal_slot_] + wal_pos_;
  wal_pos_ += framed->size();
  c_.store_bytes_written += framed->size();
  st_.wal_bytes += framed->size();
  if (del) ++c_.deletes;
  else ++c_.puts;
  c_.user_bytes += op->key.size() + op->value.size();
  const double bytes = static_cast<double>(framed->size());
  const double cpu = o_.host.op_base_ns + bytes * (o_.costs.crc_ns_per_byte + o_.host.insert_move_ns_per_byte);
  Finish(Cpu(cpu), [this, op, framed, off, seq, del] {
    Io(device::IoCommand::Single(device::IoEntry::Write(off, framed->size(), reinterpret_cast<const uint8_t*>(framed->data()))),
       [this, op, seq, del] {
         const int levels = mem_->Add(seq, del ? kTypeDeletion : kTypeValue, op->key, op->value);
         const double ins = o_.costs.skiplist_level_ns * levels +
                            o_.host.insert_move_ns_per_byte * static_cast<double>(op->key.size() + op->value.size());
         Finish(Cpu(ins), [this, op] {
           c_.write_ns += sim_->now() - op->start;
           Done d = std::move(op->done);
           OpDone();
           if (d) d(Status::Ok());
         });
       });
  });
}

void LsmStore::NotifyWriter() {
  if (writer_wait_) {
    auto w = std::move(writer_wait_);
    writer_wait_ = nullptr;
    w();
  }
}

// ---------------------------------------------------------------- gets

Status LsmStore::Get(std::string_view key, GetDone done) {
  if (Status s = CheckKey(key); !s.ok()) return s;
  auto op = std::make_unique<Op>();
  op->kind = Op::kGet;
  op->key.assign(key);
  op->get_done = std::move(done);
  return Enqueue(std::move(op));
}

void LsmStore::RunGet(Op* op) {
  ++c_.gets;
  const cona::HostCosts& h = o_.host;
  double cpu = h.op_base_ns;
  std::string value;
  bool deleted = false;
  for (const std::shared_ptr<MemTable>& mt : {mem_, imm_}) {
    if (!mt) continue;
    cpu += o_.costs.skiplist_level_ns * mt->max_height();
    if (mt->Get(op->key, &value, &deleted)) {
      AnswerGet(op, true, deleted, std::move(value), cpu);
      return;
    }
  }
  op->version = current_;
  const Version& v = *op->version;
  op->lookup.clear();
  AppendInternalKey(&op->lookup, op->key, kMaxSequence, kTypeValue);
  op->cand.clear();
  op->cand_level.clear();
  op->charged = false;
  // Level 0: every file whose range holds the key, newest first.
  for (const FilePtr& f : v.files[0]) {
    cpu += 2 * h.key_compare_ns;
    if (op->key >= UserKey(f->smallest) && op->key <= UserKey(f->largest)) op->cand.push_back(f);
  }
  std::sort(op->cand.begin(), op->cand.end(), [](const FilePtr& a, const FilePtr& b) { return a->number > b->number; });
  op->cand_level.assign(op->cand.size(), 0);
  // Levels 1..: the one file whose range may hold it (binary search on the largest keys).
  for (int level = 1; level < kNumLevels; ++level) {
    const auto& fs = v.files[level];
    size_t lo = 0, hi = fs.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      cpu += h.key_compare_ns;
      if (CompareInternal(fs[mid]->largest, op->lookup) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo < fs.size()) {
      cpu += h.key_compare_ns;
      if (op->key >= UserKey(fs[lo]->smallest)) {
        op->cand.push_back(fs[lo]);
        op->cand_level.push_back(level);
      }
    }
  }
  ProbeFiles(op, 0, cpu);
}

void LsmStore::ProbeFiles(Op* op, size_t from, double cpu) {
  const LsmCosts& k = o_.costs;
  for (size_t i = from; i < op->cand.size(); ++i) {
    if (i == 1 && !op->charged) ChargeSeek(op);
    const FilePtr& f = op->cand[i];
    int steps = 0;
    const int b = f->index.FindBlock(op->lookup, &steps);
    cpu += k.block_search_step_ns * steps;
    if (b < 0) continue;
    const BlockHandle bh = f->index.blocks()[b].handle;
    int probes = 0;
    const bool may = f->index.MayMatch(bh.offset, op->key, &probes);
    if (o_.bloom_bits > 0) cpu += k.bloom_hash_ns + k.bloom_probe_ns * probes;
    if (!may) {
      ++st_.filter_negatives;
      continue;
    }
    // One data block read.
    ++c_.lookup_reads;
    const uint64_t off = f->offset + bh.offset;
    const uint64_t len = bh.size + kBlockTrailerBytes;
    Finish(Cpu(cpu), [this, op, i, off, len] {
      auto buf = std::make_shared<std::string>(len, '\0');
      c_.store_bytes_read += len;
      Io(device::IoCommand::Single(device::IoEntry::Read(off, len, reinterpret_cast<uint8_t*>(buf->data()))),
         [this, op, i, buf] {
           const LsmCosts& k2 = o_.costs;
           auto contents = BlockContents(*buf, false);
           if (!contents.ok()) {
             Fail(Status::Corruption("LSM table block at get: " + contents.status().ToString()));
             return;
           }
           auto r = BlockReader::Parse(contents.value());
           if (!r.ok()) {
             Fail(Status::Corruption("LSM table block at get: " + r.status().ToString()));
             return;
           }
           BlockEntry e;
           BlockReader::SeekWork w;
           const bool hit = r.value().Seek(op->lookup, &e, &w);
           const double c2 = k2.block_search_step_ns * w.steps + k2.block_decode_ns * w.decoded + o_.host.entry_compare_ns;
           if (hit && UserKey(e.key) == op->key) {
             const bool del = TypeOf(e.key) == kTypeDeletion;
             AnswerGet(op, true, del, del ? std::string() : std::string(e.value), c2);
             return;
           }
           ++st_.false_positives;
           ProbeFiles(op, i + 1, c2);
         });
    });
    return;
  }
  AnswerGet(op, false, false, std::string(), cpu);
}

// LevelDB's Version::UpdateStats: a get that had to look in a second file charges the first
// one a seek; a file out of allowed seeks is due for a compaction of its own.
void LsmStore::ChargeSeek(Op* op) {
  op->charged = true;
  FileMeta* f = op->cand[0].get();
  if (--f->allowed_seeks <= 0 && !op->version->file_to_compact) {
    op->version->file_to_compact = op->cand[0];
    op->version->file_to_compact_level = op->cand_level[0];
    if (op->version == current_) BgKick();
  }
}

void LsmStore::AnswerGet(Op* op, bool found, bool deleted, std::string value, double cpu) {
  if (found && !deleted) ++c_.hits;
  else ++c_.misses;
  Finish(Cpu(cpu), [this, op, found, deleted, value = std::move(value)]() mutable {
    c_.read_ns += sim_->now() - op->start;
    GetDone g = std::move(op->get_done);
    OpDone();
    if (!g) return;
    if (found && !deleted) g(Status::Ok(), std::move(value));
    else g(Status::NotFound(deleted ? "key deleted" : "key not found"), std::string());
  });
}

Status LsmStore::Sync(Done done) {
  auto op = std::make_unique<Op>();
  op->kind = Op::kSync;
  op->done = std::move(done);
  return Enqueue(std::move(op));
}

// ---------------------------------------------------------------- state

bool LsmStore::idle() const {
  return !cur_ && queue_.empty() && !bg_busy_ && !imm_ && !current_->NeedsCompaction();
}

uint64_t LsmStore::dram_bytes() const {
  uint64_t n = mem_->ApproximateMemoryUsage() + (imm_ ? imm_->ApproximateMemoryUsage() : 0);
  for (const auto& fs : current_->files)
    for (const FilePtr& f : fs) n += f->index.dram_bytes();
  return n;
}

int LsmStore::levels_in_use() const {
  int deepest = 0;
  for (int l = 0; l < kNumLevels; ++l)
    if (!current_->files[l].empty()) deepest = l + 1;
  return deepest;
}

LsmStats LsmStore::stats() const {
  LsmStats s = st_;
  for (int l = 0; l < kNumLevels; ++l) {
    s.levels[l].files = current_->files[l].size();
    s.levels[l].bytes = current_->LevelBytes(l);
    s.levels[l].target_bytes = l == 0 ? kL0CompactionTrigger * wb_ : sizes_.MaxBytesForLevel(l);
  }
  return s;
}

void LsmStore::DescribeJson(JsonWriter* w) const {
  w->BeginObject();
  w->Key("type");
  w->String("lsm");
  w->Key("memtable");
  w->BeginObject();
  w->Key("bytes");
  w->Int(static_cast<int64_t>(mem_->ApproximateMemoryUsage()));
  w->Key("capacity");
  w->Int(static_cast<int64_t>(wb_));
  w->EndObject();
  w->Key("immutable");
  w->Bool(imm_ != nullptr);
  w->Key("levels");
  w->BeginArray();
  const int shown = std::max(2, levels_in_use());
  for (int l = 0; l < shown; ++l) {
    w->BeginObject();
    w->Key("level");
    w->Int(l);
    w->Key("files");
    w->Int(static_cast<int64_t>(current_->files[l].size()));
    w->Key("bytes");
    w->Int(static_cast<int64_t>(current_->LevelBytes(l)));
    w->Key("target_bytes");
    w->Int(static_cast<int64_t>(l == 0 ? kL0CompactionTrigger * wb_ : sizes_.MaxBytesForLevel(l)));
    w->EndObject();
  }
  w->EndArray();
  w->Key("compacting");
  w->Int(compacting_);
  w->EndObject();
}

}  // namespace fawnlab::lsm
