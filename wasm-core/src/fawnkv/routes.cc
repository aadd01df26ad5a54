#include "fawnkv/routes.h"

#include <utility>

namespace fawnlab::fawnkv {

void Routes::Add(const KeyRange& range, std::shared_ptr<const ChainSpec> spec) {
  RouteEntry e;
  e.range = range;
  e.head = spec->chain.empty() ? kNobody : spec->chain.front();
  e.readers.assign(static_cast<size_t>(front_ends_), ReplierOf(*spec));
  e.spec = std::move(spec);
  entries_[range.end] = std::move(e);
}

RouteEntry* Routes::Find(const Key& key) {
  if (entries_.empty()) return nullptr;
  auto it = entries_.lower_bound(key);
  if (it == entries_.end()) it = entries_.begin();
  return it->second.range.Contains(key) ? &it->second : nullptr;
}

namespace {
// Splits the entry holding `k` so that an entry ends at k.
void Cut(std::map<Key, RouteEntry>& entries, const Key& k) {
  if (entries.count(k)) return;
  auto it = entries.lower_bound(k);
  if (it == entries.end()) it = entries.begin();
  RouteEntry parent = it->second;
  entries.erase(it);
  RouteEntry a = parent, b = parent;
  a.range = KeyRange{parent.range.start, k};
  b.range = KeyRange{k, parent.range.end};
  entries[a.range.end] = std::move(a);
  entries[b.range.end] = std::move(b);
}
}  // namespace

std::vector<RouteEntry*> Routes::Cover(const KeyRange& r) {
  std::vector<RouteEntry*> v;
  if (entries_.empty()) return v;
  Cut(entries_, r.start);
  Cut(entries_, r.end);
  auto it = entries_.upper_bound(r.start);
  for (size_t n = 0; n < entries_.size(); ++n) {
    if (it == entries_.end()) it = entries_.begin();
    v.push_back(&it->second);
    if (it->first == r.end) break;
    ++it;
  }
  return v;
}

std::vector<RouteEntry*> Routes::All() {
  std::vector<RouteEntry*> v;
  for (auto& [end, e] : entries_) v.push_back(&e);
  return v;
}

}  // namespace fawnlab::fawnkv
