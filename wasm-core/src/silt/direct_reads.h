// DirectReads: SILT's file I/O rules for lookups (its FileStore, file_store.{h,cc}): a lookup's
// read bypasses the operating system's page cache (O_DIRECT, whole 512-byte sectors) unless the
// store has written that part of the file since it last synced it (then a buffered read sees
// the newest bytes), and goes through a small private cache of 128 direct-mapped sectors first.
// This class keeps the bookkeeping: which pages are dirty (written since the last completed
// sync that covered them: SILT tracks 1 MB chunks per file; the lab's files are small and share
// one region, so it tracks 4 KB pages, which no two files share), and the sector cache (a write
// invalidates the sectors it touches). The store does the I/O.
#ifndef FAWNLAB_SILT_DIRECT_READS_H_
#define FAWNLAB_SILT_DIRECT_READS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fawnlab::silt {

class DirectReads {
 public:
  static constexpr uint64_t kSector = 512;        // SILT's page_size_ for direct I/O
  static constexpr size_t kCacheSectors = 128;    // SILT's cache_size_
  static constexpr uint64_t kTrackBytes = 4096;   // dirty tracking granularity (see above)

  DirectReads() = default;
  DirectReads(uint64_t region_offset, uint64_t region_bytes);

  // A write of [off, off+len): its pages are dirty, its cached sectors invalid.
  void Written(uint64_t off, uint64_t len);
  // A sync starts: returns its mark. SyncDone(mark): pages written before it are clean.
  uint64_t BeginSync() { return seq_; }
  void SyncDone(uint64_t mark);
  // No page of [off, off+len) is dirty: a direct read sees the newest bytes.
  bool Clean(uint64_t off, uint64_t len) const;
  // The whole sectors covering [off, off+len).
  static void Sectors(uint64_t off, uint64_t len, uint64_t* s_off, uint64_t* s_len);
  // Copies [off, off+len) from the cache if every sector is there.
  bool Lookup(uint64_t off, uint64_t len, uint8_t* out) const;
  // Caches the sectors read at s_off (s_len a multiple of kSector) by a read issued when the
  // write count was `issued` (BeginSync's mark then): sectors written since are left out.
  void Fill(uint64_t s_off, uint64_t s_len, const uint8_t* data, uint64_t issued);
  uint64_t dirty_pages() const;

 private:
  struct Sector {
    bool valid = false;
    uint64_t offset = 0;
    std::array<uint8_t, kSector> data{};
  };
  uint64_t base_ = 0;
  std::vector<uint64_t> written_at_;  // per page: the write's sequence number, 0 = clean
  uint64_t seq_ = 0;
  std::vector<Sector> cache_;
};

}  // namespace fawnlab::silt

#endif  // FAWNLAB_SILT_DIRECT_READS_H_
