// LevelDB's table (SSTable) format (table/table_builder.cc, table/filter_block.cc,
// table/format.cc of LevelDB 1.23), built into a byte image the store writes to the device:
// data blocks of ~block_bytes (a block is cut once its size estimate reaches it), the filter
// block (one Bloom filter per 2 KB of data offsets, LevelDB's kFilterBaseLg = 11; the user
// keys of the data block that starts in that range), the metaindex block (one entry
// "filter.leveldb.BuiltinBloomFilter2" -> the filter block's handle), the index block (restart
// interval 1; per data block the shortest separator from the next block's first key, the last
// one a short successor, -> the block's handle), and the 48-byte footer (the metaindex and
// index handles padded to 40 bytes, the magic 0xdb4775248b80fb57). No compression (the lab's
// values are random bytes; the bench runs LevelDB with compression off too).
//
// TableIndex is what LevelDB's table cache holds in DRAM for an open table: the index block
// and the filter block (parsed from the image's tail, as Table::Open reads them). Get looks
// up the data block in the index, asks that block's filter, and reads one block.
#ifndef FAWNLAB_LSM_TABLE_H_
#define FAWNLAB_LSM_TABLE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "lsm/block.h"

namespace fawnlab::lsm {

constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr size_t kFooterBytes = 48;
constexpr int kFilterBaseLg = 11;

struct TableWork {
  uint64_t entries = 0, blocks = 0, bytes = 0;  // bytes: of the image (CRC'd and copied)
};

class TableBuilder {
 public:
  TableBuilder(uint32_t block_bytes, int restart_interval, int bloom_bits);
  void Add(std::string_view ikey, std::string_view value);  // increasing internal keys
  uint64_t FileSize() const { return image_.size(); }       // data written so far (LevelDB's FileSize)
  uint64_t entries() const { return work_.entries; }
  // Finishes the image (last block, filter, metaindex, index, footer) and returns it.
  std::string Finish();
  const TableWork& work() const { return work_; }

 private:
  void FlushBlock();
  void WriteBlock(std::string_view contents, BlockHandle* h);
  void StartFilter(uint64_t block_offset);
  void GenerateFilter();

  uint32_t block_bytes_;
  int bloom_bits_;
  BlockBuilder data_, index_;
  std::string image_;
  std::string last_key_;
  bool pending_index_ = false;
  BlockHandle pending_;
  // The filter block being built.
  std::string filter_keys_;
  std::vector<size_t> filter_starts_;
  std::string filter_result_;
  std::vector<uint32_t> filter_offsets_;
  TableWork work_;
};

struct IndexEntry {
  std::string separator;  // >= every key of the block, < every key of the next
  BlockHandle handle;
};

class TableIndex {
 public:
  // Parses the footer, index block and filter block from `tail`, the image's bytes from
  // `tail_offset` to its end (the image's whole length: `file_bytes`).
  static StatusOr<TableIndex> Open(std::string_view tail, uint64_t tail_offset, uint64_t file_bytes);
  // The block that may hold `ikey` (the first whose separator is >= it), or -1.
  int FindBlock(std::string_view ikey, int* steps) const;
  // The filter's answer for the block at `block_offset` (true without a filter).
  bool MayMatch(uint64_t block_offset, std::string_view user_key, int* probes) const;
  const std::vector<IndexEntry>& blocks() const { return blocks_; }
  uint64_t data_bytes() const { return data_end_; }           // data blocks' extent
  uint64_t dram_bytes() const { return index_bytes_ + filter_.size(); }  // the cached blocks
  uint64_t index_bytes() const { return index_bytes_; }
  uint64_t filter_bytes() const { return filter_.size(); }

 private:
  std::vector<IndexEntry> blocks_;
  std::string filter_;        // the filter block's contents ("" without a filter)
  uint32_t filter_array_ = 0, filter_count_ = 0;
  uint64_t index_bytes_ = 0, data_end_ = 0;
};

// Every entry of the data blocks in `data` (the image's first index.data_bytes() bytes), in
// order. Counts the entries decoded.
Status ForEachEntry(std::string_view data, const TableIndex& index,
                    const std::function<void(std::string_view ikey, std::string_view value)>& fn);
// The contents of one data block from its stored bytes (contents + trailer), checked against
// its CRC when `verify` (LevelDB verifies only when asked: ReadOptions::verify_checksums).
StatusOr<std::string_view> BlockContents(std::string_view stored, bool verify);

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_TABLE_H_
