// The Stores lab's benchmarks (issue 17), native (`fawnlab_bench --suite stores`):
//   StoresLsmCheck   the lab's LSM against real LevelDB: the same YCSB load (records 0..n-1,
//                    ycsb::KeyFor 20 B keys, ValueFor 200 B values, in load order) into LevelDB
//                    1.23 (Debian's libleveldb-dev) on a real file, default options but
//                    compression off and a 10-bit Bloom filter (as the lab's LSM), every byte it
//                    appends to its files counted through an Env wrapper (logs, tables,
//                    manifest), per-level sizes from "leveldb.sstables" once its compactions
//                    have settled (every level under LevelDB's own score of 1); and into the
//                    lab's LSM at size_scale 1.0 (LevelDB's sizes) on the lab's emulated machine
//                    at full scale (the M500 behind a write-back page cache), drained likewise.
//                    Write amplification = bytes written / user bytes (key + value) for both;
//                    the check passes when the lab's is within 25% of LevelDB's (a failed
//                    check is a figure with failures = 1, so `npm run bench` fails).
//   StoresConaVsLevelDb  CONA (cona::Store) on a real file (device::FileDevice: pread/pwrite/
//                    fsync) against real LevelDB (default options) under YCSB A, B, C, D, F:
//                    load n records, then `ops` operations of each workload on the same store,
//                    one client, every read checked against the version it must see. Wall
//                    clock ops/s: for CONA, its real C++ work (buffers, tries, merges) and its
//                    real file I/O, with the simulator that sequences it (virtual time is not
//                    waited for: the CPU costs it models are not slept); for LevelDB, its own
//                    work and I/O. DRAM per key: CONA's dram_bytes; LevelDB's approximate-
//                    memory-usage (memtables and block cache) plus its tables' index and
//                    filter blocks (read from the files' footers).
//   StoresSimSpeed   every built store of the lab (stores::StoreKinds) on the lab's machine
//                    (stores::Machine at its defaults): a load and a YCSB A run through
//                    stores::RunYcsb, in emulated operations per wall second. The WASM build
//                    runs the same through bindings/bench_bindings.cc.
#ifndef FAWNLAB_BENCH_STORES_BENCH_H_
#define FAWNLAB_BENCH_STORES_BENCH_H_

#include <cstdint>
#include <vector>

#include "bench/kernel_bench.h"

namespace fawnlab::bench {

std::vector<BenchFigure> StoresLsmCheck(uint64_t records);
std::vector<BenchFigure> StoresConaVsLevelDb(uint64_t records, uint64_t ops);
std::vector<BenchFigure> StoresSimSpeed(uint64_t records, uint64_t ops);

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_STORES_BENCH_H_
