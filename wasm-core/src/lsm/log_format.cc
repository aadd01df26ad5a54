#include "lsm/log_format.h"

#include "base/coding.h"
#include "fawnds/record.h"
#include "lsm/block.h"

namespace fawnlab::lsm {

void LogWriter::AddRecord(std::string_view payload, std::string* out) {
  const char* ptr = payload.data();
  size_t left = payload.size();
  bool begin = true;
  do {
    const uint32_t leftover = kLogBlockBytes - block_offset_;
    if (leftover < kLogHeaderBytes) {
      out->append(leftover, '\0');
      block_offset_ = 0;
    }
    const size_t avail = kLogBlockBytes - block_offset_ - kLogHeaderBytes;
    const size_t n = left < avail ? left : avail;
    const bool end = n == left;
    const uint8_t type = begin && end ? 1 : begin ? 2 : end ? 4 : 3;
    uint32_t crc = fawnds::Crc32c(&type, 1);
    crc = fawnds::Crc32c(reinterpret_cast<const uint8_t*>(ptr), n, crc);
    PutFixed32(out, MaskCrc(crc));
    out->push_back(static_cast<char>(n & 0xff));
    out->push_back(static_cast<char>(n >> 8));
    out->push_back(static_cast<char>(type));
    out->append(ptr, n);
    block_offset_ += static_cast<uint32_t>(kLogHeaderBytes + n);
    ptr += n;
    left -= n;
    begin = false;
  } while (left > 0);
}

std::vector<std::string> ReadLogRecords(std::string_view log) {
  std::vector<std::string> out;
  std::string cur;
  size_t pos = 0;
  while (pos + kLogHeaderBytes <= log.size()) {
    const size_t in_block = pos % kLogBlockBytes;
    if (kLogBlockBytes - in_block < kLogHeaderBytes) {
      pos += kLogBlockBytes - in_block;
      continue;
    }
    const uint8_t* h = reinterpret_cast<const uint8_t*>(log.data() + pos);
    const uint32_t n = uint32_t{h[4]} | (uint32_t{h[5]} << 8);
    const uint8_t type = h[6];
    if (type < 1 || type > 4 || pos + kLogHeaderBytes + n > log.size()) break;
    uint32_t crc = fawnds::Crc32c(&type, 1);
    crc = fawnds::Crc32c(h + kLogHeaderBytes, n, crc);
    if (MaskCrc(crc) != GetLe32(h)) break;
    if (type == 1 || type == 2) cur.clear();
    cur.append(log.data() + pos + kLogHeaderBytes, n);
    if (type == 1 || type == 4) out.push_back(cur);
    pos += kLogHeaderBytes + n;
  }
  return out;
}

void EncodeBatch(uint64_t seq, bool del, std::string_view key, std::string_view value, std::string* out) {
  PutFixed64(out, seq);
  PutFixed32(out, 1);
  out->push_back(static_cast<char>(del ? kTypeDeletion : kTypeValue));
  PutVarint32(out, static_cast<uint32_t>(key.size()));
  out->append(key.data(), key.size());
  if (!del) {
    PutVarint32(out, static_cast<uint32_t>(value.size()));
    out->append(value.data(), value.size());
  }
}

void EncodeVersionEdit(const VersionEdit& e, std::string* out) {
  PutVarint32(out, 2);
  PutVarint64(out, e.log_number);
  PutVarint32(out, 3);
  PutVarint64(out, e.next_file);
  PutVarint32(out, 4);
  PutVarint64(out, e.last_sequence);
  for (const auto& [level, key] : e.compact_pointers) {
    PutVarint32(out, 5);
    PutVarint32(out, static_cast<uint32_t>(level));
    PutVarint32(out, static_cast<uint32_t>(key.size()));
    out->append(key);
  }
  for (const auto& [level, number] : e.deleted) {
    PutVarint32(out, 6);
    PutVarint32(out, static_cast<uint32_t>(level));
    PutVarint64(out, number);
  }
  for (const VersionEditFile& f : e.added) {
    PutVarint32(out, 7);
    PutVarint32(out, static_cast<uint32_t>(f.level));
    PutVarint64(out, f.number);
    PutVarint64(out, f.size);
    PutVarint32(out, static_cast<uint32_t>(f.smallest.size()));
    out->append(f.smallest);
    PutVarint32(out, static_cast<uint32_t>(f.largest.size()));
    out->append(f.largest);
  }
}

}  // namespace fawnlab::lsm
