// The replica manager and consistency manager of SRCMap (thesis §3.5.4-3.5.5, §3.6.3): for
// every unit (a vdisk, or one of its N_SV sub-volumes, split by extent range), which copy is
// live (the primary or exactly one replica, L385), what each copy holds, and the I/O each read,
// write and remap costs.
//
// Data is tracked as versions per extent (the tracking unit): every write makes a new version of
// its extent; the primary starts with version 0 of everything. A replica holds some extents
// (its working set, read-miss copies, off-loaded writes) with their versions in LRU order; an
// extent is dirty there when its version is newer than the primary's.
//  - Read: served by the live copy if it holds the latest version; otherwise a replica miss:
//    the primary serves it (the driver spins the primary up) and the extent is copied into the
//    live replica (§3.5.5, "learn the working set"), evicting the least recently used clean
//    extent when full.
//  - Write: to the live copy. A replica full of dirty extents cannot take another: the write
//    goes to the primary instead (an overflow; the thesis leaves scratch-full handling open).
//  - Switch (a remap at consolidation, §3.5.4): the new live copy is made consistent with the
//    old one before it serves: to the primary, every dirty extent of the old replica is written
//    back; to a replica, what the old replica holds at the latest version (its dirty extents and
//    the ones it learned from misses) is copied in, and extents the new one holds at
//    an older version are refreshed from the primary if the primary was live (spinning), or
//    dropped otherwise (a later read misses). Leaving a live primary, the extents written on it
//    since the unit last left it are copied into the new replica too (the go-to-sync of
//    §3.5.4: recently written data is part of the working set, Fig 3.2 (iii)). Each copy is a
//    read and a write of sync I/O.
// Invariant (checked by CheckConsistent): every extent's latest version is on the unit's live
// copy or, where that copy does not hold it, on the primary.
#ifndef FAWNLAB_SRCMAP_REPLICA_MANAGER_H_
#define FAWNLAB_SRCMAP_REPLICA_MANAGER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "srcmap/flat_map.h"

namespace fawnlab::srcmap {

struct Io {
  int disk = 0;
  uint64_t offset = 0;
  uint32_t bytes = 0;
  bool write = false;
};

class ReplicaManager {
 public:
  // Volume v's primary is mdisk v, its data at bytes [0, volume_bytes[v]).
  ReplicaManager(std::vector<uint64_t> volume_bytes, uint32_t extent_bytes, int n_sv);

  int num_volumes() const { return static_cast<int>(volume_bytes_.size()); }
  int num_units() const { return num_volumes() * n_sv_; }
  int n_sv() const { return n_sv_; }
  int UnitOf(int v, uint64_t extent) const;
  int VdiskOf(int unit) const { return unit / n_sv_; }
  uint64_t extents(int v) const { return extents_[static_cast<size_t>(v)]; }

  // A replica of `unit` on mdisk `disk` from byte `base`, room for `capacity` extents, holding
  // `initial` (clean, at the primary's version). `full`: a whole copy (holds every extent;
  // capacity ignored). Returns its id.
  int AddReplica(int unit, int disk, uint64_t base, uint64_t capacity, const std::vector<uint64_t>& initial,
                 bool full = false);
  // The replica of `unit` on `disk`, or -1.
  int ReplicaOn(int unit, int disk) const;
  int replica_disk(int r) const { return reps_[static_cast<size_t>(r)].disk; }
  int live(int unit) const { return live_[static_cast<size_t>(unit)]; }  // -1: the primary
  int ServingDisk(int unit) const { return live(unit) < 0 ? VdiskOf(unit) : replica_disk(live(unit)); }

  // Makes `to` (-1: the primary) unit's live copy, appending the sync I/Os in order.
  void Switch(int unit, int to, std::vector<Io>* sync);

  struct ReadResult {
    Io serve;
    bool miss = false;
    bool copy_in = false;
    Io copy;           // the copy into the live replica, after `serve` completes
    uint32_t version;  // the version the read returns
  };
  ReadResult Read(int v, uint64_t extent, uint32_t inner, uint32_t bytes);
  struct WriteResult {
    Io serve;
    bool overflow = false;
    uint32_t version;
  };
  WriteResult Write(int v, uint64_t extent, uint32_t inner, uint32_t bytes);

  uint32_t Latest(int v, uint64_t e) const {
    const Versions* x = Ver(v, e);
    return x ? x->latest : 0;
  }
  uint32_t PrimaryVersion(int v, uint64_t e) const {
    const Versions* x = Ver(v, e);
    return x ? x->primary : 0;
  }
  // Every written extent's latest version readable where the map says; "" or the first problem.
  std::string CheckConsistent() const;

  struct Counters {
    uint64_t misses = 0, copy_ins = 0, evictions = 0, overflows = 0, sync_copies = 0, dropped = 0;
  };
  const Counters& counters() const { return counters_; }
  // Extents replica `r` holds now (for views and tests).
  size_t held(int r) const;
  // The version of extent `e` replica `r` holds, or -1 (for views and tests).
  int64_t HeldVersion(int r, uint64_t e) const { return Held(reps_[static_cast<size_t>(r)], e); }
  // Volume v's extents whose latest version is newer than the primary's (dirty in a replica).
  size_t DirtyExtents(int v) const;

 private:
  struct Replica {
    int unit, disk;
    uint64_t base, capacity;
    bool full;
    FlatMap<uint32_t> slot_of;  // extent -> slot (partial)
    std::vector<uint64_t> ext;
    std::vector<uint32_t> ver;
    std::vector<uint32_t> prev, next;  // LRU list over slots; head = most recent
    std::vector<uint32_t> free;
    uint32_t head = kNil, tail = kNil;
    FlatMap<uint32_t> full_ver;  // full copy: extent -> version (absent: 0)
  };
  static constexpr uint32_t kNil = UINT32_MAX;
  struct Versions {
    uint32_t latest = 0, primary = 0;
    bool recent = false;  // written while the primary was live, since the unit last left it
  };
  static uint32_t Get(const FlatMap<uint32_t>& m, uint64_t e) {
    const uint32_t* x = m.Find(e);
    return x ? *x : 0;
  }
  const Versions* Ver(int v, uint64_t e) const { return vers_[static_cast<size_t>(v)].Find(e); }
  // Version replica r holds of e, or -1 when it holds none.
  int64_t Held(const Replica& r, uint64_t e) const;
  uint64_t SlotOffset(const Replica& r, uint64_t e) const;
  // Stores version `ver` of e in r (inserting, evicting a clean LRU extent if needed); false
  // when r is full of dirty extents.
  bool Put(Replica& r, int v, uint64_t e, uint32_t ver);
  void Drop(Replica& r, uint64_t e);
  void Touch(Replica& r, uint32_t slot);
  void Unlink(Replica& r, uint32_t slot);
  void PushFront(Replica& r, uint32_t slot);
  Io PrimaryIo(int v, uint64_t e, uint32_t inner, uint32_t bytes, bool write) const {
    return Io{v, e * extent_bytes_ + inner, bytes, write};
  }

  std::vector<uint64_t> volume_bytes_, extents_;
  uint32_t extent_bytes_;
  int n_sv_;
  std::vector<int> live_;
  std::vector<std::vector<int>> reps_of_unit_;
  std::vector<Replica> reps_;
  std::vector<FlatMap<Versions>> vers_;                // per vdisk: extent -> versions (absent: 0, 0)
  std::vector<std::vector<uint64_t>> recent_;         // per unit: extents written on the live primary
  Counters counters_;
};

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_REPLICA_MANAGER_H_
