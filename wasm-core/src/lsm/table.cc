#include "lsm/table.h"

#include <cassert>

#include "base/coding.h"
#include "fawnds/record.h"
#include "lsm/bloom.h"

namespace fawnlab::lsm {

namespace {
const char kFilterName[] = "filter.leveldb.BuiltinBloomFilter2";
}

TableBuilder::TableBuilder(uint32_t block_bytes, int restart_interval, int bloom_bits)
    : block_bytes_(block_bytes), bloom_bits_(bloom_bits), data_(restart_interval), index_(1) {
  if (bloom_bits_ > 0) StartFilter(0);
}

void TableBuilder::Add(std::string_view ikey, std::string_view value) {
  assert(last_key_.empty() || CompareInternal(last_key_, ikey) < 0);
  if (pending_index_) {
    ShortestSeparator(&last_key_, ikey);
    std::string h;
    pending_.EncodeTo(&h);
    index_.Add(last_key_, h);
    pending_index_ = false;
  }
  if (bloom_bits_ > 0) {
    filter_starts_.push_back(filter_keys_.size());
    std::string_view uk = UserKey(ikey);
    filter_keys_.append(uk.data(), uk.size());
  }
  last_key_.assign(ikey.data(), ikey.size());
  ++work_.entries;
  data_.Add(ikey, value);
  if (data_.CurrentSizeEstimate() >= block_bytes_) FlushBlock();
}

void TableBuilder::FlushBlock() {
  if (data_.empty()) return;
  WriteBlock(data_.Finish(), &pending_);
  data_.Reset();
  pending_index_ = true;
  if (bloom_bits_ > 0) StartFilter(image_.size());
}

void TableBuilder::WriteBlock(std::string_view contents, BlockHandle* h) {
  h->offset = image_.size();
  h->size = contents.size();
  image_.append(contents.data(), contents.size());
  AppendBlockTrailer(contents, &image_);
  ++work_.blocks;
}

void TableBuilder::StartFilter(uint64_t block_offset) {
  const uint64_t index = block_offset >> kFilterBaseLg;
  while (index > filter_offsets_.size()) GenerateFilter();
}

void TableBuilder::GenerateFilter() {
  filter_offsets_.push_back(static_cast<uint32_t>(filter_result_.size()));
  if (filter_starts_.empty()) return;
  std::vector<std::string_view> keys;
  keys.reserve(filter_starts_.size());
  for (size_t i = 0; i < filter_starts_.size(); ++i) {
    const size_t end = i + 1 < filter_starts_.size() ? filter_starts_[i + 1] : filter_keys_.size();
    keys.emplace_back(filter_keys_.data() + filter_starts_[i], end - filter_starts_[i]);
  }
  BloomCreate(keys, bloom_bits_, &filter_result_);
  filter_keys_.clear();
  filter_starts_.clear();
}

std::string TableBuilder::Finish() {
  FlushBlock();
  BlockHandle filter_h, meta_h, index_h;
  if (bloom_bits_ > 0) {
    if (!filter_starts_.empty()) GenerateFilter();
    std::string fb = filter_result_;
    const uint32_t array_offset = static_cast<uint32_t>(fb.size());
    for (uint32_t o : filter_offsets_) PutFixed32(&fb, o);
    PutFixed32(&fb, array_offset);
    fb.push_back(static_cast<char>(kFilterBaseLg));
    WriteBlock(fb, &filter_h);
  }
  BlockBuilder meta(16);
  if (bloom_bits_ > 0) {
    std::string h;
    filter_h.EncodeTo(&h);
    meta.Add(kFilterName, h);
  }
  WriteBlock(meta.Finish(), &meta_h);
  if (pending_index_) {
    ShortSuccessor(&last_key_);
    std::string h;
    pending_.EncodeTo(&h);
    index_.Add(last_key_, h);
    pending_index_ = false;
  }
  WriteBlock(index_.Finish(), &index_h);
  std::string footer;
  meta_h.EncodeTo(&footer);
  index_h.EncodeTo(&footer);
  footer.resize(40, '\0');
  PutFixed32(&footer, static_cast<uint32_t>(kTableMagic & 0xffffffffu));
  PutFixed32(&footer, static_cast<uint32_t>(kTableMagic >> 32));
  image_ += footer;
  work_.bytes = image_.size();
  return std::move(image_);
}

StatusOr<std::string_view> BlockContents(std::string_view stored, bool verify) {
  if (stored.size() < kBlockTrailerBytes) return Status::Corruption("stored block shorter than its trailer");
  std::string_view contents = stored.substr(0, stored.size() - kBlockTrailerBytes);
  const uint8_t type = static_cast<uint8_t>(stored[contents.size()]);
  if (type != 0) return Status::Corruption("block compression type " + std::to_string(type) + " (only 0, none, is written)");
  if (verify) {
    uint32_t crc = fawnds::Crc32c(reinterpret_cast<const uint8_t*>(contents.data()), contents.size());
    crc = fawnds::Crc32c(&type, 1, crc);
    if (MaskCrc(crc) != GetLe32(reinterpret_cast<const uint8_t*>(stored.data() + contents.size() + 1)))
      return Status::Corruption("block checksum mismatch");
  }
  return contents;
}

StatusOr<TableIndex> TableIndex::Open(std::string_view tail, uint64_t tail_offset, uint64_t file_bytes) {
  if (tail_offset + tail.size() != file_bytes || tail.size() < kFooterBytes)
    return Status::Corruption("table tail does not end the file or is shorter than the footer");
  const char* f = tail.data() + tail.size() - kFooterBytes;
  const uint64_t magic = GetLe64(reinterpret_cast<const uint8_t*>(f + 40));
  if (magic != kTableMagic) return Status::Corruption("not a table (bad magic)");
  BlockHandle meta_h, index_h;
  const char* p = f;
  if (!meta_h.DecodeFrom(&p, f + 40) || !index_h.DecodeFrom(&p, f + 40)) return Status::Corruption("bad footer handles");
  auto stored = [&](const BlockHandle& h) -> StatusOr<std::string_view> {
    if (h.offset < tail_offset || h.offset + h.size + kBlockTrailerBytes > file_bytes)
      return Status::Corruption("block handle outside the table's tail");
    return BlockContents(tail.substr(h.offset - tail_offset, h.size + kBlockTrailerBytes), true);
  };
  TableIndex t;
  auto ib = stored(index_h);
  if (!ib.ok()) return ib.status();
  t.index_bytes_ = ib.value().size();
  auto ir = BlockReader::Parse(ib.value());
  if (!ir.ok()) return ir.status();
  Status s = ir.value().ForEach([&t](const BlockEntry& e) {
    IndexEntry x;
    x.separator = e.key;
    const char* q = e.value.data();
    x.handle.DecodeFrom(&q, e.value.data() + e.value.size());
    t.blocks_.push_back(std::move(x));
  });
  if (!s.ok()) return s;
  t.data_end_ = t.blocks_.empty() ? 0 : t.blocks_.back().handle.offset + t.blocks_.back().handle.size + kBlockTrailerBytes;
  auto mb = stored(meta_h);
  if (!mb.ok()) return mb.status();
  auto mr = BlockReader::Parse(mb.value());
  if (!mr.ok()) return mr.status();
  BlockEntry me;
  if (mr.value().Seek(kFilterName, &me, nullptr, false) && me.key == kFilterName) {
    BlockHandle fh;
    const char* q = me.value.data();
    if (!fh.DecodeFrom(&q, me.value.data() + me.value.size())) return Status::Corruption("bad filter handle");
    auto fb = stored(fh);
    if (!fb.ok()) return fb.status();
    t.filter_.assign(fb.value().data(), fb.value().size());
    if (t.filter_.size() < 5) return Status::Corruption("filter block too short");
    t.filter_array_ = GetLe32(reinterpret_cast<const uint8_t*>(t.filter_.data() + t.filter_.size() - 5));
    if (t.filter_array_ > t.filter_.size() - 5) return Status::Corruption("filter offsets beyond the filter block");
    t.filter_count_ = static_cast<uint32_t>((t.filter_.size() - 5 - t.filter_array_) / 4);
  }
  return t;
}

int TableIndex::FindBlock(std::string_view ikey, int* steps) const {
  size_t lo = 0, hi = blocks_.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (steps) ++*steps;
    if (CompareInternal(blocks_[mid].separator, ikey) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < blocks_.size() ? static_cast<int>(lo) : -1;
}

bool TableIndex::MayMatch(uint64_t block_offset, std::string_view user_key, int* probes) const {
  if (probes) *probes = 0;
  if (filter_.empty()) return true;
  const uint64_t index = block_offset >> kFilterBaseLg;
  if (index >= filter_count_) return true;  // LevelDB: errors are treated as potential matches
  const uint8_t* offs = reinterpret_cast<const uint8_t*>(filter_.data() + filter_array_);
  const uint32_t start = GetLe32(offs + 4 * index);
  const uint32_t limit = GetLe32(offs + 4 * index + 4);
  if (start <= limit && limit <= filter_array_) {
    if (start == limit) return false;  // an empty filter matches no key
    return BloomMayMatch(user_key, std::string_view(filter_.data() + start, limit - start), probes);
  }
  return true;
}

Status ForEachEntry(std::string_view data, const TableIndex& index,
                    const std::function<void(std::string_view ikey, std::string_view value)>& fn) {
  for (const IndexEntry& b : index.blocks()) {
    if (b.handle.offset + b.handle.size + kBlockTrailerBytes > data.size())
      return Status::Corruption("data block beyond the bytes read");
    auto c = BlockContents(data.substr(b.handle.offset, b.handle.size + kBlockTrailerBytes), false);
    if (!c.ok()) return c.status();
    auto r = BlockReader::Parse(c.value());
    if (!r.ok()) return r.status();
    Status s = r.value().ForEach([&fn](const BlockEntry& e) { fn(e.key, e.value); });
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace fawnlab::lsm
