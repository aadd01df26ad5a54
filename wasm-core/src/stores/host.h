// Host: the computers the Stores lab runs a store on, for speed (cpu_scale multiplies every
// CPU cost a store charges; 1.0 = the CONA thesis' i7-3610QM, cona/costs.h) and for energy
// (idle watts all the time, plus core_busy_watts per core while it works).
//
//   "laptop"  the CONA thesis' machine (§3.2): Intel Core i7-3610QM, 4 cores, 8 GB DDR3.
//   "fawn"    a FAWN-KV back-end (FAWN SOSP'09 §4): AMD Geode LX 500 MHz, 1 core, 256 MB.
//   "server"  the FAWN thesis' JouleSort machine (Ch. 5): Intel Xeon L3426, 4 cores, 12 GB.
//
// Every constant's source is in host.cc and in `source` (shown with a result); "chosen"
// marks what no paper or spec sheet gives. FindHost errors name the known hosts.
#ifndef FAWNLAB_STORES_HOST_H_
#define FAWNLAB_STORES_HOST_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace fawnlab::stores {

struct Host {
  std::string id, label;
  double cpu_scale;        // CPU time of the same work, relative to the i7-3610QM
  int cores;
  double idle_watts;       // the whole host, idle (the storage device's own power is the device's)
  double core_busy_watts;  // added per core while it runs store work
  uint64_t dram_bytes;
  std::string source;
  // Added by H1 (issue 17): DRAM the OS and other processes keep (not the page cache's).
  uint64_t os_bytes = 0;
  // Added by H1: the memory copy of a page-cache hit, ns per KB (device::PageCache's hit_ns_per_kb).
  double copy_ns_per_kb = 250;
};

const std::vector<Host>& Hosts();  // laptop, fawn, server (in that order)
StatusOr<Host> FindHost(std::string_view id);

// The FAWN node's cpu_scale, derived (not typed): the Geode's fitted cost of one in-memory
// FAWN-DS get of a 256 B record (fawnds/host_cpu.h, FAWN Table 2) over the i7 model's cost of
// the same steps in cona/costs.h terms (host.cc says which). ~50.
double GeodeCpuScale();

}  // namespace fawnlab::stores

#endif  // FAWNLAB_STORES_HOST_H_
