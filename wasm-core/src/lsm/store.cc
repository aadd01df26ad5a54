#include "lsm/store.h"

#include <algorithm>
#include <cassert>

#include "lsm/table.h"

namespace fawnlab::lsm {

using sim::SimDuration;
using sim::SimTime;

namespace {
constexpr uint64_t kPage = 4096;
uint64_t RoundUp(uint64_t x) { return (x + kPage - 1) / kPage * kPage; }

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

// First-fit extents of whole pages in the tables' area (a file system's allocation, simply).
class LsmStore::Extents {
 public:
  Extents(uint64_t off, uint64_t bytes) { free_[off] = bytes; }
  bool Alloc(uint64_t bytes, uint64_t* off) {
    const uint64_t need = RoundUp(bytes);
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
    const uint64_t len = RoundUp(bytes);
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
  SimTime start = 0, wait_start = 0;
  bool allow_delay = true;
  std::shared_ptr<Version> version;  // a get's files stay while it probes them
  std::vector<FilePtr> cand;
  std::string lookup;
};

struct LsmStore::Job {
  Compaction c;
  std::shared_ptr<Version> base;
  std::unique_ptr<CompactionCursor> cursor;
  SimTime start = 0;
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
  // Level 0: every file whose range holds the key, newest first.
  for (const FilePtr& f : v.files[0]) {
    cpu += 2 * h.key_compare_ns;
    if (op->key >= UserKey(f->smallest) && op->key <= UserKey(f->largest)) op->cand.push_back(f);
  }
  std::sort(op->cand.begin(), op->cand.end(), [](const FilePtr& a, const FilePtr& b) { return a->number > b->number; });
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
      if (op->key >= UserKey(fs[lo]->smallest)) op->cand.push_back(fs[lo]);
    }
  }
  ProbeFiles(op, 0, cpu);
}

void LsmStore::ProbeFiles(Op* op, size_t from, double cpu) {
  const LsmCosts& k = o_.costs;
  for (size_t i = from; i < op->cand.size(); ++i) {
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

// ---------------------------------------------------------------- scans

Status LsmStore::Scan(std::string_view start, int count, ScanDone done) {
  if (count < 0) return Status::InvalidArgument("scan count " + std::to_string(count) + " is negative");
  auto op = std::make_unique<Op>();
  op->kind = Op::kScan;
  op->key.assign(start);
  op->count = count;
  op->scan_done = std::move(done);
  return Enqueue(std::move(op));
}

namespace {
// One input of a scan's merging iterator: a memtable, or a run of tables (one level-0 table,
// or a level's tables in key order) whose blocks are read as the scan reaches them.
struct ScanSource {
  const MemTable::Map* map = nullptr;
  MemTable::Map::const_iterator it;
  std::vector<FilePtr> files;
  size_t fi = 0;
  size_t block = 0;
  std::vector<std::pair<std::string, std::string>> entries;
  size_t ei = 0;
  bool valid = false;
  std::string_view key() const { return map ? std::string_view(it->first) : std::string_view(entries[ei].first); }
  std::string_view value() const { return map ? std::string_view(it->second) : std::string_view(entries[ei].second); }
};
}  // namespace

void LsmStore::RunScan(Op* op) {
  ++c_.scans;
  const cona::HostCosts& h = o_.host;
  const LsmCosts& k = o_.costs;
  double cpu = h.op_base_ns;
  struct State { int pending = 1; std::function<void()> complete; };
  auto state = std::make_shared<State>();
  auto one_done = [state] {
    if (--state->pending == 0 && state->complete) state->complete();
  };
  std::string lookup;
  AppendInternalKey(&lookup, op->key, kMaxSequence, kTypeValue);
  const std::shared_ptr<Version> v = current_;
  bool bad = false;
  // Loads the current block of a table source (a device read; the bytes are there at submission).
  auto load = [&](ScanSource* s) {
    s->entries.clear();
    s->ei = 0;
    while (s->fi < s->files.size()) {
      const FileMeta& f = *s->files[s->fi];
      if (s->block < f.index.blocks().size()) {
        const BlockHandle bh = f.index.blocks()[s->block].handle;
        const uint64_t len = bh.size + kBlockTrailerBytes;
        std::string buf(len, '\0');
        ++state->pending;
        c_.store_bytes_read += len;
        Io(device::IoCommand::Single(device::IoEntry::Read(f.offset + bh.offset, len, reinterpret_cast<uint8_t*>(buf.data()))),
           one_done);
        auto c = BlockContents(buf, false);
        auto r = c.ok() ? BlockReader::Parse(c.value()) : StatusOr<BlockReader>(c.status());
        if (!r.ok()) {
          bad = true;
          s->valid = false;
          return;
        }
        (void)r.value().ForEach([&](const BlockEntry& e) { s->entries.emplace_back(e.key, std::string(e.value)); });
        cpu += k.block_decode_ns * static_cast<double>(s->entries.size());
        if (!s->entries.empty()) {
          s->valid = true;
          return;
        }
        ++s->block;
        continue;
      }
      ++s->fi;
      s->block = 0;
    }
    s->valid = false;
  };
  std::vector<ScanSource> src;
  for (const std::shared_ptr<MemTable>& mt : {mem_, imm_}) {
    if (!mt) continue;
    ScanSource s;
    s.map = &mt->entries();
    s.it = s.map->lower_bound(lookup);
    s.valid = s.it != s.map->end();
    cpu += k.skiplist_level_ns * mt->max_height();
    src.push_back(std::move(s));
  }
  auto seek_tables = [&](std::vector<FilePtr> files) {
    ScanSource s;
    s.files = std::move(files);
    // The first file whose largest key is at or past the start, and its block.
    while (s.fi < s.files.size() && CompareInternal(s.files[s.fi]->largest, lookup) < 0) ++s.fi;
    if (s.fi < s.files.size()) {
      int steps = 0;
      const int b = s.files[s.fi]->index.FindBlock(lookup, &steps);
      cpu += k.block_search_step_ns * steps;
      s.block = b < 0 ? s.files[s.fi]->index.blocks().size() : static_cast<size_t>(b);
    }
    load(&s);
    while (s.valid && CompareInternal(s.key(), lookup) < 0) {
      if (++s.ei >= s.entries.size()) {
        ++s.block;
        load(&s);
      }
    }
    src.push_back(std::move(s));
  };
  for (const FilePtr& f : v->files[0]) seek_tables({f});
  for (int level = 1; level < kNumLevels; ++level)
    if (!v->files[level].empty()) seek_tables(v->files[level]);
  auto advance = [&](ScanSource* s) {
    if (s->map) {
      ++s->it;
      s->valid = s->it != s->map->end();
      return;
    }
    if (++s->ei >= s->entries.size()) {
      ++s->block;
      load(s);
    }
  };
  std::vector<std::pair<std::string, std::string>> out;
  std::string last_user;
  bool have_last = false;
  while (static_cast<int>(out.size()) < op->count && !bad) {
    ScanSource* best = nullptr;
    for (ScanSource& s : src) {
      if (!s.valid) continue;
      cpu += h.key_compare_ns;
      if (!best || CompareInternal(s.key(), best->key()) < 0) best = &s;
    }
    if (!best) break;
    const std::string_view ik = best->key();
    const std::string_view uk = UserKey(ik);
    if (!have_last || uk != last_user) {  // the newest version of this key
      last_user.assign(uk);
      have_last = true;
      if (TypeOf(ik) == kTypeValue) out.emplace_back(std::string(uk), std::string(best->value()));
    }
    advance(best);
  }
  if (bad) {
    Fail(Status::Corruption("LSM table block unreadable during a scan"));
    return;
  }
  auto result = std::make_shared<std::vector<std::pair<std::string, std::string>>>(std::move(out));
  const SimDuration cost = Cpu(cpu);
  state->complete = [this, op, result, cost] {
    Finish(cost, [this, op, result] {
      c_.read_ns += sim_->now() - op->start;
      ScanDone d = std::move(op->scan_done);
      OpDone();
      if (d) d(Status::Ok(), std::move(*result));
    });
  };
  one_done();
}

Status LsmStore::Sync(Done done) {
  auto op = std::make_unique<Op>();
  op->kind = Op::kSync;
  op->done = std::move(done);
  return Enqueue(std::move(op));
}

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
  if (current_->compaction_score >= 1) StartCompaction();
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
  pointers_[j->c.level] = j->c.compact_pointer;
  job_ = std::move(j);
  Job* job = job_.get();
  const int level = job->c.level;
  if (job->c.trivial_move) {
    // Moved to the next level without rewriting it.
    const FilePtr f = job->c.inputs[0][0];
    ++st_.trivial_moves;
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

// ---------------------------------------------------------------- state

bool LsmStore::idle() const {
  return !cur_ && queue_.empty() && !bg_busy_ && !imm_ && !(current_->compaction_score >= 1);
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
