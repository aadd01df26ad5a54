#include "lsm/block.h"

#include <cassert>
#include <cstring>

#include "base/coding.h"
#include "fawnds/record.h"

namespace fawnlab::lsm {

void PutVarint32(std::string* dst, uint32_t v) { PutVarint64(dst, v); }

void PutVarint64(std::string* dst, uint64_t v) {
  while (v >= 128) {
    dst->push_back(static_cast<char>((v & 127) | 128));
    v >>= 7;
  }
  dst->push_back(static_cast<char>(v));
}

void PutFixed32(std::string* dst, uint32_t v) {
  uint8_t b[4];
  PutLe32(b, v);
  dst->append(reinterpret_cast<const char*>(b), 4);
}

void PutFixed64(std::string* dst, uint64_t v) {
  uint8_t b[8];
  PutLe64(b, v);
  dst->append(reinterpret_cast<const char*>(b), 8);
}

bool GetVarint64(const char** p, const char* limit, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && *p < limit; shift += 7) {
    const uint64_t byte = static_cast<uint8_t>(**p);
    ++*p;
    if (byte & 128) {
      result |= (byte & 127) << shift;
    } else {
      result |= byte << shift;
      *v = result;
      return true;
    }
  }
  return false;
}

bool GetVarint32(const char** p, const char* limit, uint32_t* v) {
  uint64_t x = 0;
  if (!GetVarint64(p, limit, &x) || x > 0xffffffffu) return false;
  *v = static_cast<uint32_t>(x);
  return true;
}

int VarintLength(uint64_t v) {
  int len = 1;
  while (v >= 128) {
    v >>= 7;
    ++len;
  }
  return len;
}

void AppendInternalKey(std::string* dst, std::string_view user_key, uint64_t seq, ValueType t) {
  dst->append(user_key.data(), user_key.size());
  const uint64_t packed = ~((seq << 8) | t);
  for (int i = 7; i >= 0; --i) dst->push_back(static_cast<char>(packed >> (8 * i)));
}

namespace {
uint64_t Packed(std::string_view ikey) {
  uint64_t x = 0;
  const char* p = ikey.data() + ikey.size() - kTrailerBytes;
  for (int i = 0; i < 8; ++i) x = (x << 8) | static_cast<uint8_t>(p[i]);
  return ~x;
}
int CompareBytes(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  const int r = n ? std::memcmp(a.data(), b.data(), n) : 0;
  if (r != 0) return r;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}
}  // namespace

uint64_t SequenceOf(std::string_view ikey) { return Packed(ikey) >> 8; }
ValueType TypeOf(std::string_view ikey) { return static_cast<ValueType>(Packed(ikey) & 0xff); }

int CompareInternal(std::string_view a, std::string_view b) {
  const int r = CompareBytes(UserKey(a), UserKey(b));
  if (r != 0) return r;
  return std::memcmp(a.data() + a.size() - kTrailerBytes, b.data() + b.size() - kTrailerBytes, kTrailerBytes);
}

void ShortestSeparator(std::string* start, std::string_view limit) {
  std::string_view us = UserKey(*start), ul = UserKey(limit);
  const size_t min_len = std::min(us.size(), ul.size());
  size_t diff = 0;
  while (diff < min_len && us[diff] == ul[diff]) ++diff;
  if (diff >= min_len) return;  // one is a prefix of the other
  const uint8_t b = static_cast<uint8_t>(us[diff]);
  if (b < 0xff && b + 1 < static_cast<uint8_t>(ul[diff])) {
    std::string tmp(us.substr(0, diff + 1));
    tmp[diff] = static_cast<char>(b + 1);
    if (tmp.size() < us.size() && CompareBytes(us, tmp) < 0) {
      std::string out;
      AppendInternalKey(&out, tmp, kMaxSequence, kTypeValue);
      assert(CompareInternal(*start, out) < 0 && CompareInternal(out, limit) < 0);
      *start = std::move(out);
    }
  }
}

void ShortSuccessor(std::string* key) {
  std::string_view uk = UserKey(*key);
  for (size_t i = 0; i < uk.size(); ++i) {
    const uint8_t b = static_cast<uint8_t>(uk[i]);
    if (b != 0xff) {
      std::string tmp(uk.substr(0, i + 1));
      tmp[i] = static_cast<char>(b + 1);
      if (tmp.size() < uk.size()) {
        std::string out;
        AppendInternalKey(&out, tmp, kMaxSequence, kTypeValue);
        *key = std::move(out);
      }
      return;
    }
  }
}

uint32_t MaskCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

BlockBuilder::BlockBuilder(int restart_interval) : interval_(restart_interval) { Reset(); }

void BlockBuilder::Reset() {
  buffer_.clear();
  restarts_.assign(1, 0);
  counter_ = 0;
  entries_ = 0;
  last_key_.clear();
  finished_ = false;
}

