#include "btree/btree.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace fawnlab::btree {

using device::IoCommand;
using device::IoEntry;

namespace {
constexpr uint32_t kMinPoolPages = 8;
}

BTree::BTree(device::Device* dev, BTreeOptions o)
    : dev_(dev), o_(o), pool_(dev, o.region_offset, o.page_bytes, o.pool_pages, o.stream) {
  meta_.page_bytes = o.page_bytes;
}

Status BTree::Validate(device::Device* dev, BTreeOptions* o) {
  if (!ValidPageBytes(o->page_bytes)) {
    return Status::InvalidArgument("btree: page_bytes " + std::to_string(o->page_bytes) +
                                   " must be a power of two from 512 to 65536");
  }
  if (o->pool_pages < kMinPoolPages) {
    return Status::InvalidArgument("btree: pool_pages " + std::to_string(o->pool_pages) + " is below the minimum of " +
                                   std::to_string(kMinPoolPages));
  }
  const uint64_t cap = dev->info().capacity_bytes;
  if (o->region_offset % o->page_bytes != 0 || o->region_offset >= cap) {
    return Status::InvalidArgument("btree: region_offset must be a multiple of the page size within the device");
  }
  if (o->region_bytes == 0) o->region_bytes = cap - o->region_offset;
  if (o->region_bytes > cap - o->region_offset) return Status::InvalidArgument("btree: the region lies beyond the device");
  if (o->region_bytes / o->page_bytes < 2) return Status::InvalidArgument("btree: the region holds fewer than two pages");
  if (o->region_bytes / o->page_bytes > UINT32_MAX) {
    return Status::InvalidArgument("btree: the region holds more pages than 32-bit page numbers address");
  }
  if (o->cpu_ns_per_op < 0) return Status::InvalidArgument("btree: cpu_ns_per_op must not be negative");
  return Status::Ok();
}

StatusOr<std::unique_ptr<BTree>> BTree::Create(device::Device* dev, BTreeOptions o) {
  Status s = Validate(dev, &o);
  if (!s.ok()) return s;
  std::unique_ptr<BTree> t(new BTree(dev, o));
  auto root = t->pool_.Fresh(1);
  if (!root.ok()) return root.status();
  root.value()->type = PageType::kLeaf;
  t->pool_.Unpin(1, true);
  s = t->Sync();
  if (!s.ok()) return s;
  return t;
}

StatusOr<std::unique_ptr<BTree>> BTree::Open(device::Device* dev, BTreeOptions o) {
  Status s = Validate(dev, &o);
  if (!s.ok()) return s;
  std::vector<uint8_t> buf(o.page_bytes);
  auto r = device::SubmitAndWait(dev, IoCommand::Single(IoEntry::Read(o.region_offset, o.page_bytes, buf.data()), o.stream));
  if (!r.ok()) return r.status();
  std::unique_ptr<BTree> t(new BTree(dev, o));
  s = DecodeMeta(buf.data(), o.page_bytes, o.page_bytes, &t->meta_);
  if (!s.ok()) return s;
  if (t->meta_.pages > t->max_pages()) {
    return Status::Corruption("btree: page 0: the meta page counts " + std::to_string(t->meta_.pages) +
                              " pages; the region holds " + std::to_string(t->max_pages()));
  }
  return t;
}

void BTree::ChargeCpu() {
  if (o_.cpu_ns_per_op > 0) dev_->sim()->RunUntil(dev_->sim()->now() + o_.cpu_ns_per_op);
}

Status BTree::WriteMeta() {
  std::vector<uint8_t> buf(o_.page_bytes);
  EncodeMeta(meta_, buf.data());
  auto w = device::SubmitAndWait(dev_, IoCommand::Single(IoEntry::Write(o_.region_offset, o_.page_bytes, buf.data()), o_.stream));
  return w.ok() ? Status::Ok() : w.status();
}

Status BTree::Sync() {
  Status s = pool_.WriteDirty();
  if (!s.ok()) return s;
  ++meta_.sync_seq;
  s = WriteMeta();
  if (!s.ok()) return s;
  auto f = device::SubmitAndWait(dev_, IoCommand::Single(IoEntry::Flush(), o_.stream));
  return f.ok() ? Status::Ok() : f.status();
}

