#include "fawnds/store.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>

namespace fawnlab::fawnds {
namespace {

using device::IoCommand;
using device::IoEntry;

constexpr char kMagic[8] = {'F', 'A', 'W', 'N', 'D', 'S', '1', 0};
constexpr uint32_t kSuperBytes = 96;
constexpr uint64_t kReplayChunk = 256 * 1024;

uint64_t RoundUp(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

void PutU32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void PutU64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t GetU32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}
uint64_t GetU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

struct Super {
  uint32_t index_bits;
  KeyRange range;
  uint64_t seq;
  uint64_t log_end;
  uint32_t next_seq;
  uint32_t image_slot;
  uint32_t image_crc;
  uint64_t region_bytes;
  uint32_t nonce;
};

std::vector<uint8_t> EncodeSuper(const Super& s) {
  std::vector<uint8_t> b(DataStore::kSlot, 0);
  std::memcpy(b.data(), kMagic, 8);
  PutU32(&b[8], 1);
  PutU32(&b[12], s.index_bits);
  std::memcpy(&b[16], s.range.start.bytes.data(), 20);
  std::memcpy(&b[36], s.range.end.bytes.data(), 20);
  PutU64(&b[56], s.seq);
  PutU64(&b[64], s.log_end);
  PutU32(&b[72], s.next_seq);
  PutU32(&b[76], s.image_slot);
  PutU32(&b[80], s.image_crc);
  PutU64(&b[84], s.region_bytes);
  PutU32(&b[92], s.nonce);
  PutU32(&b[kSuperBytes], Crc32c(b.data(), kSuperBytes));
  return b;
}

bool DecodeSuper(const std::vector<uint8_t>& b, Super* s) {
  if (std::memcmp(b.data(), kMagic, 8) != 0 || GetU32(&b[8]) != 1) return false;
  if (GetU32(&b[kSuperBytes]) != Crc32c(b.data(), kSuperBytes)) return false;
  s->index_bits = GetU32(&b[12]);
  std::memcpy(s->range.start.bytes.data(), &b[16], 20);
  std::memcpy(s->range.end.bytes.data(), &b[36], 20);
  s->seq = GetU64(&b[56]);
  s->log_end = GetU64(&b[64]);
  s->next_seq = GetU32(&b[72]);
  s->image_slot = GetU32(&b[76]);
  s->image_crc = GetU32(&b[80]);
  s->region_bytes = GetU64(&b[84]);
  s->nonce = GetU32(&b[92]);
  return s->index_bits >= HashIndex::kMinBits && s->index_bits <= HashIndex::kMaxBits && s->image_slot <= 2 &&
         s->next_seq >= 1;
}

}  // namespace

// Calls `done` once every part has finished (the first error wins).
struct DataStore::Join {
  int pending = 1;  // the issuer's own part, released last by the issuer
  Status status;
  Done done;
  static std::shared_ptr<Join> Make(Done d) {
    auto j = std::make_shared<Join>();
    j->done = std::move(d);
    return j;
  }
  static void Release(const std::shared_ptr<Join>& j) {
    if (--j->pending == 0 && j->done) j->done(j->status);
  }
  // A completion that releases one more part of `j`; none when nobody waits (no `j`).
  static device::CompletionFn Part(const std::shared_ptr<Join>& j) {
    if (!j) return nullptr;
    ++j->pending;
    return [j](const device::IoCompletion&) { Release(j); };
  }
};

uint64_t DataStore::FileBytes(int index_bits, uint64_t log_bytes) {
  return 2 * kSlot + 2 * RoundUp(uint64_t{HashIndex::kBucketBytes} << index_bits, kSlot) + log_bytes;
}

DataStore::DataStore(device::Device* dev, StoreOptions o) : dev_(dev), o_(o), index_(o.index_bits) {
  log_start_ = 2 * kSlot + 2 * ImageBytes();
}

uint64_t DataStore::ImageBytes() const { return RoundUp(index_.bytes(), kSlot); }

StatusOr<std::unique_ptr<DataStore>> DataStore::Create(device::Device* dev, StoreOptions o) {
  if (o.index_bits < HashIndex::kMinBits || o.index_bits > HashIndex::kMaxBits) {
    return Status::InvalidArgument("FAWN-DS: index_bits " + std::to_string(o.index_bits) + " is out of range [" +
                                   std::to_string(HashIndex::kMinBits) + ", " + std::to_string(HashIndex::kMaxBits) + "]");
  }
  if (o.region_bytes < FileBytes(o.index_bits, kSlot)) {
    return Status::InvalidArgument("FAWN-DS: a file of " + std::to_string(o.region_bytes) + " bytes cannot hold the " +
                                   std::to_string(FileBytes(o.index_bits, 0)) + " bytes of header and index slots plus a log");
  }
  if (o.region_offset > dev->info().capacity_bytes || o.region_bytes > dev->info().capacity_bytes - o.region_offset) {
    return Status::InvalidArgument("FAWN-DS: the file lies beyond the device");
  }
  std::unique_ptr<DataStore> s(new DataStore(dev, o));
  if (s->log_capacity() > (uint64_t{1} << 32)) {
    return Status::InvalidArgument("FAWN-DS: a log beyond 4 GB cannot be addressed by the index's 32-bit offsets");
  }
  auto trim = device::SubmitAndWait(dev, IoCommand::Single(IoEntry::Trim(o.region_offset, o.region_bytes), o.stream));
  if (!trim.ok()) return trim.status();
  Super sb{static_cast<uint32_t>(o.index_bits), o.range, 1, 0, 1, 0, 0, o.region_bytes, o.nonce};
  std::vector<uint8_t> b = EncodeSuper(sb);
  auto w = device::SubmitAndWait(
      dev, IoCommand{{IoEntry::Write(o.region_offset, b.size(), b.data()), IoEntry::Flush()}, o.stream});
  if (!w.ok()) return w.status();
  s->checkpoint_seq_ = 1;
  return s;
}

StatusOr<RecordView> DataStore::PeekRecord(uint64_t offset, std::string* buf) const {
  const uint64_t cap = log_capacity();
  if (offset + kRecordHeader > cap) return Status::Corruption("record offset beyond the log");
  // The header and, when records are alike, the whole record in one read of the device's
  // bytes: the first read takes as many bytes as the last record had.
  const uint64_t first = std::min(std::max<uint64_t>(peek_hint_, kRecordHeader), cap - offset);
  buf->resize(first);
  uint8_t* p = reinterpret_cast<uint8_t*>(buf->data());
  dev_->Peek(LogDeviceOffset(offset), first, p);
  const uint32_t len = GetU32(p + 9);
  uint64_t size = kRecordHeader;
  if (len <= kMaxValue && offset + kRecordHeader + len <= cap) {
    size = kRecordHeader + len;
    peek_hint_ = std::min<uint64_t>(size, 64 * 1024);
    if (size > first) {
      buf->resize(size);
      p = reinterpret_cast<uint8_t*>(buf->data());
      dev_->Peek(LogDeviceOffset(offset) + first, size - first, p + first);
    }
  }
  buf->resize(size);  // exactly the record's bytes (or its header), as the decoder expects
  return DecodeRecord(*buf, offset, 0, o_.nonce);
}

bool DataStore::IsLive(const Key& key, uint64_t offset) const {
  const uint32_t idx = index_.IndexOf(key);
  const uint16_t want = static_cast<uint16_t>(0x8000 | index_.FragmentOf(key));
  const uint64_t step = HashIndex::ProbeStep(idx), mask = index_.buckets() - 1;
  uint64_t bucket = idx;
  for (int j = 0; j < HashIndex::kProbes; ++j, bucket = (bucket + step) & mask) {
    if (index_.Head(bucket) == want && index_.Get(bucket).offset == offset) return true;
  }
  return false;
}

int64_t DataStore::Find(const Key& key, int64_t* free) {
  const uint32_t idx = index_.IndexOf(key);
  const uint16_t want = static_cast<uint16_t>(0x8000 | index_.FragmentOf(key));
  const uint64_t step = HashIndex::ProbeStep(idx), mask = index_.buckets() - 1;
  checked_.clear();
  if (free) *free = -1;
  uint64_t bucket = idx;  // chain position 0; each next one is `step` further (HashIndex::Probe)
  for (int j = 0; j < HashIndex::kProbes; ++j, bucket = (bucket + step) & mask) {
    const uint16_t head = index_.Head(bucket);
    if (head != want) {
      if (free && *free < 0 && !(head & 0x8000)) *free = static_cast<int64_t>(bucket);
      continue;
    }
    const uint32_t offset = index_.Get(bucket).offset;
    checked_.push_back(offset);
    ++stats_.record_reads;
    auto rec = PeekRecord(offset, &scratch_);
    last_peek_size_ = rec.ok() ? rec.value().size : kRecordHeader;
    if (rec.ok() && rec.value().key == key) {
      match_ = rec.value();
      return static_cast<int64_t>(bucket);
    }
    ++stats_.false_positives;
  }
  return -1;
}

bool DataStore::ApplyPut(const Key& key, uint64_t offset) {
  int64_t free = -1;
  int64_t bucket = Find(key, &free);
  if (bucket >= 0) {
    ++stats_.orphaned;
    stats_.garbage_bytes += match_.size;
  } else {
    bucket = free;
    if (bucket < 0) return false;
  }
  index_.Set(static_cast<uint64_t>(bucket), HashIndex::Bucket{true, index_.FragmentOf(key), static_cast<uint32_t>(offset)});
  return true;
}

void DataStore::Forget(const Key& key) {
  int64_t bucket = Find(key);
  if (bucket < 0) return;
  HashIndex::Bucket b = index_.Get(static_cast<uint64_t>(bucket));
  b.valid = false;
  index_.Set(static_cast<uint64_t>(bucket), b);
  ++stats_.orphaned;
  stats_.garbage_bytes += match_.size;
}

void DataStore::ApplyDelete(const Key& key) {
  int64_t bucket = Find(key);
  if (bucket < 0) return;
  HashIndex::Bucket b = index_.Get(static_cast<uint64_t>(bucket));
  b.valid = false;
  index_.Set(static_cast<uint64_t>(bucket), b);
  stats_.orphaned += 2;  // the put record it pointed to, and the delete record itself
  stats_.garbage_bytes += match_.size + kRecordHeader;
}

namespace {

// The timed reads of `reads` (device offset, bytes), one after another on `stream`, then
// `then`. Holds no reference to the store: a store may be replaced (a compaction's end)
// while reads it issued are still in flight.
void ChainReads(device::Device* dev, int stream, std::shared_ptr<const std::vector<std::pair<uint64_t, uint64_t>>> reads,
                size_t i, std::function<void()> then) {
  if (i >= reads->size()) {
    then();
    return;
  }
  std::vector<uint8_t> buf((*reads)[i].second);  // the bytes only cost time: Find compared them
  const IoEntry e = IoEntry::Read((*reads)[i].first, buf.size(), buf.data());
  Status s = dev->Submit(IoCommand::Single(e, stream),
                         [dev, stream, reads, i, then = std::move(then)](const device::IoCompletion&) {
                           ChainReads(dev, stream, reads, i + 1, then);
                         });
  (void)s;  // a refusal means the device crashed: the chain, like the host, stops here
}

}  // namespace

void DataStore::ReadChain(const std::vector<uint64_t>& offsets, std::function<void()> then) {
  auto reads = std::make_shared<std::vector<std::pair<uint64_t, uint64_t>>>();
  for (uint64_t offset : offsets) {
    auto rec = PeekRecord(offset, &scratch_);
    reads->emplace_back(LogDeviceOffset(offset), rec.ok() ? rec.value().size : kRecordHeader);
  }
  ChainReads(dev_, o_.stream, std::move(reads), 0, std::move(then));
}

Status DataStore::SubmitOne(const IoEntry& e, device::CompletionFn fn) {
  io_.entries.clear();
  io_.entries.push_back(e);
  io_.stream = o_.stream;
  return dev_->Submit(io_, std::move(fn));
}

StatusOr<uint64_t> DataStore::Append(RecordType type, const Key& key, std::string_view value,
                                     const std::shared_ptr<Join>& j) {
  const uint64_t size = RecordSize(value.size());
  if (log_end_ + size > log_capacity()) {
    return Status::ResourceExhausted("FAWN-DS: the store's file is full (" + std::to_string(log_end_) + " of " +
                                     std::to_string(log_capacity()) + " log bytes); compact or split it");
  }
  record_.clear();
  EncodeRecord(type, next_seq_, key, value, o_.nonce, &record_);
  Status s = SubmitOne(
      IoEntry::Write(LogDeviceOffset(log_end_), record_.size(), reinterpret_cast<const uint8_t*>(record_.data())),
      Join::Part(j));
  if (!s.ok()) {
    if (j) --j->pending;
    return s;
  }
  const uint64_t offset = log_end_;
  log_end_ += size;
  ++next_seq_;
  return offset;
}

Status DataStore::Put(const Key& key, std::string_view value, Done done) {
  if (!o_.range.Contains(key)) return Status::InvalidArgument("FAWN-DS: key " + key.Hex() + " is outside the store's range");
  if (value.size() > kMaxValue) {
    return Status::InvalidArgument("FAWN-DS: a value of " + std::to_string(value.size()) + " bytes exceeds the limit of " +
                                   std::to_string(kMaxValue));
  }
  int64_t free = -1;
  int64_t bucket = Find(key, &free);  // checked_: the verification reads, issued after the append
  if (bucket < 0) bucket = free;
  if (bucket < 0) {
    return Status::ResourceExhausted("FAWN-DS: all " + std::to_string(HashIndex::kProbes) + " buckets of key " +
                                     key.Hex() + "'s probe sequence are taken; use more index bits or split the store");
  }
  const bool existed = index_.Get(static_cast<uint64_t>(bucket)).valid;
  const uint64_t old_size = existed ? match_.size : 0;  // Find's full-key match
  auto join = done ? Join::Make(std::move(done)) : nullptr;  // without `done` nobody waits
  StatusOr<uint64_t> offset = Append(RecordType::kPut, key, value, join);
  if (!offset.ok()) return offset.status();
  ++stats_.puts;
  if (existed) {
    ++stats_.orphaned;
    stats_.garbage_bytes += old_size;
  }
  index_.Set(static_cast<uint64_t>(bucket),
             HashIndex::Bucket{true, index_.FragmentOf(key), static_cast<uint32_t>(offset.value())});
  VerifyReads(join);
  if (join) Join::Release(join);
  return Status::Ok();
}

void DataStore::VerifyReads(const std::shared_ptr<Join>& j) {
  if (checked_.size() == 1) {  // the usual case: one fragment match, just peeked by Find
    sink_.resize(last_peek_size_);
    (void)SubmitOne(IoEntry::Read(LogDeviceOffset(checked_[0]), last_peek_size_, sink_.data()), Join::Part(j));
  } else if (!checked_.empty()) {
    if (j) ++j->pending;
    ReadChain(checked_, [j]() {
      if (j) Join::Release(j);
    });
  }
}

Status DataStore::Delete(const Key& key, Done done) {
  if (!o_.range.Contains(key)) return Status::InvalidArgument("FAWN-DS: key " + key.Hex() + " is outside the store's range");
  int64_t bucket = Find(key);
  auto join = done ? Join::Make(std::move(done)) : nullptr;  // without `done` nobody waits
  if (bucket < 0) {
    if (join) join->status = Status::NotFound("FAWN-DS: key " + key.Hex() + " is not in the store");
  } else {
    const uint64_t old_size = match_.size;  // Find's full-key match
    StatusOr<uint64_t> offset = Append(RecordType::kDelete, key, {}, join);
    if (!offset.ok()) return offset.status();
    ++stats_.deletes;
    stats_.garbage_bytes += old_size + kRecordHeader;
    HashIndex::Bucket b = index_.Get(static_cast<uint64_t>(bucket));
    b.valid = false;
    index_.Set(static_cast<uint64_t>(bucket), b);
    stats_.orphaned += 2;  // the put record it pointed to, and the delete record itself
  }
  VerifyReads(join);
  if (join) Join::Release(join);
  return Status::Ok();
}

Status DataStore::Get(const Key& key, GetDone done) {
  int64_t bucket = Find(key);
  ++stats_.gets;
  if (bucket < 0) {
    ++stats_.misses;
    if (checked_.empty()) {  // no fragment matched: no read, the answer is immediate
      done(Status::NotFound("FAWN-DS: key " + key.Hex() + " is not in the store"), std::string());
      return Status::Ok();
    }
    ReadChain(checked_, [done = std::move(done), key]() {
      done(Status::NotFound("FAWN-DS: key " + key.Hex() + " is not in the store"), std::string());
    });
    return Status::Ok();
  }
  ++stats_.hits;
  const uint64_t offset = index_.Get(static_cast<uint64_t>(bucket)).offset;
  const uint64_t size = match_.size;
  if (checked_.size() == 1) {
    // The common case: the first fragment match is the key. Its record was just decoded from
    // the device's bytes (Find); the timed read of those same bytes happens now (a command
    // takes effect at submission), and its completion delivers the value.
    struct Pending {
      GetDone done;
      std::string value;
    };
    auto p = std::make_shared<Pending>();
    p->done = std::move(done);
    p->value.assign(match_.value);
    sink_.resize(size);
    Status s = SubmitOne(IoEntry::Read(LogDeviceOffset(offset), size, sink_.data()),
                         [p](const device::IoCompletion&) { p->done(Status::Ok(), std::move(p->value)); });
    (void)s;  // a refusal means the device crashed: like the host, the lookup stops here
    return Status::Ok();
  }
  // Every candidate but the match is a false positive: read them, then the match, whose
  // bytes (from the timed read) are the answer.
  checked_.pop_back();
  ReadChain(checked_, [dev = dev_, stream = o_.stream, nonce = o_.nonce, at = LogDeviceOffset(offset), offset, size, key,
                       done = std::move(done)]() mutable {
    auto buf = std::make_shared<std::string>(size, '\0');
    Status s = dev->Submit(
        IoCommand::Single(IoEntry::Read(at, size, reinterpret_cast<uint8_t*>(buf->data())), stream),
        [buf, offset, nonce, key, done](const device::IoCompletion&) {
          auto r = DecodeRecord(*buf, offset, 0, nonce);
          if (!r.ok()) {
            done(r.status(), std::string());
          } else if (r.value().key != key) {
            done(Status::Corruption("FAWN-DS: the record at log offset " + std::to_string(offset) + " holds another key"),
                 std::string());
          } else {
            done(Status::Ok(), std::string(r.value().value));
          }
        });
    (void)s;
  });
  return Status::Ok();
}

namespace {

// A MultiGet in flight: the answers (known from the index and the device's bytes at once) and
// the timed reads, round by round.
struct MultiGetBatch {
  std::vector<Status> status;
  std::vector<std::string> values;
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> rounds;  // (device offset, bytes) per round
  std::vector<uint8_t> sink;
  size_t round = 0;
  int pending = 0;
  DataStore::MultiGetDone done;
};

// Issues the batch's next round as commands of at most kMaxVectorEntries reads; the round
// after starts when all of them have completed, and `done` runs after the last.
void IssueRound(const std::shared_ptr<MultiGetBatch>& b, device::Device* dev, int stream) {
  if (b->round >= b->rounds.size()) {
    b->done(std::move(b->status), std::move(b->values));
    return;
  }
  const auto& reads = b->rounds[b->round++];
  uint64_t bytes = 0;
  for (const auto& r : reads) bytes += r.second;
  b->sink.resize(bytes);
  uint64_t at = 0;
  for (size_t first = 0; first < reads.size(); first += device::kMaxVectorEntries) {
    IoCommand cmd;
    cmd.stream = stream;
    for (size_t k = first; k < std::min(reads.size(), first + device::kMaxVectorEntries); ++k) {
      cmd.entries.push_back(IoEntry::Read(reads[k].first, reads[k].second, b->sink.data() + at));
      at += reads[k].second;
    }
    ++b->pending;
    Status s = dev->Submit(cmd, [b, dev, stream](const device::IoCompletion&) {
      if (--b->pending == 0) IssueRound(b, dev, stream);
    });
    if (!s.ok()) return;  // the device crashed: like the host, the batch stops here
  }
}

}  // namespace

Status DataStore::MultiGet(const std::vector<Key>& keys, MultiGetDone done) { return MultiGet(keys, o_.stream, std::move(done)); }

Status DataStore::MultiGet(const std::vector<Key>& keys, int stream, MultiGetDone done) {
  auto b = std::make_shared<MultiGetBatch>();
  b->status.reserve(keys.size());
  b->values.resize(keys.size());
  b->done = std::move(done);
  for (size_t i = 0; i < keys.size(); ++i) {
    const int64_t bucket = Find(keys[i]);
    ++stats_.gets;
    if (bucket >= 0) {
      ++stats_.hits;
      b->values[i].assign(match_.value);
      b->status.push_back(Status::Ok());
    } else {
      ++stats_.misses;
      b->status.push_back(Status::NotFound("FAWN-DS: key " + keys[i].Hex() + " is not in the store"));
    }
    for (size_t r = 0; r < checked_.size(); ++r) {
      uint32_t size = kRecordHeader;
      if (bucket >= 0 && r + 1 == checked_.size()) {
        size = match_.size;
      } else if (auto rec = PeekRecord(checked_[r], &scratch_); rec.ok()) {
        size = rec.value().size;
      }
      if (b->rounds.size() <= r) b->rounds.resize(r + 1);
      b->rounds[r].emplace_back(LogDeviceOffset(checked_[r]), size);
    }
  }
  IssueRound(b, dev_, stream);
  return Status::Ok();
}

Status DataStore::Sync(Done done) {
  return dev_->Submit(IoCommand::Single(IoEntry::Flush(), o_.stream),
                      [done = std::move(done)](const device::IoCompletion&) {
                        if (done) done(Status::Ok());
                      });
}

Status DataStore::Checkpoint(Done done) {
  const uint32_t slot = image_slot_ == 1 ? 2 : 1;
  const std::vector<uint8_t>& image = index_.raw();
  const uint32_t crc = Crc32c(image.data(), image.size());
  const uint64_t seq = checkpoint_seq_ + 1;
  Super sb{static_cast<uint32_t>(o_.index_bits), o_.range, seq, log_end_, next_seq_, slot, crc, o_.region_bytes, o_.nonce};
  std::vector<uint8_t> super = EncodeSuper(sb);
  const uint64_t image_at = o_.region_offset + 2 * kSlot + (slot - 1) * ImageBytes();
  const uint64_t super_at = o_.region_offset + (seq % 2 == 1 ? 0 : kSlot);
  // Image, then superblock, then flush: the superblock only ever names a complete image.
  Status s = dev_->Submit(IoCommand::Single(IoEntry::Write(image_at, image.size(), image.data()), o_.stream), nullptr);
  if (!s.ok()) return s;
  s = dev_->Submit(IoCommand::Single(IoEntry::Write(super_at, super.size(), super.data()), o_.stream), nullptr);
  if (!s.ok()) return s;
  s = Sync(std::move(done));
  if (!s.ok()) return s;
  image_slot_ = slot;
  checkpoint_seq_ = seq;
  ++stats_.checkpoints;
  return Status::Ok();
}

StatusOr<std::unique_ptr<DataStore>> DataStore::Recover(device::Device* dev, uint64_t region_offset, uint64_t region_bytes,
                                                        int stream, RecoveryReport* report) {
  return Recover(dev, region_offset, region_bytes, stream, report, nullptr);
}

StatusOr<std::unique_ptr<DataStore>> DataStore::Recover(device::Device* dev, uint64_t region_offset, uint64_t region_bytes,
                                                        int stream, RecoveryReport* report, const KeyRange& range) {
  return Recover(dev, region_offset, region_bytes, stream, report, &range);
}

StatusOr<std::unique_ptr<DataStore>> DataStore::Recover(device::Device* dev, uint64_t region_offset, uint64_t region_bytes,
                                                        int stream, RecoveryReport* report, const KeyRange* range) {
  const sim::SimTime t0 = dev->sim()->now();
  RecoveryReport rep;
  // The valid superblocks, newest first. Recovery starts from the newest whose index image
  // checks out: a crash can land a superblock whose image never did (a volatile write cache
  // lost the image while the superblock write was in flight), and the checkpoint before it
  // — its image in the other slot, untouched — is then the newest complete one. Only when
  // no image checks out is the whole log replayed, with the newest superblock's settings.
  std::vector<Super> supers;
  for (int i = 0; i < 2; ++i) {
    std::vector<uint8_t> b(kSlot);
    auto r = device::SubmitAndWait(dev, IoCommand::Single(IoEntry::Read(region_offset + i * kSlot, kSlot, b.data()), stream));
    if (!r.ok()) return r.status();
    Super s;
    if (DecodeSuper(b, &s) && s.region_bytes == region_bytes) supers.push_back(s);
  }
  if (supers.empty()) {
    return Status::Corruption("FAWN-DS: no valid superblock in the file at device offset " + std::to_string(region_offset) +
                              ": not a FAWN-DS store, or its header was destroyed");
  }
  std::sort(supers.begin(), supers.end(), [](const Super& a, const Super& b) { return a.seq > b.seq; });
  Super best = supers[0];
  std::vector<uint8_t> image;
  for (const Super& c : supers) {
    if (c.image_slot == 0 || c.index_bits != supers[0].index_bits || c.nonce != supers[0].nonce) break;
    image.assign(size_t{HashIndex::kBucketBytes} << c.index_bits, 0);
    const uint64_t image_bytes = RoundUp(image.size(), kSlot);
    const uint64_t at = region_offset + 2 * kSlot + (c.image_slot - 1) * image_bytes;
    auto r = device::SubmitAndWait(dev, IoCommand::Single(IoEntry::Read(at, image.size(), image.data()), stream));
    if (!r.ok()) return r.status();
    if (Crc32c(image.data(), image.size()) == c.image_crc) {
      best = c;
      break;
    }
    image.clear();
  }
  StoreOptions o;
  o.index_bits = static_cast<int>(best.index_bits);
  o.range = range ? *range : best.range;
  o.region_offset = region_offset;
  o.region_bytes = region_bytes;
  o.nonce = best.nonce;
  o.stream = stream;
  std::unique_ptr<DataStore> s(new DataStore(dev, o));
  s->checkpoint_seq_ = supers[0].seq;  // the next checkpoint outranks every superblock on the file
  uint64_t pos = 0;
  uint32_t seq = 1;
  if (!image.empty()) {
    s->index_.Load(image);
    s->image_slot_ = best.image_slot;
    pos = best.log_end;
    seq = best.next_seq;
    rep.from_checkpoint = true;
    rep.checkpoint_seq = best.seq;
  }
  // Replay the log after the checkpoint, a chunk at a time, until its end.
  std::vector<uint8_t> chunk;
  uint64_t chunk_at = UINT64_MAX;
  const uint64_t cap = s->log_capacity();
  auto ensure = [&](uint64_t need) -> Status {  // bytes [pos, pos + need) are in `chunk`
    if (chunk_at != UINT64_MAX && pos >= chunk_at && pos + need <= chunk_at + chunk.size()) return Status::Ok();
    uint64_t n = std::min<uint64_t>(std::max<uint64_t>(kReplayChunk, need), cap - pos);
    chunk.assign(n, 0);
    auto r = device::SubmitAndWait(dev, IoCommand::Single(IoEntry::Read(s->LogDeviceOffset(pos), n, chunk.data()), stream));
    if (!r.ok()) return r.status();
    chunk_at = pos;
    return Status::Ok();
  };
  rep.end_reason = "end of log";
  while (pos + kRecordHeader <= cap) {
    if (Status st = ensure(kRecordHeader); !st.ok()) return st;
    uint32_t len = GetU32(chunk.data() + (pos - chunk_at) + 9);
    if (len <= kMaxValue) {
      if (Status st = ensure(std::min<uint64_t>(RecordSize(len), cap - pos)); !st.ok()) return st;
    }
    std::string_view view(reinterpret_cast<const char*>(chunk.data() + (pos - chunk_at)), chunk_at + chunk.size() - pos);
    auto rec = DecodeRecord(view, pos, seq, o.nonce);
    if (!rec.ok()) {
      rep.end_reason = rec.status().message();
      break;
    }
    const RecordView& r = rec.value();
    if (!o.range.Contains(r.key)) {
      // A split's leftover: the key lives in another store now.
    } else if (r.type == RecordType::kPut) {
      if (!s->ApplyPut(r.key, pos)) {  // a put that found no bucket was refused when made
        rep.end_reason = "record at log offset " + std::to_string(pos) + " does not fit the index (corrupt log)";
        break;
      }
    } else {
      s->ApplyDelete(r.key);
    }
    pos += r.size;
    ++seq;
    ++rep.replayed_records;
  }
  s->log_end_ = pos;
  s->next_seq_ = seq;
  if (range && rep.from_checkpoint) {
    // The image may hold keys of a range the store no longer (or not yet durably) serves.
    std::string buf;
    for (uint64_t b = 0; b < s->index_.buckets(); ++b) {
      HashIndex::Bucket bucket = s->index_.Get(b);
      if (!bucket.valid) continue;
      auto rec = s->PeekRecord(bucket.offset, &buf);
      if (rec.ok() && !range->Contains(rec.value().key)) {
        bucket.valid = false;
        s->index_.Set(b, bucket);
        ++rep.dropped_out_of_range;
      }
    }
  }
  s->stats_ = StoreStats{};
  rep.log_end = pos;
  rep.duration_ns = dev->sim()->now() - t0;
  if (report) *report = rep;
  return s;
}

}  // namespace fawnlab::fawnds
