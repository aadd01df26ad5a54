#include "lsm/version.h"

#include <algorithm>

namespace fawnlab::lsm {

namespace {
int CompareUser(std::string_view a, std::string_view b) { return a.compare(b); }

uint64_t TotalBytes(const std::vector<FilePtr>& fs) {
  uint64_t n = 0;
  for (const FilePtr& f : fs) n += f->file_bytes;
  return n;
}

void Range(const std::vector<FilePtr>& fs, std::string* smallest, std::string* largest) {
  smallest->clear();
  largest->clear();
  for (size_t i = 0; i < fs.size(); ++i) {
    if (i == 0 || CompareInternal(fs[i]->smallest, *smallest) < 0) *smallest = fs[i]->smallest;
    if (i == 0 || CompareInternal(fs[i]->largest, *largest) > 0) *largest = fs[i]->largest;
  }
}

void Range2(const std::vector<FilePtr>& a, const std::vector<FilePtr>& b, std::string* smallest, std::string* largest) {
  std::vector<FilePtr> all = a;
  all.insert(all.end(), b.begin(), b.end());
  Range(all, smallest, largest);
}

// LevelDB 1.23's AddBoundaryInputs: while a file of the level starts with the same user key
// as the inputs' largest key ends (a newer version split across files), add it.
void AddBoundaryInputs(const std::vector<FilePtr>& level_files, std::vector<FilePtr>* inputs) {
  if (inputs->empty()) return;
  std::string smallest, largest;
  Range(*inputs, &smallest, &largest);
  while (true) {
    const FileMeta* best = nullptr;
    FilePtr best_ptr;
    for (const FilePtr& f : level_files) {
      if (CompareInternal(f->smallest, largest) > 0 && UserKey(f->smallest) == UserKey(largest)) {
        if (!best || CompareInternal(f->smallest, best->smallest) < 0) {
          best = f.get();
          best_ptr = f;
        }
      }
    }
    if (!best) break;
    inputs->push_back(best_ptr);
    largest = best->largest;
  }
}
}  // namespace

uint64_t Version::LevelBytes(int level) const { return TotalBytes(files[level]); }

int64_t AllowedSeeks(uint64_t file_bytes) { return std::max<int64_t>(100, static_cast<int64_t>(file_bytes / 16384)); }

uint64_t Sizes::MaxBytesForLevel(int level) const {
  uint64_t r = l1_bytes;
  while (level > 1) {
    r *= 10;
    --level;
  }
  return r;
}

void Finalize(Version* v, const Sizes& s) {
  int best_level = -1;
  double best_score = -1;
  for (int level = 0; level < kNumLevels - 1; ++level) {
    double score;
    if (level == 0) score = static_cast<double>(v->files[0].size()) / static_cast<double>(kL0CompactionTrigger);
    else score = static_cast<double>(v->LevelBytes(level)) / static_cast<double>(s.MaxBytesForLevel(level));
    if (score > best_score) {
      best_level = level;
      best_score = score;
    }
  }
  v->compaction_level = best_level;
  v->compaction_score = best_score;
}

std::vector<FilePtr> Overlapping(const Version& v, int level, std::string_view user_begin, std::string_view user_end) {
  std::vector<FilePtr> out;
  std::string b(user_begin), e(user_end);
  const auto& fs = v.files[level];
  for (size_t i = 0; i < fs.size();) {
    const FilePtr& f = fs[i++];
    const std::string_view fs_user = UserKey(f->smallest), fl_user = UserKey(f->largest);
    if (CompareUser(fl_user, b) < 0 || CompareUser(fs_user, e) > 0) continue;
    out.push_back(f);
    if (level == 0) {
      // Level-0 files overlap each other: widen the range and start over when it grows.
      if (CompareUser(fs_user, b) < 0) {
        b.assign(fs_user);
        out.clear();
        i = 0;
      } else if (CompareUser(fl_user, e) > 0) {
        e.assign(fl_user);
        out.clear();
        i = 0;
      }
    }
  }
  return out;
}

int PickLevelForMemTableOutput(const Version& v, const Sizes& s, std::string_view smallest_user,
                               std::string_view largest_user) {
  int level = 0;
  if (!Overlapping(v, 0, smallest_user, largest_user).empty()) return 0;
  while (level < kMaxMemCompactLevel) {
    if (!Overlapping(v, level + 1, smallest_user, largest_user).empty()) break;
    if (level + 2 < kNumLevels) {
      if (TotalBytes(Overlapping(v, level + 2, smallest_user, largest_user)) > s.MaxGrandParentOverlapBytes()) break;
    }
    ++level;
  }
  return level;
}

bool PickCompaction(const Version& v, const Sizes& s, const std::array<std::string, kNumLevels>& pointers, Compaction* c) {
  const bool size = v.compaction_score >= 1;
  if (!size && !v.file_to_compact) return false;
  const int level = size ? v.compaction_level : v.file_to_compact_level;
  *c = Compaction{};
  c->level = level;
  if (size) {
    for (const FilePtr& f : v.files[level]) {
      if (pointers[level].empty() || CompareInternal(f->largest, pointers[level]) > 0) {
        c->inputs[0].push_back(f);
        break;
      }
    }
    if (c->inputs[0].empty()) c->inputs[0].push_back(v.files[level][0]);  // wrap around
  } else {
    c->seek = true;
    c->inputs[0].push_back(v.file_to_compact);
  }
  std::string smallest, largest;
  if (level == 0) {
    Range(c->inputs[0], &smallest, &largest);
    c->inputs[0] = Overlapping(v, 0, UserKey(smallest), UserKey(largest));
  }
  // SetupOtherInputs.
  AddBoundaryInputs(v.files[level], &c->inputs[0]);
  Range(c->inputs[0], &smallest, &largest);
  c->inputs[1] = Overlapping(v, level + 1, UserKey(smallest), UserKey(largest));
  AddBoundaryInputs(v.files[level + 1], &c->inputs[1]);
  std::string all_start, all_limit;
  Range2(c->inputs[0], c->inputs[1], &all_start, &all_limit);
  if (!c->inputs[1].empty()) {
    std::vector<FilePtr> expanded0 = Overlapping(v, level, UserKey(all_start), UserKey(all_limit));
    AddBoundaryInputs(v.files[level], &expanded0);
    const uint64_t in1 = TotalBytes(c->inputs[1]);
    const uint64_t ex0 = TotalBytes(expanded0);
    if (expanded0.size() > c->inputs[0].size() && in1 + ex0 < s.ExpandedCompactionByteSizeLimit()) {
      std::string ns, nl;
      Range(expanded0, &ns, &nl);
      std::vector<FilePtr> expanded1 = Overlapping(v, level + 1, UserKey(ns), UserKey(nl));
      AddBoundaryInputs(v.files[level + 1], &expanded1);
      if (expanded1.size() == c->inputs[1].size()) {
        smallest = ns;
        largest = nl;
        c->inputs[0] = expanded0;
        c->inputs[1] = expanded1;
        Range2(c->inputs[0], c->inputs[1], &all_start, &all_limit);
      }
    }
  }
  if (level + 2 < kNumLevels) c->grandparents = Overlapping(v, level + 2, UserKey(all_start), UserKey(all_limit));
  c->compact_pointer = largest;
  c->trivial_move = c->inputs[0].size() == 1 && c->inputs[1].empty() &&
                    TotalBytes(c->grandparents) <= s.MaxGrandParentOverlapBytes();
  return true;
}

CompactionCursor::CompactionCursor(const Version& v, const Compaction& c, const Sizes& s)
    : v_(v), c_(c), limit_(s.MaxGrandParentOverlapBytes()) {}

bool CompactionCursor::ShouldStopBefore(std::string_view ikey) {
  const auto& gp = c_.grandparents;
  while (gp_index_ < gp.size() && CompareInternal(ikey, gp[gp_index_]->largest) > 0) {
    if (seen_key_) overlapped_ += gp[gp_index_]->file_bytes;
    ++gp_index_;
  }
  seen_key_ = true;
  if (overlapped_ > limit_) {
    overlapped_ = 0;
    return true;
  }
  return false;
}

bool CompactionCursor::IsBaseLevelForKey(std::string_view user_key) {
  for (int lvl = c_.level + 2; lvl < kNumLevels; ++lvl) {
    const auto& fs = v_.files[lvl];
    while (level_ptrs_[lvl] < fs.size()) {
      const FileMeta& f = *fs[level_ptrs_[lvl]];
      if (CompareUser(user_key, UserKey(f.largest)) <= 0) {
        if (CompareUser(user_key, UserKey(f.smallest)) >= 0) return false;
        break;
      }
      ++level_ptrs_[lvl];
    }
  }
  return true;
}

}  // namespace fawnlab::lsm
