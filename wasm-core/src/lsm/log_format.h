// LevelDB's log format (db/log_writer.cc, db/log_format.h of LevelDB 1.23), used for the
// write-ahead log and the manifest: 32 KB blocks; a record is cut into fragments, each with a
// 7-byte header (masked CRC32C of type + payload, fixed32; length, 2 bytes; type: 1 full,
// 2 first, 3 middle, 4 last); a block's tail shorter than a header is zero-filled. And the two
// payloads the store writes into logs: a one-operation WriteBatch (sequence fixed64, count
// fixed32, then tag 1 (put) or 0 (delete), the key and for a put the value, each as a varint32
// length and bytes: db/write_batch.cc) and a VersionEdit (db/version_edit.cc's tags: 2 log
// number, 3 next file number, 4 last sequence, 5 compact pointer, 6 deleted file, 7 new file).
#ifndef FAWNLAB_LSM_LOG_FORMAT_H_
#define FAWNLAB_LSM_LOG_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fawnlab::lsm {

constexpr uint32_t kLogBlockBytes = 32768;
constexpr uint32_t kLogHeaderBytes = 7;

// A log's writer position. AddRecord appends the framed bytes of `payload` to `out` (the
// bytes to write at the log's current end) and advances.
class LogWriter {
 public:
  void AddRecord(std::string_view payload, std::string* out);
  void Reset() { block_offset_ = 0; }
  uint32_t block_offset() const { return block_offset_; }

 private:
  uint32_t block_offset_ = 0;
};

// Reads back every record of a log image (for tests and recovery checks); stops at the first
// zero or damaged header. Returns the payloads.
std::vector<std::string> ReadLogRecords(std::string_view log);

void EncodeBatch(uint64_t seq, bool del, std::string_view key, std::string_view value, std::string* out);

struct VersionEditFile {
  int level = 0;
  uint64_t number = 0, size = 0;
  std::string smallest, largest;
};
struct VersionEdit {
  uint64_t log_number = 0, next_file = 0, last_sequence = 0;
  std::vector<std::pair<int, std::string>> compact_pointers;
  std::vector<std::pair<int, uint64_t>> deleted;
  std::vector<VersionEditFile> added;
};
void EncodeVersionEdit(const VersionEdit& e, std::string* out);

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_LOG_FORMAT_H_
