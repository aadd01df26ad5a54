// FileDevice: a device backed by a real file (pread, pwrite, fsync), for the server's
// cluster mode where each node's store must survive the process.
//
// Capacity is fixed at open; the file is extended to it (sparse). Timing is a fixed
// `latency_ns` per command (the file system's real time is not virtual and is not
// modelled); flush calls fsync. Errors from the operating system come back from Open or
// abort the command's data effects with a message naming the file and the call.
#ifndef FAWNLAB_DEVICE_FILE_DEVICE_H_
#define FAWNLAB_DEVICE_FILE_DEVICE_H_

#include <memory>
#include <string>

#include "device/device.h"

namespace fawnlab::device {

class FileDevice : public Device {
 public:
  static StatusOr<std::unique_ptr<FileDevice>> Open(sim::Simulator* sim, const std::string& path,
                                                    uint64_t capacity_bytes, sim::SimDuration latency_ns = 0);
  ~FileDevice() override;

  void Peek(uint64_t offset, uint64_t length, uint8_t* out) const override;
  void Poke(uint64_t offset, uint64_t length, const uint8_t* data) override;
  double Joules() const override { return 0; }
  // The last operating-system error, or "" (data effects that failed are reported here).
  const std::string& last_error() const { return last_error_; }
  uint64_t fsyncs() const { return fsyncs_; }

 protected:
  void Start(const IoCommand& cmd, uint64_t id) override;

 private:
  FileDevice(sim::Simulator* sim, std::string path, int fd, uint64_t capacity, sim::SimDuration latency);
  bool ReadAt(uint64_t offset, uint64_t length, uint8_t* out) const;
  bool WriteAt(uint64_t offset, uint64_t length, const uint8_t* data);

  std::string path_;
  int fd_;
  sim::SimDuration latency_ns_;
  mutable std::string last_error_;
  uint64_t fsyncs_ = 0;
};

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_FILE_DEVICE_H_
