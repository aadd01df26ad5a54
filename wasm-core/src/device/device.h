// Device: the one interface every emulated storage device implements (flash behind an FTL,
// disk, NVM, and the wrappers: page cache, fault injector), and the file-backed device.
//
// A command is one I/O or a vector of independent I/Os over byte ranges: read, write, trim
// (the range's contents are discarded and read back as zeros), erase (the range is zeroed;
// flash discards it, other devices write zeros) and flush (everything acknowledged so far is
// durable). Submit() validates the whole command first: an empty vector, a zero length, a
// range beyond the capacity or a missing buffer is an error that names the entry and the
// problem, and then nothing happens. A valid command takes effect at once, in submission
// order — reads copy out the bytes the device stores, writes store them — and completes once,
// after its last entry, at the virtual time the device's timing model gives, through a
// closure on the simulator's queue. Buffers are only touched inside Submit().
//
// Counters (host and media bytes, write amplification, erases, collector moves and stalls,
// queue depth) and energy in joules are kept by every device. Peek/Poke read and write
// bytes without timing or counters: for tests, views and the fault injector's undo.
//
// Single-threaded; deterministic given the order of calls.
#ifndef FAWNLAB_DEVICE_DEVICE_H_
#define FAWNLAB_DEVICE_DEVICE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "sim/simulator.h"
#include "sim/time.h"

namespace fawnlab::device {

enum class IoOp : uint8_t { kRead, kWrite, kTrim, kErase, kFlush };
const char* IoOpName(IoOp op);

struct IoEntry {
  IoOp op = IoOp::kRead;
  uint64_t offset = 0;
  uint64_t length = 0;
  uint8_t* read_buf = nullptr;         // kRead: receives `length` bytes during Submit()
  const uint8_t* write_buf = nullptr;  // kWrite: `length` bytes, read during Submit()

  static IoEntry Read(uint64_t offset, uint64_t length, uint8_t* out) { return {IoOp::kRead, offset, length, out, nullptr}; }
  static IoEntry Write(uint64_t offset, uint64_t length, const uint8_t* data) {
    return {IoOp::kWrite, offset, length, nullptr, data};
  }
  static IoEntry Trim(uint64_t offset, uint64_t length) { return {IoOp::kTrim, offset, length, nullptr, nullptr}; }
  static IoEntry Erase(uint64_t offset, uint64_t length) { return {IoOp::kErase, offset, length, nullptr, nullptr}; }
  static IoEntry Flush() { return {IoOp::kFlush, 0, 0, nullptr, nullptr}; }
};

struct IoCommand {
  std::vector<IoEntry> entries;
  int stream = 0;  // the submitting thread or queue; NVM binds stream i to DMA channel i mod 4

  static IoCommand Single(IoEntry e, int stream = 0) { return IoCommand{{e}, stream}; }
};

struct IoCompletion {
  uint64_t id;
  sim::SimTime submitted;
  sim::SimTime completed;
  sim::SimDuration latency() const { return completed - submitted; }
};
using CompletionFn = std::function<void(const IoCompletion&)>;

struct DeviceInfo {
  std::string profile;      // "intel-x25m"
  std::string kind;         // "flash", "disk", "nvm", "file", "page-cache", "fault-injector"
  uint64_t capacity_bytes = 0;
  uint32_t unit_bytes = 512;  // the natural I/O unit (flash page, sector)
};

struct DeviceCounters {
  uint64_t commands = 0;
  uint64_t reads = 0, writes = 0, trims = 0, erases_requested = 0, flushes = 0;
  uint64_t host_read_bytes = 0, host_write_bytes = 0;
  uint64_t media_read_bytes = 0, media_write_bytes = 0;
  uint64_t erases = 0;       // erase blocks erased (flash)
  uint64_t gc_moves = 0;     // pages copied by the collector or by merges
  uint64_t gc_stalls = 0;    // host commands that waited behind collector or erase work
  sim::SimDuration gc_stall_ns = 0;
  int queue_depth = 0, max_queue_depth = 0;

  // Media bytes programmed per host byte written (0 before any write).
  double write_amplification() const {
    return host_write_bytes ? static_cast<double>(media_write_bytes) / static_cast<double>(host_write_bytes) : 0;
  }
};

constexpr size_t kMaxVectorEntries = 4096;

class Device {
 public:
  Device(sim::Simulator* sim, DeviceInfo info);
  virtual ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Validates `cmd`; if valid, applies it and schedules `done` (may be null). Returns the
  // validation error otherwise, or the device's refusal (a crashed device: kUnavailable).
  Status Submit(const IoCommand& cmd, CompletionFn done);
  // The id the next accepted command gets (ids count from 1).
  uint64_t next_id() const { return next_id_; }

  // Backdoor access without timing or counters. REQUIRES: the range is within capacity.
  virtual void Peek(uint64_t offset, uint64_t length, uint8_t* out) const = 0;
  virtual void Poke(uint64_t offset, uint64_t length, const uint8_t* data) = 0;

  // Joules consumed from the device's creation until the simulator's now().
  virtual double Joules() const = 0;

  const DeviceInfo& info() const { return info_; }
  const DeviceCounters& counters() const { return counters_; }
  sim::Simulator* sim() const { return sim_; }

  // Whether the device takes commands at all (a crashed device does not). No side effects;
  // wrappers forward it.
  virtual Status Available() const { return Status::Ok(); }
  // Checks one command against this device's capacity; used by Submit and the wrappers.
  Status Validate(const IoCommand& cmd) const;

 protected:
  // Applies an already validated command `id` and arranges for Complete(id, t) to be called,
  // now or from a later event. Implementations update the media counters; the host counters
  // and queue depth are kept here.
  virtual void Start(const IoCommand& cmd, uint64_t id) = 0;
  // Schedules command `id`'s completion at `time` (>= now).
  void Complete(uint64_t id, sim::SimTime time);
  // Forgets every command in flight: their completions will never be delivered (a crash).
  void AbandonAll();
  // Called by Submit for each valid command before Start; may refuse it (the fault injector
  // counts commands here and crashes on the planned one). Default: Ok.
  virtual Status Admit(const IoCommand& cmd) { return Status::Ok(); }

  DeviceCounters counters_;
  sim::Simulator* sim_;

 private:
  struct Pending {
    CompletionFn done;
    sim::SimTime submitted;
  };
  DeviceInfo info_;
  uint64_t next_id_ = 1;
  std::unordered_map<uint64_t, Pending> pending_;
};

// Convenience for experiments and tests: submits `cmd` and runs the simulator until it
// completes (other events run meanwhile). Returns the completion, or the submit error.
StatusOr<IoCompletion> SubmitAndWait(Device* device, const IoCommand& cmd, uint64_t max_events = 100000000);

}  // namespace fawnlab::device

#endif  // FAWNLAB_DEVICE_DEVICE_H_
