#include "stores/btree_kv.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "btree/page.h"
#include "cona/costs.h"

namespace fawnlab::stores {
namespace {

constexpr char kLive = 0, kTombstone = 1;
constexpr double kLeafFill = 0.69;  // Yao (1978): a B-tree's mean fill under random inserts, ln 2

// Binary-search steps over n entries: the bit width of n.
int Steps(uint64_t n) {
  int s = 0;
  while (n > 0) {
    ++s;
    n >>= 1;
  }
  return s;
}

btree::Key ToKey(std::string_view k) {
  btree::Key key;
  std::memcpy(key.bytes.data(), k.data(), 20);
  return key;
}

std::string FromKey(const btree::Key& k) { return std::string(reinterpret_cast<const char*>(k.bytes.data()), 20); }

}  // namespace

BTreeCosts BTreeI7Costs() {
  const cona::HostCosts& c = cona::I7_3610QM();
  return BTreeCosts{c.op_base_ns, c.cell_probe_ns, c.key_compare_ns, c.insert_move_ns_per_byte, c.induce_copy_ns_per_byte};
}

uint64_t BTreeKv::FileBytes(uint64_t entries, uint32_t value_bytes, uint32_t page_bytes) {
  const uint64_t usable = page_bytes - btree::kPageHeader;
  const uint64_t entry = btree::kLeafEntryOverhead + 1 + value_bytes;
  const uint64_t leaves = (entries * entry + usable / 2 - 1) / (usable / 2) + 1;  // each at least half full
  const uint64_t fanout = usable / 2 / btree::kInternalEntryBytes;               // internal pages, half full
  uint64_t internals = 0;
  for (uint64_t level = leaves; level > 1; level = (level + fanout - 1) / fanout) internals += (level + fanout - 1) / fanout;
  const uint64_t pages = 1 + leaves + internals + 16;  // the meta page; a put's new pages (height + 1)
  return pages * page_bytes;
}

BTreeKv::BTreeKv(device::Device* dev, BTreeKvOptions o)
    : dev_(dev), sim_(dev->sim()), o_(o), c_(BTreeI7Costs()), alive_(std::make_shared<bool>(true)) {
  fg_free_at_ = sim_->now();
  sink_.resize(o.page_bytes);
}

BTreeKv::~BTreeKv() { *alive_ = false; }

StatusOr<std::unique_ptr<BTreeKv>> BTreeKv::Create(device::Device* dev, BTreeKvOptions o) {
  if (!(o.cpu_scale > 0)) return Status::InvalidArgument("btree: cpu_scale must be above 0");
  if (o.key_bytes != 20) return Status::InvalidArgument("btree: keys are 160 bits (key_bytes 20)");
  if (o.pool_pages < 8) return Status::InvalidArgument("btree: pool_pages must be at least 8");
  if (btree::ValidPageBytes(o.page_bytes) && o.max_value_bytes + 1 > btree::MaxValueBytes(o.page_bytes)) {
    return Status::InvalidArgument("btree: values of " + std::to_string(o.max_value_bytes) + " bytes do not fit " +
                                   std::to_string(o.page_bytes) + "-byte pages");
  }
  std::unique_ptr<BTreeKv> kv(new BTreeKv(dev, o));
  kv->read_at_create_ = dev->counters().host_read_bytes;
  kv->written_at_create_ = dev->counters().host_write_bytes;
  kv->rec_ = std::make_unique<PageIoRecorder>(dev);
  btree::BTreeOptions bo;
  bo.page_bytes = o.page_bytes;
  bo.pool_pages = o.pool_pages;
  bo.region_offset = o.region_offset;
  bo.region_bytes = o.region_bytes;
  bo.stream = o.stream;
  auto t = btree::BTree::Create(kv->rec_.get(), bo);
  if (!t.ok()) return t.status();
  kv->tree_ = std::move(t).value();
  kv->Enqueue(Job{});  // the empty root and the meta page, written and flushed
  return kv;
}

Status BTreeKv::CheckKey(std::string_view key) const {
  if (key.size() != o_.key_bytes) {
    return Status::InvalidArgument("btree: a key must be " + std::to_string(o_.key_bytes) + " bytes, not " +
                                   std::to_string(key.size()));
  }
  return Status::Ok();
}

uint64_t BTreeKv::Splits() const {
  const btree::BTreeStats& s = tree_->stats();
  return s.leaf_splits + s.internal_splits;
}

sim::SimDuration BTreeKv::CostOf(const std::vector<RecordedIo>& ios, uint64_t splits, double moved,
                                 uint64_t copied) const {
  const double usable = o_.page_bytes - btree::kPageHeader;
  const auto leaf_n = static_cast<uint64_t>(kLeafFill * usable / (btree::kLeafEntryOverhead + 1 + o_.max_value_bytes));
  const auto internal_n = static_cast<uint64_t>(kLeafFill * usable / btree::kInternalEntryBytes);
  const uint32_t height = tree_->meta().height;
  double ns = c_.dispatch_ns + height * c_.page_visit_ns +
              ((height - 1) * Steps(internal_n) + Steps(leaf_n)) * c_.key_compare_ns;
  ns += (moved + static_cast<double>(splits) * o_.page_bytes / 2) * c_.move_ns_per_byte;
  uint64_t pages = 0;
  for (const RecordedIo& io : ios) pages += (io.op == device::IoOp::kRead || io.op == device::IoOp::kWrite) ? 1 : 0;
  ns += static_cast<double>(pages * o_.page_bytes + copied) * c_.copy_ns_per_byte;
  return static_cast<sim::SimDuration>(ns * o_.cpu_scale + 0.5);
}

Status BTreeKv::Put(std::string_view key, std::string_view value, Done done) {
  Status st = CheckKey(key);
  if (!st.ok()) return st;
  if (value.size() > o_.max_value_bytes) {
    return Status::InvalidArgument("btree: a value of " + std::to_string(value.size()) + " bytes is over the " +
                                   std::to_string(o_.max_value_bytes) + "-byte maximum");
  }
  std::string tagged(1, kLive);
  tagged.append(value);
  const uint64_t splits = Splits();
  st = tree_->Put(ToKey(key), tagged);
  Job j;
  j.ios = rec_->Take();
  if (!st.ok()) {
    Enqueue(std::move(j));  // whatever I/O it did (evictions) still happens; no callback
    return st;
  }
  j.kind = Kind::kPut;
  j.cpu = CostOf(j.ios, Splits() - splits, kLeafFill * (o_.page_bytes - btree::kPageHeader) / 2, value.size());
  j.user_bytes = key.size() + value.size();
  j.done = std::move(done);
  Enqueue(std::move(j));
  return Status::Ok();
}

Status BTreeKv::Delete(std::string_view key, Done done) {
  Status st = CheckKey(key);
  if (!st.ok()) return st;
  const uint64_t splits = Splits();
  auto got = tree_->Get(ToKey(key));
  if (got.ok() && !got.value().empty() && got.value()[0] == kLive) st = tree_->Put(ToKey(key), std::string(1, kTombstone));
  else if (!got.ok() && got.status().code() != StatusCode::kNotFound) st = got.status();
  Job j;  // a refused operation's I/O still runs, as a job of no operation (kSetup)
  j.ios = rec_->Take();
  if (!st.ok()) {
    Enqueue(std::move(j));
    return st;
  }
  j.kind = Kind::kDelete;
  j.cpu = CostOf(j.ios, Splits() - splits, kLeafFill * (o_.page_bytes - btree::kPageHeader) / 2, 0);
  j.user_bytes = key.size();
  j.done = std::move(done);
  Enqueue(std::move(j));
  return Status::Ok();
}

Status BTreeKv::Get(std::string_view key, GetDone done) {
  Status st = CheckKey(key);
  if (!st.ok()) return st;
  auto got = tree_->Get(ToKey(key));
  Job j;  // a refused operation's I/O still runs, as a job of no operation (kSetup)
  j.ios = rec_->Take();
  if (!got.ok() && got.status().code() != StatusCode::kNotFound) {
    Enqueue(std::move(j));
    return got.status();
  }
  j.kind = Kind::kGet;
  if (got.ok() && !got.value().empty() && got.value()[0] == kLive) {
    j.value = got.value().substr(1);
  } else {
    j.status = Status::NotFound("btree: the key is not in the tree");
  }
  j.cpu = CostOf(j.ios, 0, 0, j.value.size());
  j.get_done = std::move(done);
  Enqueue(std::move(j));
  return Status::Ok();
}

StatusOr<std::vector<std::pair<std::string, std::string>>> BTreeKv::ScanTree(const btree::Key& start, int count) {
  std::vector<std::pair<std::string, std::string>> out;
  btree::BufferPool& pool = tree_->pool();
  uint32_t page = tree_->meta().root;
  for (;;) {  // down to the leaf that holds `start`
    auto n = pool.Fetch(page);
    if (!n.ok()) return n.status();
    const btree::Node* node = n.value();
    if (node->leaf()) break;
    const auto child = static_cast<size_t>(std::upper_bound(node->keys.begin(), node->keys.end(), start) - node->keys.begin());
    const uint32_t next = node->children[child];
    pool.Unpin(page, false);
    page = next;
  }
  bool first = true;
  while (page != 0 && static_cast<int>(out.size()) < count) {  // along the leaf chain
    if (!first) {
      auto n = pool.Fetch(page);
      if (!n.ok()) return n.status();
    }
    first = false;
    const btree::Node* node = pool.Cached(page);
    auto it = std::lower_bound(node->keys.begin(), node->keys.end(), start);
    for (auto i = static_cast<size_t>(it - node->keys.begin()); i < node->keys.size() && static_cast<int>(out.size()) < count; ++i) {
      const std::string& v = node->values[i];
      if (!v.empty() && v[0] == kLive) out.emplace_back(FromKey(node->keys[i]), v.substr(1));
    }
    const uint32_t next = node->next;
    pool.Unpin(page, false);
    page = next;
  }
  return out;
}

Status BTreeKv::Scan(std::string_view start, int count, ScanDone done) {
  Status st = CheckKey(start);
  if (!st.ok()) return st;
  if (count < 1) return Status::InvalidArgument("btree: a scan's count must be at least 1");
  auto got = ScanTree(ToKey(start), count);
  Job j;  // a refused operation's I/O still runs, as a job of no operation (kSetup)
  j.ios = rec_->Take();
  if (!got.ok()) {
    Enqueue(std::move(j));
    return got.status();
  }
  j.kind = Kind::kScan;
  uint64_t copied = 0;
  for (const auto& e : got.value()) copied += e.first.size() + e.second.size();
  j.entries = std::move(got).value();
  j.cpu = CostOf(j.ios, 0, 0, copied);
  j.scan_done = std::move(done);
  Enqueue(std::move(j));
  return Status::Ok();
}

Status BTreeKv::Sync(Done done) {
  Status st = tree_->Sync();
  Job j;  // a refused operation's I/O still runs, as a job of no operation (kSetup)
  j.ios = rec_->Take();
  if (!st.ok()) {
    Enqueue(std::move(j));
    return st;
  }
  j.kind = Kind::kSync;
  j.cpu = static_cast<sim::SimDuration>(c_.dispatch_ns * o_.cpu_scale + 0.5);
  j.done = std::move(done);
  Enqueue(std::move(j));
  return Status::Ok();
}

void BTreeKv::Enqueue(Job job) {
  queue_.push_back(std::move(job));
  Pump();
}

void BTreeKv::Pump() {
  if (busy_ || queue_.empty()) return;
  cur_ = std::move(queue_.front());
  queue_.pop_front();
  busy_ = true;
  cur_.start = std::max(sim_->now(), fg_free_at_);
  const sim::SimTime t = cur_.start + cur_.cpu;
  fg_free_at_ = t;
  k_.foreground_cpu_ns += cur_.cpu;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [this, alive] {
    if (auto a = alive.lock(); a && *a) RunIo(0);
  });
}

