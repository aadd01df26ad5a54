// PageImage: the bytes of one fixed-size page, stored compactly; ByteStore: a sparse byte
// array of such pages.
//
// A page is all zeros, one 64-bit word repeated (the "same-filled page" that Linux's zram
// also stores as a single word), or arbitrary bytes. The compact forms are exact: reading a
// page returns precisely the bytes written. Experiments that fill gigabytes write patterned
// pages so that an emulated device of realistic size fits in a browser tab; a store's real
// payloads (FAWN-DS records) are kept byte for byte.
//
// ByteStore backs the devices without a translation layer (disk, NVM): any byte range can be
// read, written or zeroed; untouched bytes read as zero. Deterministic; single-threaded.
#ifndef FAWNLAB_DEVICE_PAGE_IMAGE_H_
#define FAWNLAB_DEVICE_PAGE_IMAGE_H_

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace fawnlab::device {

class PageImage {
 public:
  PageImage() = default;  // all zeros
  // A moved-from image is the zero page.
  PageImage(PageImage&& o) noexcept : word_(o.word_), heap_(o.heap_), bytes_(std::move(o.bytes_)) {
    o.word_ = 0;
    o.heap_ = 0;
  }
  PageImage& operator=(PageImage&& o) noexcept {
    word_ = o.word_;
    heap_ = o.heap_;
    bytes_ = std::move(o.bytes_);
    o.word_ = 0;
    o.heap_ = 0;
    return *this;
  }

  // The image of `page_bytes` bytes at `p`. REQUIRES: page_bytes % 8 == 0.
  static PageImage FromBytes(const uint8_t* p, uint32_t page_bytes);
  // A page holding `word` (little-endian) repeated.
  static PageImage Uniform(uint64_t word);

  // Copies bytes [offset, offset + len) of the page into `out`.
  void CopyTo(uint8_t* out, uint32_t offset, uint32_t len) const;
  // Replaces bytes [offset, offset + len) with `data`. REQUIRES: offset + len <= page_bytes.
  void Overwrite(uint32_t page_bytes, uint32_t offset, const uint8_t* data, uint32_t len);
  PageImage Clone(uint32_t page_bytes) const;

  bool is_zero() const { return !bytes_ && word_ == 0; }
  bool is_uniform() const { return !bytes_; }
  // Heap bytes this image holds (0 for the compact forms).
  uint32_t heap_bytes() const { return heap_; }

 private:
  uint64_t word_ = 0;
  uint32_t heap_ = 0;
  std::unique_ptr<uint8_t[]> bytes_;
};

class ByteStore {
 public:
  static constexpr uint32_t kChunk = 4096;
  void Read(uint64_t offset, uint64_t len, uint8_t* out) const;
  void Write(uint64_t offset, uint64_t len, const uint8_t* data);
  void Zero(uint64_t offset, uint64_t len);
  uint64_t heap_bytes() const { return heap_; }

 private:
  std::unordered_map<uint64_t, PageImage> chunks_;
  uint64_t heap_ = 0;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_PAGE_IMAGE_H_