void BlockBuilder::Add(std::string_view key, std::string_view value) {
  assert(!finished_);
  size_t shared = 0;
  if (counter_ < interval_) {
    const size_t n = std::min(last_key_.size(), key.size());
    while (shared < n && last_key_[shared] == key[shared]) ++shared;
  } else {
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    counter_ = 0;
  }
  const size_t non_shared = key.size() - shared;
  PutVarint32(&buffer_, static_cast<uint32_t>(shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(non_shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(value.size()));
  buffer_.append(key.data() + shared, non_shared);
  buffer_.append(value.data(), value.size());
  last_key_.resize(shared);
  last_key_.append(key.data() + shared, non_shared);
  ++counter_;
  ++entries_;
}

std::string_view BlockBuilder::Finish() {
  for (uint32_t r : restarts_) PutFixed32(&buffer_, r);
  PutFixed32(&buffer_, static_cast<uint32_t>(restarts_.size()));
  finished_ = true;
  return buffer_;
}

void AppendBlockTrailer(std::string_view contents, std::string* dst) {
  const uint8_t type = 0;
  uint32_t crc = fawnds::Crc32c(reinterpret_cast<const uint8_t*>(contents.data()), contents.size());
  crc = fawnds::Crc32c(&type, 1, crc);
  dst->push_back(static_cast<char>(type));
  PutFixed32(dst, MaskCrc(crc));
}

StatusOr<BlockReader> BlockReader::Parse(std::string_view contents) {
  if (contents.size() < 4) return Status::Corruption("block of " + std::to_string(contents.size()) + " bytes is too short");
  BlockReader r;
  r.data_ = contents;
  r.num_restarts_ = GetLe32(reinterpret_cast<const uint8_t*>(contents.data() + contents.size() - 4));
  const uint64_t max_restarts = (contents.size() - 4) / 4;
  if (r.num_restarts_ == 0 || r.num_restarts_ > max_restarts)
    return Status::Corruption("block names " + std::to_string(r.num_restarts_) + " restart points in " +
                              std::to_string(contents.size()) + " bytes");
  r.restart_offset_ = static_cast<uint32_t>(contents.size() - 4 - 4 * uint64_t{r.num_restarts_});
  return r;
}

bool BlockReader::DecodeAt(uint32_t offset, std::string* key, std::string_view* value, uint32_t* next) const {
  const char* p = data_.data() + offset;
  const char* limit = data_.data() + restart_offset_;
  uint32_t shared = 0, non_shared = 0, vlen = 0;
  if (!GetVarint32(&p, limit, &shared) || !GetVarint32(&p, limit, &non_shared) || !GetVarint32(&p, limit, &vlen)) return false;
  if (static_cast<uint64_t>(limit - p) < uint64_t{non_shared} + vlen || shared > key->size()) return false;
  key->resize(shared);
  key->append(p, non_shared);
  *value = std::string_view(p + non_shared, vlen);
  *next = static_cast<uint32_t>(p + non_shared + vlen - data_.data());
  return true;
}

bool BlockReader::Seek(std::string_view target, BlockEntry* out, SeekWork* work, bool internal) const {
  auto cmp = [internal](std::string_view a, std::string_view b) { return internal ? CompareInternal(a, b) : CompareBytes(a, b); };
  auto restart = [this](uint32_t i) {
    return GetLe32(reinterpret_cast<const uint8_t*>(data_.data() + restart_offset_ + 4 * uint64_t{i}));
  };
  uint32_t left = 0, right = num_restarts_ - 1;
  std::string key;
  std::string_view value;
  uint32_t next = 0;
  while (left < right) {
    const uint32_t mid = (left + right + 1) / 2;
    key.clear();
    if (work) ++work->steps;
    if (!DecodeAt(restart(mid), &key, &value, &next)) return false;
    if (cmp(key, target) < 0) left = mid;
    else right = mid - 1;
  }
  uint32_t off = restart(left);
  key.clear();
  while (off < restart_offset_) {
    if (work) ++work->decoded;
    if (!DecodeAt(off, &key, &value, &next)) return false;
    if (cmp(key, target) >= 0) {
      out->key = key;
      out->value = value;
      return true;
    }
    off = next;
  }
  return false;
}

Status BlockReader::ForEach(const std::function<void(const BlockEntry&)>& fn) const {
  uint32_t off = 0;
  BlockEntry e;
  while (off < restart_offset_) {
    uint32_t next = 0;
    if (!DecodeAt(off, &e.key, &e.value, &next)) return Status::Corruption("bad block entry at offset " + std::to_string(off));
    fn(e);
    off = next;
  }
  return Status::Ok();
}

}  // namespace fawnlab::lsm