Status BTree::Put(const Key& key, std::string_view value) {
  if (value.size() > MaxValueBytes(o_.page_bytes)) {
    return Status::InvalidArgument("btree: a value of " + std::to_string(value.size()) + " bytes exceeds the " +
                                   std::to_string(MaxValueBytes(o_.page_bytes)) + " a " + std::to_string(o_.page_bytes) +
                                   "-byte page accepts");
  }
  // A put splits at most one page per level and adds a root.
  if (uint64_t{meta_.pages} + meta_.height + 1 > max_pages()) {
    return Status::ResourceExhausted("btree: the region's " + std::to_string(max_pages()) + " pages are full");
  }
  ChargeCpu();
  std::vector<Node*> path;
  std::vector<size_t> idx;
  auto release = [&](bool dirty) {
    for (Node* n : path) pool_.Unpin(n->page, dirty);
  };
  uint32_t page = meta_.root;
  size_t child = 0;
  for (;;) {
    auto n = pool_.Fetch(page);
    if (!n.ok()) {
      release(false);
      return n.status();
    }
    path.push_back(n.value());
    idx.push_back(child);
    Node* node = n.value();
    if (node->leaf()) break;
    child = static_cast<size_t>(std::upper_bound(node->keys.begin(), node->keys.end(), key) - node->keys.begin());
    page = node->children[child];
  }
  Node* leaf = path.back();
  auto it = std::lower_bound(leaf->keys.begin(), leaf->keys.end(), key);
  const size_t pos = static_cast<size_t>(it - leaf->keys.begin());
  ++stats_.puts;
  if (it != leaf->keys.end() && *it == key) {
    leaf->bytes = leaf->bytes - static_cast<uint32_t>(leaf->values[pos].size()) + static_cast<uint32_t>(value.size());
    leaf->values[pos].assign(value.data(), value.size());
    ++stats_.updates;
  } else {
    leaf->keys.insert(it, key);
    leaf->values.insert(leaf->values.begin() + static_cast<std::ptrdiff_t>(pos), std::string(value));
    leaf->bytes += kLeafEntryOverhead + static_cast<uint32_t>(value.size());
    ++stats_.inserts;
    ++meta_.entries;
  }
  std::vector<bool> dirty(path.size(), false);
  dirty.back() = true;
  Status s = leaf->bytes > o_.page_bytes ? SplitUp(path, idx, &dirty) : Status::Ok();
  for (size_t d = 0; d < path.size(); ++d) pool_.Unpin(path[d]->page, dirty[d]);
  return s;
}

Status BTree::SplitUp(const std::vector<Node*>& path, const std::vector<size_t>& idx, std::vector<bool>* dirty) {
  for (size_t d = path.size(); d-- > 0;) {
    Node* left = path[d];
    if (left->bytes <= o_.page_bytes) return Status::Ok();
    const uint32_t rp = meta_.pages++;
    auto fresh = pool_.Fresh(rp);
    if (!fresh.ok()) return fresh.status();
    Node* right = fresh.value();
    right->type = left->type;
    right->level = left->level;
    Key sep;
    if (left->leaf()) {
      // The split point that leaves the larger half smallest (the byte midpoint).
      const uint32_t total = left->bytes - kPageHeader;
      uint32_t acc = 0, best_worst = UINT32_MAX;
      size_t split = 1;
      for (size_t i = 0; i + 1 < left->keys.size(); ++i) {
        acc += kLeafEntryOverhead + static_cast<uint32_t>(left->values[i].size());
        const uint32_t worst = std::max(acc, total - acc);
        if (worst < best_worst) {
          best_worst = worst;
          split = i + 1;
        }
      }
      const auto s = static_cast<std::ptrdiff_t>(split);
      right->keys.assign(left->keys.begin() + s, left->keys.end());
      right->values.assign(std::make_move_iterator(left->values.begin() + s), std::make_move_iterator(left->values.end()));
      left->keys.resize(split);
      left->values.resize(split);
      right->next = left->next;
      left->next = rp;
      sep = right->keys.front();
      ++stats_.leaf_splits;
    } else {
      const size_t m = left->keys.size() / 2;
      const auto sm = static_cast<std::ptrdiff_t>(m);
      sep = left->keys[m];
      right->keys.assign(left->keys.begin() + sm + 1, left->keys.end());
      right->children.assign(left->children.begin() + sm + 1, left->children.end());
      left->keys.resize(m);
      left->children.resize(m + 1);
      ++stats_.internal_splits;
    }
    left->Measure();
    right->Measure();
    pool_.Unpin(rp, true);
    (*dirty)[d] = true;
    if (d == 0) {
      const uint32_t rootp = meta_.pages++;
      auto r = pool_.Fresh(rootp);
      if (!r.ok()) return r.status();
      Node* root = r.value();
      root->type = PageType::kInternal;
      root->level = static_cast<uint8_t>(left->level + 1);
      root->keys = {sep};
      root->children = {left->page, rp};
      root->Measure();
      pool_.Unpin(rootp, true);
      meta_.root = rootp;
      ++meta_.height;
      ++stats_.root_splits;
      return Status::Ok();
    }
    Node* parent = path[d - 1];
    const auto at = static_cast<std::ptrdiff_t>(idx[d]);
    parent->keys.insert(parent->keys.begin() + at, sep);
    parent->children.insert(parent->children.begin() + at + 1, rp);
    parent->bytes += kInternalEntryBytes;
    (*dirty)[d - 1] = true;
  }
  return Status::Ok();
}

