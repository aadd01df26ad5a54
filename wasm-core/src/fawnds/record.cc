#include "fawnds/record.h"

#include <array>
#include <cstring>

namespace fawnlab::fawnds {
namespace {

std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    t[i] = c;
  }
  return t;
}

void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint32_t GetU32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return v;
}

}  // namespace

uint32_t Crc32c(const uint8_t* data, size_t n, uint32_t crc) {
  static const std::array<uint32_t, 256> table = MakeTable();
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

void EncodeRecord(RecordType type, uint32_t seq, const Key& key, std::string_view value, uint32_t nonce,
                  std::string* out) {
  size_t start = out->size();
  PutU32(out, 0);  // checksum, filled below
  PutU32(out, seq);
  out->push_back(static_cast<char>(type));
  PutU32(out, static_cast<uint32_t>(value.size()));
  out->append(reinterpret_cast<const char*>(key.bytes.data()), key.bytes.size());
  out->append(value);
  uint32_t crc = Crc32c(reinterpret_cast<const uint8_t*>(out->data() + start + 4), out->size() - start - 4, nonce);
  for (int i = 0; i < 4; ++i) (*out)[start + static_cast<size_t>(i)] = static_cast<char>((crc >> (8 * i)) & 0xff);
}

StatusOr<RecordView> DecodeRecord(std::string_view bytes, uint64_t offset, uint32_t expected_seq, uint32_t nonce) {
  const std::string where = "record at log offset " + std::to_string(offset) + ": ";
  if (bytes.size() < kRecordHeader) {
    bool zero = true;
    for (char c : bytes) zero = zero && c == 0;
    if (zero) return Status::NotFound("end of log");
    return Status::Corruption(where + "truncated header (" + std::to_string(bytes.size()) + " of " +
                              std::to_string(kRecordHeader) + " bytes)");
  }
  bool zero = true;
  for (uint32_t i = 0; i < kRecordHeader; ++i) zero = zero && bytes[i] == 0;
  if (zero) return Status::NotFound("end of log");
  RecordView r;
  r.seq = GetU32(bytes.data() + 4);
  uint8_t type = static_cast<uint8_t>(bytes[8]);
  if (type != 1 && type != 2) return Status::Corruption(where + "unknown record type " + std::to_string(type));
  r.type = static_cast<RecordType>(type);
  uint32_t len = GetU32(bytes.data() + 9);
  if (len > kMaxValue) {
    return Status::Corruption(where + "value length " + std::to_string(len) + " exceeds the limit of " +
                              std::to_string(kMaxValue));
  }
  if (r.type == RecordType::kDelete && len != 0) return Status::Corruption(where + "a delete record carries a value");
  r.size = kRecordHeader + len;
  if (bytes.size() < r.size) {
    return Status::Corruption(where + "truncated (" + std::to_string(bytes.size()) + " of " + std::to_string(r.size) +
                              " bytes)");
  }
  uint32_t want = GetU32(bytes.data());
  uint32_t got = Crc32c(reinterpret_cast<const uint8_t*>(bytes.data() + 4), r.size - 4, nonce);
  if (want != got) return Status::Corruption(where + "checksum mismatch (torn or damaged record)");
  if (expected_seq != 0 && r.seq != expected_seq) {
    return Status::Corruption(where + "sequence number " + std::to_string(r.seq) + ", expected " +
                              std::to_string(expected_seq) + " (a stale record beyond the log's end)");
  }
  std::memcpy(r.key.bytes.data(), bytes.data() + 13, 20);
  r.value = bytes.substr(kRecordHeader, len);
  return r;
}

}  // namespace fawnlab::fawnds
