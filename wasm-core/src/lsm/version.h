// The LSM's levels and LevelDB's rules for them (db/version_set.cc, db/dbformat.h of LevelDB
// 1.23): seven levels; level 0 holds whole flushed memtables (their ranges overlap), levels
// 1..6 hold tables of disjoint ranges. A compaction's score is, for level 0, its files over
// the compaction trigger (4), and for level L >= 1 its bytes over MaxBytesForLevel(L) (10 MB
// × 10^(L-1), times the store's size scale); the best score >= 1 is compacted (one at a time).
// PickCompaction starts after the level's compact pointer (round robin), widens level 0 to
// every overlapping file, takes the overlapping files of L+1, grows the L inputs when that
// adds no L+1 file and stays under 25 target files' bytes, and notes the L+2 files
// ("grandparents") whose overlap cuts output files at 10 target files' bytes. A single input
// with no L+1 overlap and little grandparent overlap is moved, not rewritten. A flushed
// memtable goes to level 0 unless nothing in 0 overlaps it: then as deep as level 2 while the
// next level has no overlap and the one after overlaps at most 10 target files' bytes.
// Single-threaded; pure logic over the file lists (the store does the I/O).
#ifndef FAWNLAB_LSM_VERSION_H_
#define FAWNLAB_LSM_VERSION_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lsm/table.h"

namespace fawnlab::lsm {

constexpr int kNumLevels = 7;
constexpr int kL0CompactionTrigger = 4;
constexpr int kL0SlowdownTrigger = 8;
constexpr int kL0StopTrigger = 12;
constexpr int kMaxMemCompactLevel = 2;

// One table on the device. When the last reference goes (no version and no reader holds it),
// `on_free` returns its extent (LevelDB deletes an obsolete file once no Version refers to it).
struct FileMeta {
  uint64_t number = 0;
  uint64_t file_bytes = 0;
  uint64_t entries = 0;
  std::string smallest, largest;  // internal keys
  uint64_t offset = 0;            // on the device
  TableIndex index;               // the table cache's index and filter blocks
  int64_t allowed_seeks = 0;      // gets that may probe it first in vain before a seek compaction
  std::function<void()> on_free;
  ~FileMeta() { if (on_free) on_free(); }
};
using FilePtr = std::shared_ptr<FileMeta>;

struct Version {
  std::array<std::vector<FilePtr>, kNumLevels> files;  // each level by smallest key, then file number
  double compaction_score = 0;
  int compaction_level = -1;
  // A file whose allowed seeks ran out while this version was current (LevelDB's
  // file_to_compact_): compacted when no level's score reaches 1.
  FilePtr file_to_compact;
  int file_to_compact_level = -1;
  uint64_t LevelBytes(int level) const;
  bool NeedsCompaction() const { return compaction_score >= 1 || file_to_compact != nullptr; }
};

// LevelDB's allowed seeks for a new table: one per 16 KB of it, at least 100 (one seek costs
// about what compacting 16 KB does: db/version_set.cc's reasoning).
int64_t AllowedSeeks(uint64_t file_bytes);

struct Sizes {
  uint64_t max_file_bytes;    // LevelDB's max_file_size (2 MB × scale)
  uint64_t l1_bytes;          // MaxBytesForLevel(1) (10 MB × scale)
  uint64_t MaxBytesForLevel(int level) const;
  uint64_t MaxGrandParentOverlapBytes() const { return 10 * max_file_bytes; }
  uint64_t ExpandedCompactionByteSizeLimit() const { return 25 * max_file_bytes; }
};

void Finalize(Version* v, const Sizes& s);

// Files of `level` whose user-key range meets [begin, end] (level 0: widened until closed).
std::vector<FilePtr> Overlapping(const Version& v, int level, std::string_view user_begin, std::string_view user_end);

int PickLevelForMemTableOutput(const Version& v, const Sizes& s, std::string_view smallest_user,
                               std::string_view largest_user);

struct Compaction {
  int level = 0;
  std::vector<FilePtr> inputs[2];
  std::vector<FilePtr> grandparents;
  std::string compact_pointer;  // the largest internal key of inputs[0]
  bool trivial_move = false;
  bool seek = false;            // started by a file's seeks, not by a score
};

// LevelDB's compaction choice: a size compaction when a score reaches 1, else a seek
// compaction of the version's file_to_compact; false when neither. `pointers[level]` is the
// round-robin position ("" at first).
bool PickCompaction(const Version& v, const Sizes& s, const std::array<std::string, kNumLevels>& pointers, Compaction* c);

// During a compaction's merge: whether an output should be cut before `ikey` (grandparent
// overlap), and whether no level below the output's holds `user_key` (a deletion may go).
class CompactionCursor {
 public:
  CompactionCursor(const Version& v, const Compaction& c, const Sizes& s);
  bool ShouldStopBefore(std::string_view ikey);
  bool IsBaseLevelForKey(std::string_view user_key);

 private:
  const Version& v_;
  const Compaction& c_;
  uint64_t limit_;
  size_t gp_index_ = 0;
  bool seen_key_ = false;
  uint64_t overlapped_ = 0;
  std::array<size_t, kNumLevels> level_ptrs_{};
};

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_VERSION_H_
