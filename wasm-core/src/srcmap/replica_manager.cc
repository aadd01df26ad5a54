#include "srcmap/replica_manager.h"

#include <algorithm>
#include <cassert>

namespace fawnlab::srcmap {
namespace {
constexpr int kEvictScan = 4096;  // the eviction looks at this many least recently used extents
}

ReplicaManager::ReplicaManager(std::vector<uint64_t> volume_bytes, uint32_t extent_bytes, int n_sv)
    : volume_bytes_(std::move(volume_bytes)), extent_bytes_(extent_bytes), n_sv_(std::max(1, n_sv)) {
  for (uint64_t b : volume_bytes_) extents_.push_back(std::max<uint64_t>(1, b / extent_bytes_));
  live_.assign(static_cast<size_t>(num_units()), -1);
  reps_of_unit_.resize(static_cast<size_t>(num_units()));
  vers_.resize(volume_bytes_.size());
  recent_.resize(static_cast<size_t>(num_units()));
}

int ReplicaManager::UnitOf(int v, uint64_t extent) const {
  if (n_sv_ == 1) return v;
  uint64_t s = extent * static_cast<uint64_t>(n_sv_) / extents_[static_cast<size_t>(v)];
  return v * n_sv_ + static_cast<int>(std::min<uint64_t>(s, static_cast<uint64_t>(n_sv_ - 1)));
}

int ReplicaManager::AddReplica(int unit, int disk, uint64_t base, uint64_t capacity,
                               const std::vector<uint64_t>& initial, bool full) {
  Replica r;
  r.unit = unit;
  r.disk = disk;
  r.base = base;
  r.full = full;
  r.capacity = full ? 0 : capacity;
  if (!full) {
    r.ext.assign(capacity, 0);
    r.ver.assign(capacity, 0);
    r.prev.assign(capacity, kNil);
    r.next.assign(capacity, kNil);
    for (uint64_t s = capacity; s > 0; --s) r.free.push_back(static_cast<uint32_t>(s - 1));
  }
  reps_.push_back(std::move(r));
  int id = static_cast<int>(reps_.size() - 1);
  reps_of_unit_[static_cast<size_t>(unit)].push_back(id);
  Replica& x = reps_.back();
  int v = VdiskOf(unit);
  for (uint64_t e : initial) {
    if (!full && x.free.empty()) break;
    Put(x, v, e, PrimaryVersion(v, e));
  }
  return id;
}

int ReplicaManager::ReplicaOn(int unit, int disk) const {
  for (int r : reps_of_unit_[static_cast<size_t>(unit)]) {
    if (reps_[static_cast<size_t>(r)].disk == disk) return r;
  }
  return -1;
}

size_t ReplicaManager::held(int r) const {
  const Replica& x = reps_[static_cast<size_t>(r)];
  return x.full ? static_cast<size_t>(extents_[static_cast<size_t>(VdiskOf(x.unit))]) : x.slot_of.size();
}

size_t ReplicaManager::DirtyExtents(int v) const {
  size_t n = 0;
  vers_[static_cast<size_t>(v)].ForEach([&](uint64_t, const Versions& x) { n += x.latest > x.primary ? 1 : 0; });
  return n;
}

int64_t ReplicaManager::Held(const Replica& r, uint64_t e) const {
  if (r.full) return Get(r.full_ver, e);
  const uint32_t* s = r.slot_of.Find(e);
  return s ? static_cast<int64_t>(r.ver[*s]) : -1;
}

uint64_t ReplicaManager::SlotOffset(const Replica& r, uint64_t e) const {
  if (r.full) return r.base + e * extent_bytes_;
  return r.base + static_cast<uint64_t>(*r.slot_of.Find(e)) * extent_bytes_;
}

void ReplicaManager::Unlink(Replica& r, uint32_t s) {
  if (r.prev[s] != kNil) r.next[r.prev[s]] = r.next[s]; else r.head = r.next[s];
  if (r.next[s] != kNil) r.prev[r.next[s]] = r.prev[s]; else r.tail = r.prev[s];
  r.prev[s] = r.next[s] = kNil;
}

void ReplicaManager::PushFront(Replica& r, uint32_t s) {
  r.prev[s] = kNil;
  r.next[s] = r.head;
  if (r.head != kNil) r.prev[r.head] = s;
  r.head = s;
  if (r.tail == kNil) r.tail = s;
}

void ReplicaManager::Touch(Replica& r, uint32_t s) {
  if (r.head == s) return;
  Unlink(r, s);
  PushFront(r, s);
}

void ReplicaManager::Drop(Replica& r, uint64_t e) {
  if (r.full) {
    r.full_ver.Erase(e);
    return;
  }
  const uint32_t* p = r.slot_of.Find(e);
  if (!p) return;
  uint32_t s = *p;
  Unlink(r, s);
  r.slot_of.Erase(e);
  r.free.push_back(s);
}

bool ReplicaManager::Put(Replica& r, int v, uint64_t e, uint32_t ver) {
  if (r.full) {
    if (ver == 0) r.full_ver.Erase(e); else r.full_ver[e] = ver;
    return true;
  }
  if (const uint32_t* p = r.slot_of.Find(e)) {
    uint32_t s = *p;
    r.ver[s] = ver;
    Touch(r, s);
    return true;
  }
  if (r.free.empty()) {  // LRU: evict the least recently used clean extent
    uint32_t s = r.tail;
    for (int i = 0; s != kNil && i < kEvictScan; ++i, s = r.prev[s]) {
      if (r.ver[s] <= PrimaryVersion(v, r.ext[s])) break;
    }
    if (s == kNil || r.ver[s] > PrimaryVersion(v, r.ext[s])) return false;
    ++counters_.evictions;
    Drop(r, r.ext[s]);
  }
  if (r.free.empty()) return false;
  uint32_t s = r.free.back();
  r.free.pop_back();
  r.ext[s] = e;
  r.ver[s] = ver;
  r.slot_of[e] = s;
  PushFront(r, s);
  return true;
}

ReplicaManager::ReadResult ReplicaManager::Read(int v, uint64_t e, uint32_t inner, uint32_t bytes) {
  ReadResult out;
  int u = UnitOf(v, e);
  int l = live_[static_cast<size_t>(u)];
  uint32_t lat = Latest(v, e);
  if (l < 0) {
    out.serve = PrimaryIo(v, e, inner, bytes, false);
    out.version = PrimaryVersion(v, e);
    return out;
  }
  Replica& r = reps_[static_cast<size_t>(l)];
  if (Held(r, e) == static_cast<int64_t>(lat)) {
    out.serve = Io{r.disk, SlotOffset(r, e) + inner, bytes, false};
    if (!r.full) Touch(r, *r.slot_of.Find(e));
    out.version = lat;
    return out;
  }
  ++counters_.misses;  // a replica miss: the primary serves it, and the extent is learned
  out.miss = true;
  out.serve = PrimaryIo(v, e, inner, bytes, false);
  out.version = PrimaryVersion(v, e);
  if (Put(r, v, e, out.version)) {
    out.copy_in = true;
    out.copy = Io{r.disk, SlotOffset(r, e), extent_bytes_, true};
    ++counters_.copy_ins;
  }
  return out;
}

ReplicaManager::WriteResult ReplicaManager::Write(int v, uint64_t e, uint32_t inner, uint32_t bytes) {
  WriteResult out;
  int u = UnitOf(v, e);
  int l = live_[static_cast<size_t>(u)];
  Versions& x = vers_[static_cast<size_t>(v)][e];
  uint32_t lat = ++x.latest;
  out.version = lat;
  if (l >= 0) {
    Replica& r = reps_[static_cast<size_t>(l)];
    if (Put(r, v, e, lat)) {
      out.serve = Io{r.disk, SlotOffset(r, e) + inner, bytes, true};
      return out;
    }
    ++counters_.overflows;  // the replica is full of dirty extents: the write goes home
    out.overflow = true;
    Drop(r, e);
  } else if (!x.recent) {
    x.recent = true;
    recent_[static_cast<size_t>(u)].push_back(e);
  }
  vers_[static_cast<size_t>(v)][e].primary = lat;
  out.serve = PrimaryIo(v, e, inner, bytes, true);
  return out;
}

void ReplicaManager::Switch(int u, int to, std::vector<Io>* sync) {
  int from = live_[static_cast<size_t>(u)];
  if (to == from) return;
  int v = VdiskOf(u);
  auto copy = [&](const Io& src, const Io& dst) {
    sync->push_back(src);
    sync->push_back(dst);
    ++counters_.sync_copies;
  };
  // The old live replica's dirty extents (newer than the primary's).
  std::vector<std::pair<uint64_t, uint32_t>> dirty;
  if (from >= 0) {
    const Replica& r = reps_[static_cast<size_t>(from)];
    if (r.full) {
      r.full_ver.ForEach([&](uint64_t e, uint32_t ver) {
        if (ver > PrimaryVersion(v, e)) dirty.emplace_back(e, ver);
      });
    } else {
      r.slot_of.ForEach([&](uint64_t e, uint32_t slot) {
        if (r.ver[slot] > PrimaryVersion(v, e)) dirty.emplace_back(e, r.ver[slot]);
      });
    }
    std::sort(dirty.begin(), dirty.end());
  }
  auto from_io = [&](uint64_t e, bool write) {
    const Replica& r = reps_[static_cast<size_t>(from)];
    return Io{r.disk, SlotOffset(r, e), extent_bytes_, write};
  };
  if (to < 0) {
    for (const auto& [e, ver] : dirty) {
      copy(from_io(e, false), PrimaryIo(v, e, 0, extent_bytes_, true));
      vers_[static_cast<size_t>(v)][e].primary = ver;
    }
  } else {
    Replica& r2 = reps_[static_cast<size_t>(to)];
    if (from >= 0) {  // everything the old replica holds current goes over: dirty and learned
      dirty.clear();
      const Replica& r = reps_[static_cast<size_t>(from)];
      auto take = [&](uint64_t e, uint32_t ver) {
        if (ver == Latest(v, e)) dirty.emplace_back(e, ver);
      };
      if (r.full) {
        r.full_ver.ForEach(take);
      } else {
        r.slot_of.ForEach([&](uint64_t e, uint32_t slot) { take(e, r.ver[slot]); });
      }
      std::sort(dirty.begin(), dirty.end());
    }
    for (const auto& [e, ver] : dirty) {
      if (Held(r2, e) == static_cast<int64_t>(ver)) continue;
      bool is_dirty = ver > PrimaryVersion(v, e);
      Io src = from_io(e, false);
      if (Put(r2, v, e, ver)) {
        copy(src, Io{r2.disk, SlotOffset(r2, e), extent_bytes_, true});
      } else if (is_dirty) {
        copy(src, PrimaryIo(v, e, 0, extent_bytes_, true));
        vers_[static_cast<size_t>(v)][e].primary = ver;
      }
    }
    if (from < 0) {  // go-to-sync: what was written on the live primary joins the replica
      std::vector<uint64_t>& rec = recent_[static_cast<size_t>(u)];
      std::sort(rec.begin(), rec.end());
      for (uint64_t e : rec) {
        uint32_t lat = Latest(v, e);
        if (Held(r2, e) >= static_cast<int64_t>(lat) || !Put(r2, v, e, lat)) continue;
        copy(PrimaryIo(v, e, 0, extent_bytes_, false), Io{r2.disk, SlotOffset(r2, e), extent_bytes_, true});
      }
    }
    // Extents r2 holds at an older version than the latest.
    std::vector<uint64_t> stale;
    if (r2.full) {
      vers_[static_cast<size_t>(v)].ForEach([&](uint64_t e, const Versions& x) {
        if (UnitOf(v, e) == u && Held(r2, e) < static_cast<int64_t>(x.latest)) stale.push_back(e);
      });
    } else {
      r2.slot_of.ForEach([&](uint64_t e, uint32_t slot) {
        if (r2.ver[slot] < Latest(v, e)) stale.push_back(e);
      });
    }
    std::sort(stale.begin(), stale.end());
    for (uint64_t e : stale) {
      uint32_t lat = Latest(v, e);
      if (from < 0) {  // the primary was live, so it is spinning: refresh from it
        Put(r2, v, e, lat);
        copy(PrimaryIo(v, e, 0, extent_bytes_, false), Io{r2.disk, SlotOffset(r2, e), extent_bytes_, true});
      } else {  // the latest is on a spun-down primary: forget the old version
        Drop(r2, e);
        ++counters_.dropped;
      }
    }
  }
  if (from < 0) {  // the unit leaves its primary: start a new list of primary writes
    for (uint64_t e : recent_[static_cast<size_t>(u)]) vers_[static_cast<size_t>(v)][e].recent = false;
    recent_[static_cast<size_t>(u)].clear();
  }
  live_[static_cast<size_t>(u)] = to;
}

std::string ReplicaManager::CheckConsistent() const {
  std::string err;
  for (int v = 0; v < num_volumes() && err.empty(); ++v) {
    vers_[static_cast<size_t>(v)].ForEach([&](uint64_t e, const Versions& x) {
      if (!err.empty()) return;
      uint32_t lat = x.latest, p = x.primary;
      int l = live_[static_cast<size_t>(UnitOf(v, e))];
      std::string where = "volume " + std::to_string(v) + " extent " + std::to_string(e);
      if (p > lat) {
        err = where + ": primary ahead of latest";
        return;
      }
      int64_t h = l < 0 ? -1 : Held(reps_[static_cast<size_t>(l)], e);
      if (h == static_cast<int64_t>(lat)) return;
      if (h > static_cast<int64_t>(lat)) err = where + ": replica ahead of latest";
      else if (p != lat) {
        err = where + ": latest version " + std::to_string(lat) + " is on neither the live copy (" + std::to_string(h) +
              ") nor the primary (" + std::to_string(p) + ")";
      }
    });
  }
  return err;
}

}  // namespace fawnlab::srcmap
