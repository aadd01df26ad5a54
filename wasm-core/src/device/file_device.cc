#include "device/file_device.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace fawnlab::device {

StatusOr<std::unique_ptr<FileDevice>> FileDevice::Open(sim::Simulator* sim, const std::string& path,
                                                       uint64_t capacity_bytes, sim::SimDuration latency_ns) {
  if (capacity_bytes == 0) return Status::InvalidArgument("file device: capacity must be positive");
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0) return Status::Unavailable("file device: open('" + path + "') failed: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || (static_cast<uint64_t>(st.st_size) < capacity_bytes &&
                                ::ftruncate(fd, static_cast<off_t>(capacity_bytes)) != 0)) {
    std::string err = std::strerror(errno);
    ::close(fd);
    return Status::Unavailable("file device: cannot size '" + path + "' to " + std::to_string(capacity_bytes) +
                               " bytes: " + err);
  }
  return std::unique_ptr<FileDevice>(new FileDevice(sim, path, fd, capacity_bytes, latency_ns));
}

FileDevice::FileDevice(sim::Simulator* sim, std::string path, int fd, uint64_t capacity, sim::SimDuration latency)
    : Device(sim, DeviceInfo{"file", "file", capacity, 4096}), path_(std::move(path)), fd_(fd), latency_ns_(latency) {}

FileDevice::~FileDevice() { ::close(fd_); }

bool FileDevice::ReadAt(uint64_t offset, uint64_t length, uint8_t* out) const {
  while (length > 0) {
    ssize_t n = ::pread(fd_, out, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      last_error_ = "pread('" + path_ + "'): " + std::strerror(errno);
      return false;
    }
    if (n == 0) {  // beyond the end: zeros
      std::memset(out, 0, length);
      return true;
    }
    offset += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
    out += n;
  }
  return true;
}

bool FileDevice::WriteAt(uint64_t offset, uint64_t length, const uint8_t* data) {
  while (length > 0) {
    ssize_t n = ::pwrite(fd_, data, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      last_error_ = "pwrite('" + path_ + "'): " + std::strerror(errno);
      return false;
    }
    offset += static_cast<uint64_t>(n);
    length -= static_cast<uint64_t>(n);
    data += n;
  }
  return true;
}

void FileDevice::Peek(uint64_t offset, uint64_t length, uint8_t* out) const { ReadAt(offset, length, out); }
void FileDevice::Poke(uint64_t offset, uint64_t length, const uint8_t* data) { WriteAt(offset, length, data); }

void FileDevice::Start(const IoCommand& cmd, uint64_t id) {
  for (const IoEntry& e : cmd.entries) {
    switch (e.op) {
      case IoOp::kRead: ReadAt(e.offset, e.length, e.read_buf); counters_.media_read_bytes += e.length; break;
      case IoOp::kWrite: WriteAt(e.offset, e.length, e.write_buf); counters_.media_write_bytes += e.length; break;
      case IoOp::kTrim:
      case IoOp::kErase: {
        std::vector<uint8_t> zeros(e.length, 0);
        WriteAt(e.offset, e.length, zeros.data());
        break;
      }
      case IoOp::kFlush:
        if (::fsync(fd_) != 0) last_error_ = "fsync('" + path_ + "'): " + std::strerror(errno);
        ++fsyncs_;
        break;
    }
  }
  Complete(id, sim_->now() + latency_ns_);
}

}  // namespace fawnlab::device
