// LsmStore's scans (lsm/store.h): a merging iterator over the memtables and the tables.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lsm/store.h"
#include "lsm/store_internal.h"
#include "lsm/table.h"

namespace fawnlab::lsm {

using sim::SimDuration;
using sim::SimTime;

// ---------------------------------------------------------------- scans

Status LsmStore::Scan(std::string_view start, int count, ScanDone done) {
  if (count < 0) return Status::InvalidArgument("scan count " + std::to_string(count) + " is negative");
  auto op = std::make_unique<Op>();
  op->kind = Op::kScan;
  op->key.assign(start);
  op->count = count;
  op->scan_done = std::move(done);
  return Enqueue(std::move(op));
}

namespace {
// One input of a scan's merging iterator: a memtable, or a run of tables (one level-0 table,
// or a level's tables in key order) whose blocks are read as the scan reaches them.
struct ScanSource {
  const MemTable::Map* map = nullptr;
  MemTable::Map::const_iterator it;
  std::vector<FilePtr> files;
  size_t fi = 0;
  size_t block = 0;
  std::vector<std::pair<std::string, std::string>> entries;
  size_t ei = 0;
  bool valid = false;
  std::string_view key() const { return map ? std::string_view(it->first) : std::string_view(entries[ei].first); }
  std::string_view value() const { return map ? std::string_view(it->second) : std::string_view(entries[ei].second); }
};
}  // namespace

void LsmStore::RunScan(Op* op) {
  ++c_.scans;
  const cona::HostCosts& h = o_.host;
  const LsmCosts& k = o_.costs;
  double cpu = h.op_base_ns;
  struct State { int pending = 1; std::function<void()> complete; };
  auto state = std::make_shared<State>();
  auto one_done = [state] {
    if (--state->pending == 0 && state->complete) state->complete();
  };
  std::string lookup;
  AppendInternalKey(&lookup, op->key, kMaxSequence, kTypeValue);
  const std::shared_ptr<Version> v = current_;
  bool bad = false;
  // Loads the current block of a table source (a device read; the bytes are there at submission).
  auto load = [&](ScanSource* s) {
    s->entries.clear();
    s->ei = 0;
    while (s->fi < s->files.size()) {
      const FileMeta& f = *s->files[s->fi];
      if (s->block < f.index.blocks().size()) {
        const BlockHandle bh = f.index.blocks()[s->block].handle;
        const uint64_t len = bh.size + kBlockTrailerBytes;
        std::string buf(len, '\0');
        ++state->pending;
        c_.store_bytes_read += len;
        Io(device::IoCommand::Single(device::IoEntry::Read(f.offset + bh.offset, len, reinterpret_cast<uint8_t*>(buf.data()))),
           one_done);
        auto c = BlockContents(buf, false);
        auto r = c.ok() ? BlockReader::Parse(c.value()) : StatusOr<BlockReader>(c.status());
        if (!r.ok()) {
          bad = true;
          s->valid = false;
          return;
        }
        (void)r.value().ForEach([&](const BlockEntry& e) { s->entries.emplace_back(e.key, std::string(e.value)); });
        cpu += k.block_decode_ns * static_cast<double>(s->entries.size());
        if (!s->entries.empty()) {
          s->valid = true;
          return;
        }
        ++s->block;
        continue;
      }
      ++s->fi;
      s->block = 0;
    }
    s->valid = false;
  };
  std::vector<ScanSource> src;
  for (const std::shared_ptr<MemTable>& mt : {mem_, imm_}) {
    if (!mt) continue;
    ScanSource s;
    s.map = &mt->entries();
    s.it = s.map->lower_bound(lookup);
    s.valid = s.it != s.map->end();
    cpu += k.skiplist_level_ns * mt->max_height();
    src.push_back(std::move(s));
  }
  auto seek_tables = [&](std::vector<FilePtr> files) {
    ScanSource s;
    s.files = std::move(files);
    // The first file whose largest key is at or past the start, and its block.
    while (s.fi < s.files.size() && CompareInternal(s.files[s.fi]->largest, lookup) < 0) ++s.fi;
    if (s.fi < s.files.size()) {
      int steps = 0;
      const int b = s.files[s.fi]->index.FindBlock(lookup, &steps);
      cpu += k.block_search_step_ns * steps;
      s.block = b < 0 ? s.files[s.fi]->index.blocks().size() : static_cast<size_t>(b);
    }
    load(&s);
    while (s.valid && CompareInternal(s.key(), lookup) < 0) {
      if (++s.ei >= s.entries.size()) {
        ++s.block;
        load(&s);
      }
    }
    src.push_back(std::move(s));
  };
  for (const FilePtr& f : v->files[0]) seek_tables({f});
  for (int level = 1; level < kNumLevels; ++level)
    if (!v->files[level].empty()) seek_tables(v->files[level]);
  auto advance = [&](ScanSource* s) {
    if (s->map) {
      ++s->it;
      s->valid = s->it != s->map->end();
      return;
    }
    if (++s->ei >= s->entries.size()) {
      ++s->block;
      load(s);
    }
  };
  std::vector<std::pair<std::string, std::string>> out;
  std::string last_user;
  bool have_last = false;
  while (static_cast<int>(out.size()) < op->count && !bad) {
    ScanSource* best = nullptr;
    for (ScanSource& s : src) {
      if (!s.valid) continue;
      cpu += h.key_compare_ns;
      if (!best || CompareInternal(s.key(), best->key()) < 0) best = &s;
    }
    if (!best) break;
    const std::string_view ik = best->key();
    const std::string_view uk = UserKey(ik);
    if (!have_last || uk != last_user) {  // the newest version of this key
      last_user.assign(uk);
      have_last = true;
      if (TypeOf(ik) == kTypeValue) out.emplace_back(std::string(uk), std::string(best->value()));
    }
    advance(best);
  }
  if (bad) {
    Fail(Status::Corruption("LSM table block unreadable during a scan"));
    return;
  }
  auto result = std::make_shared<std::vector<std::pair<std::string, std::string>>>(std::move(out));
  const SimDuration cost = Cpu(cpu);
  state->complete = [this, op, result, cost] {
    Finish(cost, [this, op, result] {
      c_.read_ns += sim_->now() - op->start;
      ScanDone d = std::move(op->scan_done);
      OpDone();
      if (d) d(Status::Ok(), std::move(*result));
    });
  };
  one_done();
}

}  // namespace fawnlab::lsm
