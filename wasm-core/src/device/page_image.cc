#include "device/page_image.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace fawnlab::device {

PageImage PageImage::FromBytes(const uint8_t* p, uint32_t page_bytes) {
  assert(page_bytes % 8 == 0 && page_bytes > 0);
  PageImage img;
  uint64_t first;
  std::memcpy(&first, p, 8);
  bool uniform = true;
  for (uint32_t i = 8; i < page_bytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w != first) {
      uniform = false;
      break;
    }
  }
  if (uniform) {
    img.word_ = first;
    return img;
  }
  img.bytes_.reset(new uint8_t[page_bytes]);
  std::memcpy(img.bytes_.get(), p, page_bytes);
  img.heap_ = page_bytes;
  return img;
}

PageImage PageImage::Uniform(uint64_t word) {
  PageImage img;
  img.word_ = word;
  return img;
}

void PageImage::CopyTo(uint8_t* out, uint32_t offset, uint32_t len) const {
  if (bytes_) {
    std::memcpy(out, bytes_.get() + offset, len);
    return;
  }
  if (word_ == 0) {
    std::memset(out, 0, len);
    return;
  }
  // The word repeated, rotated to start at `offset`, copied 8 bytes at a time.
  uint8_t w[16];
  std::memcpy(w, &word_, 8);
  std::memcpy(w + 8, &word_, 8);
  const uint8_t* pattern = w + (offset & 7);
  uint32_t i = 0;
  for (; i + 8 <= len; i += 8) std::memcpy(out + i, pattern, 8);
  for (; i < len; ++i) out[i] = pattern[i & 7];
}

void PageImage::Overwrite(uint32_t page_bytes, uint32_t offset, const uint8_t* data, uint32_t len) {
  assert(offset + len <= page_bytes);
  if (offset == 0 && len == page_bytes) {
    *this = FromBytes(data, page_bytes);
    return;
  }
  if (!bytes_) {
    std::unique_ptr<uint8_t[]> b(new uint8_t[page_bytes]);
    CopyTo(b.get(), 0, page_bytes);
    bytes_ = std::move(b);
    heap_ = page_bytes;
  }
  std::memcpy(bytes_.get() + offset, data, len);
  // Collapse back to the compact form when the result is uniform.
  PageImage compact = FromBytes(bytes_.get(), page_bytes);
  if (compact.is_uniform()) *this = std::move(compact);
}

PageImage PageImage::Clone(uint32_t page_bytes) const {
  PageImage img;
  img.word_ = word_;
  if (bytes_) {
    img.bytes_.reset(new uint8_t[page_bytes]);
    std::memcpy(img.bytes_.get(), bytes_.get(), page_bytes);
    img.heap_ = page_bytes;
  }
  return img;
}

void ByteStore::Read(uint64_t offset, uint64_t len, uint8_t* out) const {
  while (len > 0) {
    uint64_t chunk = offset / kChunk;
    uint32_t in = static_cast<uint32_t>(offset % kChunk);
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(len, kChunk - in));
    auto it = chunks_.find(chunk);
    if (it == chunks_.end()) {
      std::memset(out, 0, n);
    } else {
      it->second.CopyTo(out, in, n);
    }
    offset += n;
    len -= n;
    out += n;
  }
}

void ByteStore::Write(uint64_t offset, uint64_t len, const uint8_t* data) {
  while (len > 0) {
    uint64_t chunk = offset / kChunk;
    uint32_t in = static_cast<uint32_t>(offset % kChunk);
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(len, kChunk - in));
    PageImage& img = chunks_[chunk];
    heap_ -= img.heap_bytes();
    img.Overwrite(kChunk, in, data, n);
    heap_ += img.heap_bytes();
    if (img.is_zero()) chunks_.erase(chunk);
    offset += n;
    len -= n;
    data += n;
  }
}

void ByteStore::Zero(uint64_t offset, uint64_t len) {
  static const uint8_t kZeros[kChunk] = {};
  while (len > 0) {
    uint32_t in = static_cast<uint32_t>(offset % kChunk);
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(len, kChunk - in));
    Write(offset, n, kZeros);
    offset += n;
    len -= n;
  }
}

}  // namespace fawnlab::device