void BTreeKv::RunIo(size_t i) {
  if (i == cur_.ios.size()) {
    Finish();
    return;
  }
  const RecordedIo& io = cur_.ios[i];
  device::IoEntry e;
  switch (io.op) {
    case device::IoOp::kRead:
      if (sink_.size() < io.length) sink_.resize(io.length);
      e = device::IoEntry::Read(io.offset, io.length, sink_.data());
      if (cur_.kind == Kind::kGet) ++k_.lookup_reads;
      break;
    case device::IoOp::kWrite:
      e = device::IoEntry::Write(io.offset, io.length, io.data->data());
      break;
    case device::IoOp::kFlush:
      e = device::IoEntry::Flush();
      break;
    case device::IoOp::kTrim:
      e = device::IoEntry::Trim(io.offset, io.length);
      break;
    case device::IoOp::kErase:
      e = device::IoEntry::Erase(io.offset, io.length);
      break;
  }
  std::weak_ptr<bool> alive = alive_;
  Status st = dev_->Submit(device::IoCommand::Single(e, o_.stream), [this, alive, i](const device::IoCompletion&) {
    if (auto a = alive.lock(); a && *a) RunIo(i + 1);
  });
  if (io.op == device::IoOp::kWrite) rec_->Sent(io);  // the real device holds its bytes now
  if (!st.ok()) {
    cur_.status = st;
    Finish();
  }
}