StatusOr<std::string> BTree::Get(const Key& key) {
  ChargeCpu();
  ++stats_.gets;
  uint32_t page = meta_.root;
  for (;;) {
    auto n = pool_.Fetch(page);
    if (!n.ok()) return n.status();
    const Node* node = n.value();
    if (node->leaf()) {
      auto it = std::lower_bound(node->keys.begin(), node->keys.end(), key);
      if (it == node->keys.end() || *it != key) {
        pool_.Unpin(page, false);
        return Status::NotFound("btree: key " + key.Hex() + " is not in the tree");
      }
      std::string v = node->values[static_cast<size_t>(it - node->keys.begin())];
      pool_.Unpin(page, false);
      ++stats_.found;
      return v;
    }
    const size_t child =
        static_cast<size_t>(std::upper_bound(node->keys.begin(), node->keys.end(), key) - node->keys.begin());
    const uint32_t next = node->children[child];
    pool_.Unpin(page, false);
    page = next;
  }
}

StatusOr<TreeShape> BTree::Check() const {
  TreeShape shape;
  shape.height = meta_.height;
  std::vector<uint32_t> leaves;
  std::vector<uint8_t> seen(meta_.pages, 0);
  Status s = CheckNode(meta_.root, 0, nullptr, nullptr, &leaves, &shape, &seen);
  if (!s.ok()) return s;
  // The leaf chain links the leaves in key order.
  for (size_t i = 0; i < leaves.size(); ++i) {
    const Node* n = pool_.Cached(leaves[i]);
    Node tmp;
    if (!n) {
      std::vector<uint8_t> buf(o_.page_bytes);
      dev_->Peek(pool_.PageOffset(leaves[i]), o_.page_bytes, buf.data());
      Status d = DecodeNode(buf.data(), o_.page_bytes, leaves[i], &tmp);
      if (!d.ok()) return d;
      n = &tmp;
    }
    const uint32_t want = i + 1 < leaves.size() ? leaves[i + 1] : 0;
    if (n->next != want) {
      return Status::Corruption("btree: page " + std::to_string(leaves[i]) + ": right sibling " +
                                std::to_string(n->next) + ", expected " + std::to_string(want));
    }
  }
  if (shape.entries != meta_.entries) {
    return Status::Corruption("btree: the leaves hold " + std::to_string(shape.entries) + " entries; the meta page counts " +
                              std::to_string(meta_.entries));
  }
  if (shape.leaves > 0) shape.mean_leaf_fill /= static_cast<double>(shape.leaves);
  if (shape.leaves == 1) shape.min_leaf_fill = 1;
  return shape;
}

Status BTree::CheckNode(uint32_t page, uint32_t depth, const Key* lo, const Key* hi, std::vector<uint32_t>* leaves,
                        TreeShape* shape, std::vector<uint8_t>* seen) const {
  auto bad = [page](const std::string& what) {
    return Status::Corruption("btree: page " + std::to_string(page) + ": " + what);
  };
  if (page == 0 || page >= meta_.pages) return bad("page number out of range (the tree has " + std::to_string(meta_.pages) + ")");
  if ((*seen)[page]) return bad("reached twice");
  (*seen)[page] = 1;
  const Node* n = pool_.Cached(page);
  Node tmp;
  if (!n) {
    std::vector<uint8_t> buf(o_.page_bytes);
    dev_->Peek(pool_.PageOffset(page), o_.page_bytes, buf.data());
    Status d = DecodeNode(buf.data(), o_.page_bytes, page, &tmp);
    if (!d.ok()) return d;
    n = &tmp;
  }
  if (n->level + depth + 1 != meta_.height) {
    return bad("level " + std::to_string(n->level) + " at depth " + std::to_string(depth) + " of a tree of height " +
               std::to_string(meta_.height) + " (leaves at different depths)");
  }
  Node measured = *n;
  measured.Measure();
  if (measured.bytes != n->bytes || n->bytes > o_.page_bytes) return bad("encoded size wrong or over a page");
  for (size_t i = 0; i < n->keys.size(); ++i) {
    if (i > 0 && !(n->keys[i - 1] < n->keys[i])) return bad("keys out of order");
    if ((lo && n->keys[i] < *lo) || (hi && !(n->keys[i] < *hi))) return bad("a key outside its parent's separators");
  }
  const bool root = depth == 0;
  if (n->leaf()) {
    if (n->values.size() != n->keys.size()) return bad("values and keys differ in number");
    if (!root && n->keys.empty()) return bad("an empty non-root leaf");
    leaves->push_back(page);
    ++shape->leaves;
    shape->entries += n->keys.size();
    const double fill = static_cast<double>(n->bytes - kPageHeader) / static_cast<double>(o_.page_bytes - kPageHeader);
    shape->mean_leaf_fill += fill;
    if (!root && (shape->min_leaf_fill == 0 || fill < shape->min_leaf_fill)) shape->min_leaf_fill = fill;
    return Status::Ok();
  }
  if (n->keys.empty() || n->children.size() != n->keys.size() + 1) return bad("child count is not keys + 1");
  ++shape->internals;
  for (size_t i = 0; i < n->children.size(); ++i) {
    const Key* clo = i == 0 ? lo : &n->keys[i - 1];
    const Key* chi = i == n->keys.size() ? hi : &n->keys[i];
    Status s = CheckNode(n->children[i], depth + 1, clo, chi, leaves, shape, seen);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace fawnlab::btree
