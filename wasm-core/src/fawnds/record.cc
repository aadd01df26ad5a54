#include "fawnds/record.h"

#include <cstring>

namespace fawnlab::fawnds {
namespace {

// Slicing-by-8 tables: t[0] is the classic byte table; t[k][b] is the CRC of byte b followed
// by k zero bytes, so eight input bytes are folded with eight lookups and no carried chain.
struct CrcTables {
  uint32_t t[8][256];
  CrcTables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i) {
      for (int k = 1; k < 8; ++k) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
    }
  }
};

void PutU32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

uint32_t GetU32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return v;
}

}  // namespace

uint32_t Crc32c(const uint8_t* data, size_t n, uint32_t crc) {
  static const CrcTables tables;
  const auto& t = tables.t;
  crc = ~crc;
  for (; n >= 8; n -= 8, data += 8) {
    const uint32_t lo = crc ^ (uint32_t{data[0]} | (uint32_t{data[1]} << 8) | (uint32_t{data[2]} << 16) |
                               (uint32_t{data[3]} << 24));
    crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^ t[3][data[4]] ^
          t[2][data[5]] ^ t[1][data[6]] ^ t[0][data[7]];
  }
  for (; n > 0; --n, ++data) crc = t[0][(crc ^ *data) & 0xff] ^ (crc >> 8);
  return ~crc;
}

void EncodeRecord(RecordType type, uint32_t seq, const Key& key, std::string_view value, uint32_t nonce,
                  std::string* out) {
  const size_t start = out->size();
  out->resize(start + kRecordHeader + value.size());
  char* p = out->data() + start;
  PutU32(p + 4, seq);
  p[8] = static_cast<char>(type);
  PutU32(p + 9, static_cast<uint32_t>(value.size()));
  std::memcpy(p + 13, key.bytes.data(), key.bytes.size());
  if (!value.empty()) std::memcpy(p + kRecordHeader, value.data(), value.size());
  PutU32(p, Crc32c(reinterpret_cast<const uint8_t*>(p + 4), kRecordHeader - 4 + value.size(), nonce));
}

StatusOr<RecordView> DecodeRecord(std::string_view bytes, uint64_t offset, uint32_t expected_seq, uint32_t nonce) {
  // The message prefix is built only on an error: decoding is on every lookup's path.
  auto where = [offset]() { return "record at log offset " + std::to_string(offset) + ": "; };
  if (bytes.size() < kRecordHeader) {
    bool zero = true;
    for (char c : bytes) zero = zero && c == 0;
    if (zero) return Status::NotFound("end of log");
    return Status::Corruption(where() + "truncated header (" + std::to_string(bytes.size()) + " of " +
                              std::to_string(kRecordHeader) + " bytes)");
  }
  bool zero = true;
  for (uint32_t i = 0; i < kRecordHeader; ++i) zero = zero && bytes[i] == 0;
  if (zero) return Status::NotFound("end of log");
  RecordView r;
  r.seq = GetU32(bytes.data() + 4);
  uint8_t type = static_cast<uint8_t>(bytes[8]);
  if (type != 1 && type != 2) return Status::Corruption(where() + "unknown record type " + std::to_string(type));
  r.type = static_cast<RecordType>(type);
  uint32_t len = GetU32(bytes.data() + 9);
  if (len > kMaxValue) {
    return Status::Corruption(where() + "value length " + std::to_string(len) + " exceeds the limit of " +
                              std::to_string(kMaxValue));
  }
  if (r.type == RecordType::kDelete && len != 0) return Status::Corruption(where() + "a delete record carries a value");
  r.size = kRecordHeader + len;
  if (bytes.size() < r.size) {
    return Status::Corruption(where() + "truncated (" + std::to_string(bytes.size()) + " of " + std::to_string(r.size) +
                              " bytes)");
  }
  uint32_t want = GetU32(bytes.data());
  uint32_t got = Crc32c(reinterpret_cast<const uint8_t*>(bytes.data() + 4), r.size - 4, nonce);
  if (want != got) return Status::Corruption(where() + "checksum mismatch (torn or damaged record)");
  if (expected_seq != 0 && r.seq != expected_seq) {
    return Status::Corruption(where() + "sequence number " + std::to_string(r.seq) + ", expected " +
                              std::to_string(expected_seq) + " (a stale record beyond the log's end)");
  }
  std::memcpy(r.key.bytes.data(), bytes.data() + 13, 20);
  r.value = bytes.substr(kRecordHeader, len);
  return r;
}

}  // namespace fawnlab::fawnds
