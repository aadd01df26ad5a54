// Threads issuing vectors of random 512 B reads on an NVM device, each completion costing the
// host `host_us` on the earliest free of `cores` cores before the thread issues again (vector
// thesis §7.3). Shared by devices.nvm-latency and the Vector I/O lab's vector.latency-width.
// Thread i uses stream i (DMA channel i mod channels). Deterministic given the seed.
#ifndef FAWNLAB_DEVICELAB_NVM_THREADS_H_
#define FAWNLAB_DEVICELAB_NVM_THREADS_H_

#include <cstdint>

#include "device/nvm.h"

namespace fawnlab::nvmlab {

struct Point {
  double iops;
  double mean_latency_us;  // device latency per command
};

// Runs `threads` synchronous issuers of width-`w` vectors until `ops` entries complete.
Point RunThreads(const device::NvmConfig& cfg, int threads, int w, int cores, double host_us, uint64_t ops,
                 uint64_t seed);

}  // namespace fawnlab::nvmlab

#endif  // FAWNLAB_DEVICELAB_NVM_THREADS_H_