void BTreeKv::Finish() {
  Job j = std::move(cur_);
  const sim::SimDuration took = sim_->now() - j.start;
  switch (j.kind) {
    case Kind::kPut:
      ++k_.puts;
      k_.write_ns += took;
      break;
    case Kind::kDelete:
      ++k_.deletes;
      k_.write_ns += took;
      break;
    case Kind::kGet:
      ++k_.gets;
      (j.status.ok() ? k_.hits : k_.misses) += 1;
      k_.read_ns += took;
      break;
    case Kind::kScan:
      ++k_.scans;
      k_.read_ns += took;
      break;
    case Kind::kSetup:
    case Kind::kSync:
      break;
  }
  k_.user_bytes += j.user_bytes;
  busy_ = false;
  if (j.get_done) j.get_done(j.status, std::move(j.value));
  else if (j.scan_done) j.scan_done(j.status, std::move(j.entries));
  else if (j.done) j.done(j.status);
  Pump();
}

uint64_t BTreeKv::dram_bytes() const { return uint64_t{tree_->pool().size()} * o_.page_bytes; }

kv::KvCounters BTreeKv::counters() const {
  kv::KvCounters c = k_;
  c.store_bytes_written = dev_->counters().host_write_bytes - written_at_create_;
  c.store_bytes_read = dev_->counters().host_read_bytes - read_at_create_;
  return c;
}

void BTreeKv::DescribeJson(JsonWriter* w) const {
  const btree::BTreeStats& s = tree_->stats();
  w->BeginObject();
  w->Key("type");
  w->String("btree");
  w->Key("height");
  w->Int(tree_->meta().height);
  w->Key("leaves");
  w->Int(static_cast<int64_t>(1 + s.leaf_splits));
  w->Key("internals");
  w->Int(static_cast<int64_t>(s.internal_splits + s.root_splits));
  w->Key("pool_pages");
  w->Int(static_cast<int64_t>(tree_->pool().capacity()));
  w->Key("pool_dirty");
  w->Int(static_cast<int64_t>(tree_->pool().dirty_pages()));
  w->EndObject();
}

}  // namespace fawnlab::stores
