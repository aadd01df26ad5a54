// FawndsSession: the column views — a store's log (Log) and its index cells (Index), and
// both as the contract's named columns (View).
#include <utility>

#include "fawnds/lab/session.h"

namespace fawnlab::fawndslab {

StatusOr<LogColumns> FawndsSession::Log(size_t store) {
  if (crashed_) {
    if (store >= frozen_.size()) {
      return Status::InvalidArgument("no store " + std::to_string(store) + ": the crashed node had " + std::to_string(frozen_.size()));
    }
    return frozen_[store].log;
  }
  PruneTables();
  const size_t n = node_->num_stores();
  const fawnds::DataStore* s = nullptr;
  if (store < n) {
    s = &node_->store(store);
  } else if (store == n && node_->maintenance_running() && node_->progress().kind != "merge") {
    s = node_->maintenance_destination();
  } else {
    return Status::InvalidArgument("no store " + std::to_string(store) + ": the node has " + std::to_string(n) + " store" +
                                   (n == 1 ? "" : "s") + (node_->maintenance_running() ? " and one being built" : ""));
  }
  LogTable& t = TableFor(s);
  t.CatchUp(*s);
  return t.Columns(*s);
}

StatusOr<IndexCells> FawndsSession::Index(size_t store, uint64_t first, uint64_t count, uint64_t group) {
  if (crashed_) return Status::Unavailable("the index lived in DRAM and was lost in the crash: recover to rebuild it");
  if (store >= node_->num_stores()) {
    return Status::InvalidArgument("no store " + std::to_string(store) + ": the node has " + std::to_string(node_->num_stores()));
  }
  const fawnds::HashIndex& index = node_->store(store).index();
  if (count == 0 || count > 4096 || group == 0 || first > index.buckets() || count * group > index.buckets() - first) {
    return Status::InvalidArgument("index cells: 1 to 4096 cells of at least one bucket within the " +
                                   std::to_string(index.buckets()) + " buckets");
  }
  IndexCells c;
  c.index_bits = index.index_bits();
  c.first = first;
  c.group = group;
  c.valid.assign(count, 0);
  if (group == 1) {
    c.fragments.assign(count, 0);
    c.offsets.assign(count, 0);
  }
  for (uint64_t i = 0; i < count; ++i) {
    uint16_t v = 0;
    for (uint64_t b = first + i * group, e = b + group; b < e; ++b) {
      const fawnds::HashIndex::Bucket bk = index.Get(b);
      v = static_cast<uint16_t>(v + (bk.valid ? 1 : 0));
      if (group == 1) {
        c.fragments[i] = static_cast<uint16_t>(bk.fragment | (bk.valid ? 0x8000 : 0));
        c.offsets[i] = bk.offset;
      }
    }
    c.valid[i] = v;
  }
  return c;
}

StatusOr<ColumnSet> FawndsSession::View(const std::string& name, const ParamValues& a) {
  const size_t store = static_cast<size_t>(a.Int("store"));
  ColumnSet c;
  if (name == "log") {
    auto log = Log(store);
    if (!log.ok()) return log.status();
    LogColumns& l = log.value();
    std::vector<double> counts(l.counts.begin(), l.counts.end());
    c.U32("offsets", std::move(l.offsets)).U8("flags", std::move(l.flags)).U32("keys", std::move(l.keys));
    c.Number("logEnd", static_cast<double>(l.log_end)).Numbers("counts", std::move(counts));
    return c;
  }
  auto cells = Index(store, static_cast<uint64_t>(a.Int("first")), static_cast<uint64_t>(a.Int("count")),
                     static_cast<uint64_t>(a.Int("group")));
  if (!cells.ok()) return cells.status();
  IndexCells& x = cells.value();
  c.Number("indexBits", x.index_bits).Number("first", static_cast<double>(x.first)).Number("group", static_cast<double>(x.group));
  c.U16("valid", std::move(x.valid)).U16("fragments", std::move(x.fragments)).U32("offsets", std::move(x.offsets));
  return c;
}

}  // namespace fawnlab::fawndslab
