// YCSB's request-distribution generators, as YCSB 0.1.4 computes them (the release the CONA
// thesis ran): ZipfianGenerator (Gray et al., "Quickly Generating Billion-Record Synthetic
// Databases", SIGMOD'94), ScrambledZipfianGenerator (a zipfian over YCSB's ITEM_COUNT = 10^10
// items with its precomputed ZETAN, FNV-hashed onto the record range), SkewedLatestGenerator
// (a zipfian counted back from the newest record) and FnvHash64 (YCSB's Utils.FNVhash64).
//
// Deterministic: every draw takes its uniform from the sim::Rng given and its powers from
// sim/det_math.h, so a seed gives the same sequence natively and in WebAssembly. Not the same
// draws as Java YCSB (another RNG); the same distributions.
#ifndef FAWNLAB_YCSB_ZIPFIAN_H_
#define FAWNLAB_YCSB_ZIPFIAN_H_

#include <cstdint>

#include "sim/rng.h"

namespace fawnlab::ycsb {

constexpr double kZipfianConstant = 0.99;             // YCSB's ZIPFIAN_CONSTANT
constexpr uint64_t kScrambledItemCount = 10000000000;  // YCSB 0.1.4 ScrambledZipfianGenerator.ITEM_COUNT
constexpr double kScrambledZetan = 26.46902820178302;  // its ZETAN: zeta(10^10, 0.99)

// YCSB's FNVhash64: FNV-1a over the value's 8 bytes, low byte first, then Java's Math.abs.
uint64_t FnvHash64(uint64_t v);

// sum_{i=st}^{n-1} 1/(i+1)^theta added to `initial` (YCSB's zetastatic).
double Zeta(uint64_t st, uint64_t n, double theta, double initial);

// Items min..max inclusive, min the most popular. Next(rng, itemcount) may grow the item
// count (zeta extended incrementally, as YCSB does; eta keeps YCSB's original item count).
class Zipfian {
 public:
  // zetan < 0: computed (O(items) det::Pow calls).
  Zipfian(uint64_t min, uint64_t max, double theta = kZipfianConstant, double zetan = -1);
  uint64_t Next(sim::Rng& rng);
  uint64_t Next(sim::Rng& rng, uint64_t itemcount);
  uint64_t items() const { return items_; }
  double zetan() const { return zetan_; }

 private:
  uint64_t items_, base_;
  double theta_, zeta2theta_, alpha_, zetan_, eta_;
  uint64_t countforzeta_;
};

// Items min..max inclusive, popularity scattered by FnvHash64.
class ScrambledZipfian {
 public:
  ScrambledZipfian(uint64_t min, uint64_t max);
  uint64_t Next(sim::Rng& rng);
  uint64_t itemcount() const { return itemcount_; }

 private:
  uint64_t min_, itemcount_;
  Zipfian gen_;
};

// The newest record (`last`) is the most popular, then last-1, ...: last - zipfian(last).
class SkewedLatest {
 public:
  explicit SkewedLatest(uint64_t last);  // the newest record number at construction
  uint64_t Next(sim::Rng& rng, uint64_t last);

 private:
  Zipfian zipf_;
};

}  // namespace fawnlab::ycsb

#endif  // FAWNLAB_YCSB_ZIPFIAN_H_
